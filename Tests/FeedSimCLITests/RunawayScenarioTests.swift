import FeedSimTestSupport
import Foundation
import Testing

/// A command run to its end with what it cost: wall time, and the peak
/// resident memory of it and every process it waited for (`wait4` reports
/// the largest, so a worker's peak counts).
struct MeasuredRun: Sendable, CustomStringConvertible {
    var status: Int32
    var exitedBySignal: Bool
    var seconds: Double
    var peakMiB: Double
    var stderr: String

    var description: String {
        """
        \(exitedBySignal ? "signal" : "exit") \(status) after \(String(format: "%.1f", seconds)) s, peak \
        \(String(format: "%.0f", peakMiB)) MiB\n\(stderr)
        """
    }

    /// Runs `feedsim arguments...` in `directory`, killing it after `timeout` seconds.
    static func measure(_ arguments: [String], in directory: URL, timeout: TimeInterval) throws -> MeasuredRun {
        let executable = try FeedSimProcess.executableURL().path
        let errors = directory.appendingPathComponent("stderr.txt").path
        // GNU time measures feedsim's own peak: a child spawned from this
        // process would also report the test process's peak, which Linux
        // carries across exec.
        let peak = directory.appendingPathComponent("peak-kib.txt").path
        let script = "cd \"$1\" && shift && exec /usr/bin/time -f %M -o \"\(peak)\" \"$@\" > /dev/null 2> \"\(errors)\""
        let argv = ["/bin/sh", "-c", script, "sh", directory.path, executable] + arguments
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Test threads block signals, and a child inherits the mask.
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        var cArguments = argv.map { strdup($0) } + [nil]
        defer { cArguments.forEach { free($0) } }
        var pid: pid_t = 0
        let start = DispatchTime.now()
        guard posix_spawn(&pid, "/bin/sh", nil, &attributes, &cArguments, environ) == 0 else {
            throw CocoaError(.executableLoad)
        }
        var status: Int32 = 0
        var usage = rusage()
        let deadline = start.uptimeNanoseconds + UInt64(timeout * 1e9)
        while wait4(pid, &status, WNOHANG, &usage) == 0 {
            if DispatchTime.now().uptimeNanoseconds > deadline { kill(pid, SIGKILL) }
            Thread.sleep(forTimeInterval: 0.05)
        }
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start.uptimeNanoseconds) / 1e9
        let signaled = (status & 0x7F) != 0
        // GNU time's peak of feedsim, in KiB; getrusage's when it wrote none.
        let peakText: String? = try? String(contentsOfFile: peak, encoding: .utf8)
        let lastLine: String = peakText?.split(separator: "\n").last.map(String.init) ?? ""
        let peakKiB: Double = Double(lastLine) ?? Double(usage.ru_maxrss)
        let exitStatus: Int32 = signaled ? status & 0x7F : (status >> 8) & 0xFF
        return MeasuredRun(
            status: exitStatus, exitedBySignal: signaled, seconds: seconds, peakMiB: peakKiB / 1024,
            stderr: (try? String(contentsOfFile: errors, encoding: .utf8)) ?? "")
    }
}

/// A scenario that passes the schema but asks for a great deal, and how it
/// must end: finishing (exit 0) or stopped by a limit with its message,
/// within a wall time and memory stated here. The bounds are for a debug
/// build on a busy two-core machine, several times what it measured.
struct RunawayScenario: Sendable, CustomTestStringConvertible {
    var label: String
    var json: String
    var status: Int32
    /// Part of the one line on stderr when the run is stopped.
    var message: String
    var maxSeconds: Double
    var maxMiB: Double

    var testDescription: String { label }

    static func scenario(
        _ name: String, device: String = "iphone-60hz", duration: String, posts: Int = 1_000,
        limits: String? = nil, script: String
    ) -> String {
        """
        { "schema_version": 1, "name": "\(name)", "description": "A runaway: \(name).", "device": "\(device)",
          "duration_s": \(duration), "feed": { "post_count": \(posts) },\(limits.map { "\n  \"limits\": \($0)," } ?? "")
          "script": [ \(script) ] }
        """
    }

