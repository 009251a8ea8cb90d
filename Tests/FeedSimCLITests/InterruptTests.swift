import Determinism
import FeedReports
import FeedSimTestSupport
import Foundation
import Testing

/// Five minutes of flinging at 120 Hz through a long feed, in two variants:
/// each run takes many seconds in a debug build, long enough to be caught
/// with both workers busy.
private let slowScenario = """
    {
      "schema_version": 1,
      "name": "slow",
      "description": "Five minutes of flings through a long feed: runs to interrupt.",
      "device": "iphone-pro-120hz",
      "duration_s": 300,
      "feed": { "post_count": 20000 },
      "variants": [ { "name": "anchor", "position_strategy": "anchor" }, { "name": "none", "position_strategy": "none" \
    } ],
      "script": [ { "at_ms": 100, "action": "fling", "velocity_pt_s": -6000, "repeat": { "count": 290, "every_ms": \
    1000 } } ]
    }
    """

/// Two seconds: the run that fills the output folder before, and the one
/// that must work after.
private let quickScenario = """
    {
      "schema_version": 1,
      "name": "quick",
      "description": "Two seconds, two variants.",
      "device": "iphone-60hz",
      "duration_s": 2,
      "feed": { "post_count": 50 },
      "variants": [ { "name": "anchor", "position_strategy": "anchor" }, { "name": "none", "position_strategy": "none" \
    } ],
      "script": [ { "at_ms": 200, "action": "fling", "velocity_pt_s": 3000 } ]
    }
    """

/// Processes as /proc shows them: what the interrupt tests look for.
enum ProcessTable {
    /// The ids of the running `_run-batch` workers whose parent is `parent`.
    static func workers(of parent: pid_t) -> [pid_t] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.compactMap { Int32($0) }.filter { pid in
            guard let (ppid, state) = status(pid), ppid == parent, state != "Z" else { return false }
            return commandLine(pid).contains("_run-batch")
        }.sorted()
    }

    /// Whether `pid` is a process that has not ended (a zombie has ended).
    static func isRunning(_ pid: pid_t) -> Bool {
        guard let (_, state) = status(pid) else { return false }
        return state != "Z"
    }

    /// The parent id and the state letter from /proc/PID/stat. The command
    /// name in parentheses may hold spaces, so fields are counted after the
    /// last `)`.
    private static func status(_ pid: pid_t) -> (ppid: pid_t, state: String)? {
        guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8),
            let close = stat.lastIndex(of: ")")
        else { return nil }
        let fields = stat[stat.index(after: close)...].split(separator: " ")
        guard fields.count > 2, let ppid = Int32(fields[1]) else { return nil }
        return (ppid, String(fields[0]))
    }

    /// The names of this process's threads that `child` counts as its
    /// parent (/proc/self/task/TID/children). Linux keeps a process's parent
    /// per thread: when that thread ends, the child moves to another thread
    /// and gets its parent-death signal.
    static func parentThreadNames(of child: pid_t) -> [String] {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")) ?? []
        return tasks.sorted().compactMap { tid in
            guard let children = try? String(contentsOfFile: "/proc/self/task/\(tid)/children", encoding: .utf8),
                children.split(separator: " ").contains(Substring(String(child))),
                let name = try? String(contentsOfFile: "/proc/self/task/\(tid)/comm", encoding: .utf8)
            else { return nil }
            return name.trimmingCharacters(in: .whitespacesAndNewlines)
        }
    }

    private static func commandLine(_ pid: pid_t) -> String {
        let data = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
        return String(decoding: data.map { $0 == 0 ? UInt8(ascii: " ") : $0 }, as: UTF8.self)
    }

    /// Polls `condition` every 20 ms until it holds or `seconds` pass.
    static func waitUntil(seconds: TimeInterval, _ condition: () -> Bool) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if condition() { return true }
            Thread.sleep(forTimeInterval: 0.02)
        }
        return condition()
    }
}

/// Every entry of a folder, hidden ones included, with the FNV-1a 64 hash of
/// its bytes: equal listings mean the folder is exactly as it was.
private func folderDigest(_ url: URL) throws -> [String: String] {
    var digest: [String: String] = [:]
    for name in try FileManager.default.contentsOfDirectory(atPath: url.path) {
        digest[name] = FNV1a(bytes: try Data(contentsOf: url.appendingPathComponent(name))).hex
    }
    return digest
}

@Suite("Interrupted runs", .serialized)
struct InterruptTests {
    /// How long the slow run's workers get to appear; on a loaded machine
    /// a debug build takes a while to load the scenario and start them.
    static let startupAllowance: TimeInterval = 60
    /// How long a killed worker may take to be gone.
    static let exitAllowance: TimeInterval = 5

    /// Starts `feedsim run slow.json --jobs 2` with `extra` options and
    /// waits until both of its workers run.
    static func startWithTwoWorkers(_ extra: [String], in folder: ScratchFolder) throws -> (RunningChild, [pid_t]) {
        let run = try FeedSimProcess.start(
            ["run", "slow.json", "--jobs", "2", "--out", "out", "--quiet"] + extra, in: folder.url)
        var workers: [pid_t] = []
        let started = ProcessTable.waitUntil(seconds: startupAllowance) {
            workers = ProcessTable.workers(of: run.pid)
            return workers.count == 2
        }
        #expect(started, "two workers never ran at once: \(workers)")
        return (run, workers)
    }

