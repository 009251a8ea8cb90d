import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

/// Scenarios built in code, on a device profile built in code, so these
/// tests do not depend on the bundled files.
enum TestWorld {
    static func rated(_ value: Double) -> Rated { Rated(value: value, rationale: "test value") }

    /// A network with no latency and the fastest link a scenario may name:
    /// the first page lands a fraction of a millisecond after launch.
    static let fastNetwork = NetworkSettings(
        profile: "wifi", latency: .constant(ms: 0), downlinkKbps: 10_000_000, uplinkKbps: 10_000_000)

    static let device = DeviceProfile(
        name: "test-phone", description: "A phone for tests",
        maxRefreshHz: rated(120), screenWidthPt: rated(390), screenHeightPt: rated(800),
        safeAreaTopPt: rated(0), safeAreaBottomPt: rated(0),
        costs: CostTable(
            frameBase: rated(2_000_000), cellConfigure: rated(500_000), cellMeasure: rated(3_000_000),
            itemLayout: rated(100), heightUpdate: rated(1_000), offsetQuery: rated(0), diffElement: rated(100),
            changeApply: rated(10_000), viewModelCreate: rated(100_000), decodePerMegapixel: rated(8_000_000)))

    static func request(
        posts: Int = 300, seconds: Double = 5, hz: Int = 60, seed: UInt64 = 1, mediaFraction: Double = 0,
        script: [ScriptStep] = [], limits: RunLimits = .defaults, frames: Bool = true,
        engine: EngineSettings = .defaults, itemHeight: ItemHeight = .content, pageSize: Int = 0,
        serverLatencyNs: Int64 = 0
    ) -> RunRequest {
        var feed = FeedSettings(postCount: posts, mediaFraction: mediaFraction, pageSize: pageSize)
        feed.itemHeight = itemHeight
        var scenario = Scenario(
            name: "test", description: "test", device: device.name, seed: seed,
            durationNs: Int64(seconds * 1e9), feed: feed, server: ServerSettings(latencyNs: serverLatencyNs),
            engine: engine, script: script, limits: limits)
        scenario.network = fastNetwork
        return RunRequest(
            loaded: LoadedScenario(file: "test.json", scenario: scenario, device: device),
            refreshHz: hz, seed: seed, recordFrames: frames)
    }
}

