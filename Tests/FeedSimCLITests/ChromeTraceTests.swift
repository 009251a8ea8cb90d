import FeedReports
import FeedSimTestSupport
import Foundation
import Testing

/// A number of a parsed JSON event.
private func number(_ value: Any?) -> Double? { (value as? NSNumber)?.doubleValue }

/// A parsed trace: its events by phase and track.
private struct ParsedTrace {
    var threadNames: [Int: String] = [:]
    /// Every event but the metadata ones, in file order.
    var events: [[String: Any]] = []
    var metadata: [String: Any] = [:]

    init(_ text: String) throws {
        let object = try #require(try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any])
        #expect(object["displayTimeUnit"] as? String == "ms")
        metadata = try #require(object["metadata"] as? [String: Any])
        let all = try #require(object["traceEvents"] as? [[String: Any]])
        for event in all {
            if event["ph"] as? String == "M" {
                if event["name"] as? String == "thread_name", let tid = number(event["tid"]),
                    let name = (event["args"] as? [String: Any])?["name"] as? String
                {
                    threadNames[Int(tid)] = name
                }
            } else {
                events.append(event)
            }
        }
    }

    func on(_ track: ChromeTrace.Track, phase: String? = nil, cat: String? = nil) -> [[String: Any]] {
        events.filter {
            number($0["tid"]).map(Int.init) == track.rawValue && (phase == nil || $0["ph"] as? String == phase)
                && (cat == nil || $0["cat"] as? String == cat)
        }
    }
}

@Suite("Chrome trace")
struct ChromeTraceTests {
    static let scenarios = [
        "flaky-network-offline-likes", "jetsam-kill-and-relaunch", "image-decode-main-vs-background",
        "refresh-while-reading",
    ]

