/// The zip (KMZ) layer's report reasons.
extension FeedReason {
  // Caveats on a feed read all the same (reported under `notes`).
  /// `.kml` entries after the KMZ's document, which alone is read (the first `.kml` entry is
  /// the document); counted only when the archive was walked to its central directory.
  public static let otherKMLDocuments = FeedReason("otherKMLDocuments")
}
