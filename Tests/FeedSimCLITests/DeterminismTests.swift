import FeedSimTestSupport
import Foundation
import Testing

@Suite("Determinism of the bundled suite")
struct DeterminismTests {
    @Test("the bundled suite run twice, in separate processes and with different --jobs, writes byte-identical files")
    func bundledSuiteIsReproducible() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenarios = FeedSimProcess.packageRoot.appendingPathComponent("scenarios").path
        let runs = [("serial", "1"), ("parallel", "2")]
        for (out, jobs) in runs {
            let outcome = try FeedSimProcess.run(
                ["run", scenarios, "--frames", "--jobs", jobs, "--out", out], in: folder.url, timeout: 600)
            #expect(outcome.status == 0, "\(outcome)")
        }
        for file in ["summary.csv", "drift.csv", "frames.csv"] {
            let serial = try Data(contentsOf: folder.appending("serial/\(file)"))
            let parallel = try Data(contentsOf: folder.appending("parallel/\(file)"))
            #expect(serial.count > 100, "\(file) is empty")
            #expect(serial == parallel, "\(file) differs between a serial and a parallel run")
        }
        let digests = try CSVFile(folder.appending("serial/summary.csv")).rows.map { $0["trace_digest"] ?? "" }
        #expect(digests.allSatisfy { $0.count == 16 }, "every row has a 64-bit trace digest")
    }
}