@Suite("Simulation")
struct SimulationTests {
    @Test("the same request gives the same frames and digest; another seed does not")
    func deterministic() throws {
        let script = [ScriptStep(atNs: 500_000_000, action: .fling(velocityPtPerS: 8_000, deceleration: .normal))]
        let a = try Simulation(request: TestWorld.request(script: script)).run()
        let b = try Simulation(request: TestWorld.request(script: script)).run()
        #expect(a.traceDigest == b.traceDigest)
        // Allocation counts are compared across processes (the end-to-end
        // test): in one process the first run also pays the runtime's
        // one-time allocations.
        #expect(
            a.frames.map { [$0.time, $0.work, Int64($0.visible.lowerBound)] }
                == b.frames.map { [$0.time, $0.work, Int64($0.visible.lowerBound)] })
        #expect(a.frames.map(\.contentOffset) == b.frames.map(\.contentOffset))
        #expect(a.frameSummary == b.frameSummary)
        let c = try Simulation(request: TestWorld.request(seed: 2, script: script)).run()
        #expect(c.traceDigest != a.traceDigest)
    }

    @Test("a finished run frees its world: a benchmark or warm-up that runs again does not keep the last run's feed")
    func finishedRunIsFreed() throws {
        weak var finished: Simulation?
        do {
            let script = [ScriptStep(atNs: 500_000_000, action: .fling(velocityPtPerS: 8_000, deceleration: .normal))]
            let simulation = try Simulation(request: TestWorld.request(script: script, pageSize: 50))
            finished = simulation
            _ = try simulation.run()
        }
        #expect(finished == nil)
    }

    @Test("an idle feed renders the empty launch frame, the first page, and then nothing")
    func idleFeedRendersOnce() throws {
        let result = try Simulation(request: TestWorld.request()).run()
        #expect(result.frameSummary.frames == 2)
        let first = try #require(result.frames.first)
        #expect(first.time == 0)
        #expect(first.visible.isEmpty, "the page is still on the network at t = 0")
        let content = try #require(result.frames.last)
        #expect(content.time == Display(refreshHz: 60).vsyncTime(1))
        #expect(content.contentOffset == 0)
        #expect(!content.visible.isEmpty)
    }

    @Test("a fling renders frames until it rests, each at a vsync, never two in one interval")
    func flingFrames() throws {
        let script = [ScriptStep(atNs: 100_000_000, action: .fling(velocityPtPerS: 3_000, deceleration: .fast))]
        let result = try Simulation(request: TestWorld.request(hz: 120, script: script)).run()
        let display = Display(refreshHz: 120)
        #expect(result.frameSummary.frames > 10)
        for pair in zip(result.frames, result.frames.dropFirst()) {
            #expect(pair.1.time >= pair.0.time + SimTime(pair.0.intervals) * display.budget - 1)
            #expect(display.vsyncTime(display.firstVsync(atOrAfter: pair.1.time)) == pair.1.time)
        }
        let last = try #require(result.frames.last)
        let predicted = ScrollPhysics.restingOffset(x0: 0, v0: 3_000, rate: 0.99)
        #expect(abs(last.contentOffset - predicted) < predicted * 0.01)
    }

    @Test("a frame over budget delays the next frame by the vsyncs it dropped")
    func overrunDelaysNextFrame() throws {
        // The first frame measures every visible cell: 2 ms + cells × 3.5 ms,
        // far over the 8.33 ms budget at 120 Hz.
        let script = [ScriptStep(atNs: 0, action: .fling(velocityPtPerS: 2_000, deceleration: .normal))]
        let result = try Simulation(request: TestWorld.request(hz: 120, script: script)).run()
        let index = try #require(result.frames.firstIndex { !$0.visible.isEmpty })
        let first = result.frames[index]
        #expect(first.isOverrun)
        #expect(first.dropped >= 1)
        let vsync = Display(refreshHz: 120).firstVsync(atOrAfter: first.time)
        #expect(result.frames[index + 1].time == Display(refreshHz: 120).vsyncTime(vsync + Int64(first.intervals)))
    }

    @Test("a run past its event limit stops with a clear error")
    func eventLimit() {
        let request = TestWorld.request(
            seconds: 60, hz: 120, limits: RunLimits(maxEvents: 1_000, maxSimulatedNs: 3_600_000_000_000))
        #expect(throws: SimulationLimitError.self) { try Simulation(request: request).run() }
        do {
            _ = try Simulation(request: request).run()
        } catch let error as SimulationLimitError {
            #expect(error.description.contains("max_events (1000)"))
        } catch {
            Issue.record("unexpected error \(error)")
        }
    }

    @Test("scrolling through measured content makes no engine allocation per frame")
    func steadyStateAllocations() throws {
        // Down and back up over the same posts: the way back only reuses measured cells.
        let script = [
            ScriptStep(
                atNs: 100_000_000,
                action: .drag(
                    trajectory: [
                        .init(timeNs: 0, displacementPt: 0), .init(timeNs: 1_000_000_000, displacementPt: 3_000),
                    ], release: .stop, deceleration: .normal)),
            ScriptStep(
                atNs: 1_500_000_000,
                action: .drag(
                    trajectory: [
                        .init(timeNs: 0, displacementPt: 0), .init(timeNs: 1_000_000_000, displacementPt: -2_500),
                    ], release: .stop, deceleration: .normal)),
        ]
        let result = try Simulation(request: TestWorld.request(seconds: 3, script: script)).run()
        // Frames of the way back while the finger moves (the frame where the
        // scroll comes to rest also persists state, which allocates).
        let wayBack = result.frames.filter { $0.time > 1_600_000_000 && $0.time < 2_450_000_000 }
        #expect(wayBack.count > 30)
        #expect(wayBack.allSatisfy { $0.allocations == 0 }, "\(wayBack.map(\.allocations))")
    }

    @Test("images decoded on the main thread cost frame time; decoded in background they do not")
    func imageDecodeCost() throws {
        let script = [ScriptStep(atNs: 200_000_000, action: .fling(velocityPtPerS: 4_000, deceleration: .normal))]
        var totals: [ImageDecodeSetting: Int64] = [:]
        for decode in ImageDecodeSetting.allCases {
            var engine = EngineSettings.defaults
            engine.imageDecode = decode
            let result = try Simulation(request: TestWorld.request(mediaFraction: 1, script: script, engine: engine))
                .run()
            totals[decode] = result.frames.reduce(0) { $0 + $1.work }
        }
        let main = try #require(totals[.main]), background = try #require(totals[.background])
        // Every image is at least 0.58 MP (1080 × 540): 4.7 ms at 8 ms/MP, and
        // a fling over a few thousand points shows more than ten of them.
        #expect(main - background > 10 * 4_600_000, "main \(main) ns, background \(background) ns")
    }

    @Test("scrolling back over posts with images: no allocation unless a cell enters, and few when one does")
    func steadyStateWithImages() throws {
        let script = [
            ScriptStep(
                atNs: 100_000_000,
                action: .drag(
                    trajectory: [
                        .init(timeNs: 0, displacementPt: 0), .init(timeNs: 1_000_000_000, displacementPt: 3_000),
                    ], release: .stop, deceleration: .normal)),
            ScriptStep(
                atNs: 1_500_000_000,
                action: .drag(
                    trajectory: [
                        .init(timeNs: 0, displacementPt: 0), .init(timeNs: 1_000_000_000, displacementPt: -2_500),
                    ], release: .stop, deceleration: .normal)),
        ]
        let result = try Simulation(request: TestWorld.request(seconds: 3, mediaFraction: 0.5, script: script)).run()
        let wayBack = result.frames.filter { $0.time > 1_600_000_000 && $0.time < 2_450_000_000 }
        #expect(wayBack.count > 30)
        // The image pipeline records a cell's request and moves its prefetch
        // window when a cell enters: a handful of small allocations.
        for (previous, frame) in zip(wayBack, wayBack.dropFirst()) {
            if frame.visible == previous.visible {
                #expect(frame.allocations == 0, "frame \(frame.frame)")
            } else {
                #expect(frame.allocations <= 16, "frame \(frame.frame): \(frame.allocations)")
            }
        }
    }

    @Test("a jetsam kill followed by a relaunch restores the anchor from persisted state")
    func jetsamRestoresAnchor() throws {
        // 300 posts at 150 KB over a 150 MB baseline: 194 MB, under the
        // 200 MB limit; 60 new posts pushed in take the app over it.
        var request = TestWorld.request(
            seconds: 8,
            script: [
                ScriptStep(
                    atNs: 500_000_000,
                    action: .drag(
                        trajectory: [
                            .init(timeNs: 0, displacementPt: 0), .init(timeNs: 500_000_000, displacementPt: 2_000),
                        ], release: .stop, deceleration: .normal)),
                ScriptStep(atNs: 2_000_000_000, action: .newPosts(count: 60, push: true)),
            ],
            engine: {
                var e = EngineSettings.defaults
                e.positionStrategy = .anchor
                return e
            }())
        request.loaded.scenario.memory = MemorySettings(
            limitBytes: 200 << 20, baselineBytes: 150 << 20, bytesPerPost: 150 << 10, warningFraction: 0.99,
            criticalFraction: 1)
        let result = try Simulation(request: request).run()
        #expect(result.jetsamKills == 1)
        let restore = try #require(result.drift.first { $0.cause == "restore" })
        #expect(restore.drift == 0, "restored at \(String(describing: restore.afterY)), was \(restore.beforeY)")
        #expect(restore.time > 2_000_000_000)
    }
}

