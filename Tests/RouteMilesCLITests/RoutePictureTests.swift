import Foundation
import RouteTestSupport
import Testing

#if canImport(FoundationXML)
  import FoundationXML
#endif

/// `measure --svg`: the picture's geometry — the route centred in the frame, gap labels that
/// never overlap, the legend, and pauses and parks drawn from the shift timeline.
@Suite("routemiles measure --svg: the picture")
struct RoutePictureTests {
  /// The frame the writer fits the route into (`SVGWriter.plot`): x 60…900, y 72…632.
  static let plot = (x: 60.0, y: 72.0, width: 840.0, height: 560.0)

  /// Every element of an SVG with its attributes, and the text inside each `<text>`.
  final class Elements: NSObject, XMLParserDelegate {
    struct Element {
      var name: String
      var attributes: [String: String]
      var text = ""
      var insideLegend: Bool
    }

    var all: [Element] = []
    private var open: [Int] = []
    private var legendDepth = 0
    private var depth = 0

    func parser(
      _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
      attributes: [String: String] = [:]
    ) {
      depth += 1
      if name == "g", attributes["class"] == "legend" { legendDepth = depth }
      all.append(Element(name: name, attributes: attributes, insideLegend: legendDepth > 0))
      open.append(all.count - 1)
    }
    func parser(_ parser: XMLParser, foundCharacters string: String) {
      if let last = open.last { all[last].text += string }
    }
    func parser(_ parser: XMLParser, didEndElement name: String, namespaceURI: String?, qualifiedName: String?) {
      if depth == legendDepth { legendDepth = 0 }
      depth -= 1
      open.removeLast()
    }

    func with(class name: String) -> [Element] { all.filter { $0.attributes["class"] == name } }
    func double(_ element: Element, _ key: String) -> Double { Double(element.attributes[key] ?? "") ?? .nan }
  }

  static func svg(_ arguments: [String]) throws -> Elements {
    let result = CLITestSupport.run(["measure", "--svg", "-"] + arguments)
    #expect(result.status == 0, "\(result.error)")
    let document = String(result.output[..<(result.output.range(of: "</svg>")?.upperBound ?? result.output.endIndex)])
    let parser = XMLParser(data: Data(document.utf8))
    let elements = Elements()
    parser.delegate = elements
    #expect(parser.parse(), "the SVG is well-formed XML")
    return elements
  }

  /// The absolute points of a path's `d` (M, L, h, v, a as the writer uses them): enough for the
  /// route's extent (a window gap's ring is its centre ± 9).
  static func points(_ d: String) -> [(Double, Double)] {
    var points: [(Double, Double)] = []
    let words = d.replacingOccurrences(of: "M", with: " M ").replacingOccurrences(of: "L", with: " L ")
      .split(separator: " ").map(String.init)
    var index = 0
    while index < words.count {
      if words[index] == "M" || words[index] == "L", index + 2 < words.count,
        let x = Double(words[index + 1]), let y = Double(words[index + 2])
      {
        points.append((x, y))
        index += 3
      } else {
        index += 1
      }
    }
    return points
  }

