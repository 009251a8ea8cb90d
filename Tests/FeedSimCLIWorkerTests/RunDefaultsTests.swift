import ArgumentParser
import Testing

@testable import FeedSimCLI

/// `run`'s defaults for its paths and its jobs are written in the help and
/// applied in code, not declared: they must still be what the help says.
@Suite("run's defaults")
struct RunDefaultsTests {
    @Test("with no paths and no --jobs, run takes scenarios/ and one job, as its help says")
    func defaultsApply() throws {
        let run = try FeedSim.Run.parse([])
        #expect(run.scenarioPaths == ["scenarios"])
        #expect(run.jobCount == 1)
        let help = FeedSim.Run.helpMessage(columns: 200)
        #expect(help.contains("devices/ is skipped). (default: scenarios)"))
        #expect(help.contains("Output is the same for any value. (default: 1)"))
    }

    @Test("given paths and --jobs, run takes them")
    func givenValuesApply() throws {
        let run = try FeedSim.Run.parse(["a.json", "folder", "--jobs", "3"])
        #expect(run.scenarioPaths == ["a.json", "folder"])
        #expect(run.jobCount == 3)
    }

    @Test("--jobs 0 is refused as before")
    func zeroJobsRefused() {
        #expect(throws: (any Error).self) { try FeedSim.Run.parse(["--jobs", "0"]) }
    }
}
