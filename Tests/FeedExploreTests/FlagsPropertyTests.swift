import Foundation
import Testing
import FeedExplore
import FeedSimulator

@Suite("Determinism property: flags checked alone")
struct FlagsPropertyTests {
    @Test("A first variant whose counts, run alone, differ with frames and a timeline recorded breaks determinism; equal counts do not")
    func flagsAlone() throws {
        let device = try ExploreFixtures.device()
        let session = SessionGenerator(config: .defaults, device: device, seed: 3).session(4)
        let asked = LockedCalls()
        let differing = SessionRunner(device: device) { scenario, variant, _, recorded in
            asked.append("\(scenario.name) \(variant) \(recorded)")
            return count(recorded ? 101 : 100, bytes: 4_096)
        }
        let runs = differing.run(session, checkDeterminism: true, checkFlagsAlone: true)
        let first = try #require(runs.first)
        let violation = try #require(first.violations.first { $0.property == .determinism })
        #expect(violation.strategy == session.variants[0].name)
        #expect(violation.detail.contains("100 allocations, 4096 bytes without, 101 and 4096 with"))
        #expect(first.row?.last == String(first.violations.count), "explore.csv counts the violation")
        #expect(runs.dropFirst().allSatisfy { !$0.violations.contains { $0.property == .determinism } }, "only the first variant is run alone")
        #expect(asked.calls == ["\(session.name) \(session.variants[0].name) false", "\(session.name) \(session.variants[0].name) true"])

        let agreeing = SessionRunner(device: device) { _, _, _, _ in count(100, bytes: 4_096) }
        #expect(agreeing.run(session, checkDeterminism: true, checkFlagsAlone: true).allSatisfy {
            !$0.violations.contains { $0.property == .determinism }
        })
        #expect(differing.run(session, checkDeterminism: true, checkFlagsAlone: false).allSatisfy {
            !$0.violations.contains { $0.property == .determinism }
        }, "without checkFlagsAlone no process is asked for")
    }
}

/// Allocation counts from their parts.
private func count(_ requests: UInt64, bytes: UInt64) -> AllocationMeter.Count {
    AllocationMeter.Count(requests: requests, bytes: bytes)
}

/// The calls a fresh-run closure saw, in order (the closure is `@Sendable`).
final class LockedCalls: @unchecked Sendable {
    private let lock = NSLock()
    private var list: [String] = []
    func append(_ call: String) { lock.withLock { list.append(call) } }
    var calls: [String] { lock.withLock { list } }
}
