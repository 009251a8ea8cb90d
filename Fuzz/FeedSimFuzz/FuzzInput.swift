import FeedImport
import FeedReports
import FeedScenario
import FeedSimulator
import Foundation

/// What one fuzz input is read as: its first byte, modulo the number of
/// kinds, picks the reader, and the rest is the file (or, for commands that
/// read several files, the files separated by NUL bytes, which none of the
/// formats can hold).
public enum FuzzInput: UInt8, CaseIterable, Sendable {
    /// A scenario file, as `feedsim run` decodes it.
    case scenario
    /// A device profile.
    case device
    /// `feedsim check`: baseline summary.csv, current summary.csv, tolerance file.
    case check
    /// `feedsim compare`: a summary.csv, compared variant by variant.
    case compare
    /// `feedsim report`: summary.csv, drift.csv, frames.csv, rendered as HTML.
    case report
    /// `feedsim merge`: shard.json, summary.csv, drift.csv, frames.csv of one part.
    case merge
    /// `feedsim calibrate`: a measured trace, then the base device profile.
    case calibration
    /// `feedsim calibrate --from xctrace`: an os-signpost-interval export,
    /// then the base device profile.
    case xctrace
    /// `feedsim import timeline`: a getTimeline response page.
    case timelinePage
    /// `feedsim import timeline`: FeedSim's post lines.
    case timelinePosts
    /// `feedsim import har`: a HAR file.
    case har
    /// `feedsim import sessions`: a session log, then the usage model fitted
    /// to it and the replay of its first session.
    case sessions

    /// The kind the first byte of an input selects.
    public init(selector: UInt8) {
        self = FuzzInput.allCases[Int(selector) % FuzzInput.allCases.count]
    }

    /// An input of this kind holding `files`: the selector byte, then the
    /// files joined by NUL bytes. Seeds for the corpus are made this way.
    public func input(_ files: [Data]) -> Data {
        var data = Data([rawValue])
        for (i, file) in files.enumerated() {
            if i > 0 { data.append(0) }
            data.append(file)
        }
        return data
    }
}

/// The readers `feedsim` puts user files through, driven by arbitrary bytes.
///
/// Every reader must either accept the bytes or throw its error type; a
/// trap, a crash or a sanitizer report is a bug. Results are used (rendered
/// as text) so that the formatting of accepted input is exercised too.
public enum FeedSimFuzz {
    /// Feeds `bytes` to the reader its first byte selects.
    public static func consume(_ bytes: Data) {
        guard let selector = bytes.first else { return }
        let body = bytes.dropFirst()
        let files = body.split(separator: 0, omittingEmptySubsequences: false).map { Data($0) }
        switch FuzzInput(selector: selector) {
        case .scenario:
            _ = try? ScenarioLoader.scenario(from: Data(body), file: "fuzz.json")
        case .device:
            _ = try? ScenarioLoader.device(from: Data(body), file: "fuzz-device.json")
        case .check:
            check(files)
        case .compare:
            compare(files)
        case .report:
            report(files)
        case .merge:
            merge(files)
        case .calibration:
            calibration(files)
        case .xctrace:
            xctrace(files)
        case .timelinePage:
            importTimeline(Data(body), name: "page.json")
        case .timelinePosts:
            importTimeline(Data(body), name: "posts.jsonl")
        case .har:
            importHAR(Data(body))
        case .sessions:
            importSessions(Data(body))
        }
    }

    fileprivate static func file(_ files: [Data], _ index: Int) -> Data {
        index < files.count ? files[index] : Data()
    }

    private static func check(_ files: [Data]) {
        guard let baseline = try? SummaryFile(data: file(files, 0), file: "baseline/summary.csv") else { return }
        let current = (try? SummaryFile(data: file(files, 1), file: "current/summary.csv")) ?? baseline
        let tolerances =
            (try? ToleranceSet.parse(fileText: String(decoding: file(files, 2), as: UTF8.self), file: "tolerances"))
            ?? ToleranceSet()
        let result = BaselineCheck.compare(baseline: baseline, current: current, tolerances: tolerances)
        _ = result.table + result.verdictLine
    }

