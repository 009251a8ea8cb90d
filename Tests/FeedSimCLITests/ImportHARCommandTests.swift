import FeedSimTestSupport
import Foundation
import Testing

@Suite("feedsim import har")
struct ImportHARCommandTests {
    /// A scratch folder holding the bundled sample HAR, the sample scenario
    /// that runs on it, and the device profiles.
    static func sampleFolder() throws -> ScratchFolder {
        let folder = try ScratchFolder()
        let examples = FeedSimProcess.packageRoot.appendingPathComponent("docs/examples/your-app")
        for name in ["sample.har", "scroll-on-your-network.json"] {
            try FileManager.default.copyItem(at: examples.appendingPathComponent(name), to: folder.appending(name))
        }
        try folder.copyDeviceProfiles()
        return folder
    }

    @Test("the sample imports with its fit table, and twice gives the same NETWORK.json byte for byte")
    func sampleImportIsRepeatable() throws {
        let folder = try Self.sampleFolder()
        defer { folder.remove() }
        for out in ["a.json", "b.json"] {
            let outcome = try FeedSimProcess.run(["import", "har", "sample.har", "--out", out], in: folder.url)
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.stdout.contains("feed   latency_ms       HAR"), "\(outcome.stdout)")
        }
        let a = try Data(contentsOf: folder.appending("a.json"))
        #expect(a.count > 1000)
        #expect(a == (try Data(contentsOf: folder.appending("b.json"))))
    }

    @Test("malformed HARs exit 65 naming the file, the entry's JSON path and what was expected, and write nothing")
    func malformed() throws {
        let folder = try Self.sampleFolder()
        defer { folder.remove() }
        let sample = try String(contentsOf: folder.appending("sample.har"), encoding: .utf8)
        try folder.write(String(sample.prefix(5000)), to: "cut.har")
        try folder.write(sample.replacingOccurrences(of: #""status": 503"#, with: #""status": "503""#), to: "typed.har")
        try folder.write(#"{"log": {"version": "1.2", "pages": []}}"#, to: "empty.har")
        let cases = [
            ("cut.har", "cut.har: $.log.entries[5]: expected the rest of the value, found the end of the file"),
            ("typed.har", #"typed.har: $.log.entries[7].response.status: expected a number, found the string "503""#),
            ("empty.har", "empty.har: $.log.entries: expected an array of entries (HAR 1.2 `log.entries`), found none"),
        ]
        for (file, message) in cases {
            let outcome = try FeedSimProcess.run(["import", "har", file, "--out", "NETWORK.json"], in: folder.url)
            #expect(outcome.status == 65, "\(outcome)")
            #expect(outcome.stderr.hasPrefix(message), "\(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appending("NETWORK.json").path))
        }
    }

    @Test(
        "a scenario with network.from runs byte-identically in two processes at --jobs 1 and 2, unlike the preset"
    )
    func scenarioRunsAreReproducible() throws {
        let folder = try Self.sampleFolder()
        defer { folder.remove() }
        let imported = try FeedSimProcess.run(["import", "har", "sample.har", "--out", "NETWORK.json"], in: folder.url)
        #expect(imported.status == 0, "\(imported)")
        let scenario = try String(contentsOf: folder.appending("scroll-on-your-network.json"), encoding: .utf8)
        try folder.write(
            scenario.replacingOccurrences(of: #""network": { "from": "NETWORK.json" },"#, with: ""),
            to: "preset/preset.json")
        for (out, jobs) in [("one", "1"), ("two", "2")] {
            let outcome = try FeedSimProcess.run(
                ["run", "scroll-on-your-network.json", "--jobs", jobs, "--quiet", "--out", out], in: folder.url,
                timeout: 300)
            #expect(outcome.status == 0, "\(outcome)")
        }
        let preset = try FeedSimProcess.run(
            ["run", "preset/preset.json", "--devices", "devices", "--quiet", "--out", "preset-out"], in: folder.url,
            timeout: 300)
        #expect(preset.status == 0, "\(preset)")
        let one = try Data(contentsOf: folder.appending("one/summary.csv"))
        #expect(one.count > 100)
        #expect(one == (try Data(contentsOf: folder.appending("two/summary.csv"))))
        #expect(one != (try Data(contentsOf: folder.appending("preset-out/summary.csv"))))
    }

    @Test("a network.from naming no file exits 65 at $.network.from")
    func missingNetworkFile() throws {
        let folder = try Self.sampleFolder()
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(
            ["run", "scroll-on-your-network.json", "--quiet", "--out", "out"], in: folder.url)
        #expect(outcome.status == 65, "\(outcome)")
        #expect(
            outcome.stderr.contains("scroll-on-your-network.json: $.network.from: expected a NETWORK.json"),
            "\(outcome.stderr)")
    }

    @Test("a NETWORK.json with a table of the wrong length, or out of order, exits 65 at that table")
    func malformedNetworkFile() throws {
        let folder = try Self.sampleFolder()
        defer { folder.remove() }
        let imported = try FeedSimProcess.run(["import", "har", "sample.har", "--out", "NETWORK.json"], in: folder.url)
        #expect(imported.status == 0, "\(imported)")
        let text = try String(contentsOf: folder.appending("NETWORK.json"), encoding: .utf8)
        let cases = [
            (
                text.replacingOccurrences(of: "\"latency_ms\": [\n        98,\n", with: "\"latency_ms\": [\n"),
                "NETWORK.json: $.classes[0].latency_ms: expected 101 quantiles, found 100"
            ),
            (
                text.replacingOccurrences(
                    of: "\"latency_ms\": [\n        98,\n", with: "\"latency_ms\": [\n        990,\n"),
                "NETWORK.json: $.classes[0].latency_ms[1]: expected a finite number ≥ 0 and ≥ the quantile before it"
            ),
            (
                text.replacingOccurrences(of: "feedsim-network", with: "other"),
                "NETWORK.json: $.format: expected \"feedsim-network\""
            ),
        ]
        for (bad, message) in cases {
            #expect(bad != text)
            try folder.write(bad, to: "NETWORK.json")
            let outcome = try FeedSimProcess.run(
                ["run", "scroll-on-your-network.json", "--quiet", "--out", "out"], in: folder.url)
            #expect(outcome.status == 65, "\(outcome)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
        }
    }
}
