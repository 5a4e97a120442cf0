// libFuzzer entry point for gzip input (DecompressingByteSource over the system zlib): the bytes
// as stored, decompressed and read as CSV (the reader that accepts any text). Built by
// run-fuzzers.sh with FuzzSupport.swift and FeedInvariants.swift.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGzipOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
  fuzzCheck(data, size, .gzip)
}
