import CSVCodec
import FeedExplore
import FeedReports
import FeedScenario
import FoundationEssentials

/// The shrunk failures of an exploration as the files of OUT/failures/:
/// `<property>-<k>.json`, numbered from 1 per property in the order of
/// (property, strategy, cause), each a scenario `feedsim run` reproduces,
/// with the device profile it names copied into `failures/devices/`.
struct ExploreFailures {
    static let folder = "failures"

    struct Entry {
        var file: String
        var failure: ExploreJob.ShrunkFailure
    }

    var entries: [Entry] = []
    var files: [(name: String, data: Data)] = []

    init(shrunk: [ExploreJob.ShrunkFailure], seed: UInt64, device: String, deviceData: Data) throws {
        var counts: [ExploreProperty: Int] = [:]
        for failure in shrunk {
            let property = failure.violation.property
            counts[property, default: 0] += 1
            let stem = "\(property.rawValue)-\(counts[property]!)"
            var scenario = try ScenarioLoader.scenario(from: Data(failure.scenario.utf8), file: stem)
            scenario.name = stem
            let v = failure.violation
            scenario.description =
                """
                Found by feedsim explore (seed \(seed), \(SessionGenerator.name(of: failure.session))) and shrunk \
                from \(failure.stepsBefore) to \(failure.stepsAfter) script steps in \(failure.runs) runs. Under \
                \(v.strategy), which claims to hold the reader through it, this breaks the \(v.property.rawValue) \
                property\(v.cause.isEmpty ? "" : " (\(v.cause))") at \(ReportNumber.milliseconds(v.timeNs)) ms: \
                \(v.detail).
                """
            entries.append(Entry(file: "\(stem).json", failure: failure))
            files.append(("\(stem).json", Data(scenario.fileText.utf8)))
        }
        if !files.isEmpty { files.append(("devices/\(device).json", deviceData)) }
    }

    /// Stages the files, and the removal of what an earlier exploration left
    /// in `folder` that this one does not write.
    func stage(in folder: URL, output: inout StagedFiles) throws {
        let written = Set(files.map(\.name))
        for sub in ["", "devices/"] {
            let existing =
                (try? FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent(sub).path)) ?? []
            for name in existing.sorted() where name.hasSuffix(".json") && !written.contains(sub + name) {
                output.stageRemoval(of: folder.appendingPathComponent(sub + name))
            }
        }
        for file in files { try output.stage(file.data, to: folder.appendingPathComponent(file.name)) }
    }
}
