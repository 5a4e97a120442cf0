#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import RouteFeeds
import RouteMileage

/// The geometry of a measured route, for the pictures a user explicitly asks for (`--svg`,
/// `--geojson`) — the only place coordinates ever leave the tool.
///
/// It does not re-derive continuity: it takes the segments and gaps the measurement reported
/// and looks up the positions at their times, in the same walk order the calculator uses.
struct RoutePicture {
  struct Point: Equatable {
    var latitude: Double
    var longitude: Double
  }

  struct Segment {
    var segment: RouteSegment
    var points: [Point]
  }

  struct Gap {
    var gap: RouteGap
    /// Two points for a gap between positions; one for a window gap (the route's first or last
    /// position), which has nothing on the other side.
    var points: [Point]
  }

  var segments: [Segment] = []
  var gaps: [Gap] = []
  /// Positions that belong to no contributing segment.
  var isolated: [Point] = []
  var title: String

  init(positions: [RoutePosition], distance: RouteDistance, title: String, window: ShiftWindow?) {
    self.title = title
    var walked: [RoutePosition] = []
    walked.reserveCapacity(positions.count)
    for position in positions.sorted(by: RouteMileageCalculator.walkOrder)
    where position.isUsable && (window?.contains(position.timestamp) ?? true) {
      if let last = walked.last, last.timestamp >= position.timestamp { continue }
      walked.append(position)
    }
    func index(of timestamp: Double) -> Int? {
      var low = 0
      var high = walked.count
      while low < high {
        let middle = (low + high) / 2
        if walked[middle].timestamp < timestamp { low = middle + 1 } else { high = middle }
      }
      return low < walked.count && walked[low].timestamp == timestamp ? low : nil
    }
    func point(_ position: RoutePosition) -> Point { Point(latitude: position.latitude, longitude: position.longitude) }

    var inSegment = [Bool](repeating: false, count: walked.count)
    for segment in distance.segments {
      guard let first = index(of: segment.start), let last = index(of: segment.end), first <= last else { continue }
      segments.append(Segment(segment: segment, points: walked[first...last].map(point)))
      for position in first...last { inSegment[position] = true }
    }
    for gap in distance.gaps {
      var points: [Point] = []
      switch gap.kind {
      case .windowStart:
        if let at = index(of: gap.end) { points = [point(walked[at])] }
      case .windowEnd:
        if let at = index(of: gap.start) { points = [point(walked[at])] }
      default:
        if let from = index(of: gap.start), let to = index(of: gap.end) {
          points = [point(walked[from]), point(walked[to])]
        }
      }
      if !points.isEmpty { gaps.append(Gap(gap: gap, points: points)) }
    }
    isolated = walked.indices.filter { !inSegment[$0] }.map { point(walked[$0]) }
  }

  var allPoints: [Point] {
    segments.flatMap(\.points) + gaps.flatMap(\.points) + isolated
  }
}

/// GeoJSON (RFC 7946): segments and gaps as LineStrings, window gaps as Points (they have one
/// end only), isolated positions as Points; properties carry times, metres and kinds.
enum GeoJSONWriter {
  static func document(_ picture: RoutePicture) -> String {
    var features: [String] = []
    func coordinates(_ points: [RoutePicture.Point]) -> String {
      points.map { "[\(JSONObject.number($0.longitude)),\(JSONObject.number($0.latitude))]" }.joined(separator: ",")
    }
    for (index, segment) in picture.segments.enumerated() {
      var properties = JSONObject()
      properties.set("kind", "segment")
      properties.set("index", index + 1)
      properties.set("start", CivilTime.iso8601(segment.segment.start))
      properties.set("end", CivilTime.iso8601(segment.segment.end))
      properties.set("positions", segment.segment.positionCount)
      properties.set("meters", segment.segment.meters)
      let geometry = "{\"type\":\"LineString\",\"coordinates\":[\(coordinates(segment.points))]}"
      features.append("{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(properties.text)}")
    }
    for gap in picture.gaps {
      var properties = JSONObject()
      properties.set("kind", "gap")
      properties.set("gapKind", gap.gap.kind.rawValue)
      properties.set("start", CivilTime.iso8601(gap.gap.start))
      properties.set("end", CivilTime.iso8601(gap.gap.end))
      properties.set("seconds", gap.gap.duration)
      let geometry =
        gap.points.count == 2
        ? "{\"type\":\"LineString\",\"coordinates\":[\(coordinates(gap.points))]}"
        : "{\"type\":\"Point\",\"coordinates\":\(coordinates(gap.points))}"
      features.append("{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":\(properties.text)}")
    }
    for point in picture.isolated {
      let geometry = "{\"type\":\"Point\",\"coordinates\":\(coordinates([point]))}"
      features.append("{\"type\":\"Feature\",\"geometry\":\(geometry),\"properties\":{\"kind\":\"isolatedPosition\"}}")
    }
    var collection = JSONObject()
    collection.set("type", "FeatureCollection")
    collection.set("title", picture.title)
    collection.set("features", raw: "[" + features.joined(separator: ",\n") + "]")
    return collection.text + "\n"
  }
}

/// An SVG a driver or an engineer can read at a glance: segments solid, gaps dashed and labelled
/// with their duration, window gaps marked, a scale bar in miles, the RouteQuality line as the
/// title. Exactly one `<path>` per segment and one per gap.
enum SVGWriter {
  static let width = 960.0
  static let height = 720.0
  static let margin = 60.0

