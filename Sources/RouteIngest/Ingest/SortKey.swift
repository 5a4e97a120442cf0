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

  /// The widest digit a radix pass sorts by: 2,048 counters (16 KiB) and as many places written
  /// to at once, which the second-level cache holds.
  static let maximumDigitBits = 11

  /// Sorts `keys` by `bits`, stably (equal bits keep their order), a digit at a time from the
  /// lowest bit that differs between keys to the highest: bits every key shares (within one
  /// buffer, a timestamp's sign, exponent, top mantissa bits and, for whole seconds, the fraction)
  /// cost nothing. The bits that differ are split into as few digits of at most
  /// `maximumDigitBits` as cover them (a buffer of whole-second timestamps spanning 12 days: 20
  /// bits, two passes); a digit every key shares costs no pass either.
  ///
  /// - Complexity: O(*n*) per pass, at most 6, plus one read of the keys to find the bits that
  ///   differ and one to count the digits; `scratch` grows to `keys.count`.
  static func radixSort(_ keys: inout [SortKey], scratch: inout [SortKey]) {
    let count = keys.count
    guard count > 1 else { return }
    let first = keys[0].bits
    let differing = keys.withUnsafeBufferPointer { keys in
      var differing: UInt64 = 0
      for key in keys { differing |= key.bits ^ first }
      return differing
    }
    guard differing != 0 else { return }
    let low = differing.trailingZeroBitCount
    let width = UInt64.bitWidth - differing.leadingZeroBitCount - low
    let passes = (width + maximumDigitBits - 1) / maximumDigitBits
    let digitBits = (width + passes - 1) / passes
    let radix = 1 << digitBits
    let mask = UInt64(radix - 1)
    var histogram = [Int](repeating: 0, count: passes * radix)
    histogram.withUnsafeMutableBufferPointer { counts in
      keys.withUnsafeBufferPointer { keys in
        for key in keys {
          var bits = key.bits &>> UInt64(low)
          for pass in 0..<passes {
            counts[pass &* radix &+ Int(bits & mask)] &+= 1
            bits &>>= UInt64(digitBits)
          }
        }
      }
    }
    // Every place of `scratch` is written by a pass before it is read.
    if scratch.count > count {
      scratch.removeLast(scratch.count - count)
    } else if scratch.count < count {
      scratch.append(contentsOf: repeatElement(keys[0], count: count - scratch.count))
    }
    var offsets = [Int](repeating: 0, count: radix)
    for pass in 0..<passes {
      let shift = UInt64(low + pass * digitBits)
      let base = pass * radix
      if histogram[base + Int((first &>> shift) & mask)] == count { continue }
      var running = 0
      for digit in 0..<radix {
        offsets[digit] = running
        running += histogram[base + digit]
      }
      offsets.withUnsafeMutableBufferPointer { offsets in
        keys.withUnsafeBufferPointer { source in
          scratch.withUnsafeMutableBufferPointer { target in
            for key in source {
              let digit = Int((key.bits &>> shift) & mask)
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
