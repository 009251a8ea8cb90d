import FeedSimTestSupport
import Foundation
import Testing

/// A two-second scenario on the 60 Hz profile: small enough to run in every test.
private func tinyScenario(name: String = "tiny", postCount: String = "50", extra: String = "") -> String {
    """
    {
      "schema_version": 1,
      "name": "\(name)",
      "description": "Two seconds over fifty posts with one fling.",
      "device": "iphone-60hz",
      "duration_s": 2,
      "feed": { "post_count": \(postCount) },\(extra)
      "script": [ { "at_ms": 200, "action": "fling", "velocity_pt_s": 3000 } ]
    }
    """
}

/// The columns docs/design.md ("CSV columns") promises, in order: the first
/// ones every release keeps (later releases only add columns at the end).
private enum ContractColumns {
    static let summary = [
        "scenario", "variant", "refresh_hz", "seed", "duration_s", "frames",
        "overrun_frames", "dropped_frames", "jank_frames", "hitch_time_ms",
        "hitch_ratio_ms_per_s", "frame_work_p50_ms", "frame_work_p90_ms",
        "frame_work_p99_ms", "frame_work_max_ms", "drift_events", "drift_max_pt",
        "drift_total_pt", "allocations", "allocated_bytes", "peak_memory_mb",
        "memory_warnings", "jetsam_kills", "network_requests", "network_failures",
        "viewmodel_hit_rate", "image_hit_rate", "trace_digest",
    ]
    static let frames = [
        "scenario", "variant", "refresh_hz", "frame", "time_ms", "work_ms",
        "budget_ms", "overrun", "dropped", "content_offset_pt", "first_visible",
        "last_visible", "allocations",
    ]
    static let drift = [
        "scenario", "variant", "refresh_hz", "time_ms", "cause", "anchor_id",
        "before_y_pt", "after_y_pt", "drift_pt", "clamped_pt",
    ]
}

/// Exit codes from docs/design.md, "Exit codes".
private enum ExitStatus {
    static let success: Int32 = 0
    static let usage: Int32 = 64
    static let invalidScenario: Int32 = 65
}

@Suite("feedsim exit codes and outputs", .serialized)
struct CLIErrorTests {
    struct InvalidFile: Sendable, CustomTestStringConvertible {
        var label: String
        var text: String
        var path: String
        var fragment: String
        var testDescription: String { label }
    }

    @Test(
        "An invalid scenario exits 65 naming the file, the JSON path and what was expected",
        arguments: [
            InvalidFile(
                label: "negative post count", text: tinyScenario(postCount: "-5"),
                path: "$.feed.post_count", fragment: "expected a value in 0...1000000 posts, found -5"),
            InvalidFile(
                label: "unknown field", text: tinyScenario(extra: "\n  \"colour\": \"blue\","),
                path: "$.colour", fragment: "unknown field `colour`"),
            InvalidFile(
                label: "device that does not exist",
                text: tinyScenario().replacingOccurrences(of: "iphone-60hz", with: "iphone-3g"),
                path: "$.device", fragment: "found \"iphone-3g\""),
            InvalidFile(
                label: "not JSON", text: "{ \"schema_version\": 1,", path: "$", fragment: "expected valid JSON"),
        ])
    func invalidScenarioExits65(_ example: InvalidFile) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(example.text, to: "bad.json")

        let outcome = try FeedSimProcess.run(["run", "bad.json", "--out", "out"], in: folder.url)

