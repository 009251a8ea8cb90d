import FeedEngine
import FeedExplore
import FeedScenario
import Foundation
import Testing

/// A strategy that claims every cause and holds none: what `none` does,
/// with `anchor`'s promises. Every change that moves the reader breaks it.
struct PromisesEverythingKeeper: PositionKeeper {
    static let name = "promises_everything"
    static let heldCauses = Set(ChangeCause.allCases)
    func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome { PlaceOutcome(.keepOffset) }
    func heightsChangedAbove(by delta: Double) -> PlaceCorrection { .keepOffset }
    func afterRelayout(anchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection { .keepOffset }
}

/// `anchor`, but for a relayout of a post deep in the feed (index 45 or
/// more), whose place it forgets: a failure that needs the reader far down,
/// where a long session's many flings bring them.
struct ForgetsDeepPostsKeeper: PositionKeeper {
    static let name = "forgets_deep_posts"
    static let heldCauses = AnchorKeeper.heldCauses
    var anchor = AnchorKeeper()
    mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) { anchor.batchWillApply(batch, list: list) }
    func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        anchor.batchDidApply(batch, list: list)
    }
    func heightsChangedAbove(by delta: Double) -> PlaceCorrection { anchor.heightsChangedAbove(by: delta) }
    func afterRelayout(anchor scrollAnchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        scrollAnchor.index >= 45 ? .keepOffset : anchor.afterRelayout(anchor: scrollAnchor, list: list)
    }
}

/// `anchor`, but a relayout misplaces the reader by 300 pt after no data
/// change or after ten or more, and by 30 pt after one to nine: a failure
/// whose size dips as the changes before it are removed, and comes back
/// once they are all gone.
struct DipsWithChangesKeeper: PositionKeeper {
    static let name = "dips_with_changes"
    static let heldCauses = AnchorKeeper.heldCauses
    var anchor = AnchorKeeper()
    var batches = 0
    mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) {
        batches += 1
        anchor.batchWillApply(batch, list: list)
    }
    func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        anchor.batchDidApply(batch, list: list)
    }
    func heightsChangedAbove(by delta: Double) -> PlaceCorrection { anchor.heightsChangedAbove(by: delta) }
    func afterRelayout(anchor scrollAnchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        .adjustOffset(by: batches == 0 || batches >= 10 ? 300 : 30)
    }
}

/// `anchor`, but a relayout misplaces the reader by 300 pt when post 30's
/// top rests within a few points of one place on the screen: a failure
/// that needs the reader's place to the point, which a jump to a post's
/// top never gives.
struct MissesAtOnePlaceKeeper: PositionKeeper {
    static let name = "misses_at_one_place"
    static let heldCauses = AnchorKeeper.heldCauses
    /// Where post 30's top must sit for the miss: eight flings leave it at 31.3 pt.
    static let place: ClosedRange<Double> = 28...34
    var anchor = AnchorKeeper()
    mutating func batchWillApply(_ batch: PlaceBatch, list: FeedListView) { anchor.batchWillApply(batch, list: list) }
    func batchDidApply(_ batch: PlaceBatch, list: FeedListView) -> PlaceOutcome {
        anchor.batchDidApply(batch, list: list)
    }
    func heightsChangedAbove(by delta: Double) -> PlaceCorrection { anchor.heightsChangedAbove(by: delta) }
    func afterRelayout(anchor scrollAnchor: ScrollAnchor, list: FeedListView) -> PlaceCorrection {
        let held = anchor.afterRelayout(anchor: scrollAnchor, list: list)
        guard scrollAnchor.index == 30, Self.place.contains(scrollAnchor.viewportY), case let .moveOffset(offset) = held
        else {
            return held
        }
        return .moveOffset(to: offset + 300)
    }
}

@Suite("Shrinker")
struct ShrinkerTests {
    static let strategy = PositionStrategy(PromisesEverythingKeeper.self)

