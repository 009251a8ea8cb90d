import FeedReports
import FeedScenario
import FeedSimTestSupport
import FeedSimulator
import Foundation
import Testing

/// `feedsim _run-batch`, the worker `run` starts: many runs in one process,
/// each with the numbers it has alone.
@Suite("Batch workers")
struct BatchWorkerTests {
    /// A bundled scenario run, as an order.
    static func order(_ name: String, variant: String, hz: Int) -> RunOrder {
        let file = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/\(name).json").path
        let seed = (try? BatchWorkerTests.seed(of: file)) ?? 0
        return RunOrder(file: file, refreshHz: hz, seed: seed, variant: variant, frames: true, trace: false)
    }

    /// The scenario's own seed, as `run` uses it.
    static func seed(of file: String) throws -> UInt64 {
        let object =
            try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: file))) as? [String: Any]
        return (object?["seed"] as? NSNumber)?.uint64Value ?? 0
    }

    /// Runs `orders` in one worker and returns its replies, one per order.
    static func runBatch(_ orders: [RunOrder], in folder: ScratchFolder, named name: String) throws -> [RunReply] {
        let lines = try orders.map { String(decoding: try $0.line(), as: UTF8.self) }.joined()
        try folder.write(lines, to: name)
        let outcome = try FeedSimProcess.run(["_run-batch", "--orders", name], in: folder.url, timeout: 600)
        #expect(outcome.status == 0, "\(outcome)")
        let replies = outcome.stdout.split(separator: "\n").compactMap { RunReply.decode(line: Data($0.utf8)) }
        #expect(replies.count == orders.count, "\(outcome)")
        return replies
    }

    static let others = [
        order("threads-through-tuner", variant: "hide_replies", hz: 120),
        order("pull-to-refresh-at-top", variant: "none", hz: 120),
        order("jetsam-kill-and-relaunch", variant: "clear_all", hz: 60),
    ]

    @Test(
        "a run gives the same result, allocation counts included, alone in its worker and after any other runs",
        arguments: [
            order("exact-place-changes", variant: "anchor", hz: 60),
            order("flaky-network-offline-likes", variant: "default", hz: 60),
        ])
    func batchCompositionChangesNothing(run: RunOrder) throws {
        let folder = try ScratchFolder(prefix: "feedsim-batch")
        defer { folder.remove() }
        try BatchWorkerTests.checkComposition(of: run, in: folder)
    }

    /// Random sessions (explore/wide.json, seed 1) in which a run paid a
    /// one-time cost of the Swift runtime that the warm-up left unpaid, so
    /// it counted more allocations first in its worker than after other
    /// runs, and `--jobs` or the files run beside it changed its summary
    /// row:
    /// - session 42: `offset_adjust` moves posts for the first time, and
    ///   its table of moved items instantiates the metadata of its
    ///   `(index: Int, height: Double)` values and of its storage: 4
    ///   allocations, 560 bytes, alone in a worker;
    /// - session 422: `anchor`'s diff (CollectionDifference) sorts more
    ///   changes than the warm-up's small diff did, and the sort
    ///   instantiates witness tables: 3 allocations, 112 bytes, in a
    ///   worker of its own (`--jobs 8`), in five of its eight variants;
    /// - ci session 1400 (explore/ci.json, shrunk to one step): the first
    ///   reply a worker's tuner meets grows its list of replies, whose
    ///   storage's metadata the runtime instantiates: 1 allocation, 80
    ///   bytes. The determinism property found it, as it found the two
    ///   above with the warm-up taken back.
    static let firstInWorker: [(session: String, variant: String, refreshHz: Int)] = [
        ("session-000042", "offset_adjust", 60), ("session-000422", "anchor", 60), ("ci-session-001400", "none", 120),
    ]

    @Test(
        "a run that pays a rarer one-time cost of the runtime counts the same alone in its worker and after other runs",
        arguments: firstInWorker.indices)
    func rareFirstUseCosts(_ index: Int) throws {
        let (session, variant, refreshHz) = BatchWorkerTests.firstInWorker[index]
        let folder = try ScratchFolder(prefix: "feedsim-batch")
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        let file = folder.appending("\(session).json")
        try FileManager.default.copyItem(
            at: FeedSimProcess.packageRoot.appendingPathComponent(
                "Tests/FeedSimCLITests/Fixtures/flags/\(session).json"), to: file)
        let run = RunOrder(
            file: file.path, refreshHz: refreshHz, seed: try BatchWorkerTests.seed(of: file.path), variant: variant,
            frames: false, trace: false)
        try BatchWorkerTests.checkComposition(of: run, in: folder)
    }

    /// Runs `run` alone in a worker and in batches with other runs before
    /// and after it, and expects the same result from each.
    static func checkComposition(of run: RunOrder, in folder: ScratchFolder) throws {
        let missing = RunOrder(
            file: folder.appending("missing.json").path, refreshHz: 60, seed: 1, variant: "default", frames: false,
            trace: false)
        let batches: [(name: String, orders: [RunOrder], position: Int)] = [
            ("alone", [run], 0),
            ("after-others", BatchWorkerTests.others + [run], 3),
            ("first-then-others", [run] + BatchWorkerTests.others, 0),
            ("after-itself", [run, run], 1),
            // The same warm-up as the run's, so the worker skips it.
            ("after-another-seed", [run.withSeed(run.seed &+ 1), run], 1),
            ("after-a-failed-order", [BatchWorkerTests.others[0], missing, run], 2),
        ]
        var results: [(String, RunResult)] = []
        for batch in batches {
            let replies = try BatchWorkerTests.runBatch(batch.orders, in: folder, named: "\(batch.name).jsonl")
            guard replies.count == batch.orders.count else { continue }
            let result = try #require(
                replies[batch.position].result, "\(batch.name): \(replies[batch.position].message ?? "")")
            results.append((batch.name, result))
            if batch.name == "after-a-failed-order" {
                #expect(replies[1].failure == .invalidScenario && replies[1].message?.contains("missing.json") == true)
            }
        }
        let alone = try #require(results.first?.1)
        #expect((alone.allocations?.requests ?? 0) > 0, "the meter counted nothing")
        for (name, result) in results.dropFirst() {
            #expect(
                result.allocations == alone.allocations,
                "\(name): allocations \(result.allocations), alone \(alone.allocations)")
            #expect(
                result.frames.map(\.allocations) == alone.frames.map(\.allocations),
                "\(name): per-frame allocations differ")
            #expect(result == alone, "\(name): the result differs from the run alone")
        }
    }
}

