import FeedEngine
import FeedScenario

/// A recorded session as a scenario that replays it: each gesture a drag
/// along its recorded trajectory, released as UIKit would release it, and
/// each app event a script step at its time.
package struct SessionReplay: Sendable {
    /// What every replay shares besides its script.
    package struct Settings: Sendable {
        /// The device profile the replays name.
        package var device: String
        /// Posts in the synthetic feed the replays scroll.
        package var postCount: Int
        package init(device: String, postCount: Int) {
            self.device = device
            self.postCount = postCount
        }
    }

    /// Simulated time after the session's last event, so a last fling can
    /// come to rest: a 5,000 pt/s fling at the normal rate slows below the
    /// resting speed in 4.3 s.
    package static let tailNs: Int64 = 5_000_000_000
    /// The fling that carries a release starts this long after the lift:
    /// a step at the lift itself would reach the content while the finger
    /// still holds it, and throw nothing.
    package static let flingDelayNs: Int64 = 1_000
    /// The most steps one replay holds (the scenario format's limit).
    package static let maximumSteps = 10_000

    /// The scenario replaying `session`, named `name`.
    package static func scenario(
        for session: RecordedSession, named name: String, settings: Settings, file: String
    ) throws(FileProblem) -> Scenario {
        let steps = script(for: session)
        guard steps.count <= maximumSteps else {
            throw FileProblem(
                file: file, line: session.firstLine,
                problem: "expected a session of at most \(maximumSteps) replayed steps, found \(steps.count)")
        }
        let durationNs = session.endNs + tailNs
        var scenario = Scenario(
            name: name,
            description:
                "A recorded session replayed by `feedsim import sessions`: \(session.gestures.count) gestures, "
                + "\(session.steps.count - session.gestures.count) app events, over a synthetic feed.",
            device: settings.device, durationNs: durationNs, feed: FeedSettings(postCount: settings.postCount),
            script: steps)
        let defaultLimitNs = Int64(RunLimits.defaultMaxSimulatedSeconds * 1e9)
        if durationNs > defaultLimitNs {
            // Hours of vsyncs at 120 Hz and what they set off, as the default's hour is.
            let hours = Double(durationNs) / 3.6e12
            scenario.limits = RunLimits(
                maxEvents: Int((Double(RunLimits.defaultMaxEvents) * hours).rounded(.up)), maxSimulatedNs: durationNs)
        }
        return scenario
    }

    /// The replay's script, in time order.
    static func script(for session: RecordedSession) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        for (index, step) in session.steps.enumerated() {
            switch step {
            case let .gesture(gesture):
                steps.append(
                    ScriptStep(
                        atNs: gesture.downNs,
                        action: .drag(trajectory: gesture.trajectory, release: .stop, deceleration: .normal)))
                let velocity = min(max(LiftVelocity.estimate(gesture), -maximumFlingSpeed), maximumFlingSpeed)
                let flingNs = gesture.upNs + flingDelayNs
                if abs(velocity) >= minimumFlingSpeed, flingNs < nextTouchDown(after: index, in: session) {
                    steps.append(
                        ScriptStep(atNs: flingNs, action: .fling(velocityPtPerS: velocity, deceleration: .normal)))
                }
            case let .app(atNs, event):
                steps.append(ScriptStep(atNs: atNs, action: action(for: event)))
            }
        }
        // A stable sort: app events during a drag go after its touch-down.
        return steps.enumerated().sorted { ($0.element.atNs, $0.offset) < ($1.element.atNs, $1.offset) }.map(\.element)
    }

    /// UIScrollView's slowest release that still decelerates, in pt/s
    /// (`ScrollPhysics.minimumFlingSpeed`).
    package static let minimumFlingSpeed = 50.0
    /// The fastest fling a scenario takes, in pt/s.
    package static let maximumFlingSpeed = 100_000.0

    /// When the gesture after step `index` touches down, or never.
    private static func nextTouchDown(after index: Int, in session: RecordedSession) -> Int64 {
        for step in session.steps[(index + 1)...] {
            if case let .gesture(next) = step { return next.downNs }
        }
        return .max
    }

    /// The script action an app event replays as.
    static func action(for event: RecordedAppEvent) -> ScriptAction {
        switch event {
        case .refresh: .refresh
        case let .background(durationNs): .background(durationNs: durationNs)
        case let .rotate(width, height): .rotate(widthPt: width, heightPt: height)
        case let .textSize(scale): .textSize(scale: scale)
        case .statusBarTap: .scrollToTop
        case .like: .like
        }
    }
}
