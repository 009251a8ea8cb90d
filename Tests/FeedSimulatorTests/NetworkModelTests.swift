import Determinism
import FeedScenario
import Testing

@testable import FeedSimulator

@Suite("Network model")
struct NetworkModelTests {
    static let ms: SimTime = 1_000_000
    static let s: SimTime = 1_000_000_000

    /// A link with constant latency and no jitter, so plans can be computed by hand.
    static func link(
        latencyMs: Double = 100,
        jitterMs: Double = 0,
        downlinkKbps: Int? = 8_000,
        uplinkKbps: Int? = 8_000,
        lossRate: Double = 0,
        timeoutMs: Double = 60_000
    ) -> LinkProfile {
        LinkProfile(
            name: "test", latency: .constant(ms: latencyMs), jitterMs: jitterMs,
            downlinkKbps: downlinkKbps, uplinkKbps: uplinkKbps, lossRate: lossRate, timeoutMs: timeoutMs
        )
    }

    static func model(
        _ link: LinkProfile,
        retry: RetryPolicy = .none,
        offline: [Range<SimTime>] = [],
        seed: UInt64 = 1
    ) throws -> NetworkModel {
        try NetworkModel(link: link, retry: retry, offlineWindows: offline, generator: Xoshiro256StarStar(seed: seed))
    }

    @Test("100 ms + 1,000,000 bytes at 8,000 kbps down arrives 1,100 ms later, to the nanosecond")
    func transferTimeExact() throws {
        var network = try Self.model(Self.link())
        let plan = network.plan(requestAt: 2 * Self.s, requestBytes: 0, responseBytes: 1_000_000)
        #expect(plan.attempts == [.init(start: 2 * Self.s, outcome: .success, end: 2 * Self.s + 1_100 * Self.ms)])
        #expect(plan.result == .succeeded(at: 3_100 * Self.ms))
        #expect(plan.succeeded && plan.retries == 0 && plan.finishedAt == 3_100 * Self.ms)

        // Upload and download add: 500,000 bytes at 4,000 kbps up is another second.
        var asymmetric = try Self.model(Self.link(uplinkKbps: 4_000))
        let both = asymmetric.plan(requestAt: 0, requestBytes: 500_000, responseBytes: 1_000_000)
        #expect(both.result == .succeeded(at: 2_100 * Self.ms))
    }

    @Test(
        "transfer time is bytes·8 / kbps, rounded up to the nanosecond",
        arguments: [
            (1_000_000, 8_000 as Int?, 1_000_000_000 as SimTime),
            (125, 1, 1_000_000_000),
            (0, 780, 0),
            (1, 780, 10_257),  // 8·10⁶ / 780 = 10,256.4…
            (30_000, 330, 727_272_728),  // 2.4·10¹¹ / 330 = 727,272,727.27…
            (5_000_000, nil, 0),
        ])
    func transferTimeTable(bytes: Int, kbps: Int?, expected: SimTime) {
        #expect(NetworkModel.transferTime(bytes: bytes, kbps: kbps) == expected)
    }

    @Test("a 10% loss rate fails 10,000 ± 500 of 100,000 requests, each after one round trip")
    func lossRate() throws {
        var network = try Self.model(Self.link(lossRate: 0.1), seed: 2024)
        var lost = 0
        for i in 0..<100_000 {
            let start = SimTime(i) * Self.ms
            let plan = network.plan(requestAt: start, requestBytes: 200, responseBytes: 2_000)
            if case .failed(let reason, let time) = plan.result {
                #expect(reason == .lost)
                #expect(time == start + 100 * Self.ms)
                lost += 1
            }
        }
        #expect(abs(lost - 10_000) <= 500, "lost \(lost)")
        #expect(network.requests == 100_000)
        #expect(network.attempts == 100_000)
        #expect(network.failures == lost)
        #expect(network.retries == 0)
    }

    @Test("timeouts fire at exactly start + timeout, and retries back off from there")
    func timeouts() throws {
        // 10,000 bytes at 8 kbps take 10 s, past a 2 s timeout.
        let slow = Self.link(downlinkKbps: 8, timeoutMs: 2_000)
        let retry = RetryPolicy(maxRetries: 2, backoffBaseMs: 500, backoffMultiplier: 2)
        var network = try Self.model(slow, retry: retry)
        let plan = network.plan(requestAt: Self.s, requestBytes: 0, responseBytes: 10_000)
        #expect(
            plan.attempts == [
                .init(start: 1_000 * Self.ms, outcome: .timedOut, end: 3_000 * Self.ms),
                .init(start: 3_500 * Self.ms, outcome: .timedOut, end: 5_500 * Self.ms),
                .init(start: 6_500 * Self.ms, outcome: .timedOut, end: 8_500 * Self.ms),
            ])
        #expect(plan.result == .failed(.timedOut, at: 8_500 * Self.ms))
        #expect(network.failures == 1 && network.retries == 2 && network.attempts == 3)

