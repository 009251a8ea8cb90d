import FeedScenario
import Testing

@testable import FeedEngine
@testable import FeedSimulator

@Suite("ImageWaitMeter: time to first image on screen")
struct ImageWaitMeterTests {
    /// A feed of posts that all have an image, on a link with `latencyMs`
    /// per request (the page's and each image's), and a slow fling down
    /// at 2 s, long after the first screen's images and the prefetched ones
    /// below it have arrived.
    static func run(latencyMs: Double, seconds: Double = 4) throws -> (Simulation, RunResult) {
        var request = TestWorld.request(
            posts: 200, seconds: seconds, mediaFraction: 1,
            script: [ScriptStep(atNs: 2_000_000_000, action: .fling(velocityPtPerS: 600, deceleration: .normal))])
        request.loaded.scenario.network = NetworkSettings(
            profile: "wifi", latency: .constant(ms: latencyMs), downlinkKbps: 10_000_000, uplinkKbps: 10_000_000)
        let simulation = try Simulation(request: request)
        return (simulation, try simulation.run())
    }

    @Test(
        """
        the first screen waits for the image request's latency, to the frame; posts scrolled into view later had \
        theirs prefetched and wait 0
        """
    )
    func firstScreenWaitsPrefetchedDoNot() throws {
        let (simulation, result) = try Self.run(latencyMs: 300)
        let waits = simulation.meters.imageWait.waits
        let firstScreen = try #require(result.frames.first { !$0.visible.isEmpty }).visible.count
        #expect(waits.count > firstScreen, "the fling shows posts the first screen did not")
        let frame = Display(refreshHz: 60).budget
        // The first screen's images are asked for as its cells are configured,
        // and are on screen at the first frame after they arrive.
        for wait in waits.prefix(firstScreen) {
            #expect(wait >= 300_000_000 && wait <= 300_000_000 + 3 * frame, "\(wait) ns")
        }
        #expect(waits.dropFirst(firstScreen).allSatisfy { $0 == 0 }, "\(waits)")
        #expect(result.imageWait.posts == waits.count)
        #expect(result.imageWait.p95 == waits.sorted()[Int((0.95 * Double(waits.count)).rounded(.up)) - 1])
    }

    @Test("an image that has not arrived when the run ends is waited for until then: a lower bound, not left out")
    func openWaitClosesAtTheEnd() throws {
        // The page lands at 1.5 s; its images would land at 3 s, after the end.
        let (simulation, result) = try Self.run(latencyMs: 1_500, seconds: 2.5)
        let waits = simulation.meters.imageWait.waits
        let firstShown = try #require(result.frames.first { !$0.visible.isEmpty }).time
        #expect(result.imageHitRate == 0)
        #expect(!waits.isEmpty)
        #expect(waits.max() == 2_500_000_000 - firstShown, "\(waits)")
        #expect(waits.allSatisfy { $0 > 0 })
        #expect(result.imageWait.p95 == 2_500_000_000 - firstShown)
    }

    @Test(
        "a still screen whose rows change is looked at again: a post shown in place of a served one waits for its image"
    )
    func stillScreenWithChangedRows() throws {
        let (simulation, _) = try Self.run(latencyMs: 50)
        let engine = simulation.engine
        let visible = engine.listView.displayedRange
        let shown = engine.listView.items[visible]
        try #require(
            !shown.isEmpty && shown.allSatisfy { $0.post.hasMedia && engine.images.isInMemory(ImageKey(postID: $0.id)) }
        )
        var meter = ImageWaitMeter()
        // Every row served at once; the second frame shows the same rows.
        meter.frameShown(visible, list: engine.listView, images: engine.images, at: 10)
        meter.frameShown(visible, list: engine.listView, images: engine.images, at: 20)
        #expect(meter.waits == Array(repeating: 0, count: shown.count))
        // The same rows on screen, one of them now a post whose image no one has asked for.
        let newcomer = Post(
            id: 900_000, authorID: 1, textLength: 40,
            media: Media(kind: .single, pixelWidth: 1_080, pixelHeight: 1_080, encodedBytes: 200_000))
        _ = engine.list.replaceItem(at: visible.lowerBound, with: FeedItem(post: newcomer))
        meter.frameShown(visible, list: engine.listView, images: engine.images, at: 30)
        meter.frameShown(visible, list: engine.listView, images: engine.images, at: 40)
        meter.screenGone(at: 100)
        #expect(meter.waits == Array(repeating: 0, count: shown.count) + [70])
    }
}
