import Determinism
import FeedScenario
import FoundationEssentials
import Glibc

/// A reader drawn from a usage model: the script of one explore session
/// whose drags, flings, pauses and app events follow the model's fits, as
/// the recorded readers' did. Everything else about the session (feed,
/// network, engine options) is drawn as for a swarm session.
struct UsageReader {
    let usage: UsagePopulation
    let device: DeviceProfile
    /// Whether the window is in landscape, for the next rotation.
    private var landscape = false

    /// The most drags one session draws; with the model's gaps, a session
    /// of `duration_s` ≤ 600 s stays far inside the script's 10,000 steps.
    static let maximumDrags = 2_000
    /// Steps end this long before the session does, as swarm sessions' do.
    static let lastStepMarginNs: Int64 = 500_000_000
    /// A fling starts this long after its drag lifts, as in a replay
    /// (`SessionReplay.flingDelayNs`): a step at the lift would reach the
    /// content while the finger still holds it.
    static let flingDelayNs: Int64 = 1_000
    /// The slowest fling UIScrollView decelerates, and the fastest a
    /// scenario takes, in pt/s.
    static let flingSpeeds = 50.0...100_000.0

    init(usage: UsagePopulation, device: DeviceProfile) {
        self.usage = usage
        self.device = device
    }

    /// The session's length: the model's, at least 1 s and at most `limitNs`.
    func drawLength(_ random: inout Xoshiro256StarStar, upTo limitNs: Int64) -> Int64 {
        let ns = Int64((usage.sessionLengthS.draw(&random) * 1e9).rounded())
        return min(max(ns, 1_000_000_000), limitNs)
    }

    /// The session's script, in time order.
    mutating func drawScript(_ random: inout Xoshiro256StarStar, durationNs: Int64) -> [ScriptStep] {
        let lastNs = durationNs - Self.lastStepMarginNs
        var steps = drawGestures(&random, until: lastNs)
        steps += drawEvents(&random, until: lastNs)
        return steps.enumerated().sorted { ($0.element.atNs, $0.offset) < ($1.element.atNs, $1.offset) }.map(\.element)
    }

    /// Drags separated by the model's gaps, each reversing the one before
    /// with the model's chance, released into a fling with its chance.
    private func drawGestures(_ random: inout Xoshiro256StarStar, until lastNs: Int64) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        var now = milliseconds(usage.gapMs.draw(&random))
        var direction = 1.0
        var drags = 0
        while now < lastNs, drags < Self.maximumDrags {
            if drags > 0, random.chance(usage.directionChange) { direction = -direction }
            let distance = direction * min(usage.dragDistancePt.draw(&random), 1_000_000)
            let durationNs = max(milliseconds(usage.dragDurationMs.draw(&random)), 1_000_000)
            let trajectory = [
                TrajectoryPoint(timeNs: 0, displacementPt: 0),
                TrajectoryPoint(timeNs: durationNs, displacementPt: distance),
            ]
            steps.append(
                ScriptStep(atNs: now, action: .drag(trajectory: trajectory, release: .stop, deceleration: .normal)))
            let liftNs = now + durationNs
            if random.chance(usage.fling) {
                let speed = min(
                    max(usage.liftSpeedPtS.draw(&random), Self.flingSpeeds.lowerBound), Self.flingSpeeds.upperBound)
                if liftNs + Self.flingDelayNs < lastNs {
                    steps.append(
                        ScriptStep(
                            atNs: liftNs + Self.flingDelayNs,
                            action: .fling(velocityPtPerS: direction * speed, deceleration: .normal)))
                }
            }
            drags += 1
            now = liftNs + max(milliseconds(usage.gapMs.draw(&random)), 2 * Self.flingDelayNs)
        }
        return steps
    }

    /// Refreshes, backgrounds, rotations, likes and text-size changes, each
    /// a Poisson process at the model's rate. Likes and text sizes draw
    /// after the others, so a model without them (rate 0) draws what it
    /// drew before they were fitted.
    private mutating func drawEvents(_ random: inout Xoshiro256StarStar, until lastNs: Int64) -> [ScriptStep] {
        var steps: [ScriptStep] = []
        let rates: [(Double, AppEvent)] = [
            (usage.refreshPerMinute, .refresh), (usage.backgroundPerMinute, .background),
            (usage.rotatePerMinute, .rotation), (usage.likePerMinute, .like),
            (usage.textSizePerMinute, .textSize),
        ]
        for (rate, kind) in rates where rate > 0 {
            var at = 0.0
            while true {
                let wait: Double = -log(max(1 - random.nextUnit(), Double.leastNormalMagnitude))
                at += wait / rate * 60e9
                guard at < Double(lastNs) else { break }
                steps.append(ScriptStep(atNs: Int64(at), action: event(kind, &random)))
            }
        }
        return steps
    }

    /// The app events the model gives rates for.
    private enum AppEvent {
        case refresh, background, rotation, like, textSize
    }

    /// How long the app stays in the background when the model has no
    /// durations to draw from (no recorded session came back): one second.
    static let fallbackBackgroundS = 1.0

    /// The script action of an app event; a rotation turns the screen the
    /// other way from the last one, and a text-size change chooses one of
    /// the recorded sizes.
    private mutating func event(_ kind: AppEvent, _ random: inout Xoshiro256StarStar) -> ScriptAction {
        switch kind {
        case .refresh: return .refresh
        case .background:
            let seconds = usage.backgroundS?.draw(&random) ?? UsageReader.fallbackBackgroundS
            return .background(durationNs: max(Int64((seconds * 1e9).rounded()), 1))
        case .rotation:
            landscape.toggle()
            let (w, h) = (device.screenWidthPt.value, device.screenHeightPt.value)
            return landscape ? .rotate(widthPt: h, heightPt: w) : .rotate(widthPt: w, heightPt: h)
        case .like: return .like
        case .textSize: return .textSize(scale: usage.drawTextSize(&random))
        }
    }

    private func milliseconds(_ ms: Double) -> Int64 { Int64((ms * 1e6).rounded()) }
}
