import RouteFeeds
import RouteMileage

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif

/// An SVG a driver or an engineer can read at a glance: segments solid, gaps dashed and labelled
/// with their duration, window gaps ringed, pauses and parks marked where they began, a legend,
/// a scale bar in miles, the RouteQuality line as the title. Exactly one `<path>` per segment and
/// one per gap; the legend, label boxes and leader lines are other elements.
///
/// Layout: the route is fitted into `plot` at one scale for both axes (east–west shrunk by the
/// cosine of the mean latitude) and centred in it, so the middle of the route's bounding box is
/// the middle of the frame. Labels are placed by `SVGLabelPlacer`, which never lets two label
/// boxes (nor a label and the title or the bottom strip) intersect.
public enum SVGWriter {
  static let width = 960.0
  static let height = 720.0
  static let margin = 60.0
  /// Where the route is drawn: below the title, above the strip holding the scale bar and the
  /// legend, `margin` from the sides.
  static let plot = SVGBox(x: margin, y: 72, width: width - 2 * margin, height: height - 72 - 88)
  /// The title line and the bottom strip: labels keep out of both.
  static let reserved = [
    SVGBox(x: 0, y: 0, width: width, height: 44), SVGBox(x: 0, y: height - 48, width: width, height: 48),
  ]

  public static func document(_ picture: RoutePicture) -> String {
    let points = picture.allPoints
    var body: [String] = []
    var labels: [String] = []
    var scaleBar = ""
    if !points.isEmpty {
      let meanLatitude = points.map(\.latitude).reduce(0, +) / Double(points.count)
      let xScale = cos(meanLatitude * .pi / 180)
      let xs = points.map { $0.longitude * xScale }
      let ys = points.map(\.latitude)
      let (minX, maxX) = (xs.min()!, xs.max()!)
      let (minY, maxY) = (ys.min()!, ys.max()!)
      // One scale for both axes, the largest that fits; a route with no extent is drawn as if
      // it spanned a millionth of a degree (about 0.1 m).
      let pixelsPerDegree = min(plot.width / max(maxX - minX, 1e-6), plot.height / max(maxY - minY, 1e-6))
      let left = plot.x + (plot.width - (maxX - minX) * pixelsPerDegree) / 2
      let top = plot.y + (plot.height - (maxY - minY) * pixelsPerDegree) / 2
      func x(_ p: RoutePicture.Point) -> Double { left + (p.longitude * xScale - minX) * pixelsPerDegree }
      func y(_ p: RoutePicture.Point) -> Double { top + (maxY - p.latitude) * pixelsPerDegree }
      func coordinate(_ value: Double) -> String { format(value) }

      for (index, segment) in picture.segments.enumerated() {
        let d = segment.points.enumerated().map {
          "\($0.offset == 0 ? "M" : "L")\(coordinate(x($0.element))) \(coordinate(y($0.element)))"
        }
        .joined(separator: " ")
        body.append(
          "<path class=\"segment\" d=\"\(d)\"><title>Segment \(index + 1): \(MileageLocale.english.counted(segment.segment.positionCount, "position")), \(format(segment.segment.meters)) m</title></path>"
        )
      }
      var placer = SVGLabelPlacer(bounds: SVGBox(x: 0, y: 0, width: width, height: height), obstacles: reserved)
      func addLabel(_ text: String, at anchorX: Double, _ anchorY: Double) {
        guard let box = placer.place(text, anchorX: anchorX, anchorY: anchorY) else { return }
        labels.append(box.svg(text))
        if let leader = box.leader(fromX: anchorX, anchorY) { labels.append(leader) }
      }
      for gap in picture.gaps {
        let duration = DurationWords.short(gap.gap.duration)
        let tooltip = "\(gap.gap.kind.words) · \(duration)"
        let (px, py) = (x(gap.points[0]), y(gap.points[0]))
        switch gap.gap.kind {
        case .pause:
          body.append(
            "<path class=\"gap pause\" d=\"M\(coordinate(px - 4)) \(coordinate(py - 7)) v14 M\(coordinate(px + 4)) \(coordinate(py - 7)) v14\"><title>Pause: \(duration)</title></path>"
          )
          addLabel("pause \(duration)", at: px, py)
        case .parked:
          body.append(
            "<path class=\"gap park\" d=\"M\(coordinate(px - 7)) \(coordinate(py - 7)) h14 v14 h-14 z\"><title>Parked: \(duration)</title></path>"
          )
          addLabel("parked \(duration)", at: px, py)
        case _ where gap.points.count == 2:
          let (qx, qy) = (x(gap.points[1]), y(gap.points[1]))
          body.append(
            "<path class=\"gap\" d=\"M\(coordinate(px)) \(coordinate(py)) L\(coordinate(qx)) \(coordinate(qy))\"><title>Gap: \(tooltip)</title></path>"
          )
          addLabel(duration, at: (px + qx) / 2, (py + qy) / 2)
        default:
          body.append(
            "<path class=\"gap window-gap\" d=\"M\(coordinate(px - 9)) \(coordinate(py)) a9 9 0 1 0 18 0 a9 9 0 1 0 -18 0\"><title>\(gap.gap.kind == .windowStart || gap.gap.kind == .windowEnd ? "Window gap" : "Gap"): \(tooltip)</title></path>"
          )
          let text =
            switch gap.gap.kind {
            case .windowStart: "no route for \(duration) after shift start"
            case .windowEnd: "no route for the last \(duration) of the shift"
            default: duration
            }
          addLabel(text, at: px, py)
        }
      }
      for point in picture.isolated {
        body.append(
          "<circle class=\"isolated\" cx=\"\(coordinate(x(point)))\" cy=\"\(coordinate(y(point)))\" r=\"3\"/>")
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
        .segment, .legend-segment { fill: none; stroke: #1f5fbf; stroke-width: 3; stroke-linejoin: round; stroke-linecap: round; }
        .gap, .legend-gap { fill: none; stroke: #c0392b; stroke-width: 2; stroke-dasharray: 8 6; }
        .window-gap, .legend-window-gap { fill: none; stroke: #c0392b; stroke-width: 2; stroke-dasharray: 3 3; }
        .pause, .legend-pause { stroke: #8e44ad; stroke-width: 3; stroke-dasharray: none; }
        .park, .legend-park { fill: #ffffff; stroke: #16a085; stroke-width: 2; stroke-dasharray: none; }
        .label-box { fill: #ffffff; fill-opacity: 0.85; stroke: none; }
        .leader { stroke: #c0392b; stroke-width: 0.75; }
        .gap-label { font: 12px sans-serif; fill: #c0392b; }
        .isolated { fill: #7f8c8d; }
        .scale-bar { stroke: #222; stroke-width: 3; }
        .scale text, .legend text, .title { font: 13px sans-serif; fill: #222; }
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
      \(labels.joined(separator: "\n"))
      \(scaleBar)
      \(legend(picture))
      </svg>

      """
  }

  /// The legend, bottom right on the scale bar's line: segment, gap and window gap always, and
  /// pause and park when the picture holds one.
  static func legend(_ picture: RoutePicture) -> String {
    var entries: [(glyph: String, text: String)] = [
      ("<line class=\"legend-segment\" x1=\"0\" y1=\"-4\" x2=\"24\" y2=\"-4\"/>", "segment"),
      ("<line class=\"legend-gap\" x1=\"0\" y1=\"-4\" x2=\"24\" y2=\"-4\"/>", "gap"),
      ("<circle class=\"legend-window-gap\" cx=\"12\" cy=\"-4\" r=\"7\"/>", "window gap"),
    ]
    if picture.gaps.contains(where: { $0.gap.kind == .pause }) {
      entries.append(
        (
          "<line class=\"legend-pause\" x1=\"8\" y1=\"-11\" x2=\"8\" y2=\"3\"/><line class=\"legend-pause\" x1=\"16\" y1=\"-11\" x2=\"16\" y2=\"3\"/>",
          "pause"
        ))
    }
    if picture.gaps.contains(where: { $0.gap.kind == .parked }) {
      entries.append(("<rect class=\"legend-park\" x=\"5\" y=\"-11\" width=\"14\" height=\"14\"/>", "park"))
    }
    let entryWidth = 112.0
    var x = width - margin - entryWidth * Double(entries.count) + 16
    var parts: [String] = []
    for entry in entries {
      parts.append(
        "<g transform=\"translate(\(format(x)) \(format(height - 24)))\">\(entry.glyph)<text x=\"30\" y=\"0\">\(entry.text)</text></g>"
      )
      x += entryWidth
    }
    return "<g class=\"legend\">" + parts.joined() + "</g>"
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