/// A program built on FeedSimCLI registers its strategies in its own
/// `main`, which its workers run again; a worker that does not know one its
/// parent knows must say so at once, naming it.
@Suite("Workers and registered strategies")
struct RegisteredStrategyWorkerTests {
    @Test(
        "a worker that does not know a part its parent registered stops at once with a message naming it",
        arguments: [["_run-batch"], ["_explore-worker", "--device-file", "unused.json"]])
    func unknownStrategyStopsTheWorker(command: [String]) throws {
        let folder = try ScratchFolder(prefix: "feedsim-registered")
        defer { folder.remove() }
        let parts =
            "position_strategy=none,anchor,center_anchor;image_prefetch=window,lookahead;page_prefetch=threshold"
        let outcome = try FeedSimProcess.run(command + ["--parts", parts], in: folder.url, timeout: 60)
        #expect(outcome.status == 1, "\(outcome)")
        #expect(
            outcome.stderr.contains("does not know position_strategy \"center_anchor\", image_prefetch \"lookahead\""),
            "\(outcome)")
        #expect(outcome.stderr.contains("FeedSim.main(registering:)"), "\(outcome)")
        #expect(!outcome.stderr.contains("\"anchor\""), "\(outcome)")
    }

    @Test("a worker that knows every part its parent named runs its orders")
    func knownStrategiesRun() throws {
        let folder = try ScratchFolder(prefix: "feedsim-registered")
        defer { folder.remove() }
        let order = BatchWorkerTests.order("exact-place-changes", variant: "anchor", hz: 60)
        try folder.write(String(decoding: try order.line(), as: UTF8.self), to: "orders.jsonl")
        let outcome = try FeedSimProcess.run(
            [
                "_run-batch", "--orders", "orders.jsonl", "--parts",
                """
                position_strategy=none,index_restore,offset_adjust,anchor,virtual_space;image_prefetch=window,\
                velocity_prefetch;page_prefetch=threshold
                """,
            ],
            in: folder.url, timeout: 600)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.stdout.split(separator: "\n").compactMap { RunReply.decode(line: Data($0.utf8)) }.count == 1,
            "\(outcome)")
    }
}

extension RunOrder {
    /// The same order under seed `seed`.
    func withSeed(_ seed: UInt64) -> RunOrder {
        var order = self
        order.seed = seed
        return order
    }
}

/// A worker decodes a scenario once for the orders that follow one another
/// with the same file and bytes; anything else is read afresh.
@Suite("Worker scenario cache")
struct ScenarioCacheTests {
    @Test(
        """
        the cache gives what loading the order gives: after the file changes, for another file, for the order's \
        own text, and the same error for a bad file every time
        """
    )
    func sameAsLoading() throws {
        let folder = try ScratchFolder(prefix: "feedsim-scenario-cache")
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        let bundled = try String(
            contentsOf: FeedSimProcess.packageRoot.appendingPathComponent("scenarios/exact-place-changes.json"),
            encoding: .utf8)
        let other = try String(
            contentsOf: FeedSimProcess.packageRoot.appendingPathComponent("scenarios/pull-to-refresh-at-top.json"),
            encoding: .utf8)
        try folder.write(bundled, to: "a.json")
        try folder.write(other, to: "b.json")
        func order(_ name: String, text: String? = nil, seed: UInt64 = 1) -> RunOrder {
            RunOrder(
                file: folder.appending(name).path, scenarioText: text, refreshHz: 60, seed: seed, variant: "default",
                frames: false, trace: false)
        }
        var cache = ScenarioCache()
        func check(_ order: RunOrder, _ step: String) throws {
            let cached = try cache.load(order)
            #expect(cached == (try order.load()), "\(step)")
        }
        try check(order("a.json"), "first")
        try check(order("a.json", seed: 2), "another seed of the same file")
        try check(order("b.json"), "another file")
        try check(order("a.json"), "back to the first")
        // The same file with new contents is decoded again (its seed 9 becomes 99).
        try folder.write(bundled.replacingOccurrences(of: "\"seed\": 9", with: "\"seed\": 99"), to: "a.json")
        let edited = try cache.load(order("a.json"))
        #expect(edited == (try order("a.json").load()))
        #expect(edited.scenario.seed == 99, "the edited file's seed, not the cached one")
        // An order's own text is its scenario, whatever the file holds.
        try check(order("a.json", text: other), "the order's own text")
        try check(order("a.json"), "the file again after the order's text")
        // A file that does not decode fails every time, with the loader's message.
        try folder.write("{ \"schema_version\": 1", to: "a.json")
        for attempt in 0..<2 {
            #expect(throws: ScenarioError.self, "attempt \(attempt)") { try cache.load(order("a.json")) }
        }
        try folder.write(bundled, to: "a.json")
        try check(order("a.json"), "after the file is mended")
    }
}
