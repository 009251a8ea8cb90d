import FeedScenario
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
            ["calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "devices/fitted.json"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout.contains("trace.csv: 200 frames; fitted on 160, held back 40 (every 5th frame)"), "\(outcome)")
        #expect(outcome.stdout.contains("R² 1.0000 on 160 fitted frames"), "\(outcome)")
        #expect(outcome.stdout.contains("absolute error median 0.000 ms, p90 0.000 ms"), "\(outcome)")
        #expect(outcome.stdout.contains("not in the trace, kept from iphone-60hz: configure_per_text_character,"), "\(outcome)")
        #expect(outcome.stdout.contains("wrote devices/fitted.json"))

        let written = try Data(contentsOf: folder.appending("devices/fitted.json"))
        let profile = try ScenarioLoader.device(from: written, file: "fitted.json")
        #expect(profile.name == "fitted")
        #expect(profile.costs.cellMeasure.value == 2_500_000)
        #expect(profile.costs.decodePerMegapixel.value == 8_000_000)
        #expect(profile.costs.cellConfigure.rationale.hasPrefix("Fitted by feedsim calibrate from trace.csv over 160 frames"))
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

    @Test("bad input exits 64 or 65 naming the file and line, and writes nothing", arguments: [
        BadInput(label: "malformed row", trace: "frame_ms,cells_configured\n3,0\n3.8,1\n4.6,two\n", status: 65,
                 fragment: "invalid trace: trace.csv:4: cells_configured is \"two\", expected a number ≥ 0"),
        BadInput(label: "unknown column", trace: "frame_ms,cells_configured,colour\n3,0,1\n", status: 65,
                 fragment: "invalid trace: trace.csv:1: unknown column \"colour\""),
        BadInput(label: "too few frames", trace: "frame_ms,cells_configured\n3,0\n3.8,1\n", status: 65,
                 fragment: "invalid trace: trace.csv: the trace has 2 frames; fitting 2 terms"),
        BadInput(label: "missing trace", trace: nil, status: 64, fragment: "No such file: trace.csv"),
    ])
    func badInput(_ example: BadInput) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        if let trace = example.trace { try folder.write(trace, to: "trace.csv") }

        let outcome = try FeedSimProcess.run(
            ["calibrate", "trace.csv", "--device", "devices/iphone-60hz.json", "--out", "out/fitted.json"], in: folder.url)
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
        let outcome = try FeedSimProcess.run(["calibrate", "trace.csv", "--device", "base.json", "--out", "fitted.json"], in: folder.url)
        #expect(outcome.status == 65, "\(outcome)")
        #expect(outcome.stderr.contains("invalid device profile: base.json: $.name"), "\(outcome)")
        #expect(folder.entries(in: ".") == ["base.json", "trace.csv"])
    }
}