    private static func compare(_ files: [Data]) {
        guard let summary = try? SummaryFile(data: file(files, 0), file: "summary.csv") else { return }
        if summary.isMultiSeed {
            // Fewer resamples than `compare`'s default keep each input fast;
            // the code paths are the same.
            guard let comparison = try? SeedComparison(summary: summary, bootstrap: PairedBootstrap(resamples: 200))
            else { return }
            _ = comparison.terminalText + comparison.markdown + comparison.csv.text
            return
        }
        guard let comparison = try? StrategyComparison(summary: summary) else { return }
        _ = comparison.terminalText + comparison.markdown + comparison.csv.text
    }

    private static func report(_ files: [Data]) {
        guard let summary = try? SummaryFile(data: file(files, 0), file: "summary.csv") else { return }
        let drift = files.count > 1 ? try? HTMLReport.readDrift(files[1], file: "drift.csv") : nil
        let frames = files.count > 2 ? try? HTMLReport.readFrames(files[2], file: "frames.csv") : nil
        _ = (try? HTMLReport(summary: summary, drift: drift, frames: frames))?.html
    }

    private static func merge(_ files: [Data]) {
        guard let manifest = try? ShardManifest.decode(file(files, 0), file: "part/shard.json") else { return }
        let part = ShardPart(
            folder: "part", manifest: manifest, summary: file(files, 1), drift: file(files, 2),
            frames: files.count > 3 ? files[3] : nil)
        if let output = try? ShardMerge.merge([part]) {
            _ = output.summary + output.drift + (output.frames ?? "")
        }
    }
}

extension FeedSimFuzz {
    fileprivate static func xctrace(_ files: [Data]) {
        guard let trace = try? XctraceExport.trace(data: file(files, 0), file: "frames.xml"),
            let base = try? ScenarioLoader.device(from: file(files, 1), file: "base.json"),
            let fit = try? Calibration(trace: trace, base: base.costs)
        else { return }
        _ =
            CalibrationReport(
                calibration: fit, trace: "frames.xml", baseName: base.name, fittedName: "fitted", check: nil
            ).html
    }

    fileprivate static func calibration(_ files: [Data]) {
        guard let trace = try? CalibrationTrace(data: file(files, 0), file: "trace.csv"),
            let base = try? ScenarioLoader.device(from: file(files, 1), file: "base.json"),
            let fit = try? Calibration(trace: trace, base: base.costs)
        else { return }
        _ = fit.profile(from: base, name: "fitted", traceName: "trace.csv").costs
        _ = trace.csvText
    }
}

/// The importers read files, not bytes (a HAR is streamed from its file):
/// each input is written to a file of this process's own, read, and left
/// for the next input to overwrite.
extension FeedSimFuzz {
    fileprivate static let folder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedsim-fuzz-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }()

    /// `bytes` as the file `name` in the fuzzer's folder.
    fileprivate static func written(_ bytes: Data, name: String) -> URL? {
        let url = folder.appendingPathComponent(name)
        return (try? bytes.write(to: url)) == nil ? nil : url
    }

    fileprivate static let salt = ImportSalt(bytes: Array("feedsim-fuzz-salt-16".utf8))

    fileprivate static func importTimeline(_ bytes: Data, name: String) {
        guard let url = written(bytes, name: name),
            let feed = try? TimelineImport.read(path: url.path, salt: salt)
        else { return }
        _ = TimelineImport.summary(of: feed)
    }

    fileprivate static func importHAR(_ bytes: Data) {
        guard let url = written(bytes, name: "capture.har"),
            let capture = try? HARImport.read(url: url, file: "capture.har", classifier: RequestClassifier())
        else { return }
        _ = capture.fileText
    }

    fileprivate static func importSessions(_ bytes: Data) {
        guard let url = written(bytes, name: "sessions.jsonl"),
            let sessions = try? SessionLogReader.read(path: url.path)
        else { return }
        _ = try? UsageModel.fit(sessions, file: "sessions.jsonl")
        if let first = sessions.first {
            _ = try? SessionReplay.scenario(
                for: first, named: "replay", settings: SessionReplay.Settings(device: "iphone-60hz", postCount: 100),
                file: "sessions.jsonl")
        }
    }
}

/// The entry point libFuzzer calls with each input.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTestOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    guard let data else { return 0 }
    FeedSimFuzz.consume(Data(bytes: data, count: size))
    return 0
}