        // Exactly the timeout is not past it: 100 ms + 1,900 bytes at 8 kbps = 2,000 ms.
        var boundary = try Self.model(slow)
        #expect(boundary.plan(requestAt: 0, requestBytes: 0, responseBytes: 1_900).result == .succeeded(at: 2 * Self.s))
        #expect(
            boundary.plan(requestAt: 0, requestBytes: 0, responseBytes: 1_901).result
                == .failed(.timedOut, at: 2 * Self.s))
    }

    @Test("retries wait base·multiplier^(k−1) after each failure: hand-computed attempt times")
    func exponentialBackoff() throws {
        let retry = RetryPolicy(maxRetries: 3, backoffBaseMs: 200, backoffMultiplier: 2)
        var network = try Self.model(Self.link(lossRate: 1), retry: retry)
        let plan = network.plan(requestAt: 0, requestBytes: 100, responseBytes: 100)
        // Lost after 100 ms, then waits of 200, 400 and 800 ms.
        #expect(
            plan.attempts == [
                .init(start: 0, outcome: .lost, end: 100 * Self.ms),
                .init(start: 300 * Self.ms, outcome: .lost, end: 400 * Self.ms),
                .init(start: 800 * Self.ms, outcome: .lost, end: 900 * Self.ms),
                .init(start: 1_700 * Self.ms, outcome: .lost, end: 1_800 * Self.ms),
            ])
        #expect(plan.result == .failed(.lost, at: 1_800 * Self.ms))
        #expect(plan.retries == 3)
        #expect(network.requests == 1 && network.attempts == 4 && network.retries == 3 && network.failures == 1)
    }

    @Test("full jitter waits a uniform draw below each ceiling, deterministically")
    func fullJitter() throws {
        let retry = RetryPolicy(maxRetries: 5, backoffBaseMs: 1_000, backoffMultiplier: 2, fullJitter: true)
        var network = try Self.model(Self.link(latencyMs: 0, lossRate: 1), retry: retry, seed: 8)
        var replay = try Self.model(Self.link(latencyMs: 0, lossRate: 1), retry: retry, seed: 8)
        var sawShortWait = false
        for i in 0..<1_000 {
            let plan = network.plan(requestAt: SimTime(i) * 100 * Self.s, requestBytes: 0, responseBytes: 0)
            #expect(plan == replay.plan(requestAt: SimTime(i) * 100 * Self.s, requestBytes: 0, responseBytes: 0))
            #expect(plan.attempts.count == 6)
            for k in 1..<plan.attempts.count {
                let wait = plan.attempts[k].start - plan.attempts[k - 1].end
                let ceiling = SimTime(1_000 << (k - 1)) * Self.ms
                #expect(wait >= 0 && wait < ceiling, "retry \(k) waited \(wait)")
                if wait < ceiling / 10 { sawShortWait = true }
            }
        }
        #expect(sawShortWait)
    }

    @Test("an offline window fails attempts that start inside it; retries succeed once it ends")
    func offlineWindowRetriedPast() throws {
        let windows: [Range<SimTime>] = [0..<5 * Self.s]
        let retry = RetryPolicy(maxRetries: 3, backoffBaseMs: 2_000, backoffMultiplier: 2)
        var network = try Self.model(Self.link(), retry: retry, offline: windows)
        // Offline at 1 s and 3 s (waits 2 s, 4 s); online at 7 s: 100 ms + 1 ms for 1,000 bytes.
        let plan = network.plan(requestAt: Self.s, requestBytes: 0, responseBytes: 1_000)
        #expect(
            plan.attempts == [
                .init(start: 1 * Self.s, outcome: .offline, end: 1 * Self.s),
                .init(start: 3 * Self.s, outcome: .offline, end: 3 * Self.s),
                .init(start: 7 * Self.s, outcome: .success, end: 7 * Self.s + 101 * Self.ms),
            ])
        #expect(plan.result == .succeeded(at: 7 * Self.s + 101 * Self.ms))
        #expect(network.retries == 2 && network.failures == 0)

        // Without retries the request fails at once, at the time it was made.
        var once = try Self.model(Self.link(), offline: windows)
        #expect(
            once.plan(requestAt: 4 * Self.s, requestBytes: 0, responseBytes: 1_000).result
                == .failed(.offline, at: 4 * Self.s))
        // The window's end is exclusive.
        #expect(
            once.plan(requestAt: 5 * Self.s, requestBytes: 0, responseBytes: 1_000).result
                == .succeeded(at: 5 * Self.s + 101 * Self.ms))
    }

    @Test("an attempt in flight when a window begins fails as offline at the window's start")
    func offlineWindowCutsInFlight() throws {
        var network = try Self.model(Self.link(), offline: [10 * Self.s..<20 * Self.s])
        let plan = network.plan(requestAt: 9_950 * Self.ms, requestBytes: 0, responseBytes: 1_000)
        #expect(plan.attempts == [.init(start: 9_950 * Self.ms, outcome: .offline, end: 10 * Self.s)])
        // Finishing exactly as the window opens is not cut.
        let justInTime = network.plan(requestAt: 10 * Self.s - 101 * Self.ms, requestBytes: 0, responseBytes: 1_000)
        #expect(justInTime.result == .succeeded(at: 10 * Self.s))
    }

    @Test("offline windows are sorted and merged, and looked up by binary search")
    func offlineWindowsMerged() throws {
        let network = try Self.model(Self.link(), offline: [5..<8, 0..<3, 2..<4, 8..<9, 10..<10, 12..<15])
        #expect(network.offlineWindows == [0..<4, 5..<9, 12..<15])
        let offline = (0..<16).filter { network.isOffline(at: SimTime($0)) }
        #expect(offline == [0, 1, 2, 3, 5, 6, 7, 8, 12, 13, 14])
    }

    @Test("the offline profile fails every attempt of every request")
    func offlineProfileFailsEverything() throws {
        let retry = RetryPolicy(maxRetries: 2, backoffBaseMs: 100, backoffMultiplier: 2)
        var network = try Self.model(.offline, retry: retry)
        for i in 0..<1_000 {
            let plan = network.plan(requestAt: SimTime(i) * Self.s, requestBytes: 500, responseBytes: 50_000)
            #expect(!plan.succeeded)
            #expect(plan.attempts.allSatisfy { $0.outcome == .lost })
            #expect(plan.result == .failed(.lost, at: SimTime(i) * Self.s + 300 * Self.ms))
        }
        #expect(network.requests == 1_000 && network.failures == 1_000)
        #expect(network.attempts == 3_000 && network.retries == 2_000)
    }

    @Test("jitter spreads a constant latency by ± jitterMs and never below 0")
    func jitter() throws {
        var spread = try Self.model(Self.link(latencyMs: 100, jitterMs: 20, downlinkKbps: nil, uplinkKbps: nil))
        let ends = (0..<10_000).map { _ in spread.plan(requestAt: 0, requestBytes: 0, responseBytes: 0).finishedAt }
        #expect(ends.allSatisfy { $0 >= 80 * Self.ms && $0 <= 120 * Self.ms })
        #expect(ends.min()! < 81 * Self.ms && ends.max()! > 119 * Self.ms)

        var clamped = try Self.model(Self.link(latencyMs: 5, jitterMs: 20, downlinkKbps: nil, uplinkKbps: nil))
        let short = (0..<10_000).map { _ in clamped.plan(requestAt: 0, requestBytes: 0, responseBytes: 0).finishedAt }
        #expect(short.allSatisfy { $0 >= 0 && $0 <= 25 * Self.ms })
        #expect(short.contains(0))
    }

    @Test("the same seed plans the same requests; another seed plans others")
    func deterministic() throws {
        let link = LinkProfile(
            name: "mixed", latency: .lognormal(medianMs: 200, sigma: 0.8), jitterMs: 15,
            downlinkKbps: 780, uplinkKbps: 330, lossRate: 0.2, timeoutMs: 1_500
        )
        let retry = RetryPolicy(maxRetries: 4, backoffBaseMs: 250, backoffMultiplier: 1.5, fullJitter: true)
        let windows: [Range<SimTime>] = [30 * Self.s..<40 * Self.s]
        func plans(seed: UInt64) throws -> [RequestPlan] {
            var network = try Self.model(link, retry: retry, offline: windows, seed: seed)
            return (0..<500).map {
                network.plan(requestAt: SimTime($0) * 100 * Self.ms, requestBytes: 400, responseBytes: 20_000)
            }
        }
        let first = try plans(seed: 77)
        #expect(first == (try plans(seed: 77)))
        #expect(first != (try plans(seed: 78)))
        let outcomes = Set(first.flatMap { $0.attempts.map { "\($0.outcome)" } })
        #expect(outcomes == ["success", "lost", "timedOut", "offline"])

        var fromStreams = try NetworkModel(
            link: link, retry: retry, offlineWindows: windows, streams: RandomStreams(seed: 5))
        var fromGenerator = try NetworkModel(
            link: link, retry: retry, offlineWindows: windows,
            generator: RandomStreams(seed: 5).generator(for: .network)
        )
        #expect(
            fromStreams.plan(requestAt: 0, requestBytes: 1, responseBytes: 1)
                == fromGenerator.plan(requestAt: 0, requestBytes: 1, responseBytes: 1))
    }

    @Test("every named profile exists, validates and has NLC's numbers")
    func namedProfiles() throws {
        #expect(LinkProfile.allNames == ["wifi", "lte", "3g", "edge", "very_bad", "offline"])
        for name in LinkProfile.allNames {
            let profile = try #require(LinkProfile.named(name), "\(name)")
            #expect(profile.name == name)
            try profile.validate()
            #expect(profile.jitterMs == 0, "\(name)")
            #expect(profile.timeoutMs == 60_000, "\(name)")
            _ = try NetworkModel(link: profile, generator: Xoshiro256StarStar(seed: 1))
        }
        #expect(LinkProfile.named("3G") == nil)
        #expect(LinkProfile.named("cable") == nil)

        // Median round trip = NLC downlink + uplink delay; bandwidths and drop rates as NLC sets them.
        let expected: [(LinkProfile, Double, Int, Int, Double)] = [
            (.wifi, 2, 40_000, 33_000, 0),
            (.lte, 115, 50_000, 10_000, 0),
            (.threeG, 200, 780, 330, 0),
            (.edge, 840, 240, 200, 0),
            (.veryBad, 1_000, 1_000, 1_000, 0.1),
        ]
        for (profile, medianMs, down, up, loss) in expected {
            #expect(abs(profile.latency.median - medianMs) < 1e-9, "\(profile.name)")
            #expect(profile.downlinkKbps == down && profile.uplinkKbps == up, "\(profile.name)")
            #expect(profile.lossRate == loss, "\(profile.name)")
            #expect(profile.uplinkKbps! <= profile.downlinkKbps!, "\(profile.name)")
            #expect(profile.latency.quantile(0.99) < profile.timeoutMs, "\(profile.name): p99 below the timeout")
        }
        let medians = expected.map { $0.0.latency.median }
        #expect(medians == medians.sorted(), "worse links are slower")
        #expect(LinkProfile.offline.lossRate == 1)
        #expect(LinkProfile.offline.downlinkKbps == nil && LinkProfile.offline.uplinkKbps == nil)
    }

    @Test("bad settings are refused with a sentence naming the value")
    func validation() {
        let bad: [(LinkProfile, RetryPolicy)] = [
            (Self.link(lossRate: 1.5), .none),
            (Self.link(downlinkKbps: 0), .none),
            (Self.link(jitterMs: -1), .none),
            (Self.link(timeoutMs: 0), .none),
            (Self.link(timeoutMs: 2 * LinkProfile.longestTimeoutMs), .none),
            (Self.link(latencyMs: -3), .none),
            (Self.link(), RetryPolicy(maxRetries: RetryPolicy.retryLimit + 1, backoffBaseMs: 1)),
            (Self.link(), RetryPolicy(maxRetries: -1)),
            (Self.link(), RetryPolicy(maxRetries: 3, backoffBaseMs: 100, backoffMultiplier: 0.5)),
            (Self.link(), RetryPolicy(maxRetries: 30, backoffBaseMs: 1_000, backoffMultiplier: 10)),
        ]
        for (link, retry) in bad {
            #expect(throws: NetworkConfigurationError.self, "\(link) \(retry)") {
                _ = try NetworkModel(link: link, retry: retry, generator: Xoshiro256StarStar(seed: 1))
            }
        }
        let error = #expect(throws: NetworkConfigurationError.self) {
            _ = try NetworkModel(link: Self.link(lossRate: 2), generator: Xoshiro256StarStar(seed: 1))
        }
        #expect(error?.message.contains("lossRate 2.0") == true)
    }
}
