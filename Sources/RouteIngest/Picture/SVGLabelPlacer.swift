/// A rectangle in SVG user units (y grows downwards).
struct SVGBox: Equatable {
  var x: Double
  var y: Double
  var width: Double
  var height: Double

  var maxX: Double { x + width }
  var maxY: Double { y + height }

  /// True when the two boxes share interior (touching edges do not count).
  func intersects(_ other: SVGBox) -> Bool {
    x < other.maxX && other.x < maxX && y < other.maxY && other.y < maxY
  }

  /// The label's background box and its text, the text's baseline 12 units below the top.
  func svg(_ text: String) -> String {
    "<rect class=\"label-box\" x=\"\(SVGWriter.format(x))\" y=\"\(SVGWriter.format(y))\" width=\"\(SVGWriter.format(width))\" height=\"\(SVGWriter.format(height))\"/>"
      + "<text class=\"gap-label\" x=\"\(SVGWriter.format(x + SVGLabelPlacer.padding))\" y=\"\(SVGWriter.format(y + 12))\">\(SVGWriter.escape(text))</text>"
  }

  /// A thin line from the anchor to the nearest point of the box, when the box had to move away
  /// from its anchor; nil when it sits beside it.
  func leader(fromX anchorX: Double, _ anchorY: Double) -> String? {
    let nearX = min(max(anchorX, x), maxX)
    let nearY = min(max(anchorY, y), maxY)
    let distance = ((nearX - anchorX) * (nearX - anchorX) + (nearY - anchorY) * (nearY - anchorY)).squareRoot()
    guard distance > SVGLabelPlacer.leaderDistance else { return nil }
    return
      "<line class=\"leader\" x1=\"\(SVGWriter.format(anchorX))\" y1=\"\(SVGWriter.format(anchorY))\" x2=\"\(SVGWriter.format(nearX))\" y2=\"\(SVGWriter.format(nearY))\"/>"
  }
}

/// Places gap labels so that no two label boxes intersect, nor a label and an obstacle (the
/// title line, the legend strip), and every label lies inside the picture.
///
/// A label's box is its text's width at 12 px sans-serif — estimated at `characterWidth` per
/// character, wider than the average glyph so the box covers the drawn text — plus `padding`
/// each side, and 16 units tall. Candidates are tried on rings of growing distance around the
/// anchor (right-above first, where a lone label always goes), eight directions a ring, up to
/// `rings` rings; the first box that intersects nothing placed wins, and a label past its
/// anchor's immediate neighbourhood gets a leader line. A label with no free place within the
/// rings is not drawn (its gap keeps its dashed line and its hover title): on a picture that
/// crowded, one more label would only cover another.
///
/// Complexity: O(*r* · *c*) candidate tests per label, each against the boxes in the grid cells
/// it touches, so O(*g*) labels cost O(*g* · *r*) when they are spread out.
struct SVGLabelPlacer {
  static let characterWidth = 7.0
  static let padding = 3.0
  static let height = 16.0
  static let rings = 24
  static let ringStep = 14.0
  static let leaderDistance = 12.0
  static let cell = 64.0

  private(set) var placed: [SVGBox] = []
  private var bounds: SVGBox
  private var obstacles: [SVGBox]
  private var grid: [Int64: [Int]] = [:]

  /// - Parameters:
  ///   - bounds: every label lies wholly inside it (the picture).
  ///   - obstacles: no label intersects one.
  init(bounds: SVGBox, obstacles: [SVGBox]) {
    self.bounds = bounds
    self.obstacles = obstacles
  }

  /// The box for `text` near (anchorX, anchorY), now reserved; nil when none is free.
  mutating func place(_ text: String, anchorX: Double, anchorY: Double) -> SVGBox? {
    let width = Double(text.count) * Self.characterWidth + 2 * Self.padding
    let height = Self.height
    // Offsets of the box's top-left corner from the anchor, for a ring at distance `r`.
    func candidates(_ r: Double) -> [(Double, Double)] {
      [
        (r, -r - height), (r, r), (-r - width, -r - height), (-r - width, r),
        (-width / 2, -r - height), (-width / 2, r), (r, -height / 2), (-r - width, -height / 2),
      ]
    }
    for ring in 0..<Self.rings {
      let r = 6 + Double(ring) * Self.ringStep
      for (dx, dy) in candidates(r) {
        let box = SVGBox(x: anchorX + dx, y: anchorY + dy, width: width, height: height)
        if isFree(box) {
          reserve(box)
          return box
        }
      }
    }
    return nil
  }

  private func cells(of box: SVGBox) -> [Int64] {
    let x0 = Int64((box.x / Self.cell).rounded(.down))
    let x1 = Int64((box.maxX / Self.cell).rounded(.down))
    let y0 = Int64((box.y / Self.cell).rounded(.down))
    let y1 = Int64((box.maxY / Self.cell).rounded(.down))
    var keys: [Int64] = []
    for cx in x0...x1 {
      for cy in y0...y1 { keys.append(cx &* 1_000_003 &+ cy) }
    }
    return keys
  }

  private func isFree(_ box: SVGBox) -> Bool {
    guard box.x >= bounds.x, box.y >= bounds.y, box.maxX <= bounds.maxX, box.maxY <= bounds.maxY else { return false }
    if obstacles.contains(where: box.intersects) { return false }
    for key in cells(of: box) {
      for index in grid[key, default: []] where placed[index].intersects(box) { return false }
    }
    return true
  }

  private mutating func reserve(_ box: SVGBox) {
    placed.append(box)
    for key in cells(of: box) { grid[key, default: []].append(placed.count - 1) }
  }
}
