/// Where a synthetic drive happens: an invented town in open ocean, so no coordinate a generator
/// writes can point at anybody's street.
///
/// The vehicle drives a street grid (blocks of 90–260 m, at a rotation of the place's own)
/// and curving arterials around `latitude`/`longitude`, staying within about `radiusMeters` of
/// its starting point.
public struct InventedPlace: Sendable, Hashable {
  public var name: String
  /// Degrees (WGS 84) of the town centre.
  public var latitude: Double
  public var longitude: Double
  /// Metres from the start the vehicle wanders before it heads back.
  public var radiusMeters: Double

  public init(name: String, latitude: Double, longitude: Double, radiusMeters: Double = 4_000) {
    self.name = name
    self.latitude = latitude
    self.longitude = longitude
    self.radiusMeters = radiusMeters
  }

  /// "Nemo Flats", 48.8767° S, 123.3933° W: the oceanic pole of inaccessibility (Point Nemo),
  /// about 2,700 km from the nearest land in every direction. Southern and western hemisphere,
  /// so every coordinate is negative (NMEA `S` and `W`).
  public static let nemoFlats = InventedPlace(name: "Nemo Flats", latitude: -48.8767, longitude: -123.3933)

  /// "Gyre Point", 31.5° N, 154.5° E: the open North Pacific, about 800 km from the nearest land
  /// (Minami-Torishima). Northern and eastern hemisphere (NMEA `N` and `E`).
  public static let gyrePoint = InventedPlace(name: "Gyre Point", latitude: 31.5, longitude: 154.5)
}
