import RouteIngest
import RouteMileage

/// GeoJSON (RFC 7946): segments and gaps as LineStrings, window gaps, pauses and parks as Points (they have one
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