    @Test("a traced run's events are well formed and match what the run reported", arguments: scenarios)
    func wellFormed(_ name: String) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenario = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/\(name).json").path
        let outcome = try FeedSimProcess.run(
            ["run", scenario, "--trace", "--frames", "--quiet", "--jobs", "2", "--out", "out"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome)")
        let summary = try CSVFile(folder.appending("out/summary.csv")).rows
        let frames = try CSVFile(folder.appending("out/frames.csv")).rows
        let drift = try CSVFile(folder.appending("out/drift.csv")).rows
        #expect(!summary.isEmpty)
        for run in summary {
            let key = ["scenario", "variant", "refresh_hz"].map { run[$0] ?? "" }
            let ofRun = { (row: [String: String]) in ["scenario", "variant", "refresh_hz"].map { row[$0] ?? "" } == key
            }
            let file = folder.appending("out/traces/\(key[0])--\(key[1])--\(key[2])hz.json")
            try check(
                ParsedTrace(String(contentsOf: file, encoding: .utf8)), run: key.joined(separator: " "),
                frames: frames.filter(ofRun), drift: drift.filter(ofRun),
                networkRequests: try #require(Int(run["network_requests"] ?? "")))
        }
    }

    /// Checks one run's trace against its rows in frames.csv and drift.csv.
    private func check(
        _ trace: ParsedTrace, run: String, frames: [[String: String]], drift: [[String: String]], networkRequests: Int
    ) throws {
        let hitches = frames.filter { $0["hitch_type"] != "none" }
        #expect(trace.threadNames[ChromeTrace.Track.mainThread.rawValue] == "main thread", "\(run)")
        #expect(trace.threadNames[ChromeTrace.Track.renderServer.rawValue] == "render server", "\(run)")
        #expect(trace.threadNames[ChromeTrace.Track.display.rawValue] == "display", "\(run)")
        var lastTime = -Double.infinity
        for event in trace.events {
            #expect(number(event["pid"]) == Double(ChromeTrace.processID), "\(run): \(event)")
            let tid = try #require(number(event["tid"]).map(Int.init), "\(run): \(event)")
            #expect(trace.threadNames[tid] != nil, "\(run): every event's track is named: \(event)")
            let ts = try #require(number(event["ts"]), "\(run): \(event)")
            // Sorted by time: monotonic on every track.
            #expect(ts >= lastTime, "\(run): \(event)")
            lastTime = ts
            if event["ph"] as? String == "X" { #expect((number(event["dur"]) ?? -1) >= 0, "\(run): \(event)") }
            if event["ph"] as? String == "i" { #expect(event["s"] as? String == "t", "\(run): \(event)") }
        }

        // Main thread: one commit per frame, its parts inside it.
        let commits = trace.on(.mainThread, cat: "commit")
        #expect(commits.count == frames.count, "\(run)")
        var commitStart: [Int: Double] = [:]
        var commitEnd: [Int: Double] = [:]
        for commit in commits {
            let frame = Int(try #require(number((commit["args"] as? [String: Any])?["frame"])))
            commitStart[frame] = number(commit["ts"])
            commitEnd[frame] = (number(commit["ts"]) ?? 0) + (number(commit["dur"]) ?? 0)
        }
        // Times are exact decimals; only their parsing into doubles rounds.
        let tolerance = 1e-6
        for part in trace.on(.mainThread, cat: "commit_part") {
            let frame = Int(try #require(number((part["args"] as? [String: Any])?["frame"])))
            let start = number(part["ts"]) ?? 0, end = start + (number(part["dur"]) ?? 0)
            #expect(
                start >= (commitStart[frame] ?? .infinity) - tolerance && end <= (commitEnd[frame] ?? 0) + tolerance,
                "\(run): \(part)")
        }
        // Render server: each render starts at or after its commit's end.
        let renders = trace.on(.renderServer, phase: "X")
        #expect(renders.count == frames.count, "\(run)")
        for render in renders {
            let frame = Int(try #require(number((render["args"] as? [String: Any])?["frame"])))
            #expect(
                (number(render["ts"]) ?? 0) >= (commitEnd[frame] ?? .infinity) - tolerance, "\(run): frame \(frame)")
        }
        // Display: a slice per presented frame, a hitch marker exactly on late frames.
        #expect(trace.on(.display, phase: "X").count == frames.count, "\(run)")
        let markers = trace.on(.display, phase: "i")
        #expect(
            markers.compactMap { number(($0["args"] as? [String: Any])?["frame"]).map(Int.init) }
                == hitches.compactMap { Int($0["frame"] ?? "") }, "\(run)")
        #expect(
            markers.compactMap { ($0["args"] as? [String: Any])?["type"] as? String }
                == hitches.compactMap { $0["hitch_type"] }, "\(run)")
        // Network: one async slice per request, each begun and ended; images likewise.
        let begins = trace.on(.network, phase: "b"), ends = trace.on(.network, phase: "e")
        #expect(begins.count == networkRequests, "\(run)")
        #expect(
            begins.compactMap { number($0["id"]) }.sorted() == ends.compactMap { number($0["id"]) }.sorted(), "\(run)")
        let loads = trace.on(.images, phase: "b"), loaded = trace.on(.images, phase: "e")
        #expect(
            loads.compactMap { number($0["id"]) }.sorted() == loaded.compactMap { number($0["id"]) }.sorted(), "\(run)")
        // Drift: an instant per drift.csv row, in the same order.
        let instants = trace.on(.drift, phase: "i")
        #expect(
            instants.compactMap { ($0["args"] as? [String: Any])?["cause"] as? String }
                == drift.compactMap { $0["cause"] }, "\(run)")
        #expect(trace.metadata["frames"] as? Int == frames.count, "\(run)")
    }

    /// Prints each trace file's tracks and their event counts; fails if a
    /// track named in the metadata has no events or an event's track is unnamed.
    static let pythonCheck = """
        import json, os, sys
        folder = sys.argv[1]
        for name in sorted(os.listdir(folder)):
            with open(os.path.join(folder, name)) as f:
                trace = json.load(f)
            assert trace["displayTimeUnit"] == "ms", name
            events = trace["traceEvents"]
            names = {e["tid"]: e["args"]["name"] for e in events if e["ph"] == "M" and e["name"] == "thread_name"}
            counts = {tid: 0 for tid in names}
            for e in events:
                if e["ph"] != "M":
                    counts[e["tid"]] += 1
            for tid in counts:
                assert counts[tid] > 0, (name, names[tid])
            print(name + ": " + ", ".join("%s=%d" % (names[t], counts[t]) for t in sorted(counts)))
        """

    @Test(
        "feedsim run --trace writes one trace per run, which Python's json module loads, every named track with events")
    func pythonLoadsTraces() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenario = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/flaky-network-offline-likes.json")
            .path
        let outcome = try FeedSimProcess.run(["run", scenario, "--trace", "--quiet", "--out", "out"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome)")
        let summary = try SummaryFile.load(url: folder.appending("out/summary.csv"))
        let expected = summary.rows.map { "\($0.key.scenario)--\($0.key.variant)--\($0.key.refreshHz)hz.json" }.sorted()
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.appending("out/traces").path).sorted()
        #expect(written == expected)

        let python = try ChildProcess.run(
            ChildProcess.env, ["python3", "-c", ChromeTraceTests.pythonCheck, folder.appending("out/traces").path],
            timeout: 120)
        #expect(python.status == 0 && !python.timedOut, "\(python)")
        let printed = python.stdout
        let lines = printed.split(separator: "\n")
        #expect(lines.count == expected.count, "\(printed)")
        for line in lines {
            for track in ["main thread=", "render server=", "display=", "network=", "images="] {
                #expect(line.contains(track), "\(line)")
            }
        }
    }

    @Test(
        """
        traces are byte-identical for any --jobs, and without --trace no traces folder is written and the reports \
        are the same
        """
    )
    func deterministicAndOptional() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenario = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/jetsam-kill-and-relaunch.json").path
        for (out, extra) in [
            ("serial", ["--trace", "--jobs", "1"]), ("parallel", ["--trace", "--jobs", "2"]),
            ("plain", ["--jobs", "2"]),
        ] {
            let outcome = try FeedSimProcess.run(["run", scenario, "--quiet", "--out", out] + extra, in: folder.url)
            #expect(outcome.status == 0, "\(outcome)")
        }
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder.appending("serial/traces").path)
            .sorted()
        #expect(!traces.isEmpty)
        for file in traces {
            let serial = try Data(contentsOf: folder.appending("serial/traces/\(file)"))
            let parallel = try Data(contentsOf: folder.appending("parallel/traces/\(file)"))
            #expect(serial == parallel, "\(file) differs between two runs")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appending("plain/traces").path))
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appending("plain").path).sorted() == [
                "drift.csv", "provenance.json", "summary.csv",
            ])
        for file in ["summary.csv", "drift.csv"] {
            #expect(
                try Data(contentsOf: folder.appending("plain/\(file)"))
                    == Data(contentsOf: folder.appending("serial/\(file)")), "\(file)")
        }
    }
}
