import FeedExplore
import FeedSimulator
import Foundation
import Testing

@Suite("Determinism property: flags checked alone")
struct FlagsPropertyTests {
    @Test(
        """
        A first variant whose counts, run first in a process, differ with frames and a timeline recorded breaks \
        determinism; equal counts do not
        """
    )
    func flagsAlone() throws {
        let device = try ExploreFixtures.device()
        let session = SessionGenerator(config: .defaults, device: device, seed: 3).session(4)
        let names = session.variants.map(\.name)
        let asked = LockedCalls()
        let differing = SessionRunner(device: device) { scenario, variants, _, recorded in
            asked.append("\(scenario.name) \(variants.joined(separator: ",")) \(recorded)")
            return variants.map { _ in count(recorded ? 101 : 100, bytes: 4_096) }
        }
        let runs = differing.run(session, checkDeterminism: true, checkFlagsAlone: true)
        let first = try #require(runs.first)
        let violation = try #require(first.violations.first { $0.property == .determinism })
        #expect(violation.strategy == names[0])
        #expect(violation.detail.contains("100 allocations, 4096 bytes without, 101 and 4096 with"))
        #expect(first.row?.last == String(first.violations.count), "explore.csv counts the violation")
        #expect(
            runs.dropFirst().allSatisfy { !$0.violations.contains { $0.property == .determinism } },
            "only the first variant is run recorded")
        #expect(
            asked.calls == [
                "\(session.name) \(names.flatMap { [$0, $0] }.joined(separator: ",")) false",
                "\(session.name) \(names[0]) true",
            ])

        let agreeing = SessionRunner(device: device) { _, variants, _, _ in
            variants.map { _ in count(100, bytes: 4_096) }
        }
        #expect(
            agreeing.run(session, checkDeterminism: true, checkFlagsAlone: true).allSatisfy {
                !$0.violations.contains { $0.property == .determinism }
            })
        #expect(
            differing.run(session, checkDeterminism: true, checkFlagsAlone: false).allSatisfy {
                !$0.violations.contains { $0.property == .determinism }
            }, "without checkFlagsAlone no process is asked for")
    }

    @Test(
        "A variant that counts more first in its worker than when run again breaks determinism, for that variant alone")
    func firstInWorker() throws {
        let device = try ExploreFixtures.device()
        let session = SessionGenerator(config: .defaults, device: device, seed: 3).session(4)
        let names = session.variants.map(\.name)
        try #require(names.count >= 3)
        // The third variant's first run pays a cost its second does not,
        // as offset_adjust's first move did before the warm-up paid it.
        let paying = SessionRunner(device: device) { _, variants, _, _ in
            variants.enumerated().map { index, _ in index == 4 ? count(104, bytes: 4_656) : count(100, bytes: 4_096) }
        }
        let runs = paying.run(session, checkDeterminism: true, checkFlagsAlone: true)
        let flagged = runs.enumerated().filter { $0.element.violations.contains { $0.property == .determinism } }.map(
            \.offset)
        #expect(flagged == [2], "\(runs.map(\.violations))")
        let violation = try #require(runs[2].violations.first { $0.property == .determinism })
        #expect(violation.strategy == names[2])
        #expect(
            violation.detail.contains("104 allocations, 4656 bytes first, 100 and 4096 again"), "\(violation.detail)")
        #expect(runs[2].row?.last == String(runs[2].violations.count), "explore.csv counts the violation")

        let failed = SessionRunner(device: device) { _, _, _, _ in nil }
        #expect(
            failed.run(session, checkDeterminism: true, checkFlagsAlone: true).allSatisfy {
                !$0.violations.contains { $0.property == .determinism }
            }, "a process that could not run reports nothing")
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
