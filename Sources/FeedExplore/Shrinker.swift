import FeedEngine
import FeedScenario
import FeedSimulator
import FoundationEssentials

/// Shrinks a failing session to a small one that fails the same way.
///
/// A candidate counts only if it breaks the same property under the same
/// strategy with the same cause (`Violation.Identity`): a shrinker that
/// accepted any failure would wander off to a smaller, different bug and
/// lose the one it was given (Hypothesis and QuickCheck keep the failure's
/// identity the same way). A drift failure also keeps its size: at least
/// `keptExcessFraction` of the points it moved the reader beyond what the
/// edges forced, so a jump of thousands of points does not shrink into an
/// overshoot of a few, which is another bug. The size is asked of the
/// result, not of every step on the way to it (`shrink(_:keeping:)`).
///
/// First the steps after the failure, and the time after it, go (one run);
/// then script steps, by delta debugging (Zeller and Hildebrandt,
/// "Simplifying and Isolating Failure-Inducing Input", 2002), scanning on
/// after each removal. Then, in order, until a whole round changes nothing
/// or the budget of runs is spent:
/// 1. each step's numbers towards simpler values, and its time earlier;
/// 2. the run's length, the feed's size and options, the network and the
///    engine options towards their defaults;
/// 3. script steps by delta debugging again.
package struct Shrinker: Sendable {
    package let runner: SessionRunner
    /// The most candidate runs one shrink of a short session may make; a
    /// session of *n* steps gets `runsPerStep` × *n* when that is more
    /// (`budget(forSteps:)`), and 0 keeps failures as found.
    package let budget: Int
    /// Runs per script step a long session's shrink may make: delta
    /// debugging's descent costs about 2 runs a step, and each pass over the
    /// steps that are left one more.
    package static let runsPerStep = 8
    /// The share of a failure's excess (`Violation.excessPt`) a candidate
    /// must keep to count as the same failure.
    package static let keptExcessFraction = 0.5
    /// Steps a repro may keep and still be read at a glance: a first round
    /// that leaves more gets a second (`shrink(_:keeping:)`).
    package static let readableSteps = 5

    /// Reads a repro back from the text its file holds, as whoever runs
    /// it will: the scenario loader.
    package var readBack: @Sendable (String) -> Scenario? = { text in
        try? ScenarioLoader.scenario(from: Data(text.utf8), file: "repro.json")
    }

    package init(runner: SessionRunner, budget: Int) {
        self.runner = runner
        self.budget = budget
    }

    /// The runs one shrink of a session of `steps` steps may make.
    package func budget(forSteps steps: Int) -> Int {
        budget == 0 ? 0 : max(budget, Shrinker.runsPerStep * steps)
    }

    package struct Result: Sendable {
        /// The smallest failing scenario found, with one variant: the strategy.
        package var scenario: Scenario
        /// The violation it still shows.
        package var violation: Violation
        package var stepsBefore: Int
        package var runs: Int
    }

    /// Shrinks `scenario` keeping `violation`'s identity. The scenario keeps
    /// only the failing strategy's variant.
    ///
    /// The result fails the same way once read back from its file
    /// (`readBack`); a shrink whose result does not is refused, and the
    /// session is kept as found.
    ///
    /// Up to three rounds. The first accepts only candidates that keep
    /// `keptExcessFraction` of the failure's size. Its greedy path can stop
    /// where every removal takes the size below that, although a smaller
    /// session further on fails by as much again: a restore's miss depends
    /// on where the reader is, to the post, and shrinks and grows back as
    /// the steps that built the feed go. So when the first round leaves
    /// more than `readableSteps` steps, a second starts again from the
    /// session as found with a budget of its own, taking any failure of the
    /// same identity as a way through; the result is the smallest scenario
    /// either round saw that keeps the size. A third round, from there and
    /// with the same budget, also jumps to the posts near the reader's
    /// (`State.jumps`) while more than `readableSteps` steps are left.
    package func shrink(_ scenario: Scenario, keeping violation: Violation) -> Result {
        let keptExcessPt = violation.excessPt * Shrinker.keptExcessFraction
        let limit = budget(forSteps: scenario.script.count)
        var strict = State(
            shrinker: self, identity: violation.identity, leastExcessPt: keptExcessPt, keptExcessPt: keptExcessPt,
            limit: limit)
        var current = scenario
        current.variants = scenario.variants.filter { $0.name == violation.strategy }
        guard let again = strict.failure(current) else {
            // The failure needs the other variants' company (it cannot: runs
            // are independent) or is not reproducible; keep it as found.
            return Result(
                scenario: current, violation: violation, stepsBefore: scenario.script.count, runs: strict.runs)
        }
        strict.shrink(current, found: again)
        guard var smallest = strict.smallest else {
            return Result(scenario: current, violation: again, stepsBefore: scenario.script.count, runs: strict.runs)
        }
        var runs = strict.runs
        // A round that takes any failure of the identity on its way, while
        // more than `readableSteps` steps are left.
        func throughRound(from start: Scenario, found: Violation, jumpsNearby: Bool) {
            guard smallest.scenario.script.count > Shrinker.readableSteps else { return }
            var round = State(
                shrinker: self, identity: violation.identity, leastExcessPt: 0, keptExcessPt: keptExcessPt,
                limit: limit,
                jumpsNearby: jumpsNearby)
            round.smallest = smallest
            round.shrink(start, found: found)
            smallest = round.smallest ?? smallest
            runs += round.runs
        }
        throughRound(from: current, found: again, jumpsNearby: false)
        throughRound(from: smallest.scenario, found: smallest.violation, jumpsNearby: true)
        // A repro is its file: the shrunk scenario must fail the same way
        // once read back from the text it is written as, or the session
        // as found is kept.
        runs += 1
        let checkDeterminism = violation.identity.property == .determinism
        guard let reread = readBack(smallest.scenario.fileText),
            runner.run(reread, checkDeterminism: checkDeterminism, checkFlagsAlone: checkDeterminism).flatMap(
                \.violations
            ).contains(where: {
                $0.identity == violation.identity && $0.excessPt >= keptExcessPt
            })
        else {
            return Result(scenario: current, violation: again, stepsBefore: scenario.script.count, runs: runs)
        }
        return Result(
            scenario: smallest.scenario, violation: smallest.violation, stepsBefore: scenario.script.count, runs: runs)
    }

    /// How big a scenario is, compared lexicographically: steps first, then
    /// options away from their defaults, posts, length, and last the sum of
    /// the script's numbers. A candidate is tried only if it is smaller, so
    /// every accepted change shrinks the scenario and shrinking ends.
    static func size(of scenario: Scenario) -> (Int, Int, Int, Int64, Double) {
        let feed = scenario.feed
        let d = FeedSettings.defaults
        var options = [
            feed.pageSize != d.pageSize, feed.mediaFraction != FeedSettings.defaultMediaFraction,
            feed.mediaSizeKnownFraction != d.mediaSizeKnownFraction, feed.replyFraction != d.replyFraction,
            feed.repostFraction != d.repostFraction, feed.textLength != FeedSettings.defaultTextLength,
            scenario.network.profile != NetworkSettings.defaults.profile, !scenario.network.offlineWindows.isEmpty,
        ].filter { $0 }.count
        switch feed.itemHeight {
        case .content: break
        case .fixed: options += 1
        case .uniform: options += 2
        }
        let engines = [scenario.engine] + scenario.variants.map(\.engine)
        let e = EngineSettings.defaults
        for engine in engines {
            options +=
                [
                    engine.estimatedItemHeightPt != e.estimatedItemHeightPt, engine.newPostsPolicy != e.newPostsPolicy,
                    engine.debounceNs != e.debounceNs, engine.memoryWarningPolicy != e.memoryWarningPolicy,
                    engine.imageDecode != e.imageDecode, engine.diffAlgorithm != e.diffAlgorithm,
                ].filter { $0 }.count
        }
        let numbers = scenario.script.reduce(0.0) { $0 + Double($1.atNs) / 1e6 + magnitude(of: $1.action) }
        return (scenario.script.count, options, feed.postCount, scenario.durationNs, numbers)
    }

    /// The sum of an action's numbers, in its file's units, plus one for
    /// each option away from its default.
    static func magnitude(of action: ScriptAction) -> Double {
        switch action {
        case let .drag(trajectory, release, deceleration):
            trajectory.reduce(0) { $0 + abs($1.displacementPt) + Double($1.timeNs) / 1e6 }
                + (release == .fling ? 0 : 1) + (deceleration == .normal ? 0 : 1)
        case let .fling(velocity, deceleration): abs(velocity) + (deceleration == .normal ? 0 : 1)
        case let .pull(distance, duration, hold): distance + Double(duration + hold) / 1e6
        case let .newPosts(count, push): Double(count) + (push ? 0 : 1)
        case let .removePosts(count, _, push): Double(count) + (push ? 0 : 1)
        case let .contentUpdates(count): Double(count)
        case let .scrollTo(.post(index), animated): Double(index) + (animated ? 1 : 0)
        case let .scrollTo(.intoPost(index, pointsIn), animated): Double(index) + abs(pointsIn) + (animated ? 1 : 0)
        case let .scrollTo(.offset(offset), animated): offset + (animated ? 1 : 0)
        case let .background(duration): Double(duration) / 1e9
        case let .terminate(after): Double(after) / 1e9
        case let .textSize(scale): abs(scale - 1)
        case let .rotate(width, height): width + height
        case .refresh, .tapNewPosts, .scrollToTop, .like, .memoryWarning: 0
        }
    }

    /// Runs candidates and counts them.
    struct State {
        let shrinker: Shrinker
        let identity: Violation.Identity
        /// The excess a candidate's violation must reach to be taken.
        let leastExcessPt: Double
        /// The excess a candidate's violation must reach to be the result.
        let keptExcessPt: Double
        /// The runs this shrink may make.
        let limit: Int
        /// Whether a jump is also tried to the posts near the top one
        /// (`jumps`).
        var jumpsNearby = false
        var runs = 0
        /// The smallest failing candidate seen whose violation keeps
        /// `keptExcessPt`.
        var smallest: (scenario: Scenario, violation: Violation)?

        var hasBudget: Bool { runs < limit }

        /// The largest violation of the same identity, at least
        /// `leastExcessPt`, that `candidate` shows, if any; a candidate
        /// whose violation keeps `keptExcessPt` and is smaller than any
        /// before becomes `smallest`.
        mutating func failure(_ candidate: Scenario) -> Violation? {
            guard hasBudget else { return nil }
            runs += 1
            let checkDeterminism = identity.property == .determinism
            var match: Violation?
            for run in shrinker.runner.run(
                candidate, checkDeterminism: checkDeterminism, checkFlagsAlone: checkDeterminism)
            {
                for violation in run.violations
                where violation.identity == identity && violation.excessPt >= leastExcessPt {
                    if match.map({ violation.excessPt > $0.excessPt }) ?? true { match = violation }
                }
            }
            if let match, match.excessPt >= keptExcessPt,
                smallest.map({ Shrinker.size(of: candidate) < Shrinker.size(of: $0.scenario) }) ?? true
            {
                smallest = (candidate, match)
            }
            return match
        }

        /// The rounds of one shrink from `scenario`, which fails with
        /// `found`: first the steps after the failure, then steps, by delta
        /// debugging, and the passes until a whole round changes nothing or
        /// the budget is spent.
        mutating func shrink(_ scenario: Scenario, found: Violation) {
            var current = cutAfterFailure(scenario, failingAt: found.timeNs)?.0 ?? scenario
            // Steps first: every later run is shorter for each step gone, and a
            // step removed needs no simplifying. The way to the reader's place
            // first, when a jump there keeps the failure.
            current = jumps(current)?.0 ?? current
            current = deltaDebugSteps(current)?.0 ?? current
            var progress = true
            while progress, hasBudget {
                progress = false
                if let jumped = jumps(current) {
                    current = jumped.0
                    progress = true
                }
                for pass in Shrinker.passes {
                    for candidate in pass(current) where Shrinker.size(of: candidate) < Shrinker.size(of: current) {
                        guard hasBudget else { break }
                        if failure(candidate) != nil {
                            current = candidate
                            progress = true
                            break
                        }
                    }
                }
                if let smaller = deltaDebugSteps(current) {
                    current = smaller.0
                    progress = true
                }
            }
        }

        /// Delta debugging over the script: chunks of half the script, then
        /// of a quarter, and so on down to single steps, each chunk tried
        /// once in order. A chunk whose removal keeps the failure is removed
        /// and the scan goes on from the same place, so a pass over chunks
        /// of size *c* costs about *n*/*c* runs, and the whole descent about
        /// 2*n* (ddmin restarts from the first chunk after every removal,
        /// which costs up to *n*² runs on a long session whose failure needs
        /// many of its steps). Single steps are scanned again while a scan
        /// removes one. Returns the smaller scenario if it removed anything.
        mutating func deltaDebugSteps(_ scenario: Scenario) -> (Scenario, Violation)? {
            var current = scenario
            var found: Violation?
            var chunk = max(1, (current.script.count + 1) / 2)
            while !current.script.isEmpty, hasBudget {
                var removed = false
                var start = 0
                while start < current.script.count, hasBudget {
                    var candidate = current
                    candidate.script.removeSubrange(start..<min(current.script.count, start + chunk))
                    if let failure = failure(candidate) {
                        current = candidate
                        found = failure
                        removed = true
                    } else {
                        start += chunk
                    }
                }
                if chunk > 1 {
                    chunk = (chunk + 1) / 2
                } else if !removed {
                    break
                }
            }
            return found.map { (current, $0) }
        }

        /// The reader's way to a place made one jump: the steps that only
        /// move the content (drags, flings, scrolls) up to one of them, or
        /// two of them in a row, are replaced by a `scroll_to` the post at
        /// the top of the screen when the last of them was done, at the
        /// first one's time. Between a long session's first step and its
        /// failure, dozens of flings often matter only for where they leave
        /// the reader, and for the pages loaded on the way: the jump is
        /// repeated every `jumpEveryNs` until the next step kept (at most
        /// `jumpRepeats` times), so that each repetition goes on past a page
        /// the one before loaded (a jump past the content clamps at its
        /// end). Other steps keep their times. The longest prefix is tried
        /// first; one recorded run finds the places, and the first jump
        /// that keeps the failure is taken.
        mutating func jumps(_ scenario: Scenario) -> (Scenario, Violation)? {
            let motions = scenario.script.indices.filter { scenario.script[$0].action.kind.onlyMovesContent }
            guard motions.count >= 2, hasBudget else { return nil }
            runs += 1
            guard let frames = shrinker.runner.frames(of: scenario) else { return nil }
            // Every prefix of the motions, longest first, then each two in a row.
            let prefixes = (1..<motions.count).reversed().map { 0...$0 }
            let pairs = (1..<motions.count - 1).map { $0...($0 + 1) }
            let spans = prefixes + pairs
            /// The span's motions replaced by a jump to `target`, if smaller,
            /// with the time until the next step kept and the place the
            /// motions left the reader at.
            func jump(
                over span: ClosedRange<Int>, to target: (FrameRecord) -> ScrollTarget?
            ) -> (Scenario, Int64, FrameRecord)? {
                let replaced = Array(motions[span])
                let last = replaced[replaced.count - 1]
                let from = scenario.script[replaced[0]].atNs
                let until = last + 1 < scenario.script.count ? scenario.script[last + 1].atNs : scenario.durationNs
                guard let place = frames.last(where: { $0.time < until }), let target = target(place) else {
                    return nil
                }
                let repeats = Int(min(Int64(Shrinker.jumpRepeats), max(1, (until - from) / Shrinker.jumpEveryNs)))
                let step = ScriptStep(
                    atNs: from, action: .scrollTo(target: target, animated: false),
                    repeatCount: repeats, repeatEveryNs: repeats > 1 ? Shrinker.jumpEveryNs : 0)
                var candidate = scenario
                candidate.script = scenario.script.indices.filter { !replaced.contains($0) }.map { scenario.script[$0] }
                candidate.script.insert(step, at: replaced[0])
                guard Shrinker.size(of: candidate) < Shrinker.size(of: scenario) else { return nil }
                return (candidate, until, place)
            }
            /// The post `offset` from the one at the top where the motions
            /// left the reader.
            func post(_ offset: Int) -> (FrameRecord) -> ScrollTarget? {
                { place in place.visible.first.flatMap { $0 + offset >= 0 ? .post(index: $0 + offset) : nil } }
            }
            for span in spans {
                guard hasBudget else { return nil }
                if let (candidate, _, _) = jump(over: span, to: post(0)), let failure = failure(candidate) {
                    return (candidate, failure)
                }
            }
            // A failure that rests on where the reader is (a restore's miss)
            // can need the place to the post, or to the point: in the last
            // round, among a few motions, each span is tried again with a
            // jump to the posts nearest the top one, nearest first, then to
            // the point the motions left the reader at, and to those a few
            // points from it.
            guard jumpsNearby && motions.count <= Shrinker.nearbyJumpMotions else { return nil }
            for offset in (1...Shrinker.nearbyJumpPosts).flatMap({ [$0, -$0] }) {
                for span in spans {
                    guard hasBudget else { return nil }
                    if let (candidate, _, _) = jump(over: span, to: post(offset)), let failure = failure(candidate) {
                        return (candidate, failure)
                    }
                }
            }
            for span in spans {
                if let found = jumpToPoint(over: span, jump: jump) { return found }
            }
            return nil
        }

        /// A jump over `span` to the point in the top post the motions left
        /// the reader at. A jump leaves the rows it passes estimated, and
        /// the rows it lands on are measured as they show, so a jump to the
        /// same point lands some way from it: the jump is steered, from
        /// where a recorded run of it landed, up to `jumpSteerRuns` times
        /// while it lands in the same post. Then it is tried, and the points
        /// `nearbyJumpStepPt` apart within `nearbyJumpPoints` of it.
        mutating func jumpToPoint(
            over span: ClosedRange<Int>,
            jump: (ClosedRange<Int>, (FrameRecord) -> ScrollTarget?) -> (Scenario, Int64, FrameRecord)?
        ) -> (Scenario, Violation)? {
            guard let (_, until, place) = jump(span, { _ in .post(index: 0) }), let top = place.visible.first else {
                return nil
            }
            var into = place.pointsIntoFirstRow.rounded()
            for _ in 0..<Shrinker.jumpSteerRuns {
                guard hasBudget, let (candidate, _, _) = jump(span, { _ in .intoPost(index: top, pointsIn: into) })
                else { break }
                runs += 1
                guard let landed = shrinker.runner.frames(of: candidate)?.last(where: { $0.time < until }),
                    landed.visible.first == top
                else { break }
                let miss = place.pointsIntoFirstRow - landed.pointsIntoFirstRow
                guard abs(miss) >= 0.5 else { break }
                into = (into + miss).rounded()
            }
            let steps = Int(Shrinker.nearbyJumpPoints / Shrinker.nearbyJumpStepPt)
            for delta in [0] + (1...steps).flatMap({ [$0, -$0] }) {
                guard hasBudget else { return nil }
                let target = ScrollTarget.intoPost(
                    index: top, pointsIn: into + Double(delta) * Shrinker.nearbyJumpStepPt)
                if let (candidate, _, _) = jump(span, { _ in target }), let failure = failure(candidate) {
                    return (candidate, failure)
                }
            }
            return nil
        }

        /// The script without the steps after the failure and the run ended
        /// a second after it: a deterministic run's failure cannot depend on
        /// what happens after it, so one run usually removes a share of a
        /// long session's steps for free.
        mutating func cutAfterFailure(_ scenario: Scenario, failingAt time: Int64) -> (Scenario, Violation)? {
            let second: Int64 = 1_000_000_000
            var candidate = scenario
            candidate.script = scenario.script.filter { $0.atNs <= time }
            let end = (time + 2 * second - 1) / second * second
            let lastStep = candidate.script.last?.lastNs ?? 0
            if end < candidate.durationNs, lastStep < end { candidate.durationNs = end }
            guard Shrinker.size(of: candidate) < Shrinker.size(of: scenario), let failure = failure(candidate) else {
                return nil
            }
            return (candidate, failure)
        }
    }

    /// Ways to make a scenario simpler, each giving candidates simplest first.
    typealias Pass = @Sendable (Scenario) -> [Scenario]

    static let passes: [Pass] = [
        mergedDrags, mergedNewPosts, simplerSteps, earlierSteps, shorterRun, smallerFeed, plainerFeed, plainerWorld,
    ]

    /// The most repetitions of a jump (`State.jumps`), and the time between
    /// them: long enough for a page asked for at the content's end to land
    /// on a fast link, few enough that a jump stays one small step.
    static let jumpRepeats = 8
    static let jumpEveryNs: Int64 = 1_000_000_000
    /// In a shrink's last round, a jump is also tried to the
    /// `nearbyJumpPosts` posts either side of the top one when the script
    /// has at most `nearbyJumpMotions` motions.
    static let nearbyJumpMotions = 8
    static let nearbyJumpPosts = 16
    /// In the same round, a jump is also tried to the point in the top post
    /// the motions left the reader at, steered by up to `jumpSteerRuns`
    /// recorded runs, and to the points `nearbyJumpStepPt` apart within
    /// `nearbyJumpPoints` of it: a restore's miss can hang on the reader's
    /// place to a few points (8 pt wide in one long session's failure).
    static let jumpSteerRuns = 3
    static let nearbyJumpPoints = 32.0
    static let nearbyJumpStepPt = 4.0

    /// Two batches of new posts delivered the same way, with no other such
    /// batch between them, made one at the later one's time, of both
    /// counts: a feed grown by many pushes through a long session often
    /// needs only its size when it fails.
    static let mergedNewPosts: Pass = { scenario in
        var candidates: [Scenario] = []
        let steps = scenario.script
        for push in [true, false] {
            let batches = steps.indices.filter {
                if case .newPosts(_, push) = steps[$0].action { steps[$0].repeatCount == 1 } else { false }
            }
            for (earlier, later) in zip(batches, batches.dropFirst()) {
                guard case let .newPosts(first, _) = steps[earlier].action,
                    case let .newPosts(second, _) = steps[later].action
                else { continue }
                var candidate = scenario
                candidate.script[later].action = .newPosts(count: min(100_000, first + second), push: push)
                candidate.script.remove(at: earlier)
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// Two drags in a row made one, at the first's time, over the sum of
    /// their distances and the longer duration: a long session's place is
    /// often reached by many drags, each of which delta debugging finds
    /// needed, where one drag to the same place would do.
    static let mergedDrags: Pass = { scenario in
        var candidates: [Scenario] = []
        let steps = scenario.script
        for index in steps.indices.dropLast() {
            guard steps[index].repeatCount == 1, steps[index + 1].repeatCount == 1,
                case let .drag(first, _, _) = steps[index].action,
                case let .drag(second, secondRelease, secondDeceleration) = steps[index + 1].action,
                let a = first.last, let b = second.last
            else { continue }
            let merged = [
                TrajectoryPoint(timeNs: 0, displacementPt: 0),
                TrajectoryPoint(timeNs: max(a.timeNs, b.timeNs), displacementPt: a.displacementPt + b.displacementPt),
            ]
            var candidate = scenario
            candidate.script[index].action = .drag(
                trajectory: merged, release: secondRelease, deceleration: secondDeceleration)
            candidate.script.remove(at: index + 1)
            candidates.append(candidate)
        }
        return candidates
    }

    /// Each step's action with simpler numbers.
    static let simplerSteps: Pass = { scenario in
        var candidates: [Scenario] = []
        for (index, step) in scenario.script.enumerated() {
            for action in simpler(step.action) where action != step.action {
                var candidate = scenario
                candidate.script[index].action = action
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// Steps moved to whole seconds, or to the step before them.
    static let earlierSteps: Pass = { scenario in
        var candidates: [Scenario] = []
        for (index, step) in scenario.script.enumerated() {
            let previous = index == 0 ? 0 : scenario.script[index - 1].atNs
            for time in [previous, step.atNs / 1_000_000_000 * 1_000_000_000] where time < step.atNs && time >= previous
            {
                var candidate = scenario
                candidate.script[index].atNs = time
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// The run ending a few seconds after its last step.
    static let shorterRun: Pass = { scenario in
        let lastStep = scenario.script.last?.lastNs ?? 0
        let second: Int64 = 1_000_000_000
        return [lastStep + 2 * second, lastStep + 5 * second, scenario.durationNs / 2]
            .map { ($0 + second - 1) / second * second }
            .filter { $0 < scenario.durationNs && $0 > lastStep && $0 >= second }
            .map { duration in
                var candidate = scenario
                candidate.durationNs = duration
                return candidate
            }
    }

    /// Fewer posts: the fewest first.
    static let smallerFeed: Pass = { scenario in
        let count = scenario.feed.postCount
        return [1, 3, 10, 30, count / 2, count * 3 / 4].filter { $0 < count && $0 >= 1 }.map { posts in
            var candidate = scenario
            candidate.feed.postCount = posts
            for (index, step) in candidate.script.enumerated() {
                guard case let .scrollTo(target, animated) = step.action else { continue }
                switch target {
                case let .post(postIndex) where postIndex >= posts,
                    let .intoPost(postIndex, _) where postIndex >= posts:
                    candidate.script[index].action = .scrollTo(target: .post(index: posts - 1), animated: animated)
                case .post, .intoPost, .offset: break
                }
            }
            return candidate
        }
    }

    /// The feed's options at their defaults, one at a time.
    static let plainerFeed: Pass = { scenario in
        let d = FeedSettings.defaults
        let edits: [(inout FeedSettings) -> Void] = [
            { $0.pageSize = d.pageSize }, { $0.mediaFraction = 0 },
            { $0.mediaSizeKnownFraction = d.mediaSizeKnownFraction },
            { $0.replyFraction = d.replyFraction }, { $0.repostFraction = d.repostFraction },
            { $0.itemHeight = .content },
            { $0.itemHeight = .fixed(100) }, { $0.mediaFraction = FeedSettings.defaultMediaFraction },
        ]
        return edits.compactMap { edit in
            var candidate = scenario
            edit(&candidate.feed)
            return candidate.feed == scenario.feed ? nil : candidate
        }
    }

    /// The network at Wi-Fi with no offline window, and the engine's
    /// options (but its strategy) at their defaults, one at a time.
    static let plainerWorld: Pass = { scenario in
        let d = EngineSettings.defaults
        var candidates: [Scenario] = []
        if scenario.network != .defaults {
            var candidate = scenario
            candidate.network = .defaults
            candidates.append(candidate)
            if !scenario.network.offlineWindows.isEmpty {
                candidate = scenario
                candidate.network.offlineWindows = []
                candidates.append(candidate)
            }
        }
        let edits: [(inout EngineSettings) -> Void] = [
            { $0.estimatedItemHeightPt = d.estimatedItemHeightPt }, { $0.newPostsPolicy = d.newPostsPolicy },
            { $0.debounceNs = d.debounceNs }, { $0.memoryWarningPolicy = d.memoryWarningPolicy },
            { $0.imageDecode = d.imageDecode }, { $0.diffAlgorithm = d.diffAlgorithm },
        ]
        for edit in edits {
            var candidate = scenario
            edit(&candidate.engine)
            for index in candidate.variants.indices { edit(&candidate.variants[index].engine) }
            if candidate.variants.map(\.engine) != scenario.variants.map(\.engine) { candidates.append(candidate) }
        }
        return candidates
    }

    /// Simpler versions of `action`, simplest first.
    static func simpler(_ action: ScriptAction) -> [ScriptAction] {
        func halves(_ value: Double, unit: Double) -> [Double] {
            let rounded = (value / unit).rounded() * unit
            return [rounded, (value / 2 / unit).rounded() * unit].filter { $0 != 0 }
        }
        switch action {
        case let .drag(trajectory, release, deceleration):
            guard let last = trajectory.last else { return [] }
            var options: [ScriptAction] = []
            for distance in halves(last.displacementPt, unit: 100) {
                options.append(
                    .drag(
                        trajectory: [
                            TrajectoryPoint(timeNs: 0, displacementPt: 0),
                            TrajectoryPoint(timeNs: last.timeNs, displacementPt: distance),
                        ],
                        release: release, deceleration: deceleration))
            }
            let plain = [
                TrajectoryPoint(timeNs: 0, displacementPt: 0),
                TrajectoryPoint(timeNs: 300_000_000, displacementPt: last.displacementPt),
            ]
            options.append(.drag(trajectory: plain, release: release, deceleration: deceleration))
            options.append(.drag(trajectory: trajectory, release: .stop, deceleration: .normal))
            options.append(.drag(trajectory: trajectory, release: release, deceleration: .normal))
            return options
        case let .fling(velocity, deceleration):
            return halves(velocity, unit: 1000).map { .fling(velocityPtPerS: $0, deceleration: deceleration) }
                + [.fling(velocityPtPerS: velocity, deceleration: .normal)]
        case let .pull(distance, duration, hold):
            return [
                .pull(distancePt: 100, durationNs: duration, holdNs: hold),
                .pull(distancePt: distance, durationNs: 300_000_000, holdNs: hold),
                .pull(distancePt: distance, durationNs: duration, holdNs: 0),
            ]
        case let .newPosts(count, push):
            return [
                .newPosts(count: 1, push: push), .newPosts(count: max(1, count / 2), push: push),
                .newPosts(count: count, push: true),
            ]
        case let .removePosts(count, place, push):
            return [
                .removePosts(count: 1, place: place, push: push),
                .removePosts(count: max(1, count / 2), place: place, push: push),
                .removePosts(count: count, place: place, push: true),
            ]
        case let .contentUpdates(count):
            return [.contentUpdates(count: 1), .contentUpdates(count: max(1, count / 2))]
        case let .scrollTo(target, animated):
            var options: [ScriptAction] = [.scrollTo(target: target, animated: false)]
            switch target {
            case let .post(index): options.append(.scrollTo(target: .post(index: index / 2), animated: animated))
            case let .intoPost(index, pointsIn):
                options.append(.scrollTo(target: .post(index: index), animated: animated))
                options += halves(pointsIn, unit: 10).map {
                    .scrollTo(target: .intoPost(index: index, pointsIn: $0), animated: animated)
                }
            case let .offset(offset):
                options += halves(offset, unit: 1000).map { .scrollTo(target: .offset($0), animated: animated) }
            }
            return options
        case .background:
            return [.background(durationNs: 1_000_000_000)]
        case .terminate:
            return [.terminate(relaunchAfterNs: 0)]
        case .textSize(let scale):
            return scale > 1 ? [.textSize(scale: 2)] : []
        case .refresh, .tapNewPosts, .scrollToTop, .like, .memoryWarning, .rotate:
            return []
        }
    }
}
