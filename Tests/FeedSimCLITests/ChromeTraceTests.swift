import FeedReports
import FeedScenario
import FeedSimulator
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
                   let name = (event["args"] as? [String: Any])?["name"] as? String {
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
    static let scenarios = ["flaky-network-offline-likes", "jetsam-kill-and-relaunch", "image-decode-main-vs-background", "refresh-while-reading"]

    @Test("a traced run's events are well formed and match what the run measured", arguments: scenarios)
    func wellFormed(_ name: String) throws {
        let file = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/\(name).json")
        let loaded = try ScenarioLoader.load(url: file, file: file.path)
        let request = try #require(RunRequest.expand(loaded, seedOverride: nil, recordFrames: true, recordTimeline: true).first)
        let result = try Simulation(request: request).run()
        let trace = try ParsedTrace(try #require(ChromeTrace.render(result)))
        let hitches = result.frames.filter { $0.hitchType != .none }

        #expect(trace.threadNames[ChromeTrace.Track.mainThread.rawValue] == "main thread")
        #expect(trace.threadNames[ChromeTrace.Track.renderServer.rawValue] == "render server")
        #expect(trace.threadNames[ChromeTrace.Track.display.rawValue] == "display")
        var lastTime = -Double.infinity
        for event in trace.events {
            #expect(number(event["pid"]) == Double(ChromeTrace.processID), "\(event)")
            let tid = try #require(number(event["tid"]).map(Int.init), "\(event)")
            #expect(trace.threadNames[tid] != nil, "every event's track is named: \(event)")
            let ts = try #require(number(event["ts"]), "\(event)")
            // Sorted by time: monotonic on every track.
            #expect(ts >= lastTime, "\(event)")
            lastTime = ts
            if event["ph"] as? String == "X" { #expect((number(event["dur"]) ?? -1) >= 0, "\(event)") }
            if event["ph"] as? String == "i" { #expect(event["s"] as? String == "t", "\(event)") }
        }

        // Main thread: one commit per frame, its parts inside it.
        let commits = trace.on(.mainThread, cat: "commit")
        #expect(commits.count == result.frames.count)
        var commitEnd: [Int: Double] = [:]
        var commitStart: [Int: Double] = [:]
        for commit in commits {
            let frame = Int(try #require(number((commit["args"] as? [String: Any])?["frame"])))
            commitStart[frame] = number(commit["ts"])
            commitEnd[frame] = number(commit["ts"])! + number(commit["dur"])!
        }
        let tolerance = 1e-6
        for part in trace.on(.mainThread, cat: "commit_part") {
            let frame = Int(try #require(number((part["args"] as? [String: Any])?["frame"])))
            let start = number(part["ts"])!, end = start + number(part["dur"])!
            #expect(start >= commitStart[frame]! - tolerance && end <= commitEnd[frame]! + tolerance, "\(part)")
        }
        // Render server: each render starts at or after its commit's end.
        let renders = trace.on(.renderServer, phase: "X")
        #expect(renders.count == result.frames.count)
        for render in renders {
            let frame = Int(try #require(number((render["args"] as? [String: Any])?["frame"])))
            #expect(number(render["ts"])! >= commitEnd[frame]! - tolerance, "frame \(frame)")
        }
        // Display: a slice per presented frame, a hitch marker exactly on late frames.
        #expect(trace.on(.display, phase: "X").count == result.frames.count)
        let markers = trace.on(.display, phase: "i")
        #expect(markers.compactMap { number(($0["args"] as? [String: Any])?["frame"]).map(Int.init) } == hitches.map(\.frame))
        #expect(markers.compactMap { ($0["args"] as? [String: Any])?["type"] as? String } == hitches.map(\.hitchType.rawValue))
        // Network: one async slice per request, each begun and ended.
        let begins = trace.on(.network, phase: "b"), ends = trace.on(.network, phase: "e")
        #expect(begins.count == result.networkRequests)
        #expect(Set(begins.compactMap { number($0["id"]) }) == Set(ends.compactMap { number($0["id"]) }))
        #expect(trace.on(.images, phase: "b").count == result.timeline?.imageLoads.count)
        #expect(trace.on(.images, phase: "e").count == result.timeline?.imageLoads.count)
        // Drift: an instant per record, in the records' order.
        let drift = trace.on(.drift, phase: "i")
        #expect(drift.count == result.drift.count)
        #expect(drift.compactMap { ($0["args"] as? [String: Any])?["cause"] as? String } == result.drift.map(\.cause))
        #expect(trace.metadata["frames"] as? Int == result.frames.count)
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

    @Test("feedsim run --trace writes one trace per run, which Python's json module loads, every named track with events")
    func pythonLoadsTraces() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenario = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/flaky-network-offline-likes.json").path
        let outcome = try FeedSimProcess.run(["run", scenario, "--trace", "--quiet", "--out", "out"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome)")
        let summary = try SummaryFile.load(url: folder.appending("out/summary.csv"))
        let expected = summary.rows.map { "\($0.key.scenario)--\($0.key.variant)--\($0.key.refreshHz)hz.json" }.sorted()
        let written = try FileManager.default.contentsOfDirectory(atPath: folder.appending("out/traces").path).sorted()
        #expect(written == expected)

        let python = Process()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", ChromeTraceTests.pythonCheck, folder.appending("out/traces").path]
        let output = Pipe(), errors = Pipe()
        python.standardOutput = output
        python.standardError = errors
        try python.run()
        let printed = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let failure = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        python.waitUntilExit()
        #expect(python.terminationStatus == 0, "\(failure)")
        let lines = printed.split(separator: "\n")
        #expect(lines.count == expected.count, "\(printed)")
        for line in lines {
            for track in ["main thread=", "render server=", "display=", "network=", "images="] {
                #expect(line.contains(track), "\(line)")
            }
        }
    }

    @Test("traces are byte-identical for any --jobs, and without --trace no traces folder is written and the reports are the same")
    func deterministicAndOptional() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenario = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/jetsam-kill-and-relaunch.json").path
        for (out, extra) in [("serial", ["--trace", "--jobs", "1"]), ("parallel", ["--trace", "--jobs", "2"]), ("plain", ["--jobs", "2"])] {
            let outcome = try FeedSimProcess.run(["run", scenario, "--quiet", "--out", out] + extra, in: folder.url)
            #expect(outcome.status == 0, "\(outcome)")
        }
        let traces = try FileManager.default.contentsOfDirectory(atPath: folder.appending("serial/traces").path).sorted()
        #expect(!traces.isEmpty)
        for file in traces {
            let serial = try Data(contentsOf: folder.appending("serial/traces/\(file)"))
            let parallel = try Data(contentsOf: folder.appending("parallel/traces/\(file)"))
            #expect(serial == parallel, "\(file) differs between two runs")
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appending("plain/traces").path))
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.appending("plain").path).sorted() == ["drift.csv", "summary.csv"])
        for file in ["summary.csv", "drift.csv"] {
            #expect(try Data(contentsOf: folder.appending("plain/\(file)")) == Data(contentsOf: folder.appending("serial/\(file)")), "\(file)")
        }
    }
}
