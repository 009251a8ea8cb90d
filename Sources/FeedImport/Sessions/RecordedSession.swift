import FeedScenario

/// A finger on the screen from touch-down to lift, as recorded.
package struct RecordedGesture: Sendable, Equatable {
    /// One touch sample: nanoseconds since the session's start and the
    /// finger's y on the screen, in points.
    package struct Sample: Sendable, Equatable {
        package var timeNs: Int64
        package var yPt: Double
        package init(timeNs: Int64, yPt: Double) {
            self.timeNs = timeNs
            self.yPt = yPt
        }
    }

    /// Touch-down first, lift last; times strictly increasing.
    package var samples: [Sample]

    package init(samples: [Sample]) { self.samples = samples }

    /// When the finger touched down, in ns since the session's start.
    package var downNs: Int64 { samples[0].timeNs }
    /// When it lifted.
    package var upNs: Int64 { samples[samples.count - 1].timeNs }
    /// Content displacement at the lift, in points: y at touch-down less y
    /// at the lift, so a finger moving up scrolls towards later posts.
    package var displacementPt: Double { samples[0].yPt - samples[samples.count - 1].yPt }
    /// The content's displacement at each sample.
    package var trajectory: [TrajectoryPoint] {
        samples.map { TrajectoryPoint(timeNs: $0.timeNs - downNs, displacementPt: samples[0].yPt - $0.yPt) }
    }
}

/// Something the app did or the reader did other than by dragging.
package enum RecordedAppEvent: Sendable, Equatable {
    case refresh
    /// The app left for `durationNs` and came back.
    case background(durationNs: Int64)
    case rotate(widthPt: Double, heightPt: Double)
    case textSize(scale: Double)
    case statusBarTap
    case like
}

/// One recorded session, its gestures and app events in time order.
package struct RecordedSession: Sendable, Equatable {
    /// A gesture or an app event.
    package enum Step: Sendable, Equatable {
        case gesture(RecordedGesture)
        case app(atNs: Int64, RecordedAppEvent)
    }

    /// The session's id as the log gives it (hashed before it is written).
    package var id: String
    package var steps: [Step]
    /// The session's last event, or the moment it went to the background
    /// for good, in ns since its start.
    package var endNs: Int64
    /// The log line of the session's first event.
    package var firstLine: Int

    package init(id: String, steps: [Step], endNs: Int64, firstLine: Int) {
        self.id = id
        self.steps = steps
        self.endNs = endNs
        self.firstLine = firstLine
    }

    /// The gestures alone, in order.
    package var gestures: [RecordedGesture] {
        steps.compactMap { if case let .gesture(gesture) = $0 { gesture } else { nil } }
    }
}
