/// One stretch of road ahead: constant curvature over a length, a speed limit, and what happens
/// at its end.
struct RoadPiece: Sendable {
  /// Metres left to drive.
  var remaining: Double
  /// 1/m; positive turns clockwise (right).
  var curvature: Double
  /// m/s.
  var limit: Double
  /// Seconds stationary at the end: a red light, a stop sign, a park.
  var stopAfter: Int = 0
  /// The stop at the end is a park (a delivery or a scheduled park), not traffic.
  var parksAfter = false
  var parkPausesCapture = false
  /// A park may be put at the end of this piece (streets and arterials, not turning arcs).
  var allowsPark = true
  /// The exact heading at the end (a grid direction), so turns never drift.
  var endHeading: Double?
}

/// The vehicle: a driver following streets of an invented grid and curving arterials, with
/// lights, stop signs, deliveries and parks, simulated once a second.
///
/// Speed is governed by the piece's limit, by braking for a stop or a slower next piece
/// (2.2 m/s² planned, 4 m/s² at most) and by acceleration that falls with speed
/// (2.5 m/s² from rest, 1 m/s² at 30 m/s). Positions are metres east (`x`) and north (`y`)
/// of the start on a local plane; `SyntheticDrive` turns them into degrees.
///
/// - Complexity: O(1) time and memory per second.
struct VehicleMotion: Sendable {
  private var rng: SynthesisRandom
  private let homeRadius: Double
  private let gridRotation: Double
  private let driverAcceleration: Double
  private let deliveryStops: Bool

  private(set) var x = 0.0
  private(set) var y = 0.0
  /// Radians clockwise from north.
  private(set) var heading: Double
  /// m/s.
  private(set) var speed = 0.0
  private var gridDirection: Int

  private var current: RoadPiece
  private var upcoming: RoadPiece
  private var arterialPiecesLeft = 0
  private var streetAfterTurn = false
  private var traffic = 1.0

  /// Seconds still to stand at the current stop.
  private var dwell = 0
  /// Whether the vehicle stands at a park (not traffic), and whether capture pauses for it.
  private(set) var isParked = false
  private(set) var parkPausesCapture = false
  /// Counts, for the drive's facts.
  private(set) var trafficStops = 0
  private(set) var parks = 0

  private var pendingPark: (duration: Int, pausesCapture: Bool)?
  private var secondsToNextDelivery: Int

  init(seed: UInt64, homeRadius: Double, deliveryStops: Bool) {
    rng = SynthesisRandom(seed: seed)
    self.homeRadius = homeRadius
    self.deliveryStops = deliveryStops
    gridRotation = rng.uniform(-0.7, 0.7)
    driverAcceleration = rng.uniform(0.85, 1.15)
    gridDirection = rng.integer(0...3)
    heading = gridRotation + Double(gridDirection) * (Double.pi / 2)
    secondsToNextDelivery = rng.integer(420...1500)
    current = RoadPiece(remaining: 0, curvature: 0, limit: 0)
    upcoming = current
    current = nextPiece()
    upcoming = nextPiece()
  }

  /// Asks the vehicle to park at the first chance it gets.
  mutating func requestPark(duration: Int, pausesCapture: Bool) {
    pendingPark = (max(1, duration), pausesCapture)
  }

  /// Advances the vehicle by one second.
  mutating func tick() {
    if dwell > 0 {
      speed = 0
      dwell -= 1
      if dwell == 0 {
        isParked = false
        parkPausesCapture = false
      }
      return
    }
    placePendingPark()
    if deliveryStops, pendingPark == nil {
      secondsToNextDelivery -= 1
      if secondsToNextDelivery <= 0 {
        pendingPark = (rng.integer(75...300), false)
        secondsToNextDelivery = rng.integer(420...1500)
      }
    }

    let remaining = current.remaining
    var target = current.limit * traffic
    var arriving = false
    if current.stopAfter > 0 {
      if remaining <= 1.5 {
        arriving = true
      } else {
        target = min(target, Self.brakingCap(remaining: remaining, speed: speed, endSpeed: 0))
      }
    } else {
      let next = upcoming.limit * traffic
      target = min(target, max(next, Self.brakingCap(remaining: remaining, speed: speed, endSpeed: next)))
    }

    var travel: Double
    if arriving {
      travel = remaining
      speed = 0
    } else {
      let acceleration = (2.5 - 0.05 * speed) * driverAcceleration
      let newSpeed = speed < target ? min(target, speed + acceleration) : max(target, speed - 4.0)
      travel = (speed + newSpeed) / 2
      speed = newSpeed
    }

    while travel > 0 {
      let step = min(travel, current.remaining)
      advance(step)
      travel -= step
      current.remaining -= step
      if current.remaining <= 1e-9 {
        if current.stopAfter > 0 {
          dwell = current.stopAfter
          speed = 0
          travel = 0
          if current.parksAfter {
            isParked = true
            parkPausesCapture = current.parkPausesCapture
            parks += 1
          } else {
            trafficStops += 1
          }
        }
        if let endHeading = current.endHeading { heading = endHeading }
        current = upcoming
        upcoming = nextPiece()
      }
    }
  }

