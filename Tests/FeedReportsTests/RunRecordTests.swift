import FeedReports
import FeedScenario
import FeedSimTestSupport
import FeedSimulator
import Foundation
import Testing

/// A worker hands `feedsim run` its result as JSON (`RunRecord`), frames
/// as arrays of numbers: what the parent reads back is the result the
/// worker had, to the bit.
@Suite("Run records")
struct RunRecordTests {
    @Test("a result with frames, drift and a timeline reads back equal to itself")
    func roundTrip() throws {
        let root = PackageRoot.appending("scenarios")
        let url = root.appendingPathComponent("swiftui-migration.json")
        let loaded = try ScenarioLoader.load(
            data: Data(contentsOf: url), file: "swiftui-migration.json",
            deviceDirectories: [root.appendingPathComponent("devices")])
        var request = try #require(RunRequest.expand(loaded, seedOverride: nil, recordFrames: true).last)
        request.recordTimeline = true
        let result = try Simulation(request: request).run()
        #expect(result.frames.count > 1000)
        #expect(result.frames.contains { $0.hitchType != .none })
        let decoded = try #require(RunRecord.decode(try RunRecord.encode(result)))
        #expect(decoded == result)
    }

    @Test("a frame whose visible range runs backwards is refused")
    func backwardsRange() throws {
        let json = Data("[0, 0, 0, 1, 0, 0, 5, 3, 0, 0, 0, 0, 0, \"none\"]".utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(FrameRecord.self, from: json) }
        let good = Data("[0, 0, 0, 1, 0, 0, 3, 5, 0, 0, 0, 0, 0, \"none\"]".utf8)
        #expect(try JSONDecoder().decode(FrameRecord.self, from: good).visible == 3..<5)
    }
}
