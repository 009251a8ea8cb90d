import FeedScenario
import FeedSimulator

/// A run's timeline as a Chrome trace-event JSON file, the format Perfetto
/// UI (ui.perfetto.dev) and chrome://tracing open: one process for the run
/// and one thread per track.
///
/// Times are simulated: `ts` and `dur` are microseconds written from whole
/// nanoseconds with up to three decimals, so nothing is rounded but a
/// commit's parts, whose boundaries are rounded to the nanosecond. Events
/// are sorted by time, then track, then the order they were made in, and
/// every number is formatted by this file, so the same run always gives
/// the same bytes.
package enum ChromeTrace {
    /// A track of the trace: a thread of the run's process.
    package enum Track: Int, CaseIterable, Sendable {
        /// Each frame's commit, split by cause.
        case mainThread = 1
        /// Each frame's prepare and execute on the render server.
        case renderServer
        /// Frames reaching the screen, and hitch markers.
        case display
        /// API requests, as async slices from send to answer.
        case network
        /// Image loads, as async slices from send to answer.
        case images
        /// Drift records, as instants.
        case drift
        /// Background, foreground, termination, relaunch, memory warnings.
        case lifecycle

        /// The thread's name in the trace.
        package var name: String {
            switch self {
            case .mainThread: "main thread"
            case .renderServer: "render server"
            case .display: "display"
            case .network: "network"
            case .images: "images"
            case .drift: "drift"
            case .lifecycle: "lifecycle"
            }
        }
    }

    /// The folder under `--out` the traces go to.
    package static let folder = "traces"

    /// The run's process id; each file holds one run.
    package static let processID = 1

    /// The file a run's trace goes to, under `traces/`:
    /// `<scenario>--<variant>--<hz>hz.json`, with any character other than a
    /// letter, a digit, `-`, `_` or `.` replaced by `_`; when each scenario
    /// ran under several seeds (`seeded`), `<scenario>--<variant>--<hz>hz--seed<seed>.json`.
    package static func fileName(for result: RunResult, seeded: Bool = false) -> String {
        fileName(
            for: SummaryKey(scenario: result.scenario, variant: result.variant, refreshHz: result.refreshHz),
            seed: seeded ? result.seed : nil)
    }

    /// The file the trace of the run with `key` goes to, under `traces/`;
    /// `seed` is given for the runs of `feedsim run --seeds N`.
    package static func fileName(for key: SummaryKey, seed: UInt64? = nil) -> String {
        "\(safe(key.scenario))--\(safe(key.variant))--\(key.refreshHz)hz\(seed.map { "--seed\($0)" } ?? "").json"
    }

    private static func safe(_ name: String) -> String {
        let kept = String(name.map { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" || $0 == "." ? $0 : "_" })
        // A name of dots alone would be a folder's name.
        return kept.allSatisfy { $0 == "." } ? kept.replacing(".", with: "_") : kept
    }

    /// The trace of `result`; `nil` when the run kept no timeline.
    ///
    /// - Complexity: O(*n* log *n*) in the run's events.
    package static func render(_ result: RunResult) -> String? {
        guard let timeline = result.timeline else { return nil }
        var events = EventList(display: Display(refreshHz: result.refreshHz))
        for frame in timeline.frames { events.add(frame) }
        for (number, request) in timeline.requests.enumerated() { events.add(request, id: number, track: .network) }
        for (number, load) in timeline.imageLoads.enumerated() { events.add(load, id: number, track: .images) }
        for record in result.drift { events.add(record) }
        for job in timeline.backgroundJobs { events.add(job) }
        for mark in timeline.marks {
            events.append(
                mark.time, .lifecycle, #""name":\#(string(mark.name)),"ph":"i","s":"t","ts":\#(micros(mark.time))"#)
        }

        var lines = metadataEvents(result, tracks: events.tracks)
        lines += events.sorted()
        let metadata = [
            "\"scenario\":\(string(result.scenario))",
            "\"variant\":\(string(result.variant))",
            "\"refresh_hz\":\(result.refreshHz)",
            "\"seed\":\(result.seed)",
            "\"duration_ms\":\(millis(result.duration))",
            "\"frames\":\(timeline.frames.count)",
            "\"trace_digest\":\(string(result.traceDigest.hex))",
            "\"clock\":\"simulated time from the run's start\"",
        ]
        return "{\"traceEvents\":[\n" + lines.joined(separator: ",\n")
            + "\n],\n\"displayTimeUnit\":\"ms\",\n\"metadata\":{"
            + metadata.joined(separator: ",") + "}}\n"
    }

    /// Names of the process and of each thread that has events, and the threads' order.
    private static func metadataEvents(_ result: RunResult, tracks: Set<Int>) -> [String] {
        let process = "\(result.scenario) / \(result.variant) @ \(result.refreshHz) Hz"
        var lines = [
            #"{"name":"process_name","ph":"M","pid":\#(processID),"tid":0,"args":{"name":\#(string(process))}}"#
        ]
        for track in Track.allCases where tracks.contains(track.rawValue) {
            lines.append(
                #"""
                {"name":"thread_name","ph":"M","pid":\#(processID),"tid":\#(track.rawValue),\#
                "args":{"name":\#(string(track.name))}}
                """#
            )
            lines.append(
                #"""
                {"name":"thread_sort_index","ph":"M","pid":\#(processID),"tid":\#(track.rawValue),\#
                "args":{"sort_index":\#(track.rawValue)}}
                """#
            )
        }
        // A thread for each background core that ran a job, after the tracks.
        for tid in tracks.sorted() where tid >= backgroundCoreTrack(0) {
            let name = "background core \(tid - backgroundCoreTrack(0) + 1)"
            lines.append(
                #"""
                {"name":"thread_name","ph":"M","pid":\#(processID),"tid":\#(tid),"args":{"name":\#(string(name))}}
                """#
            )
            lines.append(
                #"""
                {"name":"thread_sort_index","ph":"M","pid":\#(processID),"tid":\#(tid),"args":{"sort_index":\#(tid)}}
                """#
            )
        }
        return lines
    }

    /// The thread of background core `core` (from 0): after every `Track`.
    static func backgroundCoreTrack(_ core: Int) -> Int { Track.allCases.count + 1 + core }

    /// Events as they are made, each with its time, track and order of making.
    private struct EventList {
        let display: Display
        private var events: [(time: SimTime, track: Int, order: Int, text: String)] = []
        /// The tracks with at least one event; only looked up.
        private(set) var tracks: Set<Int> = []

        init(display: Display) {
            self.display = display
        }

        /// `fields` are every field but `pid` and `tid`, which this adds.
        mutating func append(_ time: SimTime, _ track: Track, _ fields: String) {
            append(time, thread: track.rawValue, fields)
        }

        /// `fields` on the thread `tid`.
        mutating func append(_ time: SimTime, thread tid: Int, _ fields: String) {
            let text = "{" + fields + ",\"pid\":\(processID),\"tid\":\(tid)}"
            events.append((time, tid, events.count, text))
            tracks.insert(tid)
        }

        /// A background job: a slice on its core from start to end, with
        /// how long it waited for the core.
        mutating func add(_ job: BackgroundSlice) {
            let name = job.kind == .height ? "height" : "contents"
            append(
                job.start, thread: ChromeTrace.backgroundCoreTrack(job.core),
                complete(
                    name, cat: "background", start: job.start, end: job.end,
                    args: "\"post_id\":\(job.postID),\"wait_ms\":\(millis(job.start - job.queued))"))
        }

        func sorted() -> [String] {
            events.sorted { ($0.time, $0.track, $0.order) < ($1.time, $1.track, $1.order) }.map(\.text)
        }

        /// A frame: its commit and the commit's parts on the main thread,
        /// its render, its presentation and, if late, a hitch marker.
        mutating func add(_ frame: Timeline.Frame) {
            let record = frame.record
            let commitEnd = record.time + record.work
            var commitArgs =
                "\"frame\":\(record.frame),\"work_ms\":\(millis(record.work)),\"budget_ms\":\(millis(record.budget))"
            var name = "commit"
            if !frame.dataCommits.isEmpty {
                let causes = frame.dataCommits.joined(separator: ", ")
                name = "commit (\(causes))"
                commitArgs += ",\"data_commit\":\(string(causes))"
            }
            append(
                record.time, .mainThread,
                complete(name, cat: "commit", start: record.time, end: commitEnd, args: commitArgs))
            // Parts laid end to end from the vsync; boundaries rounded to the
            // nanosecond, the last one at the commit's end.
            var elapsed = 0.0
            var partStart = record.time
            for (index, part) in frame.parts.enumerated() {
                elapsed += part.nanoseconds
                let partEnd =
                    index == frame.parts.count - 1
                    ? commitEnd : min(commitEnd, record.time + SimTime(elapsed.rounded()))
                if partEnd > partStart {
                    append(
                        partStart, .mainThread,
                        complete(
                            part.name, cat: "commit_part", start: partStart, end: partEnd,
                            args: "\"frame\":\(record.frame),\"ms\":\(millis(partEnd - partStart))"))
                }
                partStart = max(partStart, partEnd)
            }
            append(
                record.renderStart, .renderServer,
                complete(
                    "render", cat: "render", start: record.renderStart, end: record.renderStart + record.render,
                    args: "\"frame\":\(record.frame),\"render_ms\":\(millis(record.render))"))
            var displayArgs = "\"frame\":\(record.frame),\"latency_ms\":\(millis(record.latency))"
            if record.hitchType != .none {
                displayArgs += ",\"hitch\":\(string(record.hitchType.rawValue)),\"late_ms\":\(millis(record.late))"
            }
            // On screen from its vsync until the next one at least.
            let nextVsync = display.vsyncTime(display.firstVsync(atOrAfter: record.presented) + 1)
            append(
                record.presented, .display,
                complete(
                    "frame \(record.frame)", cat: "present", start: record.presented, end: nextVsync, args: displayArgs)
            )
            if record.hitchType != .none {
                append(
                    record.presented, .display,
                    #"""
                    "name":\#(string("\(record.hitchType.rawValue) hitch")),"cat":"hitch","ph":"i","s":"t",\#
                    "ts":\#(micros(record.presented)),"args":{"frame":\#(record.frame),\#
                    "type":\#(string(record.hitchType.rawValue)),"late_ms":\#(millis(record.late))}
                    """#
                )
            }
        }

        /// A request or an image load: an async slice from send to answer.
        mutating func add(_ exchange: Timeline.Exchange, id: Int, track: Track) {
            let cat = track == .network ? "network" : "image"
            var args =
                """
                \"request_bytes\":\(exchange.requestBytes),\"response_bytes\":\(exchange.responseBytes)\
                ,\"outcome\":\(string(exchange.outcome)),\"retries\":\(exchange.retries)
                """
            if track == .images { args += ",\"post_id\":\(exchange.postID)" }
            append(
                exchange.start, track,
                #"""
                "name":\#(string(exchange.kind)),"cat":"\#(cat)","ph":"b","id":\#(id),\#
                "ts":\#(micros(exchange.start)),"args":{\#(args)}
                """#
            )
            append(
                exchange.end, track,
                #""name":\#(string(exchange.kind)),"cat":"\#(cat)","ph":"e","id":\#(id),"ts":\#(micros(exchange.end))"#)
        }

        /// A drift record: an instant named by its cause.
        mutating func add(_ record: DriftRecord) {
            let drift = record.drift.map(number) ?? "\"lost\""
            let after = record.afterY.map(number) ?? "null"
            append(
                record.time, .drift,
                #"""
                "name":\#(string(record.cause)),"cat":"drift","ph":"i","s":"t","ts":\#(micros(record.time)),\#
                "args":{"cause":\#(string(record.cause)),"anchor_id":\#(record.anchorID),"drift_pt":\#(drift),\#
                "before_y_pt":\#(number(record.beforeY)),"after_y_pt":\#(after)}
                """#
            )
        }

        private func complete(_ name: String, cat: String, start: SimTime, end: SimTime, args: String) -> String {
            #"""
            "name":\#(string(name)),"cat":"\#(cat)","ph":"X","ts":\#(micros(start)),\#
            "dur":\#(micros(max(0, end - start))),"args":{\#(args)}
            """#
        }
    }

    /// Nanoseconds as microseconds, exactly: up to three decimals.
    static func micros(_ ns: SimTime) -> String {
        decimal(ns, scale: 1_000, digits: 3)
    }

    /// Nanoseconds as milliseconds, exactly: up to six decimals.
    static func millis(_ ns: SimTime) -> String {
        decimal(ns, scale: 1_000_000, digits: 6)
    }

    private static func decimal(_ value: SimTime, scale: SimTime, digits: Int) -> String {
        let sign = value < 0 ? "-" : ""
        let magnitude = value.magnitude
        let whole = magnitude / UInt64(scale)
        let fraction = magnitude % UInt64(scale)
        guard fraction > 0 else { return "\(sign)\(whole)" }
        var text = String(fraction)
        text = String(repeating: "0", count: digits - text.count) + text
        while text.hasSuffix("0") { text.removeLast() }
        return "\(sign)\(whole).\(text)"
    }

    /// A finite number as JSON (Swift's shortest round-trip form); `null` otherwise.
    static func number(_ value: Double) -> String {
        value.isFinite ? "\(value)" : "null"
    }

    /// `text` as a JSON string.
    static func string(_ text: String) -> String { JSONText.quoted(text) }
}
