import RouteMileage

/// How the readers' names are written in a sentence a person reads. The names themselves
/// (`FeedFormat.rawValue`, `FeedReason.rawValue`) stay as they are in JSON, where programs read
/// them.
extension FeedFormat {
  /// The format's own name, as its documentation spells it: `GPX`, `GeoJSON`, `OwnTracks`.
  public var displayName: String {
    switch self {
    case .gpx: "GPX"
    case .nmea: "NMEA"
    case .csv: "CSV"
    case .tcx: "TCX"
    case .kml: "KML"
    case .fit: "FIT"
    case .geojson: "GeoJSON"
    case .takeout: "Takeout"
    case .owntracks: "OwnTracks"
    }
  }

  /// Every format's name as `--input-format` takes it, in declaration order and as a sentence
  /// lists them: `gpx, nmea, csv, tcx, kml, fit, geojson, takeout or owntracks`.
  public static var rawValuesInWords: String { CSVHeaderReport.joinedWithOr(allCases.map(\.rawValue)) }

  /// What this format's reader passes over when it ignores something (the `ignored` count),
  /// in the singular: a line of a line format (NMEA, CSV, OwnTracks), an entry of a JSON
  /// document (Takeout, GeoJSON), an element of an XML one (GPX, TCX, KML), a message of FIT.
  /// Said in `2 other entries ignored.`; its plural follows the one rule
  /// (`MileageLocale.counted`).
  public var ignoredPart: String {
    switch self {
    case .nmea, .csv, .owntracks: "line"
    case .geojson, .takeout: "entry"
    case .gpx, .tcx, .kml: "element"
    case .fit: "message"
    }
  }
}

extension FeedReason {
  /// The reason in words for a sentence: `bad time`, `negligible movement`, `bad JSON`; an
  /// acronym written in lowercase in its name is spelled out (`crcMismatch` → `CRC mismatch`).
  ///
  /// - Complexity: O(*n*) in the length of the name.
  public var words: String {
    switch self {
    case .crcMismatch: "CRC mismatch"
    case .ais: "AIS sentence"
    default: NameWords.words(rawValue)
    }
  }
}