@Suite("Adaptive refresh")
struct AdaptiveRefreshTests {
    static func run(_ script: [ScriptStep], adaptive: Bool) throws -> RunResult {
        var request = TestWorld.request(posts: 300, seconds: 6, hz: 120, script: script)
        request.loaded.device.adaptiveRefresh = adaptive
        return try Simulation(request: request).run()
    }

    @Test(
        "a ProMotion display runs at 120 Hz under the finger and while content moves fast, and at 60 Hz once it is slow"
    )
    func followsTheContent() throws {
        let slowDrag = ScriptStep(
            atNs: 500_000_000,
            action: .drag(
                trajectory: [
                    TrajectoryPoint(timeNs: 0, displacementPt: 0),
                    TrajectoryPoint(timeNs: 1_500_000_000, displacementPt: 150),
                ],
                release: .stop, deceleration: .normal))
        let fling = ScriptStep(atNs: 2_500_000_000, action: .fling(velocityPtPerS: 6_000, deceleration: .normal))
        let result = try AdaptiveRefreshTests.run([slowDrag, fling], adaptive: true)
        let fast = Display(refreshHz: 120).budget, slow = Display(refreshHz: 60).budget
        let dragging = result.frames.filter { $0.time > 600_000_000 && $0.time < 1_900_000_000 }
        #expect(
            !dragging.isEmpty && dragging.allSatisfy { $0.budget == fast },
            "the finger keeps 120 Hz however slow it moves")
        let flingStart = result.frames.filter { $0.time >= 2_500_000_000 && $0.time < 2_700_000_000 }
        #expect(!flingStart.isEmpty && flingStart.allSatisfy { $0.budget == fast })
        let tail = try #require(result.frames.last)
        #expect(tail.budget == slow, "the end of the deceleration is slow: 60 Hz")
        for frame in result.frames where frame.budget == slow {
            #expect(
                Display(refreshHz: 60).vsyncTime(Display(refreshHz: 60).firstVsync(atOrAfter: frame.time))
                    == frame.time,
                "60 Hz frames fall on 60 Hz vsyncs")
        }
    }

    @Test("without the device field the rate never changes")
    func fixedWithoutTheField() throws {
        let fling = ScriptStep(atNs: 500_000_000, action: .fling(velocityPtPerS: 6_000, deceleration: .normal))
        let result = try AdaptiveRefreshTests.run([fling], adaptive: false)
        #expect(result.frames.allSatisfy { $0.budget == Display(refreshHz: 120).budget })
    }
}
