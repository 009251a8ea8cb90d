import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// Where layout work runs, in whole runs: the device's background cores,
/// the cost of handing results back, and what the reader sees meanwhile
/// (docs/main-thread.md).
@Suite("The main thread's budget")
struct MainThreadBudgetTests {
    /// A paged feed with photos, flung and rotated, under `layout`.
    static func run(_ layout: String?, timeline: Bool = false) throws -> RunResult {
        let field = layout.map { #", "layout_strategy": "\#($0)""# } ?? ""
        let json = """
            {"schema_version": 1, "name": "budget", "description": "d", "device": "iphone-60hz", "seed": 5, \
            "duration_s": 12, "feed": {"post_count": 300, "page_size": 25, "media_fraction": 0.5}, \
            "engine": {"position_strategy": "anchor"\(field)}, "script": [\
            {"at_ms": 1000, "action": "fling", "velocity_pt_s": 4000, "repeat": {"count": 3, "every_ms": 2000}}, \
            {"at_ms": 8000, "action": "rotate", "width_pt": 844, "height_pt": 390}, \
            {"at_ms": 9000, "action": "fling", "velocity_pt_s": 3000}]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "budget.json", deviceDirectories: [CustomStrategyTests.devices])
        let request = try #require(
            RunRequest.expand(loaded, seedOverride: nil, recordFrames: true, recordTimeline: timeline).first)
        Simulation.warmUpRuntime(for: request)
        return try Simulation(request: request).run()
    }

    /// Σ of the frames' commit parts named `part`, in nanoseconds.
    static func partTime(_ result: RunResult, _ part: String) throws -> Double {
        try #require(result.timeline).frames.flatMap(\.parts).filter { $0.name == part }.reduce(0) {
            $0 + $1.nanoseconds
        }
    }

    @Test(
        "self_sizing is the default: a run that names it is the run that does not, and nothing runs off the main thread"
    )
    func selfSizingIsTheDefault() throws {
        let unnamed = try Self.run(nil)
        let named = try Self.run("self_sizing")
        #expect(unnamed.frames == named.frames)
        #expect(unnamed.traceDigest == named.traceDigest)
        #expect(named.offMain == OffMainSummary())
    }

    @Test(
        """
        precomputed moves measuring off the main thread: less cell_measure time on it, background jobs that \
        took the work at the cores' speed, and CPU time that adds both
        """
    )
    func precomputedMovesMeasuring() throws {
        let base = try Self.run("self_sizing", timeline: true)
        let moved = try Self.run("precomputed", timeline: true)
        #expect(try Self.partTime(moved, "cell_measure") < Self.partTime(base, "cell_measure"))
        #expect(moved.offMain.jobs > 0)
        #expect(moved.offMain.heightsApplied > 0)
        #expect(moved.offMain.heightMismatches == 0, "the rotation's stale heights are dropped")
        // iphone-60hz's background cores run at half the main thread's speed.
        #expect(abs(Double(moved.offMain.busy) - 2 * moved.offMain.movedWork) <= Double(moved.offMain.jobs))
        #expect(try Self.partTime(moved, "background_result") > 0, "handing results back costs the main thread")
        let timeline = try #require(moved.timeline)
        #expect(timeline.backgroundJobs.count == moved.offMain.jobs)
        #expect(Set(timeline.backgroundJobs.map(\.core)) == [0, 1], "two cores")
    }

    @Test("async_display shows placeholders, and configures cells on the main thread without their text and media")
    func asyncDisplayShowsPlaceholders() throws {
        let base = try Self.run("self_sizing", timeline: true)
        let async = try Self.run("async_display", timeline: true)
        #expect(async.offMain.blankCellFrames > 0)
        #expect(async.offMain.blankCells >= async.offMain.blankCellFrames)
        #expect(try Self.partTime(async, "cell_configure") < Self.partTime(base, "cell_configure"))
        #expect(base.offMain.blankCellFrames == 0)
    }

    @Test(
        """
        heights landing above the reader are corrected before the rect is laid out: eight posts pushed onto a \
        two-post feed, their heights precomputed, leave the reader's post where anchor held it (explore's held \
        property, found with layout_strategies, shrunk to this)
        """
    )
    func heightsLandBeforeTheRectIsLaidOut() throws {
        let json = """
            {"schema_version": 1, "name": "held-2", "description": "d", "device": "iphone-pro-120hz", \
            "seed": 4680906139295435, "duration_s": 1, "feed": {"post_count": 2}, \
            "engine": {"estimated_item_height_pt": 106}, \
            "variants": [{"name": "anchor-precomputed", "position_strategy": "anchor", "layout_strategy": \
            "precomputed"}], \
            "script": [{"at_ms": 0, "action": "new_posts", "count": 8, "delivery": "push"}]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "held-2.json", deviceDirectories: [CustomStrategyTests.devices])
        var request = try #require(RunRequest.expand(loaded, seedOverride: nil, recordFrames: true).first)
        request.checkInvariants = true
        let result = try Simulation(request: request).run()
        #expect(result.offMain.heightsApplied > 0)
        #expect(result.holdSlips.isEmpty, "\(result.holdSlips)")
        #expect(result.drift.allSatisfy { abs($0.drift ?? 0) < 1 }, "\(result.drift)")
    }

    @Test("the cores take jobs first in, first out, each on the first core free, and count the waits")
    func coresScheduleInOrder() throws {
        var costs = try ScenarioLoader.device(
            from: Data(contentsOf: CustomStrategyTests.devices.appendingPathComponent("iphone-60hz.json")),
            file: "iphone-60hz.json"
        ).costs
        costs.cellMeasure = Rated(value: 1_000_000, rationale: "test")
        costs.measurePerTextCharacter = CostTable.notModelled
        costs.measurePerMediaItem = CostTable.notModelled
        costs.measurePerThreadRow = CostTable.notModelled
        let meter = try AllocationMeter()
        let timeline = TimelineRecorder(meter: meter)
        let model = BackgroundCoreModel(
            cores: BackgroundCores(
                cores: Rated(value: 2, rationale: "test"), speed: Rated(value: 0.5, rationale: "test")),
            costModel: CostModel(costs: costs), scheduler: EngineSchedulerLink(), timeline: timeline)
        let cell = CellWork(kind: .measure, postID: 1, textCharacters: 0, mediaItems: 0, isThreadRow: false)
        for _ in 0..<3 { model.submit(BackgroundJob(kind: .height, cell: cell)) {} }
        #expect(model.tally.jobs == 3)
        #expect(model.tally.waits == [0, 0, 2_000_000])
        #expect(model.tally.busy == 6_000_000)
        #expect(model.tally.movedWork == 3_000_000)
        let slices = timeline.timeline.backgroundJobs
        #expect(slices.map(\.core) == [0, 1, 0])
        #expect(slices.map(\.end) == [2_000_000, 2_000_000, 4_000_000])
    }

    @Test("a device profile's background cores are checked: a whole number of cores, a speed in range")
    func backgroundCoresChecked() throws {
        let url = CustomStrategyTests.devices.appendingPathComponent("iphone-60hz.json")
        let text = try String(contentsOf: url, encoding: .utf8)
        let profile = try ScenarioLoader.device(from: Data(text.utf8), file: "d.json")
        #expect(profile.background.cores.value == 2)
        let bad = text.replacingOccurrences(of: #""cores": { "value": 2,"#, with: #""cores": { "value": 1.5,"#)
        #expect(throws: ScenarioError.self) { try ScenarioLoader.device(from: Data(bad.utf8), file: "d.json") }
    }
}
