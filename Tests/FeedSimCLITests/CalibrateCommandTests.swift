import Determinism
import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

/// `feedsim calibrate` through the built binary.
@Suite("feedsim calibrate", .serialized)
struct CalibrateCommandTests {
    /// 200 frames of a scroll timed exactly by the bundled 60 Hz profile's
    /// costs (3 ms a frame, 0.8 ms a cell configured, 2.5 ms a cell
    /// measured, 8 ms a megapixel decoded), no noise.
    static var exactTrace: String {
        var lines = ["frame_ms,cells_configured,cells_measured,decoded_megapixels"]
        for frame in 0..<200 {
            let configured = frame % 4
            let measured = (frame / 4) % 3
            let megapixels = frame % 7 == 0 ? Double(frame % 5 + 1) / 10 : 0
            let ms = 3 + 0.8 * Double(configured) + 2.5 * Double(measured) + 8 * megapixels
            lines.append("\(ms),\(configured),\(measured),\(megapixels)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let scenario = """
        {
          "schema_version": 1,
          "name": "tiny-fitted",
          "description": "Two seconds over fifty posts with one fling, on the fitted profile.",
          "device": "fitted",
          "duration_s": 2,
          "feed": { "post_count": 50 },
          "script": [ { "at_ms": 200, "action": "fling", "velocity_pt_s": 3000 } ]
        }
        """

    @Test("a good trace writes a profile that loads and runs a scenario")
    func goodTrace() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(CalibrateCommandTests.exactTrace, to: "trace.csv")

        let outcome = try FeedSimProcess.run(
            ["calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "devices/fitted.json"],
            in: folder.url)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.stdout.contains("trace.csv: 200 frames; fitted on 160, held back 40 (every 5th frame)"),
            "\(outcome)")
        #expect(outcome.stdout.contains("R² 1.0000 on 160 fitted frames"), "\(outcome)")
        #expect(outcome.stdout.contains("absolute error median 0.000 ms, p90 0.000 ms"), "\(outcome)")
        #expect(
            outcome.stdout.contains("not in the trace, kept from iphone-60hz: configure_per_text_character,"),
            "\(outcome)")
        #expect(outcome.stdout.contains("wrote devices/fitted.json"))

        let written = try Data(contentsOf: folder.appending("devices/fitted.json"))
        let profile = try ScenarioLoader.device(from: written, file: "fitted.json")
        #expect(profile.name == "fitted")
        #expect(profile.costs.cellMeasure.value == 2_500_000)
        #expect(profile.costs.decodePerMegapixel.value == 8_000_000)
        #expect(
            profile.costs.cellConfigure.rationale.hasPrefix(
                "Fitted by feedsim calibrate from trace.csv over 160 frames"))
        #expect(folder.entries(in: "devices")?.filter { !$0.hasSuffix(".json") } == [], "no temporary file left")
        #expect(folder.entries(in: "devices")?.contains("fitted.json") == true)

        try folder.write(CalibrateCommandTests.scenario, to: "tiny.json")
        let run = try FeedSimProcess.run(["run", "tiny.json", "--out", "out", "--quiet"], in: folder.url)
        #expect(run.status == 0, "\(run)")
        #expect(folder.entries(in: "out")?.contains("summary.csv") == true, "\(run)")
    }

    struct BadInput: Sendable, CustomTestStringConvertible {
        var label: String
        var trace: String?
        var status: Int32
        var fragment: String
        var testDescription: String { label }
    }

    @Test(
        "bad input exits 64 or 65 naming the file and line, and writes nothing",
        arguments: [
            BadInput(
                label: "malformed row", trace: "frame_ms,cells_configured\n3,0\n3.8,1\n4.6,two\n", status: 65,
                fragment: "invalid trace: trace.csv:4: cells_configured is \"two\", expected a number ≥ 0"),
            BadInput(
                label: "unknown column", trace: "frame_ms,cells_configured,colour\n3,0,1\n", status: 65,
                fragment: "invalid trace: trace.csv:1: unknown column \"colour\""),
            BadInput(
                label: "too few frames", trace: "frame_ms,cells_configured\n3,0\n3.8,1\n", status: 65,
                fragment: "invalid trace: trace.csv: the trace has 2 frames; fitting 2 terms"),
            BadInput(label: "missing trace", trace: nil, status: 64, fragment: "No such file: trace.csv"),
        ])
    func badInput(_ example: BadInput) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        if let trace = example.trace { try folder.write(trace, to: "trace.csv") }

        let outcome = try FeedSimProcess.run(
            ["calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "out/fitted.json"],
            in: folder.url)
        #expect(outcome.status == example.status, "\(outcome)")
        #expect(outcome.stderr.contains(example.fragment), "\(outcome)")
        #expect(folder.entries(in: "out") == nil)
    }

    @Test("an invalid base profile exits 65 with its JSON path")
    func badBase() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(CalibrateCommandTests.exactTrace, to: "trace.csv")
        try folder.write("{ \"schema_version\": 1 }", to: "base.json")
        let outcome = try FeedSimProcess.run(
            ["calibrate", "trace.csv", "--device", "base.json", "--out", "fitted.json"], in: folder.url)
        #expect(outcome.status == 65, "\(outcome)")
        #expect(outcome.stderr.contains("invalid device profile: base.json: $.name"), "\(outcome)")
        #expect(folder.entries(in: ".") == ["base.json", "trace.csv"])
    }

    /// 3,000 frames of a scroll with 10% lognormal-like noise on every
    /// frame and 1% of frames 4–25 ms late (a preempted main thread).
    static var noisyTrace: String {
        var random = Xoshiro256StarStar(seed: 41)
        var lines = ["frame_ms,cells_configured,cells_measured,diff_elements"]
        for _ in 0..<3_000 {
            let configured = random.next(in: 0...3)
            let measured = random.next(in: 0...2)
            let diffed = random.chance(0.25) ? random.next(in: 0...2_000) : 0
            let work = 3 + 0.8 * Double(configured) + 2.5 * Double(measured) + 0.002 * Double(diffed)
            var ms = work * (0.9 + 0.2 * random.nextUnit())
            if random.chance(0.01) { ms += Double(random.next(in: 4_000...25_000)) / 1_000 }
            lines.append(String(format: "%.3f", ms) + ",\(configured),\(measured),\(diffed)")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    static let checkScenario = """
        {
          "schema_version": 1,
          "name": "calibration-check",
          "description": "Three seconds of scrolling through a hundred posts: the kind of frames the trace recorded.",
          "device": "iphone-60hz",
          "duration_s": 3,
          "feed": { "post_count": 100 },
          "script": [ { "at_ms": 200, "action": "fling", "velocity_pt_s": 4000 } ]
        }
        """

    @Test(
        """
        robust by default: the output lists the down-weighted frames, their share and the worst five with their \
        lines; least squares on request
        """
    )
    func robustByDefault() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(CalibrateCommandTests.noisyTrace, to: "trace.csv")
        let robust = try FeedSimProcess.run(
            ["calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "robust.json"], in: folder.url)
        #expect(robust.status == 0, "\(robust)")
        #expect(robust.stdout.contains("fit: Huber IRLS, non-negative, residual scale"), "\(robust)")
        #expect(robust.stdout.contains("95%_interval_ns"), "\(robust)")
        let down = try #require(
            robust.stdout.split(separator: "\n").first { $0.hasPrefix("down-weighted ") }, "\(robust)")
        #expect(down.contains("of 2400 fitted frames ("), "\(down)")
        let lines = robust.stdout.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let start = try #require(lines.firstIndex(of: "most down-weighted:"))
        let worst = lines[(start + 3)..<(start + 8)]
        let trace = CalibrateCommandTests.noisyTrace.split(separator: "\n").map(String.init)
        for row in worst {
            let fields = row.split(separator: " ").map(String.init)
            let line = try #require(Int(fields[0]), "\(row)")
            let residual = try #require(Double(fields[3]), "\(row)")
            #expect(residual > 3, "the worst five are late frames: \(row)")
            #expect(
                trace[line - 1].hasPrefix(fields[1]),
                "line \(line) of the trace is the frame shown: \(row), \(trace[line - 1])")
        }
        let fitted = try ScenarioLoader.device(
            from: Data(contentsOf: folder.appending("robust.json")), file: "robust.json")
        #expect(abs(fitted.costs.cellMeasure.value / 2_500_000 - 1) < 0.05)
        #expect(
            fitted.costs.cellMeasure.rationale.contains("(Huber IRLS, non-negative, R² "),
            "\(fitted.costs.cellMeasure.rationale)")
        #expect(fitted.costs.cellMeasure.rationale.contains("standard error"), "\(fitted.costs.cellMeasure.rationale)")

        let plain = try FeedSimProcess.run(
            [
                "calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "plain.json", "--fit",
                "least-squares",
            ], in: folder.url)
        #expect(plain.status == 0, "\(plain)")
        #expect(plain.stdout.contains("fit: non-negative least squares, residual σ"), "\(plain)")
        #expect(!plain.stdout.contains("down-weighted"), "least squares weighs every frame the same")
        let bad = try FeedSimProcess.run(
            ["calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "x.json", "--fit", "median"],
            in: folder.url)
        #expect(bad.status == 64, "\(bad)")
    }

    static let xctraceFixtures = FeedSimProcess.packageRoot.appendingPathComponent(
        "Tests/FeedSimulatorTests/Fixtures/xctrace")

    @Test("--from xctrace fits an os-signpost-interval export; a malformed one exits 65 with its line")
    func fromXctrace() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        for name in ["frames.xml", "malformed.xml", "two-subsystems.xml"] {
            try folder.write(
                String(contentsOf: CalibrateCommandTests.xctraceFixtures.appendingPathComponent(name), encoding: .utf8),
                to: name)
        }
        let good = try FeedSimProcess.run(
            [
                "calibrate", "frames.xml", "--from", "xctrace", "--device", "devices/iphone-60hz.json", "--out",
                "fitted.json",
            ], in: folder.url)
        #expect(good.status == 0, "\(good)")
        #expect(good.stdout.contains("frames.xml: 16 frames; fitted on 13, held back 3"), "\(good)")
        let profile = try ScenarioLoader.device(
            from: Data(contentsOf: folder.appending("fitted.json")), file: "fitted.json")
        #expect(profile.costs.cellConfigure.value == 800_000 && profile.costs.cellMeasure.value == 2_500_000)

        let malformed = try FeedSimProcess.run(
            [
                "calibrate", "malformed.xml", "--from", "xctrace", "--device", "devices/iphone-60hz.json", "--out",
                "m.json",
            ], in: folder.url)
        #expect(malformed.status == 65, "\(malformed)")
        #expect(malformed.stderr.contains("invalid trace: malformed.xml:31: malformed XML"), "\(malformed)")

        let ambiguous = try FeedSimProcess.run(
            [
                "calibrate", "two-subsystems.xml", "--from", "xctrace", "--device", "devices/iphone-60hz.json", "--out",
                "a.json",
            ], in: folder.url)
        #expect(ambiguous.status == 65 && ambiguous.stderr.contains("name yours with --subsystem"), "\(ambiguous)")
        let chosen = try FeedSimProcess.run(
            [
                "calibrate", "two-subsystems.xml", "--from", "xctrace", "--subsystem", "com.example.feedapp",
                "--device", "devices/iphone-60hz.json", "--out", "a.json",
            ], in: folder.url)
        #expect(chosen.status == 0, "\(chosen)")

        let wrongFormat = try FeedSimProcess.run(
            [
                "calibrate", "frames.xml", "--signpost", "Commit", "--device", "devices/iphone-60hz.json", "--out",
                "w.json",
            ], in: folder.url)
        #expect(wrongFormat.status == 64 && wrongFormat.stderr.contains("add --from xctrace"), "\(wrongFormat)")
        #expect(
            folder.entries(in: ".")?.contains("m.json") == false && folder.entries(in: ".")?.contains("w.json") == false
        )
    }

    /// A scratch folder with the noisy trace calibrated into `fit.html`,
    /// checked on a short scroll.
    static func calibratedWithReport() throws -> (ScratchFolder, ProcessOutcome) {
        let folder = try ScratchFolder(prefix: "feedsim-calibrate")
        try folder.copyDeviceProfiles()
        try folder.write(CalibrateCommandTests.noisyTrace, to: "trace.csv")
        try folder.write(CalibrateCommandTests.checkScenario, to: "scroll.json")
        let outcome = try FeedSimProcess.run(
            [
                "calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "devices/fitted.json",
                "--report", "fit.html", "--check", "scroll.json",
            ], in: folder.url)
        return (folder, outcome)
    }

    @Test("--report draws the fit offline and --check sets the scenario's frame-time percentiles beside the trace's")
    func reportAndCheck() throws {
        let (folder, outcome) = try CalibrateCommandTests.calibratedWithReport()
        defer { folder.remove() }
        #expect(outcome.status == 0, "\(outcome)")
        #expect(
            outcome.stdout.contains("check: scroll.json, 1 run per profile; frame time ms (change against the trace)"),
            "\(outcome)")
        let table = outcome.stdout.split(separator: "\n").map(String.init)
        for label in ["trace ", "fitted (fitted) ", "iphone-60hz (base) "] {
            let row = try #require(table.first { $0.hasPrefix(label) }, "\(label) in \(outcome.stdout)")
            #expect(row.split(separator: " ").count >= 5, "\(row)")
        }
        #expect(outcome.stdout.contains("wrote fit.html"))

        let html = try String(contentsOf: folder.appending("fit.html"), encoding: .utf8)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(
            html.components(separatedBy: "<svg class=\"scatter-plot\"").count - 1 == 2,
            "measured against predicted, and residuals")
        #expect(html.contains("<g class=\"held~20~back\" fill=\"none\""), "held-back frames marked")
        #expect(html.contains("<g class=\"down-weighted\" fill=\"#D62728\"><circle"), "down-weighted frames marked")
        #expect(html.contains("<table class=\"down\">"), "the down-weighted frames listed")
        #expect(html.contains("<svg class=\"cost-bars\""))
        #expect(html.components(separatedBy: "<line class=\"interval\"").count - 1 == 4, "an interval per fitted cost")
        #expect(html.contains("<h2 id=\"check\">Check on scroll.json</h2>"))
        for forbidden in ["http://", "https://", "<script", "src=", "@import", "url("] {
            #expect(!html.contains(forbidden), "the page must be self-contained: found \(forbidden)")
        }
        let again = try FeedSimProcess.run(
            [
                "calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "devices/fitted.json",
                "--report", "again.html", "--check", "scroll.json",
            ], in: folder.url)
        #expect(again.status == 0)
        #expect(
            try Data(contentsOf: folder.appending("again.html")) == Data(html.utf8),
            "the same trace gives the same bytes")
    }
}
