import Foundation
import RouteFeeds
import RouteTestSupport
import Testing

/// The content hash is SHA-256 bit for bit: stores keep it, and a re-import of the same file
/// must find the stored shift by it. So the digest is checked against the FIPS 180-4 examples,
/// against the system's `sha256sum`, and in every way a feed can be handed to it in chunks.
@Suite("ContentHash (SHA-256)")
struct ContentHashTests {
  static func digest(_ bytes: [UInt8]) -> String {
    var hash = ContentHash()
    hash.update(bytes)
    return hash.finalize()
  }

  /// The digest of `bytes` fed in consecutive chunks of the given sizes (cycled to the end).
  static func digest(_ bytes: [UInt8], chunks sizes: [Int]) -> String {
    var hash = ContentHash()
    bytes.withUnsafeBufferPointer { all in
      var start = 0
      var turn = 0
      while start < all.count {
        let end = min(all.count, start + sizes[turn % sizes.count])
        hash.update(UnsafeBufferPointer(rebasing: all[start..<end]))
        start = end
        turn += 1
      }
    }
    return hash.finalize()
  }

  static func randomBytes(_ count: Int, seed: UInt64) -> [UInt8] {
    var random = SeededRandom(seed: seed)
    return (0..<count).map { _ in UInt8(truncatingIfNeeded: random.next()) }
  }

  @Test("The FIPS 180-4 examples: empty, abc, the 448- and 896-bit messages, a million a")
  func standardVectors() {
    #expect(Self.digest([]) == "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855")
    #expect(Self.digest(Array("abc".utf8)) == "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad")
    #expect(
      Self.digest(Array("abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq".utf8))
        == "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1")
    let long =
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu"
    #expect(Self.digest(Array(long.utf8)) == "cf5b16a778af8380036ce59e7b0492370b249b11e8f07a51afac45037afee9d1")
    let million = [UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000)
    #expect(Self.digest(million) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0")
    // Fed a byte, then 63, then 1,000 at a time: the same digest.
    #expect(
      Self.digest(million, chunks: [1, 63, 1_000]) == "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0"
    )
  }

  /// Every length around the padding's edges (55, 56, 63, 64 bytes past a block) and some
  /// larger ones, against `sha256sum` over the same bytes written to files.
  @Test("Random data of every padding-edge length matches sha256sum")
  func matchesTheSystemTool() throws {
    let lengths = Array(0...130) + [191, 192, 193, 1_000, 4_095, 4_096, 65_537, 100_003]
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("contenthash-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    var expected: [String] = []
    var paths: [String] = []
    for length in lengths {
      let bytes = Self.randomBytes(length, seed: UInt64(length) + 17)
      let path = folder.appendingPathComponent("\(length).bin").path
      try Data(bytes).write(to: URL(fileURLWithPath: path))
      paths.append(path)
      expected.append(Self.digest(bytes))
    }
    #expect(try systemSHA256(of: paths) == expected)
  }

  @Test("Random data fed in chunks of every size 1–130, and in random splits, gives the one-shot digest")
  func chunkingNeverChangesTheDigest() {
    var random = SeededRandom(seed: 26)
    for length in [0, 1, 63, 64, 65, 127, 128, 129, 500, 3_000] {
      let bytes = Self.randomBytes(length, seed: UInt64(length) &* 31 &+ 5)
      let whole = Self.digest(bytes)
      for size in 1...130 {
        #expect(Self.digest(bytes, chunks: [size]) == whole, "\(length) bytes in chunks of \(size)")
      }
      for _ in 0..<20 {
        let sizes = (0..<1 + random.below(12)).map { _ in random.below(200) }
        #expect(Self.digest(bytes, chunks: sizes.map { max($0, 1) }) == whole, "\(length) bytes in chunks \(sizes)")
      }
      // Empty updates between the chunks change nothing.
      var hash = ContentHash()
      bytes.withUnsafeBufferPointer { all in
        for index in all.indices {
          hash.update(UnsafeBufferPointer(rebasing: all[index..<index]))
          hash.update(UnsafeBufferPointer(rebasing: all[index..<index + 1]))
        }
      }
      #expect(hash.finalize() == whole)
    }
  }

  @Test("finalize leaves the hash as it was: more bytes can follow, and asking twice gives the same")
  func finalizeDoesNotConsume() {
    let bytes = Self.randomBytes(200, seed: 9)
    var hash = ContentHash()
    bytes.withUnsafeBufferPointer { hash.update(UnsafeBufferPointer(rebasing: $0[0..<70])) }
    #expect(hash.finalize() == Self.digest(Array(bytes[0..<70])))
    #expect(hash.finalize() == Self.digest(Array(bytes[0..<70])))
    bytes.withUnsafeBufferPointer { hash.update(UnsafeBufferPointer(rebasing: $0[70...])) }
    #expect(hash.finalize() == Self.digest(bytes))
  }
}
