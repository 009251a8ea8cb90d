import FeedSimTestSupport
import Foundation

/// What one run of the `feedsim` binary did.
typealias FeedSimOutcome = ProcessOutcome

/// Runs the `feedsim` executable built alongside the tests in a child process.
enum FeedSimProcess {
    /// The package's root folder.
    static let packageRoot = PackageRoot.url

    /// Long enough for a debug build to run a small scenario on a busy machine;
    /// a run that takes longer is hung, and is killed.
    static let defaultTimeout: TimeInterval = 120

    enum Failure: Error, CustomStringConvertible {
        case executableNotFound(searched: [String])

        var description: String {
            switch self {
            case let .executableNotFound(searched):
                "no feedsim executable; build the package first. Looked in: \(searched.joined(separator: ", "))"
            }
        }
    }

    /// Names the `feedsim` binary to run instead of the one built beside the
    /// tests: scripts/test points it at the release build it makes anyway
    /// for the timed suite, so the end-to-end tests run the binary users
    /// get, and a debug one need not be built.
    static let executableVariable = "FEEDSIM_EXECUTABLE"

    /// The binary `FEEDSIM_EXECUTABLE` names, else the `feedsim` binary in
    /// the build products folder the tests run from; `.build/debug/feedsim`
    /// under the package root only when that folder has none.
    static func executableURL() throws(Failure) -> URL {
        if let named = ProcessInfo.processInfo.environment[executableVariable], !named.isEmpty {
            let url = URL(fileURLWithPath: named, relativeTo: packageRoot).standardizedFileURL
            guard FileManager.default.isExecutableFile(atPath: url.path) else {
                throw .executableNotFound(searched: ["\(executableVariable)=\(named)"])
            }
            return url
        }
        var folders: [URL] = []
        // Linux: `<products>/FeedSimPackageTests.xctest` is the test executable.
        // macOS: `<products>/FeedSimPackageTests.xctest/Contents/MacOS/...` sits
        // three folders below it, and the main executable may be `xctest` itself.
        let starts =
            [Bundle.main.executableURL, CommandLine.arguments.first.map { URL(fileURLWithPath: $0) }]
            + Bundle.allBundles.filter { $0.bundlePath.hasSuffix(".xctest") }.map {
                $0.bundleURL.appendingPathComponent("x")
            }
        for case let start? in starts {
            var folder = start.resolvingSymlinksInPath().deletingLastPathComponent()
            for _ in 0..<4 {
                folders.append(folder)
                folder = folder.deletingLastPathComponent()
            }
        }
        folders.append(packageRoot.appendingPathComponent(".build/debug", isDirectory: true))

        var searched: [String] = []
        for folder in folders where !searched.contains(folder.path) {
            searched.append(folder.path)
            let candidate = folder.appendingPathComponent("feedsim")
            var isDirectory: ObjCBool = false
            if FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory),
                !isDirectory.boolValue,
                FileManager.default.isExecutableFile(atPath: candidate.path)
            {
                return candidate
            }
        }
        throw .executableNotFound(searched: searched)
    }

    /// Runs `feedsim arguments...` in `directory` and waits for it to exit
    /// (see `ChildProcess`); a run still going after `timeout` seconds is killed.
    static func run(
        _ arguments: [String], in directory: URL, timeout: TimeInterval = defaultTimeout
    ) throws -> FeedSimOutcome {
        try ChildProcess.run(try executableURL(), arguments, in: directory, timeout: timeout)
    }

    /// Starts `feedsim arguments...` in `directory` and returns at once, for
    /// tests that act on the child while it runs.
    static func start(_ arguments: [String], in directory: URL) throws -> RunningChild {
        try ChildProcess.start(try executableURL(), arguments, in: directory)
    }
}

extension RunningChild {
    /// Waits as long as a `feedsim` run may take.
    func wait() -> ProcessOutcome { wait(timeout: FeedSimProcess.defaultTimeout) }
}

extension ScratchFolder {
    /// Copies the package's `scenarios/devices/` to `devices/` here.
    func copyDeviceProfiles(to relative: String = "devices") throws {
        try FileManager.default.copyItem(
            at: FeedSimProcess.packageRoot.appendingPathComponent("scenarios/devices", isDirectory: true),
            to: appending(relative))
    }
}
