import Foundation
import RouteTestSupport
import Testing

/// Every case in `Tests/Fixtures/acceptance`, run through the real `routemiles` process with the
/// exact command `expected.json` gives, compared field by field: metres to a relative 1e-6,
/// counts and flags exactly, rejection totals exactly.
@Suite("Acceptance cases through the real CLI")
struct AcceptanceTests {
  static var directory: URL { get throws { try Fixtures.url("acceptance") } }

  static func cases() throws -> [(name: String, expected: [String: Any])] {
    let data = Data(try Fixtures.bytes("acceptance/expected.json"))
    let object = try #require(try JSONSerialization.jsonObject(with: data) as? [String: [String: Any]])
    return object.keys.sorted().map { ($0, object[$0]!) }
  }

  @Test func everyCaseIsCovered() throws {
    let names = try Self.cases().map(\.name)
    #expect(names.count >= 11)
  }

  @Test(arguments: try AcceptanceTests.cases().map(\.name))
  func acceptanceCase(_ name: String) throws {
    let expected = try #require(try Self.cases().first { $0.name == name }?.expected)
    let command = try #require(expected["command"] as? String)
    var words = command.split(separator: " ").map(String.init)
    #expect(words.first == "routemiles")
    words.removeFirst()
    for input in words.dropFirst() where !input.hasPrefix("-") { _ = try Fixtures.url("acceptance/\(input)") }
    let result = try CLITestSupport.runProcess(words, in: try Self.directory)
    #expect(result.status == 0, "\(name): exit \(result.status): \(result.error)")
    let lines = result.output.split(separator: "\n")
    #expect(lines.count == 1, "\(name): one JSON line per input")
    let json = try CLITestSupport.jsonObject(try #require(lines.first))

    if let meters = expected["meters"] as? Double {
      let actual = try #require(json["meters"] as? Double, "\(name): meters")
      #expect(Tolerance.pinnedFigure.accepts(actual, meters), "\(name): meters \(actual) vs \(meters)")
    }
    if let miles = expected["miles"] as? Double {
      let actual = try #require(json["miles"] as? Double, "\(name): miles")
      #expect(Tolerance.pinnedFigure.accepts(actual, miles), "\(name): miles \(actual) vs \(miles)")
    }
    for key in ["segmentCount", "gapCount", "usablePositionCount", "inputRows"] {
      if let value = expected[key] as? Int {
        #expect(json[key] as? Int == value, "\(name): \(key) is \(json[key] ?? "missing"), expected \(value)")
      }
    }
    for key in ["isMeasured", "isPartial", "usesInferredContinuity"] {
      if let value = expected[key] as? Bool {
        #expect(json[key] as? Bool == value, "\(name): \(key) is \(json[key] ?? "missing"), expected \(value)")
      }
    }
    if let rejected = expected["rejectedByReason"] as? [String: Int] {
      let actual = try #require(json["rejectedByReason"] as? [String: Int], "\(name): rejectedByReason")
      #expect(
        actual.values.reduce(0, +) == rejected.values.reduce(0, +), "\(name): rejections \(actual) vs \(rejected)")
    }
    if expected["isMeasured"] as? Bool == false {
      let summary = try #require(json["summary"] as? String)
      #expect(!summary.contains("0.0"), "\(name): an unmeasured route never reads 0.0 mi")
      #expect(json["unmeasurable"] is String, "\(name): says which kind of nothing")
    }
  }
}
