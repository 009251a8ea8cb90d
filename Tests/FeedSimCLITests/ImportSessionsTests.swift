import FeedSimTestSupport
import Foundation
import Testing

/// `feedsim import sessions` through the built binary: replays that follow
/// the recorded finger, byte-identical imports and runs, and malformed or
/// too-few logs refused with exit 65.
@Suite("feedsim import sessions", .serialized)
struct ImportSessionsTests {
    /// The bundled sample logs (synthetic, made by the script beside them).
    static let sampleLog = FeedSimProcess.packageRoot.appendingPathComponent(
        "docs/examples/your-app/sample-sessions.jsonl"
    ).path

    /// One session: a finger that touches down at y 300 at 500 ms, pulls the
    /// content 250 pt down past the top over 400 ms (rubber-banded, past the
    /// refresh trigger), then pushes it 500 pt up over 500 ms and lifts
    /// still; touches every 8 ms.
    static let followLog: (text: String, samples: [(ms: Double, y: Double)]) = {
        let samples = (0...112).map { i -> (ms: Double, y: Double) in
            let t = 500 + 8 * Double(i)
            let y =
                t <= 900
                ? 300 + 250 * (1 - cos(.pi * (t - 500) / 400)) / 2
                : 550 - 500 * (1 - cos(.pi * min(t - 900, 500) / 500)) / 2
            return (t, (y * 1000).rounded() / 1000)
        }
        let lines = samples.enumerated().map { index, sample in
            let type = index == 0 ? "touch_down" : index == samples.count - 1 ? "touch_up" : "touch_move"
            return #"{"session": "pull", "t_ms": \#(sample.ms), "type": "\#(type)", "y_pt": \#(sample.y)}"#
        }
        return (lines.joined(separator: "\n") + "\n", samples)
    }()

    /// Where the content should be at `t` ms (the log's time), from a resting top at −47 pt (the 60 Hz iPhone's safe
    /// area): the finger's displacement, rubber-banded past the top over
    /// the 844 pt viewport as UIScrollView does.
    static func expectedOffset(atMs t: Double) -> Double {
        let s = followLog.samples
        var displacement = s[0].y - s[s.count - 1].y
        for (a, b) in zip(s, s.dropFirst()) where t <= b.ms {
            displacement = (s[0].y - a.y) + (t - a.ms) / (b.ms - a.ms) * (a.y - b.y)
            break
        }
        let raw = -47 + displacement
        guard raw < -47 else { return raw }
        let overshoot = -47 - raw
        return -47 - (1 - 1 / (overshoot * 0.55 / 844 + 1)) * 844
    }

