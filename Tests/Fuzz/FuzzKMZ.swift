// libFuzzer entry point for KMZ (zip around KML): the bytes as stored, opened as a zip when they
// start with a local header (ZipDocumentReader over the system zlib) and read as KML.
// Built by run-fuzzers.sh with FuzzSupport.swift and FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzKMZOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .kmz)
}
