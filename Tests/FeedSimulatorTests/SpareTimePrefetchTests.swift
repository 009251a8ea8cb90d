import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// The host lays out the rows coming next in a frame's spare time: a lazy
/// stack (docs/swiftui-hosts.md; "S321" is WWDC26 session 321,
/// 13:27–14:57) and a collection view with prefetching on. The
/// session of `RowViewRetentionTests`: three drags down a feed of text
/// posts, estimated at 100 pt.
@Suite("Prefetch in spare frame time")
struct SpareTimePrefetchTests {
    /// Rows measured past the last one on screen at the end.
    static func measuredAhead(_ engine: FeedEngine) -> Int {
        let list = engine.listView
        let last = list.displayedRange.upperBound
        return (last..<list.items.count).filter { list.isMeasured($0) }.count
    }

    static func chargedWork(_ result: RunResult) -> SimTime {
        result.frames.reduce(0) { $0 + $1.work }
    }

    @Test(
        """
        scrolling down, rows past the screen are laid out ahead in spare time, and the frames that show them do \
        less (S321 13:27–14:57)
        """
    )
    func laysOutAhead() throws {
        let off = try RowViewRetentionTests.run(#""host": "lazy_vstack", "spare_time_prefetch_rows": 0"#)
        let on = try RowViewRetentionTests.run(#""host": "lazy_vstack", "spare_time_prefetch_rows": 6"#)
        #expect(Self.measuredAhead(off.engine) == 0)
        #expect(Self.measuredAhead(on.engine) > 0)
        #expect(
            Self.chargedWork(on.result) < Self.chargedWork(off.result),
            "charged \(Self.chargedWork(on.result)) ns with prefetch, \(Self.chargedWork(off.result)) ns without")
        #expect(on.result.frameSummary.overrunFrames <= off.result.frameSummary.overrunFrames)
    }

    @Test("only in spare time: no frame with prefetch overruns that did not without it")
    func onlyInSpareTime() throws {
        let off = try RowViewRetentionTests.run(#""host": "lazy_vstack", "spare_time_prefetch_rows": 0"#)
        let on = try RowViewRetentionTests.run(#""host": "lazy_vstack", "spare_time_prefetch_rows": 100"#)
        let overrunOff = Set(off.result.frames.filter { $0.work > $0.budget }.map(\.time))
        let overrunOn = on.result.frames.filter { $0.work > $0.budget }.map(\.time)
        #expect(
            overrunOn.allSatisfy { overrunOff.contains($0) },
            "new overruns at \(overrunOn.filter { !overrunOff.contains($0) })")
    }

    @Test(
        """
        a collection view with prefetching on lays out cells ahead too (UIKit's isPrefetchingEnabled), List \
        included; off by default, which changes nothing
        """
    )
    func everyHostWhenOn() throws {
        for host in ["collection_view", "list"] {
            let byDefault = try RowViewRetentionTests.run(#""host": "\#(host)""#)
            let off = try RowViewRetentionTests.run(#""host": "\#(host)", "spare_time_prefetch_rows": 0"#)
            let on = try RowViewRetentionTests.run(#""host": "\#(host)", "spare_time_prefetch_rows": 6"#)
            #expect(byDefault.result.frames == off.result.frames, "\(host)")
            #expect(Self.measuredAhead(off.engine) == 0, "\(host)")
            #expect(Self.measuredAhead(on.engine) > 0, "\(host)")
            #expect(Self.chargedWork(on.result) < Self.chargedWork(off.result), "\(host)")
        }
    }
}