        #expect(outcome.status == ExitStatus.invalidScenario, "\(outcome)")
        #expect(!outcome.timedOut && !outcome.exitedBySignal)
        let lines = outcome.stderrLines.filter { $0.hasPrefix("invalid scenario: ") }
        #expect(lines.count == 1, "\(outcome)")
        let prefix = "invalid scenario: bad.json: \(example.path): "
        #expect(lines.first?.hasPrefix(prefix) == true, "\(outcome)")
        #expect(lines.first?.contains(example.fragment) == true, "\(outcome)")
        #expect(!outcome.stdout.contains("wrote"))
        #expect(folder.entries(in: "out") == nil, "nothing may be written for an invalid scenario")
    }

    @Test("A scenario with no devices/ beside it or above exits 65 naming the folders searched and how to fix it")
    func missingDeviceFolderNamesWhereItLooked() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        // A copy of a scenario in a new folder, as a user makes one: no devices/ anywhere near it.
        try folder.write(tinyScenario(), to: "mine/tiny.json")

        let outcome = try FeedSimProcess.run(["run", "mine/tiny.json", "--out", "out"], in: folder.url)

        #expect(outcome.status == ExitStatus.invalidScenario, "\(outcome)")
        let line = try #require(
            outcome.stderrLines.first { $0.hasPrefix("invalid scenario: mine/tiny.json: $.device: ") }, "\(outcome)")
        #expect(
            line.contains(folder.appending("mine/devices").standardizedFileURL.path),
            "names the folder beside the file: \(line)")
        #expect(line.contains("no device profiles there"), "says that the folders it searched hold none: \(line)")
        #expect(!line.contains("one of: )"), "no empty list of choices: \(line)")
        #expect(line.contains("--devices"), "says how to fix it: \(line)")
        #expect(folder.entries(in: "out") == nil)
    }

    @Test("A missing device lists the profiles of the folders searched")
    func missingDeviceListsTheProfilesFound() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles(to: "profiles")
        try folder.write(
            tinyScenario().replacingOccurrences(of: "iphone-60hz", with: "iphone-3g"), to: "mine/tiny.json")

        let outcome = try FeedSimProcess.run(
            ["run", "mine/tiny.json", "--devices", "profiles", "--out", "out"], in: folder.url)

        #expect(outcome.status == ExitStatus.invalidScenario, "\(outcome)")
        let line = try #require(
            outcome.stderrLines.first { $0.hasPrefix("invalid scenario: mine/tiny.json: $.device: ") }, "\(outcome)")
        #expect(line.contains("profiles"), "names the folder searched: \(line)")
        #expect(line.contains("iphone-60hz") && line.contains("found \"iphone-3g\""), "lists what is there: \(line)")
    }

    @Test("run --devices DIR reads the device profiles in DIR, in this process and in the workers")
    func devicesOptionFindsTheProfile() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles(to: "profiles")
        try folder.write(tinyScenario(), to: "mine/tiny.json")

        let alone = try FeedSimProcess.run(
            ["run", "mine/tiny.json", "--devices", "profiles", "--quiet", "--out", "alone"], in: folder.url)
        let workers = try FeedSimProcess.run(
            [
                "run", "mine/tiny.json", "--devices", "profiles", "--seeds", "3", "--jobs", "2", "--quiet", "--out",
                "workers",
            ], in: folder.url)

        #expect(alone.status == ExitStatus.success, "\(alone)")
        #expect(workers.status == ExitStatus.success, "\(workers)")
        let aloneSummary = try String(contentsOf: folder.appending("alone/summary.csv"), encoding: .utf8)
        let workersSummary = try String(contentsOf: folder.appending("workers/summary.csv"), encoding: .utf8)
        #expect(aloneSummary.split(separator: "\n").count == 2)
        #expect(workersSummary.split(separator: "\n").count == 4)
    }

    @Test("Every invalid file given is reported in one run, and the run still exits 65")
    func everyInvalidFileReported() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(tinyScenario(name: "has spaces"), to: "suite/a.json")
        try folder.write(tinyScenario(name: "b", extra: "\n  \"feed_size\": 3,"), to: "suite/b.json")
        try folder.write("not json", to: "suite/nested/c.json")
        try folder.write(tinyScenario(name: "fine"), to: "suite/d.json")
        try folder.write(tinyScenario(name: "fine"), to: "suite/e.json")
        try folder.write(tinyScenario(name: "lonely", postCount: "-3"), to: "lonely.json")
        try folder.copyDeviceProfiles(to: "suite/devices")
        try folder.write("{\"this\": \"is not a scenario, and is skipped\"}", to: "suite/devices/broken.json")

        let outcome = try FeedSimProcess.run(["run", "suite", "lonely.json", "--out", "out"], in: folder.url)

        #expect(outcome.status == ExitStatus.invalidScenario, "\(outcome)")
        let reported = outcome.stderrLines.filter { $0.hasPrefix("invalid scenario: ") }
        let expectedPrefixes = [
            "invalid scenario: suite/a.json: $.name: ",
            "invalid scenario: suite/b.json: $.feed_size: ",
            "invalid scenario: suite/nested/c.json: $: expected valid JSON",
            "invalid scenario: lonely.json: $.feed.post_count: ",
            """
            invalid scenario: suite/e.json: $.name: expected a name no other scenario uses; suite/d.json is also \
            \"fine\"
            """,
        ]
        #expect(reported.count == expectedPrefixes.count, "\(outcome)")
        for prefix in expectedPrefixes {
            #expect(reported.contains { $0.hasPrefix(prefix) }, "missing \(prefix)\n\(outcome)")
        }
        #expect(!reported.contains { $0.contains("suite/d.json: ") }, "the first file with a name is valid")
        #expect(!outcome.stderr.contains("broken.json"), "files under devices/ are not scenarios")
        #expect(folder.entries(in: "out") == nil)
    }

    @Test("An invalid scenario leaves an existing output folder exactly as it was")
    func invalidScenarioWritesNothing() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(tinyScenario(), to: "good.json")
        try folder.write(tinyScenario(name: "bad", postCount: "\"many\""), to: "bad.json")
        try folder.write("previous summary\n", to: "out/summary.csv")

        let outcome = try FeedSimProcess.run(
            ["run", "good.json", "bad.json", "--out", "out", "--frames"], in: folder.url)

        #expect(outcome.status == ExitStatus.invalidScenario, "\(outcome)")
        #expect(
            outcome.stderr.contains("invalid scenario: bad.json: $.feed.post_count: expected an integer"), "\(outcome)")
        #expect(!outcome.stderr.contains("good.json"))
        #expect(folder.entries(in: "out") == ["summary.csv"])
        #expect(try String(contentsOf: folder.appending("out/summary.csv"), encoding: .utf8) == "previous summary\n")
    }

    struct UsageError: Sendable, CustomTestStringConvertible {
        var label: String
        var arguments: [String]
        var fragment: String
        var testDescription: String { label }
    }

    @Test(
        "Usage errors exit 64 with a message and write nothing",
        arguments: [
            UsageError(
                label: "a path that does not exist", arguments: ["run", "missing.json", "--out", "out"],
                fragment: "No such file or folder: missing.json"),
            UsageError(
                label: "one of several paths does not exist", arguments: ["run", "empty", "missing", "--out", "out"],
                fragment: "No such file or folder: missing"),
            UsageError(
                label: "an unknown option", arguments: ["run", "empty", "--colour", "red", "--out", "out"],
                fragment: "--colour"),
            UsageError(
                label: "a folder with no scenarios", arguments: ["run", "empty", "--out", "out"],
                fragment: "No scenario files (*.json) found in empty"),
            UsageError(
                label: "a seed that is not a number", arguments: ["run", "empty", "--seed", "abc", "--out", "out"],
                fragment: "abc"),
            UsageError(label: "an unknown subcommand", arguments: ["walk"], fragment: "Unexpected argument 'walk'"),
        ])
    func usageErrorExits64(_ example: UsageError) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        // A folder holding only what is not a scenario: device profiles and notes.
        try folder.copyDeviceProfiles(to: "empty/devices")
        try folder.write("Scenarios go here.\n", to: "empty/README.txt")

        let outcome = try FeedSimProcess.run(example.arguments, in: folder.url)

        #expect(outcome.status == ExitStatus.usage, "\(outcome)")
        #expect(!outcome.timedOut && !outcome.exitedBySignal)
        #expect(outcome.stderr.contains(example.fragment), "\(outcome)")
        #expect(!outcome.stderr.contains("invalid scenario"))
        #expect(folder.entries(in: "out") == nil)
    }

    @Test("A valid scenario exits 0 and writes the contract's files and columns", arguments: [false, true])
    func validRunWritesReports(frames: Bool) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(tinyScenario(), to: "tiny.json")

        let outcome = try FeedSimProcess.run(
            ["run", "tiny.json", "--out", "out/run"] + (frames ? ["--frames"] : []), in: folder.url)

        #expect(outcome.status == ExitStatus.success, "\(outcome)")
        #expect(!outcome.stderr.contains("invalid scenario"))
        let expectedFiles =
            frames
            ? ["drift.csv", "frames.csv", "provenance.json", "summary.csv"]
            : ["drift.csv", "provenance.json", "summary.csv"]
        #expect(folder.entries(in: "out/run") == expectedFiles, "no temporary files may be left behind")

        let summary = try CSVFile(folder.appending("out/run/summary.csv"))
        // The contract says "at least" these: more may follow, but these come first, in order.
        #expect(Array(summary.columns.prefix(ContractColumns.summary.count)) == ContractColumns.summary)
        #expect(summary.rows.count == 1, "one run: one scenario, one variant, one refresh rate")
        #expect(summary.rows.first?["scenario"] == "tiny")

        let drift = try CSVFile(folder.appending("out/run/drift.csv"))
        #expect(drift.columns == ContractColumns.drift)

        if frames {
            let frameRows = try CSVFile(folder.appending("out/run/frames.csv"))
            #expect(Array(frameRows.columns.prefix(ContractColumns.frames.count)) == ContractColumns.frames)
            // Two seconds at 60 Hz.
            #expect((100...121).contains(frameRows.rows.count), "\(frameRows.rows.count) frames")
        }
    }

    @Test("The same command run twice, in two processes, writes byte-identical files")
    func outputIsReproducible() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(tinyScenario(), to: "tiny.json")

        for out in ["first", "second"] {
            let outcome = try FeedSimProcess.run(["run", "tiny.json", "--frames", "--out", out], in: folder.url)
            #expect(outcome.status == ExitStatus.success, "\(outcome)")
        }
        for file in ["summary.csv", "drift.csv", "frames.csv"] {
            let first = try Data(contentsOf: folder.appending("first/\(file)"))
            let second = try Data(contentsOf: folder.appending("second/\(file)"))
            #expect(!first.isEmpty)
            #expect(first == second, "\(file) differs between two runs")
        }
    }

    @Test("The helper finds the binary and reports its exit status and output")
    func helperRunsTheBinary() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(["--help"], in: folder.url)
        #expect(outcome.status == ExitStatus.success, "\(outcome)")
        #expect(outcome.stdout.contains("USAGE: feedsim"))
        #expect(
            FileManager.default.fileExists(
                atPath: FeedSimProcess.packageRoot.appendingPathComponent("Package.swift").path))
    }

    @Test("The helper kills a run that outlives its timeout and says so")
    func helperKillsOnTimeout() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(tinyScenario(), to: "tiny.json")

        let outcome = try FeedSimProcess.run(["run", "tiny.json", "--out", "out"], in: folder.url, timeout: 0)

        #expect(outcome.timedOut, "\(outcome)")
        // SIGTERM ends the run: by the signal itself when it lands before
        // the run installs its handler, else by the handler (128 + SIGTERM);
        // which comes first depends on how busy the machine is.
        #expect(
            (outcome.exitedBySignal && outcome.status == SIGTERM)
                || (!outcome.exitedBySignal && outcome.status == 128 + SIGTERM),
            "\(outcome)")
    }
}
