import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// Which row bodies a SwiftUI feed runs again when its model changes
/// (docs/swiftui-hosts.md, "Body runs for observed state"; "W25-306" is
/// WWDC25 session 306, "Optimize SwiftUI performance with Instruments").
/// The session of `RowViewRetentionTests` (three drags down a feed of 200
/// text posts), then a like at 9 s, with the screen at rest.
@Suite("Row bodies run for observed state")
struct RowObservationTests {
    static let like = #", {"at_ms": 9000, "action": "like"}"#

    /// Main-thread work of the frames of the like, in ns, and the rows on screen then.
    static func likeWork(_ engine: String) throws -> (work: SimTime, rows: Int, configureNs: Double, result: RunResult)
    {
        let (_, result, configureNs) = try RowViewRetentionTests.run(engine, more: like)
        let frames = result.frames.filter { $0.time >= 9_000_000_000 && $0.time < 9_200_000_000 }
        let rows = result.frames.last { $0.time < 9_000_000_000 }?.visible.count ?? 0
        return (frames.reduce(0) { $0 + $1.work }, rows, configureNs, result)
    }

    /// Frames without their allocation counts, which one-time costs of the
    /// first run in a process change.
    static func timing(_ frames: [FrameRecord]) -> [FrameRecord] {
        frames.map {
            var frame = $0
            frame.allocations = 0
            return frame
        }
    }

    @Test(
        """
        whole_feed: a like runs the body of every row on screen, each a cell's configuration (W25-306 \
        27:40–30:04); per_row runs only the liked row's
        """,
        arguments: ["lazy_vstack", "list"])
    func wholeFeedRunsEveryVisibleBody(host: String) throws {
        let perRow = try Self.likeWork(#""host": "\#(host)", "row_observation": "per_row""#)
        let whole = try Self.likeWork(#""host": "\#(host)", "row_observation": "whole_feed""#)
        #expect(perRow.rows >= 4)
        let extra = Double(whole.work - perRow.work)
        #expect(
            extra >= Double(perRow.rows - 1) * perRow.configureNs,
            """
            \(host): whole_feed \(whole.work) ns, per_row \(perRow.work) ns, \(perRow.rows) rows of \
            \(perRow.configureNs) ns
            """
        )
        // Nothing before the like differs.
        #expect(
            Self.timing(whole.result.frames.filter { $0.time < 9_000_000_000 })
                == Self.timing(perRow.result.frames.filter { $0.time < 9_000_000_000 }))
    }

    @Test("a collection view configures only the changed cell: row_observation changes nothing there")
    func collectionViewIgnoresIt() throws {
        let perRow = try Self.likeWork(#""host": "collection_view", "row_observation": "per_row""#)
        let whole = try Self.likeWork(#""host": "collection_view", "row_observation": "whole_feed""#)
        #expect(Self.timing(whole.result.frames) == Self.timing(perRow.result.frames))
    }
}