  @Test func theRouteIsCentredInTheFrame() throws {
    for arguments in [
      ["--no-filter", try Fixtures.path("acceptance/c02_session_change.csv")],
      ["--no-filter", try Fixtures.path("acceptance/g01_two_segments.gpx")],
      [try Fixtures.path("acceptance/c01_one_session.csv")],
    ] {
      let svg = try Self.svg(arguments)
      var xs: [Double] = []
      var ys: [Double] = []
      for path in svg.all
      where path.name == "path" && (path.attributes["class"] == "segment" || path.attributes["class"] == "gap") {
        for (x, y) in Self.points(path.attributes["d"] ?? "") {
          xs.append(x)
          ys.append(y)
        }
      }
      let (minX, maxX, minY, maxY) = (try #require(xs.min()), xs.max()!, try #require(ys.min()), ys.max()!)
      // Centred: the middle of the route's extent is the middle of the frame, to the 0.1 unit
      // the coordinates are written with (plus rounding on both ends).
      #expect(abs((minX + maxX) / 2 - (Self.plot.x + Self.plot.width / 2)) <= 0.2, "\(arguments): x \(minX)…\(maxX)")
      #expect(abs((minY + maxY) / 2 - (Self.plot.y + Self.plot.height / 2)) <= 0.2, "\(arguments): y \(minY)…\(maxY)")
      // Fitted: it fills the frame in one direction and stays inside it in the other.
      let fillsWidth = abs((maxX - minX) - Self.plot.width) <= 0.2
      let fillsHeight = abs((maxY - minY) - Self.plot.height) <= 0.2
      #expect(fillsWidth || fillsHeight, "\(arguments): \(maxX - minX) × \(maxY - minY)")
      #expect(minX >= Self.plot.x - 0.1 && maxX <= Self.plot.x + Self.plot.width + 0.1)
      #expect(minY >= Self.plot.y - 0.1 && maxY <= Self.plot.y + Self.plot.height + 0.1)
    }
  }

  /// A small loop driven in 80 short stretches, each in its own capture session: 79 session
  /// gaps a minute or more long, about 25 units apart once the loop is fitted to the frame —
  /// closer than one label is wide, the pile the old labels made.
  static func crowdedFeed() -> String {
    var text = "timestamp,latitude,longitude,horizontal_accuracy,capture_session_id\n"
    let start = 1_764_403_200
    var second = 0
    for stretch in 0..<80 {
      for step in 0..<2 {
        let angle = Double(stretch * 2 + step) / 160 * 2 * .pi
        let latitude = 51.5 + 0.004 * sin(angle)
        let longitude = -0.12 + 0.006 * cos(angle)
        text += "\(StoreCommandTests.iso(start + second)),\(latitude),\(longitude),8,s\(stretch)\n"
        second += 5
      }
      second += 60 + stretch
    }
    return text
  }

  @Test func gapLabelsNeverOverlap() throws {
    let directory = try CLITestSupport.temporaryDirectory()
    defer { try? FileManager.default.removeItem(at: directory) }
    let feed = try CLITestSupport.write(Self.crowdedFeed(), to: "crowded.csv", in: directory)
    let svg = try Self.svg(["--no-filter", feed])
    #expect(svg.with(class: "gap").count == 79)
    let boxes = svg.with(class: "label-box").map {
      (x: svg.double($0, "x"), y: svg.double($0, "y"), width: svg.double($0, "width"), height: svg.double($0, "height"))
    }
    let labels = svg.with(class: "gap-label")
    #expect(labels.count == boxes.count)
    #expect(boxes.count == 79, "every gap keeps a label (\(boxes.count))")
    for i in boxes.indices {
      let a = boxes[i]
      #expect(a.x >= 0 && a.y >= 0 && a.x + a.width <= 960 && a.y + a.height <= 720, "label \(i) inside the picture")
      #expect(a.y + a.height <= 672, "label \(i) clear of the legend strip")
      // Each text sits in its box.
      #expect(svg.double(labels[i], "x") > a.x && svg.double(labels[i], "y") < a.y + a.height)
      #expect(Double(labels[i].text.count) * 7 + 6 <= a.width + 0.1)
      for j in boxes.indices where j > i {
        let b = boxes[j]
        let intersect = a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height
        #expect(!intersect, "labels \(i) and \(j) overlap: \(a) \(b)")
      }
    }
  }

  @Test func theLegendNamesSegmentGapAndWindowGap() throws {
    let svg = try Self.svg([
      "--no-filter", "--shift-start", "2025-11-29T07:00:00Z", "--shift-end", "2025-11-29T08:50:00Z",
      try Fixtures.path("acceptance/c02_session_change.csv"),
    ])
    let legendTexts = svg.all.filter { $0.insideLegend && $0.name == "text" }.map(\.text)
    #expect(legendTexts == ["segment", "gap", "window gap"])
    #expect(svg.with(class: "legend-segment").count == 1)
    #expect(svg.with(class: "legend-gap").count == 1)
    #expect(svg.with(class: "legend-window-gap").count == 1)
    // The legend draws no path, so paths still count the route's segments and gaps.
    #expect(svg.all.filter { $0.name == "path" && $0.insideLegend }.isEmpty)
  }

  @Test func pausesAndParksAreDrawnFromTheTimeline() throws {
    let files = try TimelineAcceptanceTests.files()
    defer { try? FileManager.default.removeItem(at: files.directory) }
    let svg = try Self.svg(["--timeline", files.timeline, files.feed])
    let pause = svg.with(class: "gap pause")
    let park = svg.with(class: "gap park")
    #expect(pause.count == 1)
    #expect(park.count == 1)
    // Each marker's hover title is the element after it.
    func title(after element: Elements.Element?) -> String? {
      guard let element, let index = svg.all.firstIndex(where: { $0.attributes == element.attributes }) else {
        return nil
      }
      return svg.all[index + 1].name == "title" ? svg.all[index + 1].text : nil
    }
    #expect(title(after: pause.first) == "Pause: 20m 00s")
    #expect(title(after: park.first) == "Parked: 10m 00s")
    let labels = svg.with(class: "gap-label").map(\.text)
    #expect(labels.contains("pause 20m 00s"))
    #expect(labels.contains("parked 10m 00s"))
    let legendTexts = svg.all.filter { $0.insideLegend && $0.name == "text" }.map(\.text)
    #expect(legendTexts == ["segment", "gap", "window gap", "pause", "park"])
    // Positions outside the shift (14,399) and inside the pause (239) and the park (119) are not
    // drawn: the route is the three measured stretches (2,520 positions) and the one retained
    // position between the park and the third stretch that no stretch holds (11:10:00, alone
    // before a 15 s session gap), drawn as an isolated dot.
    #expect(svg.with(class: "segment").count == 3)
    #expect(svg.with(class: "isolated").count == 1)
    #expect(svg.with(class: "gap").count == 1, "the 15 s session gap after the park")
  }
}