  /// The highest speed to reach by the end of this second that still leaves room to slow to
  /// `endSpeed` at 2.2 m/s² over what remains after the second's travel: the largest v′ with
  /// v′² + 2·2.2·(v + v′)/2 ≤ endSpeed² + 2·2.2·remaining.
  private static func brakingCap(remaining: Double, speed: Double, endSpeed: Double) -> Double {
    let planned = 2.2
    let room = endSpeed * endSpeed + 2 * planned * (remaining - speed / 2)
    guard room > 0 else { return 0 }
    return (-planned + (planned * planned + 4 * room).squareRoot()) / 2
  }

  /// Moves `step` metres along the current piece, by the midpoint rule on its arc.
  private mutating func advance(_ step: Double) {
    let middle = heading + current.curvature * step * 0.5
    let (s, c) = SynthesisMath.sinCos(middle)
    x += step * s
    y += step * c
    heading += current.curvature * step
  }

  /// Puts a requested park at the end of the current piece if the vehicle can still stop there
  /// comfortably, else at the end of the next.
  private mutating func placePendingPark() {
    guard let park = pendingPark else { return }
    let stoppingDistance = speed * speed / (2 * 3.0) + 2
    if current.allowsPark, current.stopAfter == 0, current.remaining >= stoppingDistance {
      current.stopAfter = park.duration
      current.parksAfter = true
      current.parkPausesCapture = park.pausesCapture
      pendingPark = nil
    } else if upcoming.allowsPark, upcoming.stopAfter == 0 {
      upcoming.stopAfter = park.duration
      upcoming.parksAfter = true
      upcoming.parkPausesCapture = park.pausesCapture
      pendingPark = nil
    }
  }

  // MARK: - Planning the road

  private var isFarFromHome: Bool { x * x + y * y > homeRadius * homeRadius }

  private mutating func nextPiece() -> RoadPiece {
    traffic = min(1, max(0.55, traffic + rng.normal() * 0.08 + (0.92 - traffic) * 0.2))
    if arterialPiecesLeft > 0 {
      arterialPiecesLeft -= 1
      return arterialLeftPiece()
    }
    if streetAfterTurn {
      streetAfterTurn = false
      return street()
    }
    if rng.chance(0.07) {
      arterialPiecesLeft = rng.integer(3...8)
      return arterialLeftPiece()
    }
    // A turn at the intersection ahead, or straight on into the next block.
    let turn = chooseTurn()
    if turn == 0 { return street() }
    streetAfterTurn = true
    gridDirection = (gridDirection + turn + 4) & 3
    let radius = rng.uniform(9, 14)
    return RoadPiece(
      remaining: radius * Double.pi / 2, curvature: Double(turn) / radius,
      limit: (2.6 * radius).squareRoot(), allowsPark: false,
      endHeading: gridRotation + Double(gridDirection) * (Double.pi / 2))
  }

  /// −1 left, 0 straight, +1 right; homewards more often when far out.
  private mutating func chooseTurn() -> Int {
    if isFarFromHome, rng.chance(0.75) {
      var best = 0
      var bestDot = -Double.infinity
      for turn in [-1, 0, 1] {
        let direction = gridRotation + Double((gridDirection + turn + 4) & 3) * (Double.pi / 2)
        let (s, c) = SynthesisMath.sinCos(direction)
        let dot = -(s * x + c * y)
        if dot > bestDot {
          bestDot = dot
          best = turn
        }
      }
      return best
    }
    let draw = rng.unit()
    return draw < 0.6 ? 0 : (draw < 0.8 ? -1 : 1)
  }

  /// A block of street: 90–260 m, 9–15 m/s, perhaps a light or a stop sign at its end.
  private mutating func street() -> RoadPiece {
    var piece = RoadPiece(remaining: rng.uniform(90, 260), curvature: 0, limit: rng.uniform(9, 15))
    let control = rng.unit()
    if control < 0.16 {
      piece.stopAfter = rng.integer(12...75)  // a red light
    } else if control < 0.26 {
      piece.stopAfter = rng.integer(1...3)  // a stop sign
    }
    return piece
  }

  /// The next arterial piece, or the curve that brings the heading back onto the grid after the
  /// last one.
  private mutating func arterialLeftPiece() -> RoadPiece {
    if arterialPiecesLeft == 0 {
      let quarter = Double.pi / 2
      let k = ((heading - gridRotation) / quarter).rounded()
      let target = gridRotation + k * quarter
      gridDirection = Int((k.truncatingRemainder(dividingBy: 4) + 4).truncatingRemainder(dividingBy: 4))
      let length = rng.uniform(120, 180)
      let curvature = (target - heading) / length
      let limit = min(18.0, (2.0 / max(abs(curvature), 1e-6)).squareRoot())
      return RoadPiece(
        remaining: length, curvature: curvature, limit: limit,
        endHeading: gridRotation + Double(gridDirection) * quarter)
    }
    var bend = rng.uniform(-1.0 / 450, 1.0 / 450)
    if isFarFromHome {
      let (s, c) = SynthesisMath.sinCos(heading)
      let cross = s * -y - c * -x  // > 0: home lies to the left
      bend = cross > 0 ? -abs(bend) : abs(bend)
    }
    var piece = RoadPiece(
      remaining: rng.uniform(200, 650), curvature: bend,
      limit: min(rng.uniform(19, 29.5), (2.0 / max(abs(bend), 1e-6)).squareRoot()))
    if rng.chance(0.12) { piece.stopAfter = rng.integer(20...80) }
    return piece
  }
}
