import Determinism
import Testing

@testable import FeedSimulator

@Suite("The run's random streams")
struct RandomStreamsTests {
    @Test("streams of one seed are reproducible and independent of each other")
    func streams() {
        let streams = RandomStreams(seed: 99)
        var a = streams.generator(for: .network), b = streams.generator(for: .network)
        #expect((0..<8).map { _ in a.next() } == (0..<8).map { _ in b.next() })
        var firsts: [UInt64] = []
        for stream in RandomStreams.Stream.allCases {
            var g = streams.generator(for: stream)
            firsts.append(g.next())
        }
        #expect(Set(firsts).count == RandomStreams.Stream.allCases.count)
        var other = RandomStreams(seed: 100).generator(for: .network)
        var same = streams.generator(for: .network)
        #expect(other.next() != same.next())
    }
}
