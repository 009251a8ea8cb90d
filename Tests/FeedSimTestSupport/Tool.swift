import Foundation

/// Running tools other than feedsim from the tests.
public enum Tool {
    /// The first of `names` found on PATH.
    public static func find(_ names: [String]) -> URL? {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        for name in names {
            for folder in path.split(separator: ":") {
                let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent(name)
                if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
            }
        }
        return nil
    }

    /// Runs `executable` with its output going to files (so a browser's
    /// own children cannot hold a pipe open), killing it after `timeout` seconds.
    public static func run(
        _ executable: URL, _ arguments: [String], in directory: URL, timeout: TimeInterval
    ) throws -> ProcessOutcome {
        try ChildProcess.start(executable, arguments, in: directory, output: .files(in: directory)).wait(
            timeout: timeout)
    }
}