    static let all: [RunawayScenario] = [
        RunawayScenario(
            label: "a million posts, flung through for ten seconds at 120 Hz: finishes",
            json: scenario(
                "million-posts", device: "iphone-pro-120hz", duration: "10", posts: 1_000_000,
                script:
                    #"""
                    { "at_ms": 100, "action": "fling", "velocity_pt_s": -100000, "repeat": { "count": 9, \#
                    "every_ms": 1000 } }
                    """#
            ),
            status: 0, message: "", maxSeconds: 240, maxMiB: 1_024),
        RunawayScenario(
            label: "a day of simulated time with the default event limit: refused at load",
            json: scenario(
                "a-day", duration: "86400", limits: #"{ "max_simulated_s": 86400 }"#,
                script:
                    #"""
                    { "at_ms": 1000, "action": "fling", "velocity_pt_s": -3000, "repeat": { "count": 24, \#
                    "every_ms": 3600000 } }
                    """#
            ),
            status: 65,
            message:
                """
                $.duration_s: expected a run whose vsyncs fit in limits.max_events (2000000), found 86400.0 s at \
                60 Hz, 5184000 vsyncs
                """,
            maxSeconds: 30, maxMiB: 200),
        RunawayScenario(
            label: "the most repetitions of the dearest step (10,000 likes): finishes",
            json: scenario(
                "most-likes", duration: "361",
                script: #"{ "at_ms": 0, "action": "like", "repeat": { "count": 10000, "every_ms": 36 } }"#),
            status: 0, message: "", maxSeconds: 400, maxMiB: 400),
        RunawayScenario(
            label: "more repetitions than a script may hold: refused at load",
            json: scenario(
                "too-many-likes", duration: "100",
                script:
                    #"""
                    { "at_ms": 0, "action": "like", "repeat": { "count": 10000, "every_ms": 1 } }, { "at_ms": \#
                    50, "action": "like", "repeat": { "count": 10000, "every_ms": 1 } }
                    """#
            ),
            status: 65,
            message:
                """
                $.script[1]: expected at most 10000 steps in the script counting every repetition, found 20000 by \
                this step
                """,
            maxSeconds: 30, maxMiB: 200),
        RunawayScenario(
            label: "the most new posts the most times: refused at load",
            json: scenario(
                "posts-without-end", duration: "100",
                script:
                    #"""
                    { "at_ms": 0, "action": "new_posts", "count": 100000, "delivery": "server", "repeat": { \#
                    "count": 10000, "every_ms": 1 } }
                    """#
            ),
            status: 65, message: "$.script[0].count: expected at most 1000000 posts over the run",
            maxSeconds: 30, maxMiB: 200),
    ]
}

@Suite("Runaway scenarios", .serialized)
struct RunawayScenarioTests {
    @Test(
        "A scenario that asks for a great deal finishes or stops with its limit's message, in bounded time and memory",
        arguments: RunawayScenario.all)
    func bounded(_ example: RunawayScenario) throws {
        let folder = try ScratchFolder(prefix: "feedsim-runaway")
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try folder.write(example.json, to: "runaway.json")
        let run = try MeasuredRun.measure(
            ["run", "runaway.json", "--out", "out", "--quiet"], in: folder.url, timeout: example.maxSeconds * 2)
        print("runaway: \(example.label): \(run)")
        #expect(!run.exitedBySignal && run.status == example.status, "\(run)")
        #expect(run.seconds <= example.maxSeconds, "\(run)")
        #expect(run.peakMiB <= example.maxMiB, "\(run)")
        if example.status == 0 {
            #expect(folder.entries(in: "out") == ["drift.csv", "provenance.json", "summary.csv"])
        } else {
            let lines = run.stderr.split(separator: "\n")
            #expect(lines.count == 1 && lines[0].contains(example.message), "\(run)")
            #expect(folder.entries(in: "out") == nil)
        }
    }
}