  static func document(_ picture: RoutePicture) -> String {
    let points = picture.allPoints
    var body: [String] = []
    var scaleBar = ""
    if !points.isEmpty {
      let meanLatitude = points.map(\.latitude).reduce(0, +) / Double(points.count)
      let xScale = cos(meanLatitude * .pi / 180)
      let xs = points.map { $0.longitude * xScale }
      let ys = points.map(\.latitude)
      let (minX, maxX) = (xs.min()!, xs.max()!)
      let (minY, maxY) = (ys.min()!, ys.max()!)
      let spanDegrees = max(maxX - minX, maxY - minY, 1e-6)
      let drawable = min(width, height - 40) - 2 * margin
      let pixelsPerDegree = drawable / spanDegrees
      func x(_ p: RoutePicture.Point) -> Double { margin + (p.longitude * xScale - minX) * pixelsPerDegree }
      func y(_ p: RoutePicture.Point) -> Double { 40 + margin + (maxY - p.latitude) * pixelsPerDegree }
      func coordinate(_ value: Double) -> String { format(value) }

      for (index, segment) in picture.segments.enumerated() {
        let d = segment.points.enumerated().map { "\($0.offset == 0 ? "M" : "L")\(coordinate(x($0.element))) \(coordinate(y($0.element)))" }
          .joined(separator: " ")
        body.append(
          "<path class=\"segment\" d=\"\(d)\"><title>Segment \(index + 1): \(segment.segment.positionCount) positions, \(format(segment.segment.meters)) m</title></path>")
      }
      for gap in picture.gaps {
        let label = "\(HumanReport.words(gap.gap.kind.rawValue)) · \(DurationWords.short(gap.gap.duration))"
        if gap.points.count == 2 {
          let (a, b) = (gap.points[0], gap.points[1])
          body.append(
            "<path class=\"gap\" d=\"M\(coordinate(x(a))) \(coordinate(y(a))) L\(coordinate(x(b))) \(coordinate(y(b)))\"><title>Gap: \(label)</title></path>")
          body.append(
            "<text class=\"gap-label\" x=\"\(coordinate((x(a) + x(b)) / 2 + 6))\" y=\"\(coordinate((y(a) + y(b)) / 2 - 6))\">\(escape(DurationWords.short(gap.gap.duration)))</text>")
        } else {
          let p = gap.points[0]
          let (cx, cy) = (x(p), y(p))
          body.append(
            "<path class=\"gap window-gap\" d=\"M\(coordinate(cx - 9)) \(coordinate(cy)) a9 9 0 1 0 18 0 a9 9 0 1 0 -18 0\"><title>Window gap: \(label)</title></path>")
          let side = gap.gap.kind == .windowStart ? "no route for" : "no route for the last"
          let text = gap.gap.kind == .windowStart ? "\(side) \(DurationWords.short(gap.gap.duration)) after shift start" : "\(side) \(DurationWords.short(gap.gap.duration)) of the shift"
          body.append("<text class=\"gap-label\" x=\"\(coordinate(cx + 12))\" y=\"\(coordinate(cy + 4))\">\(escape(text))</text>")
        }
      }
      for point in picture.isolated {
        body.append("<circle class=\"isolated\" cx=\"\(coordinate(x(point)))\" cy=\"\(coordinate(y(point)))\" r=\"3\"/>")
      }
      // Scale bar: the largest 1-2-5 step of miles that fits in a quarter of the width.
      let pixelsPerMile = pixelsPerDegree * metersPerMile / GeographicDistance.metersPerDegree
      var miles = 0.01
      for candidate in [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000]
      where candidate * pixelsPerMile <= width / 4 {
        miles = candidate
      }
      let barLength = miles * pixelsPerMile
      let barY = height - 24
      scaleBar =
        "<g class=\"scale\"><path class=\"scale-bar\" d=\"M\(format(margin)) \(format(barY)) h\(format(barLength))\"/>"
        + "<text x=\"\(format(margin))\" y=\"\(format(barY - 8))\">\(escape(milesLabel(miles)))</text></g>"
    }
    let style = """
      <style>
        .segment { fill: none; stroke: #1f5fbf; stroke-width: 3; stroke-linejoin: round; stroke-linecap: round; }
        .gap { fill: none; stroke: #c0392b; stroke-width: 2; stroke-dasharray: 8 6; }
        .window-gap { stroke-dasharray: 3 3; }
        .gap-label { font: 12px sans-serif; fill: #c0392b; }
        .isolated { fill: #7f8c8d; }
        .scale-bar { stroke: #222; stroke-width: 3; }
        .scale text, .title { font: 13px sans-serif; fill: #222; }
        .title { font-size: 18px; font-weight: bold; }
      </style>
      """
    return """
      <?xml version="1.0" encoding="UTF-8"?>
      <svg xmlns="http://www.w3.org/2000/svg" width="\(format(width))" height="\(format(height))" viewBox="0 0 \(format(width)) \(format(height))">
      <title>\(escape(picture.title))</title>
      \(style)
      <rect width="100%" height="100%" fill="#ffffff"/>
      <text class="title" x="\(format(margin))" y="32">\(escape(picture.title))</text>
      \(body.joined(separator: "\n"))
      \(scaleBar)
      </svg>

      """
  }

  static func milesLabel(_ miles: Double) -> String {
    miles >= 1 ? "\(Int(miles)) mi" : "\(miles) mi"
  }

  static func format(_ value: Double) -> String {
    let rounded = (value * 10).rounded() / 10
    return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
  }

  static func escape(_ text: String) -> String {
    var result = ""
    for character in text {
      switch character {
      case "&": result += "&amp;"
      case "<": result += "&lt;"
      case ">": result += "&gt;"
      case "\"": result += "&quot;"
      default: result.append(character)
      }
    }
    return result
  }
}
