import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

@Suite("Timeline")
struct TimelineTests {
    /// A run with images, a fling, a refresh, a like, a memory warning and
    /// a trip to the background: every kind of timeline event.
    static func request(timeline: Bool) -> RunRequest {
        let ms: Int64 = 1_000_000
        var request = TestWorld.request(
            seconds: 4, mediaFraction: 0.5,
            script: [
                ScriptStep(atNs: 300 * ms, action: .fling(velocityPtPerS: 6_000, deceleration: .normal)),
                ScriptStep(atNs: 1_200 * ms, action: .refresh),
                ScriptStep(atNs: 1_800 * ms, action: .like),
                ScriptStep(atNs: 2_200 * ms, action: .memoryWarning),
                ScriptStep(atNs: 2_600 * ms, action: .background(durationNs: 400 * ms)),
            ],
            pageSize: 40)
        request.recordTimeline = timeline
        return request
    }

    @Test("a run without a timeline keeps none; one with it measures exactly the same")
    func timelineChangesNothing() throws {
        let plain = try Simulation(request: TimelineTests.request(timeline: false)).run()
        let traced = try Simulation(request: TimelineTests.request(timeline: true)).run()
        #expect(plain.timeline == nil)
        #expect(traced.timeline != nil)
        #expect(plain.traceDigest == traced.traceDigest)
        #expect(plain.frameSummary == traced.frameSummary)
        // Allocation counts aside: in one process the first run also pays
        // the runtime's one-time allocations.
        func unmetered(_ frames: [FrameRecord]) -> [FrameRecord] {
            frames.map {
                var frame = $0
                frame.allocations = 0
                return frame
            }
        }
        #expect(unmetered(plain.frames) == unmetered(traced.frames))
        #expect(plain.drift == traced.drift)
        #expect(plain.networkRequests == traced.networkRequests)
    }

    @Test("each frame's commit parts add up to its work, and its render starts once the commit has ended")
    func framesAreConsistent() throws {
        let result = try Simulation(request: TimelineTests.request(timeline: true)).run()
        let timeline = try #require(result.timeline)
        #expect(timeline.frames.map(\.record) == result.frames)
        #expect(timeline.frames.count == result.frameSummary.frames)
        for frame in timeline.frames {
            let sum = frame.parts.reduce(0) { $0 + $1.nanoseconds }
            #expect(
                abs(sum - Double(frame.record.work)) <= 1,
                "frame \(frame.record.frame): parts \(sum) ns, work \(frame.record.work) ns")
            #expect(frame.parts.allSatisfy { $0.nanoseconds > 0 }, "frame \(frame.record.frame)")
            #expect(frame.parts.first?.name == "frame_base", "frame \(frame.record.frame)")
            #expect(frame.record.renderStart >= frame.record.time + frame.record.work, "frame \(frame.record.frame)")
            #expect(
                frame.record.presented >= frame.record.renderStart + frame.record.render, "frame \(frame.record.frame)")
        }
        #expect(timeline.frames.contains { $0.parts.contains { $0.name == "cell_measure" } })
        #expect(timeline.frames.contains { $0.dataCommits.contains(ChangeCause.refresh.rawValue) })
    }

    @Test("every API request is one exchange, image loads are recorded, and lifecycle moments are marked in order")
    func exchangesAndMarks() throws {
        let result = try Simulation(request: TimelineTests.request(timeline: true)).run()
        let timeline = try #require(result.timeline)
        #expect(timeline.requests.count == result.networkRequests)
        #expect(timeline.requests.map(\.kind).first == "refresh", "the first load has no cursor")
        #expect(timeline.requests.contains { $0.kind == "like" })
        #expect(!timeline.imageLoads.isEmpty)
        for exchange in timeline.requests + timeline.imageLoads {
            #expect(exchange.end >= exchange.start, "\(exchange)")
        }
        #expect(timeline.marks.map(\.name) == ["memory_warning", "background", "foreground"])
        #expect(timeline.marks.map(\.time) == timeline.marks.map(\.time).sorted())
    }
}
