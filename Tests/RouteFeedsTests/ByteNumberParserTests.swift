import Foundation
import RouteTestSupport
import Testing

@testable import RouteFeeds

/// The byte-level number parser against the C library's correctly rounded `strtod`.
@Suite("ByteNumberParser")
struct ByteNumberParserTests {
  static func parse(_ text: String) -> Double? {
    Array(text.utf8).withUnsafeBufferPointer { ByteNumberParser.double($0) }
  }

  @Test func plainDecimalsAreBitIdenticalToStrtod() {
    var random = SeededRandom(seed: 20_261_129)
    for _ in 0..<200_000 {
      let integerDigits = random.below(5)
      let fractionDigits = random.below(12)
      var text = random.below(3) == 0 ? "-" : ""
      for _ in 0..<integerDigits { text.append(Character(UnicodeScalar(UInt8(48 + random.below(10))))) }
      if fractionDigits > 0 || random.below(4) == 0 { text += "." }
      for _ in 0..<fractionDigits { text.append(Character(UnicodeScalar(UInt8(48 + random.below(10))))) }
      let expected = text.contains(where: \.isNumber) ? Double(text) : nil
      let parsed = Self.parse(text)
      #expect(parsed?.bitPattern == expected?.bitPattern, "\(text)")
      if parsed?.bitPattern != expected?.bitPattern { return }
    }
  }

  @Test func everyPowerOfTenFromZeroToFifteenIsExact() {
    var power: UInt64 = 1
    for exponent in 0...15 {
      #expect(ByteNumberParser.integerPowerOfTen(exponent) == power, "10^\(exponent)")
      #expect(ByteNumberParser.smallPowerOfTen(exponent) == power, "10^\(exponent)")
      #expect(ByteNumberParser.exactPowerOfTen(exponent).bitPattern == Double("1e\(exponent)")?.bitPattern)
      // A value with that many fraction digits divides by the same power, as strtod reads it.
      #expect(Self.parse("1." + String(repeating: "0", count: exponent))?.bitPattern == 1.0.bitPattern)
      power &*= 10
    }
  }

  @Test func aNonDigitAnywhereInAFourDigitRunIsRefused() {
    // Bytes just outside '0'…'9', in every position of the fraction's SWAR block.
    for bad in ["/", ":", " ", "\u{0}", "a", "\u{7F}", "é"] {
      for position in 0..<6 {
        var digits = Array("123456")
        digits.insert(contentsOf: bad, at: position)
        let text = "12." + String(digits)
        #expect(Self.parse(text) == nil, "\(text.debugDescription)")
      }
    }
  }

  @Test func theEightByteTailReadsEveryFractionLengthAndRefusesAStrayByte() {
    // Numbers of eight bytes or more whose fraction (1–8 digits) is read from one load of the
    // last eight bytes: every length, signed or not, and a stray byte in every position.
    for fractionDigits in 1...8 {
      for integer in ["0", "7", "48", "-48", "123", "-123", "1234567"] {
        let fraction = String("98765432".prefix(fractionDigits))
        let text = integer + "." + fraction
        guard text.utf8.count >= 8 else { continue }
        #expect(Self.parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text)")
        for position in 0..<fractionDigits {
          for bad in ["/", ":", "a", " ", "\u{0}", "."] {
            var digits = Array(fraction)
            digits[position] = Character(bad)
            let broken = integer + "." + String(digits)
            #expect(Self.parse(broken) == nil, "\(broken.debugDescription)")
          }
        }
      }
    }
  }

  @Test(arguments: ["nan", "inf", "-inf", "1e999", "", "-", ".", "1.2.3", "--1", "1e", "0x10"])
  func whatIsNotAFiniteNumberIsRefused(_ text: String) {
    #expect(Self.parse(text) == nil)
  }

  @Test func longAndExponentFormsGoThroughStrtod() {
    let tiny = "0." + String(repeating: "0", count: 397) + "1"
    for text in [
      "1e5", "2.5E-3", "-0.000000000000000001", "123456789012345678901234567890", tiny,
      String(repeating: "9", count: 300),
    ] {
      #expect(Self.parse(text)?.bitPattern == Double(text)?.bitPattern, "\(text.prefix(40))")
    }
    #expect(Self.parse(String(repeating: "9", count: 400)) == nil, "400 nines overflow to infinity: refused")
    #expect(Self.parse("1" + String(repeating: "0", count: 400)) == nil, "over 400 bytes is refused")
  }
}