    @Test(
        """
        a replayed drag holds the content within 1 pt of the recorded finger at every frame while down, rubber \
        band included
        """
    )
    func contentFollowsFinger() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(Self.followLog.text, to: "follow.jsonl")
        let imported = try FeedSimProcess.run(
            ["import", "sessions", "follow.jsonl", "--out", "out", "--no-usage"], in: folder.url)
        #expect(imported.status == 0, "\(imported) \(imported.stderr)")
        let run = try FeedSimProcess.run(
            ["run", "out/sessions", "--devices", "devices", "--frames", "--quiet", "--out", "run"], in: folder.url)
        #expect(run.status == 0, "\(run) \(run.stderr)")
        let frames = try CSVFile(folder.appending("run/frames.csv")).rows.filter {
            let t = Double($0["time_ms"]!)!
            return t > 500 && t <= 1396
        }
        #expect(frames.count >= 50)
        var worst = 0.0, deepest = 0.0
        for frame in frames {
            let t = Double(frame["time_ms"]!)!, offset = Double(frame["content_offset_pt"]!)!
            worst = max(worst, abs(offset - Self.expectedOffset(atMs: t)))
            deepest = min(deepest, offset)
        }
        #expect(worst <= 1, "worst finger-against-content error \(worst) pt")
        // The pull went past the top, and past the 80 pt refresh trigger.
        #expect(deepest < -47 - 80, "\(deepest)")
    }

    @Test("with a salt file the import is byte-identical; the replays run byte-identically with --jobs 1 and 2")
    func deterministic() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write("sixteen bytes of salt, and more", to: "salt")
        for out in ["a", "b"] {
            let outcome = try FeedSimProcess.run(
                ["import", "sessions", Self.sampleLog, "--out", out, "--salt-file", "salt", "--post-count", "300"],
                in: folder.url)
            #expect(outcome.status == 0, "\(outcome) \(outcome.stderr)")
        }
        let names = try #require(folder.entries(in: "a/sessions"))
        #expect(names.count == 40 && names == folder.entries(in: "b/sessions"))
        for name in names + ["../usage.json"] {
            let a = try Data(contentsOf: folder.appending("a/sessions/\(name)"))
            #expect(a == (try Data(contentsOf: folder.appending("b/sessions/\(name)"))), "\(name)")
        }
        // A few replays, run in one process and in two.
        try FileManager.default.createDirectory(at: folder.appending("pick"), withIntermediateDirectories: true)
        for name in names.prefix(3) {
            try FileManager.default.copyItem(
                at: folder.appending("a/sessions/\(name)"), to: folder.appending("pick/\(name)"))
        }
        for jobs in ["1", "2"] {
            let run = try FeedSimProcess.run(
                ["run", "pick", "--devices", "devices", "--frames", "--quiet", "--jobs", jobs, "--out", "run\(jobs)"],
                in: folder.url)
            #expect(run.status == 0, "\(run) \(run.stderr)")
        }
        for file in ["summary.csv", "drift.csv", "frames.csv"] {
            #expect(
                try Data(contentsOf: folder.appending("run1/\(file)"))
                    == Data(contentsOf: folder.appending("run2/\(file)")), "\(file)")
        }
    }

    @Test("a malformed log exits 65 naming file and line, and writes nothing")
    func malformed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(
            Self.followLog.text + #"{"session": "pull", "t_ms": 2000, "type": "tap"}"# + "\n", to: "bad.jsonl")
        let outcome = try FeedSimProcess.run(
            ["import", "sessions", "bad.jsonl", "--out", "out", "--no-usage"], in: folder.url)
        #expect(outcome.status == 65, "\(outcome)")
        #expect(outcome.stderr.contains("bad.jsonl:114: expected `type` one of touch_down"), "\(outcome.stderr)")
        #expect(folder.entries(in: "out") == nil)
    }

    @Test("logs too few to fit a usage model exit 65 naming what is short, and write nothing")
    func tooFew() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(Self.followLog.text, to: "one.jsonl")
        let outcome = try FeedSimProcess.run(["import", "sessions", "one.jsonl", "--out", "out"], in: folder.url)
        #expect(outcome.status == 65, "\(outcome)")
        #expect(outcome.stderr.contains("too few for gap_ms (0), drag_distance_pt (1)"), "\(outcome.stderr)")
        #expect(folder.entries(in: "out") == nil)
    }

    @Test("explore with a usage model is deterministic across --jobs, and says which population its verdicts are over")
    func exploreUsage() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write("sixteen bytes of salt, and more", to: "salt")
        let imported = try FeedSimProcess.run(
            ["import", "sessions", Self.sampleLog, "--out", "me", "--salt-file", "salt"], in: folder.url)
        #expect(imported.status == 0, "\(imported) \(imported.stderr)")
        let config =
            #"{"usage": "usage.json", "device": "iphone-60hz", "strategies": ["none", "anchor"], "duration_s": 20}"#
        try folder.write(config, to: "me/explore.json")
        try folder.write(
            #"{"device": "iphone-60hz", "strategies": ["none", "anchor"], "duration_s": 20}"#, to: "swarm.json")
        var outputs: [String] = []
        for jobs in ["1", "2"] {
            let explore = try FeedSimProcess.run(
                [
                    "explore", "--config", "me/explore.json", "--devices", "devices", "--sessions", "8", "--seed", "5",
                    "--jobs", jobs,
                    "--quiet", "--out", "ex\(jobs)",
                ], in: folder.url)
            #expect(explore.status == 0, "\(explore) \(explore.stderr)")
            #expect(
                explore.stdout.contains(
                    """
                    verdicts over the usage population (sessions drawn from usage.json, fitted to 40 recorded \
                    sessions)
                    """
                ))
            outputs.append(explore.stdout)
        }
        #expect(
            try Data(contentsOf: folder.appending("ex1/explore.csv"))
                == Data(contentsOf: folder.appending("ex2/explore.csv")))
        let swarm = try FeedSimProcess.run(
            [
                "explore", "--config", "swarm.json", "--devices", "devices", "--sessions", "4", "--seed", "5",
                "--quiet", "--out", "sw",
            ],
            in: folder.url)
        #expect(swarm.status == 0, "\(swarm) \(swarm.stderr)")
        #expect(swarm.stdout.contains("verdicts over the swarm population"))
        try Self.expectOlderModelNoted(in: folder)
        try Self.expectPopulation(
            in: folder, out: "ex1",
            text: "usage population (sessions drawn from usage.json, fitted to 40 recorded sessions)",
            fields: ["usage", "usage.json", "40"])
        try Self.expectPopulation(
            in: folder, out: "sw",
            text: "swarm population (random subsets of actions at random times, for finding bugs)",
            fields: ["swarm", "", ""])
    }

    /// Checks that explore reads a usage.json without the like and text-size
    /// rates (as imported before they were fitted) and says so on stderr.
    static func expectOlderModelNoted(in folder: ScratchFolder) throws {
        var model = try #require(
            try JSONSerialization.jsonObject(with: Data(contentsOf: folder.appending("me/usage.json")))
                as? [String: Any])
        var rates = try #require(model["rates_per_min"] as? [String: Any])
        rates["like"] = nil
        rates["text_size"] = nil
        model["rates_per_min"] = rates
        model["text_size_scale"] = nil
        try JSONSerialization.data(withJSONObject: model).write(to: folder.appending("me/older.json"))
        try folder.write(
            #"{"usage": "older.json", "device": "iphone-60hz", "strategies": ["none"], "duration_s": 10}"#,
            to: "me/older-explore.json")
        let older = try FeedSimProcess.run(
            [
                "explore", "--config", "me/older-explore.json", "--devices", "devices", "--sessions", "2", "--quiet",
                "--out", "older",
            ], in: folder.url)
        #expect(older.status == 0, "\(older) \(older.stderr)")
        #expect(
            older.stderr.contains(
                """
                feedsim: older.json gives no like or text_size rate (imported before FeedSim fitted them): its \
                sessions draw none, as with a rate of 0; import the session logs again to draw them
                """
            ), "\(older.stderr)")
    }

    /// Checks that `compare` in each format and `report` of the exploration
    /// in `out` name its population, from the population.json explore wrote:
    /// `text` in words, and `fields` as the CSV's last three columns
    /// (population, usage_model, usage_sessions) on every row.
    static func expectPopulation(in folder: ScratchFolder, out: String, text: String, fields: [String]) throws {
        let manifest = try JSONSerialization.jsonObject(
            with: Data(contentsOf: folder.appending("\(out)/population.json")))
        let recorded = try #require(manifest as? [String: Any])
        #expect(recorded["population"] as? String == fields[0], "\(recorded)")
        #expect(recorded["description"] as? String == text, "\(recorded)")
        for format in ["table", "markdown"] {
            let compared = try FeedSimProcess.run(["compare", out, "--format", format], in: folder.url)
            #expect(compared.status == 0, "\(compared) \(compared.stderr)")
            #expect(compared.stdout.contains("erdicts over the \(text)"), "\(format): \(compared.stdout)")
        }
        let csv = try FeedSimProcess.run(["compare", "\(out)/explore.csv", "--format", "csv"], in: folder.url)
        let lines = csv.stdout.split(separator: "\n").map { $0.split(separator: ",", omittingEmptySubsequences: false) }
        #expect(lines.first?.suffix(3) == ["population", "usage_model", "usage_sessions"], "\(csv.stdout)")
        #expect(lines.count > 1 && lines.dropFirst().allSatisfy { $0.suffix(3).map(String.init) == fields })
        let json = try FeedSimProcess.run(["compare", out, "--format", "json"], in: folder.url)
        let document = try #require(
            try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any], "\(json.stdout)")
        let population = try #require(document["session_population"] as? [String: Any], "\(json.stdout)")
        #expect(population["population"] as? String == fields[0] && population["description"] as? String == text)
        #expect(population["usage_sessions"] as? Int == Int(fields[2]))
        let report = try FeedSimProcess.run(["report", out, "--out", "\(out).html"], in: folder.url)
        #expect(report.status == 0, "\(report) \(report.stderr)")
        let html = try String(contentsOf: folder.appending("\(out).html"), encoding: .utf8)
        #expect(html.contains("Verdicts over the \(text)"), "\(out).html")
    }
}
