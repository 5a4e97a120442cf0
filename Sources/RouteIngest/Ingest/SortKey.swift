/// A sample's place in `SpillingSampleSorter`'s sort: the order's first field as bits that sort
/// as the number does (`orderedBits`), and where the sample is in the buffer (the byte offset of
/// its record, which grows with the order appended).
struct SortKey {
  var bits: UInt64
  var index: UInt32

  /// Bits whose unsigned order is the numeric order of a finite `value`, -0 equal to +0: unequal
  /// bits mean unequal numbers, in the same order.
  @inline(__always)
  static func orderedBits(_ value: Double) -> UInt64 {
    let bits = (value == 0 ? 0.0 : value).bitPattern
    return bits & (1 << 63) != 0 ? ~bits : bits | (1 << 63)
  }

  /// Sorts `keys` by `bits`, stably (equal bits keep their order), a byte at a time from the
  /// lowest; a byte every key shares (most of a timestamp's, within one buffer) costs no pass.
  ///
  /// - Complexity: O(*n*) per byte that varies, at most 8; `scratch` grows to `keys.count`.
  static func radixSort(_ keys: inout [SortKey], scratch: inout [SortKey]) {
    let count = keys.count
    guard count > 1 else { return }
    var histogram = [Int](repeating: 0, count: 8 * 256)
    histogram.withUnsafeMutableBufferPointer { counts in
      keys.withUnsafeBufferPointer { keys in
        for key in keys {
          var bits = key.bits
          for byte in 0..<8 {
            counts[byte &* 256 &+ Int(bits & 0xFF)] &+= 1
            bits >>= 8
          }
        }
      }
    }
    scratch.removeAll(keepingCapacity: true)
    scratch.append(contentsOf: keys)
    var offsets = [Int](repeating: 0, count: 256)
    for byte in 0..<8 {
      let shift = UInt64(byte * 8)
      let base = byte * 256
      if histogram[base + Int((keys[0].bits >> shift) & 0xFF)] == count { continue }
      var running = 0
      for digit in 0..<256 {
        offsets[digit] = running
        running += histogram[base + digit]
      }
      offsets.withUnsafeMutableBufferPointer { offsets in
        keys.withUnsafeBufferPointer { source in
          scratch.withUnsafeMutableBufferPointer { target in
            for key in source {
              let digit = Int((key.bits >> shift) & 0xFF)
              target[offsets[digit]] = key
              offsets[digit] &+= 1
            }
          }
        }
      }
      swap(&keys, &scratch)
    }
  }
}
