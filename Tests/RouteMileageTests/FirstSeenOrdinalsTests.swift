import RouteMileage
import Testing

@Suite struct FirstSeenOrdinalsTests {
  @Test func numbersKeysInTheOrderTheyAreFirstSeen() {
    var ordinals = FirstSeenOrdinals<String>()
    let asked = ["b", "b", "a", "b", "c", "a", "c", "c"]
    let answers = asked.map { ordinals.ordinal(of: $0) }
    #expect(answers.map(\.ordinal) == [0, 0, 1, 0, 2, 1, 2, 2])
    #expect(answers.map(\.isNew) == [true, false, true, false, true, false, false, false])
    #expect(ordinals.count == 3)
    #expect(ordinals.lastKey == "c")
    #expect(ordinals.lastOrdinal == 2)
  }

  @Test func aKeySeenAgainAfterOthersKeepsItsOrdinal() {
    var ordinals = FirstSeenOrdinals<[UInt8]>()
    #expect(ordinals.ordinal(of: Array("uuid-1".utf8)).ordinal == 0)
    #expect(ordinals.ordinal(of: Array("uuid-2".utf8)).ordinal == 1)
    let again = ordinals.ordinal(of: Array("uuid-1".utf8))
    #expect(again.ordinal == 0)
    #expect(!again.isNew)
  }

  @Test func removingAllStartsTheNumberingAgain() {
    var ordinals = FirstSeenOrdinals<Int>()
    _ = ordinals.ordinal(of: 7)
    _ = ordinals.ordinal(of: 9)
    ordinals.removeAll()
    #expect(ordinals.lastKey == nil)
    #expect(ordinals.lastOrdinal == -1)
    let first = ordinals.ordinal(of: 9)
    #expect(first.ordinal == 0)
    #expect(first.isNew)
  }
}