    /// The first sessions of a seed that break the strategy's claim.
    static func failingSessions(count: Int) throws -> [(Scenario, Violation)] {
        PositionStrategy.register(strategy)
        var config = ExploreConfig.defaults
        config.strategies = [strategy]
        config.steps = 6...12
        let device = try ExploreFixtures.device()
        let generator = SessionGenerator(config: config, device: device, seed: 21)
        let runner = SessionRunner(device: device)
        var found: [(Scenario, Violation)] = []
        var index = 0
        while found.count < count, index < 200 {
            let session = generator.session(index)
            if let violation = runner.run(session, checkDeterminism: false).flatMap(\.violations).first(where: {
                $0.property == .drift
            }) {
                found.append((session, violation))
            }
            index += 1
        }
        return found
    }

    /// Twelve flings down a feed, with likes between them that delta
    /// debugging removes: the way past post 45.
    static let deepFlings = (0..<12).map { index in
        """
        {"at_ms": \(1000 + index * 2500), "action": "fling", "velocity_pt_s": 2500}, \
        {"at_ms": \(2000 + index * 2500), "action": "like"}
        """
    }

    /// The first violation of a session of `posts` posts and `seconds`
    /// under the strategy `strategy`, whose script is `steps` (JSON) and a
    /// rotation at `rotatingAtMs`, and its shrink with a budget of 400 runs.
    static func shrinkFirstViolation(
        under strategy: String, posts: Int, seconds: Int, steps: [String], rotatingAtMs: Int,
        readBack: (@Sendable (String) -> Scenario?)? = nil
    ) throws -> (Violation, Shrinker.Result) {
        let json = """
            {"schema_version": 1, "name": "planted", "description": "d", "device": "iphone-pro-120hz", "seed": 1,
             "duration_s": \(seconds), "feed": {"post_count": \(posts)},
             "variants": [{"name": "\(strategy)", "position_strategy": "\(strategy)"}],
             "script": [\(steps.joined(separator: ", ")), {"at_ms": \(rotatingAtMs), "action": "rotate", "width_pt": \
            852, "height_pt": 393}]}
            """
        let device = try ExploreFixtures.device()
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "planted.json", deviceDirectories: [ExploreFixtures.devicesFolder])
        let runner = SessionRunner(device: device)
        let violation = try #require(runner.run(loaded.scenario, checkDeterminism: false).flatMap(\.violations).first)
        var shrinker = Shrinker(runner: runner, budget: 400)
        if let readBack { shrinker.readBack = readBack }
        return (violation, shrinker.shrink(loaded.scenario, keeping: violation))
    }

    @Test("A shrunk session is smaller, still fails the same way, and reproduces from its file")
    func shrinksKeepingIdentity() throws {
        let device = try ExploreFixtures.device()
        let runner = SessionRunner(device: device)
        let shrinker = Shrinker(runner: runner, budget: 300)
        let failing = try ShrinkerTests.failingSessions(count: 5)
        #expect(failing.count == 5)
        var stepsAfter: [Int] = []
        for (session, violation) in failing {
            let result = shrinker.shrink(session, keeping: violation)
            #expect(result.violation.identity == violation.identity, "\(session.name): \(result.violation.sentence)")
            // The same size of failure, not a smaller overshoot of the same cause.
            #expect(violation.excessPt > 1)
            #expect(
                result.violation.excessPt >= violation.excessPt / 2,
                "\(session.name): \(violation.sentence) shrank to \(result.violation.sentence)")
            #expect(result.scenario.script.count <= session.script.count)
            #expect(result.scenario.variants.map(\.name) == [ShrinkerTests.strategy.name])
            #expect(result.runs <= 300)
            stepsAfter.append(result.scenario.script.count)
            // The file explore writes reads back and fails the same way.
            let text = result.scenario.fileText
            let reread = try ScenarioLoader.load(
                data: Data(text.utf8), file: "repro.json", deviceDirectories: [ExploreFixtures.devicesFolder])
            let again = runner.run(reread.scenario, checkDeterminism: false).flatMap(\.violations)
            #expect(again.contains { $0.identity == violation.identity }, "\(session.name) shrunk to:\n\(text)")
        }
        // The issue's goal: most repros have at most five steps.
        #expect(stepsAfter.filter { $0 <= 5 }.count >= 4, "steps after shrinking: \(stepsAfter)")
    }

    @Test("A violation under a prefetch variant names the variant, and shrinks to that variant alone")
    func prefetchVariantViolationsShrink() throws {
        PositionStrategy.register(ShrinkerTests.strategy)
        var config = ExploreConfig.defaults
        config.strategies = [ShrinkerTests.strategy]
        config.prefetchPolicies = ["window", "velocity_prefetch"]
        config.steps = 6...12
        let device = try ExploreFixtures.device()
        let generator = SessionGenerator(config: config, device: device, seed: 21)
        let runner = SessionRunner(device: device)
        var found: (Scenario, Violation)?
        var index = 0
        while found == nil, index < 200 {
            let session = generator.session(index)
            let runs = runner.run(session, checkDeterminism: false)
            if let run = runs.last, let violation = run.violations.first(where: { $0.property == .drift }) {
                #expect(violation.strategy == run.strategy)
                found = (session, violation)
            }
            index += 1
        }
        let (session, violation) = try #require(found)
        #expect(violation.strategy == "promises_everything-velocity_prefetch")
        let result = Shrinker(runner: runner, budget: 300).shrink(session, keeping: violation)
        #expect(result.violation.identity == violation.identity)
        #expect(result.scenario.variants.map(\.name) == ["promises_everything-velocity_prefetch"])
        #expect(
            result.scenario.script.count < session.script.count,
            "\(session.script.count) → \(result.scenario.script.count)")
    }

    /// The shrinker's own goal for long sessions (docs/explore.md, "The
    /// shrinker on long sessions"): a failure that needs the reader's place
    /// keeps little of the way there. Twelve flings, with likes
    /// between them that delta debugging removes, bring the reader past
    /// post 45; a rotation there breaks the strategy's claim. No fling can
    /// go alone (each is needed to get that far) and flings do not merge:
    /// without the jump the repro keeps ten or more.
    @Test("The way to a place deep in the feed shrinks to a jump there")
    func wayToAPlaceBecomesAJump() throws {
        let strategy = PositionStrategy(ForgetsDeepPostsKeeper.self)
        PositionStrategy.register(strategy)
        let (violation, result) = try Self.shrinkFirstViolation(
            under: "forgets_deep_posts", posts: 400, seconds: 40, steps: Self.deepFlings, rotatingAtMs: 32000)
        #expect(violation.cause == ChangeCause.widthChange.rawValue, "\(violation.sentence)")
        #expect(result.violation.identity == violation.identity)
        let actions = result.scenario.script.map(\.action)
        // A jump to where the flings went, then as few flings as measure
        // enough rows above the reader to keep the failure's size (a jump
        // leaves the rows it passes estimated), then the rotation.
        #expect(actions.count <= 5, "shrunk to \(actions)")
        guard case .scrollTo(.post, false) = actions.first, case .rotate = actions.last else {
            Issue.record("expected a jump first and the rotation last, found \(actions)")
            return
        }
    }

    /// Eight flings, with likes between them, bring the reader to a place
    /// where a rotation breaks the strategy's claim, but only within a few
    /// points of it: every fling is needed, flings do not merge, and a
    /// jump to a post puts its top at the top of the screen, away from the
    /// place. A jump into the post to the point where the flings left the
    /// reader, steered and tried a few points either side, keeps it.
    @Test("A failure at one place to the point shrinks to a jump to that point")
    func wayToAnExactPlaceBecomesAPointJump() throws {
        let strategy = PositionStrategy(MissesAtOnePlaceKeeper.self)
        PositionStrategy.register(strategy)
        let flings = (0..<8).map { index in
            """
            {"at_ms": \(1000 + index * 2500), "action": "fling", "velocity_pt_s": \(1500 + 130 * index)}, \
            {"at_ms": \(2000 + index * 2500), "action": "like"}
            """
        }
        let (violation, result) = try Self.shrinkFirstViolation(
            under: "misses_at_one_place", posts: 400, seconds: 26, steps: flings, rotatingAtMs: 24000)
        #expect(
            violation.cause == ChangeCause.widthChange.rawValue && violation.excessPt > 250, "\(violation.sentence)")
        #expect(result.violation.identity == violation.identity)
        let actions = result.scenario.script.map(\.action)
        #expect(actions.count == 2, "shrunk to \(actions)")
        guard case .scrollTo(.intoPost, false) = actions.first, case .rotate = actions.last else {
            Issue.record("expected a jump into a post first and the rotation last, found \(actions)")
            return
        }
    }

    /// A repro is written as a file and read back by whoever runs it: a
    /// shrunk scenario that does not fail the same way once read back from
    /// its file is not a repro. Here the file reader drops every `repeat`,
    /// as the decoder once expanded them and runs ignored them: the shrink
    /// that rests on a repeated jump is refused, and the session is kept as
    /// found, which fails from its file.
    @Test("A shrunk scenario that does not fail once read back from its file is refused, and the session kept as found")
    func reproMustFailFromItsFile() throws {
        let strategy = PositionStrategy(ForgetsDeepPostsKeeper.self)
        PositionStrategy.register(strategy)
        let dropsRepeats: @Sendable (String) -> Scenario? = { text in
            guard var scenario = try? ScenarioLoader.scenario(from: Data(text.utf8), file: "repro.json") else {
                return nil
            }
            scenario.script = scenario.script.map { ScriptStep(atNs: $0.atNs, action: $0.action) }
            return scenario
        }
        let (violation, result) = try Self.shrinkFirstViolation(
            under: "forgets_deep_posts", posts: 400, seconds: 40, steps: Self.deepFlings, rotatingAtMs: 32000,
            readBack: dropsRepeats)
        let reread = try #require(dropsRepeats(result.scenario.fileText))
        let runner = SessionRunner(device: try ExploreFixtures.device())
        #expect(
            runner.run(reread, checkDeterminism: false).flatMap(\.violations).contains {
                $0.identity == violation.identity
            },
            "the repro does not fail from its file: \(result.scenario.script.map(\.action))")
        #expect(result.scenario.script.allSatisfy { $0.repeatCount == 1 }, "\(result.scenario.script)")
    }

    /// Twelve likes, then a rotation, under a strategy that misplaces the
    /// reader by 300 pt after ten changes or none and by 30 pt after one to
    /// nine. Removing likes while keeping half the size stops at ten of
    /// them; the second round passes through the smaller failures to the
    /// rotation alone, which fails by 300 pt again.
    @Test("A failure whose size dips as steps go and comes back shrinks past the dip")
    func shrinksPastADip() throws {
        let strategy = PositionStrategy(DipsWithChangesKeeper.self)
        PositionStrategy.register(strategy)
        let likes = (0..<12).map { #"{"at_ms": \#(1000 + $0 * 1000), "action": "like"}"# }
        let (violation, result) = try Self.shrinkFirstViolation(
            under: "dips_with_changes", posts: 100, seconds: 16, steps: likes, rotatingAtMs: 14000)
        #expect(
            violation.cause == ChangeCause.widthChange.rawValue && violation.excessPt > 250, "\(violation.sentence)")
        #expect(result.violation.identity == violation.identity)
        #expect(
            result.violation.excessPt >= violation.excessPt * Shrinker.keptExcessFraction,
            "\(result.violation.sentence)")
        let actions = result.scenario.script.map(\.action)
        #expect(actions.count == 1, "shrunk to \(actions)")
    }

    @Test("Shrinking never accepts a failure of another identity")
    func identityIsKept() throws {
        let device = try ExploreFixtures.device()
        let runner = SessionRunner(device: device)
        let (session, violation) = try #require(try ShrinkerTests.failingSessions(count: 1).first)
        // Asked to keep a cause this session never shows, nothing smaller is accepted.
        var other = violation
        other.cause =
            violation.cause == ChangeCause.widthChange.rawValue
            ? ChangeCause.textSizeChange.rawValue : ChangeCause.widthChange.rawValue
        let result = Shrinker(runner: runner, budget: 50).shrink(session, keeping: other)
        #expect(result.scenario.script == session.script)
        #expect(result.runs == 1)
    }
}
