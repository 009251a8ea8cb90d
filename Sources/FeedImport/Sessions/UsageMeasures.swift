import FeedScenario
import FoundationEssentials
import Glibc

/// The quantities the usage model fits, measured from recorded sessions.
struct UsageMeasures {
    /// Time from a lift to the next touch-down in the same foreground stretch.
    var gapsMs: [Double] = []
    /// |displacement| of each drag that moved, in points.
    var distancesPt: [Double] = []
    /// Touch-down to lift of each drag that moved.
    var durationsMs: [Double] = []
    /// |lift velocity| of each drag released fast enough to fling.
    var liftSpeeds: [Double] = []
    var flings = 0
    /// Drags whose direction is the reverse of the one before, out of drags with one before.
    var reversals = 0
    var reversalTrials = 0
    /// The deepest each session's content went, in points below the top.
    var depthsPt: [Double] = []
    var lengthsS: [Double] = []
    var minutes: [Double] = []
    var refreshes: [Int] = []
    var backgrounds: [Int] = []
    var rotations: [Int] = []
    var likes: [Int] = []
    var textSizes: [Int] = []
    /// The scale each `text_size` event chose, in log order.
    var textScales: [Double] = []
    /// Time away of each background, in seconds.
    var backgroundsS: [Double] = []

    /// The distributions to fit, by name in `usage.json`, with their units.
    var distributions: [(name: String, unit: String, values: [Double])] {
        [
            ("gap_ms", "ms", gapsMs), ("drag_distance_pt", "pt", distancesPt), ("drag_duration_ms", "ms", durationsMs),
            ("lift_speed_pt_s", "pt/s", liftSpeeds), ("depth_pt", "pt", depthsPt), ("session_length_s", "s", lengthsS),
        ]
    }

    /// Each session's count of each app event fitted as a rate, by name in
    /// `usage.json`.
    var eventCounts: [(name: String, counts: [Int])] {
        [
            ("refresh", refreshes), ("background", backgrounds), ("rotate", rotations), ("like", likes),
            ("text_size", textSizes),
        ]
    }

    /// A drag that moved less than this is a tap, not a drag.
    static let tapDistancePt = 1.0

    init(_ sessions: [RecordedSession]) {
        for session in sessions { add(session) }
    }

    private mutating func add(_ session: RecordedSession) {
        var lastUpNs: Int64?
        var lastDirection = 0.0
        var depth = DepthEstimate()
        var counts = (refresh: 0, background: 0, rotate: 0, like: 0, textSize: 0)
        for step in session.steps {
            switch step {
            case let .gesture(gesture):
                let distance = gesture.displacementPt
                if let up = lastUpNs { gapsMs.append(Double(gesture.downNs - up) / 1e6) }
                lastUpNs = gesture.upNs
                let velocity = LiftVelocity.estimate(gesture)
                depth.add(displacement: distance, velocity: velocity)
                guard abs(distance) >= UsageMeasures.tapDistancePt else { continue }
                addDrag(gesture, velocity: velocity, lastDirection: &lastDirection)
            case let .app(_, event):
                switch event {
                case .refresh: counts.refresh += 1
                case let .background(durationNs):
                    counts.background += 1
                    backgroundsS.append(Double(durationNs) / 1e9)
                    lastUpNs = nil
                case .rotate: counts.rotate += 1
                case .statusBarTap: depth.toTop()
                case let .textSize(scale):
                    counts.textSize += 1
                    textScales.append(scale)
                case .like: counts.like += 1
                }
            }
        }
        depthsPt.append(depth.deepest)
        lengthsS.append(Double(session.endNs) / 1e9)
        minutes.append(Double(session.endNs) / 6e10)
        refreshes.append(counts.refresh)
        backgrounds.append(counts.background)
        rotations.append(counts.rotate)
        likes.append(counts.like)
        textSizes.append(counts.textSize)
    }

    private mutating func addDrag(_ gesture: RecordedGesture, velocity: Double, lastDirection: inout Double) {
        let distance = gesture.displacementPt
        distancesPt.append(abs(distance))
        durationsMs.append(Double(gesture.upNs - gesture.downNs) / 1e6)
        if abs(velocity) >= SessionReplay.minimumFlingSpeed {
            flings += 1
            liftSpeeds.append(abs(velocity))
        }
        let direction: Double = distance > 0 ? 1 : -1
        if lastDirection != 0 {
            reversalTrials += 1
            if direction != lastDirection { reversals += 1 }
        }
        lastDirection = direction
    }
}

/// How deep a session's content goes, estimated without a feed: each drag
/// moves it by the finger's displacement and each fling by the distance a
/// normal-rate deceleration covers, v/(1000·|ln 0.998|); the top stops it,
/// and a status-bar tap returns it there. The feed's end is not known here.
struct DepthEstimate {
    private(set) var offset = 0.0
    private(set) var deepest = 0.0

    /// Seconds a normal-rate fling covers per pt/s of release velocity.
    static let flingReachS = -1 / (1000 * log(0.998))

    mutating func add(displacement: Double, velocity: Double) {
        offset = max(0, offset + displacement)
        if abs(velocity) >= SessionReplay.minimumFlingSpeed {
            offset = max(0, offset + velocity * DepthEstimate.flingReachS)
        }
        deepest = max(deepest, offset)
    }

    mutating func toTop() { offset = 0 }
}