    static func prepare() throws -> ScratchFolder {
        let folder = try ScratchFolder(prefix: "feedsim-interrupt")
        try folder.copyDeviceProfiles()
        try folder.write(slowScenario, to: "slow.json")
        try folder.write(quickScenario, to: "quick.json")
        let before = try FeedSimProcess.run(
            ["run", "quick.json", "--out", "out", "--quiet", "--frames"], in: folder.url)
        #expect(before.status == 0, "\(before)")
        // Something of the user's, which a run must not touch either.
        try folder.write("kept\n", to: "out/notes.txt")
        return folder
    }

    @Test(
        "SIGINT or SIGTERM stops the workers, leaves the output folder as it was, and exits 128 + the signal",
        arguments: [(SIGINT, Int32(130), "SIGINT"), (SIGTERM, Int32(143), "SIGTERM")])
    func interrupted(_ signal: Int32, _ status: Int32, _ name: String) throws {
        let folder = try Self.prepare()
        defer { folder.remove() }
        let out = folder.appending("out")
        let before = try folderDigest(out)
        #expect(before.keys.sorted() == ["drift.csv", "frames.csv", "notes.txt", "provenance.json", "summary.csv"])

        let (run, workers) = try Self.startWithTwoWorkers(["--frames", "--trace"], in: folder)
        run.send(signal)
        let outcome = run.wait()

        #expect(!outcome.exitedBySignal && outcome.status == status, "\(outcome)")
        #expect(
            outcome.stderrLines == ["feedsim: interrupted by \(name); stopped the workers, out is as it was"],
            "\(outcome)")
        #expect(
            ProcessTable.waitUntil(seconds: Self.exitAllowance) { !workers.contains(where: ProcessTable.isRunning) },
            "workers still running: \(workers.filter(ProcessTable.isRunning))")
        let after = try folderDigest(out)
        #expect(after == before, "before: \(before)\nafter: \(after)")
        #expect(!(folder.entries(in: ".") ?? []).contains { $0.hasSuffix(".tmp") })
    }

    @Test("A parent killed with SIGKILL takes its workers with it, and the next run works")
    func parentKilled() throws {
        let folder = try Self.prepare()
        defer { folder.remove() }
        let out = folder.appending("out")
        let before = try folderDigest(out)

        let (run, workers) = try Self.startWithTwoWorkers([], in: folder)
        run.send(SIGKILL)
        let outcome = run.wait()
        #expect(outcome.exitedBySignal && outcome.status == SIGKILL, "\(outcome)")

        // Nobody is left to kill them: each worker notices on its own.
        #expect(
            ProcessTable.waitUntil(seconds: Self.exitAllowance) { !workers.contains(where: ProcessTable.isRunning) },
            "orphaned workers still running: \(workers.filter(ProcessTable.isRunning))")
        #expect(try folderDigest(out) == before)

        let next = try FeedSimProcess.run(
            ["run", "quick.json", "--jobs", "2", "--out", "out", "--quiet"], in: folder.url)
        #expect(next.status == 0, "\(next)")
        // The earlier frames.csv goes (this run has no --frames); the user's file stays.
        #expect(folder.entries(in: "out") == ["drift.csv", "notes.txt", "provenance.json", "summary.csv"])
    }

    /// A worker asks for SIGKILL when its parent goes, and Linux sends it
    /// when the *thread* that started the worker ends: a child started from
    /// a thread that ends at launch was killed whenever that thread ended
    /// after the worker had asked (a busy machine), as "A worker whose
    /// parent is already gone" once saw in CI.
    @Test(
        """
        A child's parent thread lives until the child exits, so a worker's parent-death signal waits for the test \
        process
        """
    )
    func launcherOutlivesChild() throws {
        let child = try ChildProcess.start(URL(fileURLWithPath: "/bin/sleep"), ["1"])
        // Long enough for a launcher that ended at launch to be gone.
        Thread.sleep(forTimeInterval: 0.3)
        let parents = ProcessTable.parentThreadNames(of: child.pid)
        let outcome = child.wait(timeout: 30)
        #expect(parents == [ChildProcess.launcherThreadName], "the child's parent threads: \(parents)")
        #expect(outcome.status == 0 && !outcome.exitedBySignal, "\(outcome)")
    }

    @Test("A worker whose parent is already gone exits at once instead of running")
    func orphanedWorker() throws {
        let folder = try Self.prepare()
        defer { folder.remove() }
        func worker(parent: pid_t) throws -> FeedSimOutcome {
            try FeedSimProcess.run(
                [
                    "_run-one", "--file", "quick.json", "--refresh-hz", "60", "--seed", "1", "--variant", "anchor",
                    "--parent-pid", String(parent),
                ], in: folder.url)
        }
        // This test's process starts the worker, so it is the true parent.
        let adopted = try worker(parent: getpid())
        #expect(adopted.status == 0 && !adopted.stdout.isEmpty, "\(adopted)")
        // Process 1 never is.
        let orphaned = try worker(parent: 1)
        #expect(orphaned.status == 1 && orphaned.stdout.isEmpty, "\(orphaned)")
        #expect(
            orphaned.stderrLines == ["feedsim _run-one: the run that started this worker (process 1) is gone"],
            "\(orphaned)")
    }
}
