import FeedScenario
import FeedSimFuzz
import FeedSimTestSupport
import FeedSimulator
import Foundation
import Testing

/// The fuzz target's inputs that matter most, run through the same entry
/// point without the sanitizers: the seeds `Fuzz/run` builds its corpus
/// from, and every input that once crashed a reader (`Fuzz/crashes/`).
enum FuzzFixtures {
    static let packageRoot = PackageRoot.url

    static func files(in relative: String) -> [URL] {
        let folder = packageRoot.appendingPathComponent(relative, isDirectory: true)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { !$0.hasPrefix(".") }.sorted().map { folder.appendingPathComponent($0) }
    }

    static func read(_ relative: String) throws -> Data {
        try Data(contentsOf: packageRoot.appendingPathComponent(relative))
    }

    /// Inputs as `Fuzz/run` seeds them: every reader with its seed files.
    static func seeds() throws -> [(label: String, input: Data)] {
        var seeds: [(String, Data)] = []
        for url in files(in: "scenarios") where url.pathExtension == "json" {
            seeds.append(("scenario \(url.lastPathComponent)", FuzzInput.scenario.input([try Data(contentsOf: url)])))
        }
        for url in files(in: "Tests/FeedScenarioTests/Fixtures/invalid") {
            seeds.append(
                ("invalid scenario \(url.lastPathComponent)", FuzzInput.scenario.input([try Data(contentsOf: url)])))
        }
        for url in files(in: "scenarios/devices") {
            seeds.append(("device \(url.lastPathComponent)", FuzzInput.device.input([try Data(contentsOf: url)])))
        }
        let baseline = try read("results/baseline/summary.csv")
        let summary = try read("Fuzz/seeds/summary.csv")
        let drift = try read("Fuzz/seeds/drift.csv")
        let frames = try read("Fuzz/seeds/frames.csv")
        seeds.append(("check", FuzzInput.check.input([baseline, summary, try read("Fuzz/seeds/tolerances")])))
        seeds.append(("compare", FuzzInput.compare.input([baseline])))
        seeds.append(("report", FuzzInput.report.input([summary, drift, frames])))
        seeds.append(("merge", FuzzInput.merge.input([try read("Fuzz/seeds/shard.json"), summary, drift, frames])))
        seeds.append(
            (
                "calibration",
                FuzzInput.calibration.input([
                    try read("Fuzz/seeds/trace.csv"), try read("scenarios/devices/iphone-60hz.json"),
                ])
            ))
        seeds.append(
            (
                "xctrace",
                FuzzInput.xctrace.input([
                    try read("Tests/FeedSimulatorTests/Fixtures/xctrace/frames.xml"),
                    try read("scenarios/devices/iphone-60hz.json"),
                ])
            ))
        seeds.append(
            ("timeline page", FuzzInput.timelinePage.input([try read("docs/examples/your-app/timeline/page-1.json")])))
        seeds.append(
            ("timeline posts", FuzzInput.timelinePosts.input([try read("docs/examples/your-app/posts.jsonl")])))
        seeds.append(("har", FuzzInput.har.input([try read("docs/examples/your-app/sample.har")])))
        seeds.append(("sessions", FuzzInput.sessions.input([try read("docs/examples/your-app/one-session.jsonl")])))
        return seeds
    }
}

@Suite("Fuzz target")
struct FuzzRegressionTests {
    @Test("The first byte picks the reader, wrapping around, and inputs are files joined by NUL")
    func selector() {
        for kind in FuzzInput.allCases {
            #expect(FuzzInput(selector: kind.rawValue) == kind)
            #expect(FuzzInput(selector: kind.rawValue + UInt8(FuzzInput.allCases.count)) == kind)
        }
        #expect(
            FuzzInput.merge.input([Data("a".utf8), Data("bc".utf8)])
                == Data([FuzzInput.merge.rawValue, 0x61, 0, 0x62, 0x63]))
    }

    @Test("Every seed runs through its reader; there is one for each reader")
    func seeds() throws {
        let seeds = try FuzzFixtures.seeds()
        #expect(Set(seeds.map { FuzzInput(selector: $0.input.first!) }) == Set(FuzzInput.allCases))
        for seed in seeds { FeedSimFuzz.consume(seed.input) }
    }

    @Test(
        "The calibration seed is a trace the fit accepts, padded and quoted fields included, so mutations reach the fit"
    )
    func calibrationSeedFits() throws {
        let trace = try CalibrationTrace(data: try FuzzFixtures.read("Fuzz/seeds/trace.csv"), file: "trace.csv")
        #expect(trace.frames.count == 12)
        #expect(trace.frames[4].durationNs == 2_400_000)
        let base = try ScenarioLoader.device(
            from: try FuzzFixtures.read("scenarios/devices/iphone-60hz.json"), file: "base.json")
        let fit = try Calibration(trace: trace, base: base.costs)
        #expect(fit.fitFrames + fit.heldBackFrames == 12)
    }

    @Test(
        "Every input that once crashed a reader now runs through it", arguments: FuzzFixtures.files(in: "Fuzz/crashes"))
    func crashes(_ url: URL) throws {
        FeedSimFuzz.consume(try Data(contentsOf: url))
    }

    @Test("There are recorded crashes to replay")
    func crashesRecorded() {
        #expect(!FuzzFixtures.files(in: "Fuzz/crashes").isEmpty)
    }

    @Test("Truncations and single-byte changes of every seed run through their readers")
    func mutations() throws {
        for seed in try FuzzFixtures.seeds() where seed.input.count < 40_000 {
            let input = seed.input
            for cut in stride(from: 1, to: input.count, by: max(1, input.count / 16)) {
                FeedSimFuzz.consume(input.prefix(cut))
            }
            var changed = input
            for position in stride(from: 1, to: input.count, by: max(1, input.count / 16)) {
                for byte: UInt8 in [0, 0x22, 0x2C, 0x0A, 0xFF, 0x2D, 0x39] {
                    changed[position] = byte
                    FeedSimFuzz.consume(changed)
                    changed[position] = input[position]
                }
            }
        }
    }
}
