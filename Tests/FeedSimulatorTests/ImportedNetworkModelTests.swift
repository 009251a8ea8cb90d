import Determinism
import FeedScenario
import Testing

@testable import FeedSimulator

@Suite("Network model on an imported network")
struct ImportedNetworkModelTests {
    static let ms: SimTime = 1_000_000

    /// A class whose every table is one value: latency 40 ms, 8,000 kbps.
    static func flat(failureRate: Double = 0, timeoutRate: Double = 0) -> RequestClass {
        RequestClass(
            name: "feed", requests: 10, measured: 10, failureRate: failureRate, timeoutRate: timeoutRate,
            latencyMs: Array(repeating: 40, count: 101), bytes: Array(repeating: 1000, count: 101),
            throughputKbps: Array(repeating: 8_000, count: 101))
    }

    static func model(_ imported: RequestClass, seed: UInt64 = 1) throws -> NetworkModel {
        let link = NetworkModelTests.link(latencyMs: 500, downlinkKbps: 10, uplinkKbps: nil, lossRate: 0.9)
        return try NetworkModel(link: link, empirical: imported, generator: Xoshiro256StarStar(seed: seed))
    }

    @Test("latency and throughput come from the class, not the link: 40 ms + 1,000,000 bytes at 8,000 kbps = 1,040 ms")
    func drawsFromTheClass() throws {
        var network = try Self.model(Self.flat())
        let plan = network.plan(requestAt: 0, requestBytes: 0, responseBytes: 1_000_000)
        #expect(plan.result == .succeeded(at: 1_040 * Self.ms))
    }

    @Test("failure and timeout rates: every attempt fails, or times out at the link's timeout")
    func failures() throws {
        var failing = try Self.model(Self.flat(failureRate: 1))
        #expect(
            failing.plan(requestAt: 0, requestBytes: 0, responseBytes: 10).result == .failed(.lost, at: 40 * Self.ms))
        var timingOut = try Self.model(Self.flat(failureRate: 1, timeoutRate: 1))
        #expect(
            timingOut.plan(requestAt: 0, requestBytes: 0, responseBytes: 10).result
                == .failed(.timedOut, at: 60_000 * Self.ms))
    }

    @Test("latency draws follow the table: the median of 20,000 draws is the table's p50 within 2%")
    func quantiles() throws {
        var imported = Self.flat()
        imported.latencyMs = (0...100).map { 10 + Double($0) * 2 }  // uniform on [10, 210]: median 110
        var network = try Self.model(imported, seed: 9)
        var ends = (0..<20_000).map { _ in
            network.plan(requestAt: 0, requestBytes: 0, responseBytes: 0).finishedAt
        }
        ends.sort()
        let median = Double(ends[10_000]) / Double(Self.ms)
        #expect(abs(median / 110 - 1) < 0.02, "median \(median) ms")
    }
}
