import Determinism
import Testing

@Suite("Seeded generators")
struct GeneratorTests {
    @Test("SplitMix64 matches the reference sequence for seed 1234567")
    func splitMixGolden() {
        var generator = SplitMix64(seed: 1_234_567)
        let expected: [UInt64] = [
            6_457_827_717_110_365_317, 3_203_168_211_198_807_973, 9_817_491_932_198_370_423,
            4_593_380_528_125_082_431, 16_408_922_859_458_223_821,
        ]
        #expect((0..<5).map { _ in generator.next() } == expected)
    }

    @Test("xoshiro256** seeded through SplitMix64 matches the reference implementation for seed 42")
    func xoshiroGolden() {
        var generator = Xoshiro256StarStar(seed: 42)
        let expected: [UInt64] = [
            1_546_998_764_402_558_742, 6_990_951_692_964_543_102, 12_544_586_762_248_559_009,
            17_057_574_109_182_124_193, 18_295_552_978_065_317_476,
        ]
        #expect((0..<5).map { _ in generator.next() } == expected)
    }

    @Test("Lemire range reduction gives the reference values and stays in range")
    func boundedGolden() {
        var generator = Xoshiro256StarStar(seed: 42)
        #expect((0..<10).map { _ in generator.next(below: 10) } == [0, 3, 6, 9, 9, 7, 7, 8, 7, 5])
        var wide = Xoshiro256StarStar(seed: 7)
        for bound: UInt64 in [1, 2, 3, 7, 1_000, UInt64.max / 3 + 1, UInt64.max] {
            for _ in 0..<1_000 { #expect(wide.next(below: bound) < bound, "bound \(bound)") }
        }
    }

    @Test("bounded draws are uniform: each of 10 buckets within 5% of 10,000 in 100,000 draws")
    func boundedUniform() {
        var generator = Xoshiro256StarStar(seed: 2024)
        var buckets = [Int](repeating: 0, count: 10)
        for _ in 0..<100_000 { buckets[Int(generator.next(below: 10))] += 1 }
        for (i, count) in buckets.enumerated() {
            #expect(abs(count - 10_000) < 500, "bucket \(i) has \(count)")
        }
    }

    @Test("unit doubles lie in [0, 1) and closed ranges include both ends")
    func unitAndRanges() {
        var generator = Xoshiro256StarStar(seed: 5)
        var sawLow = false, sawHigh = false
        for _ in 0..<10_000 {
            let u = generator.nextUnit()
            #expect(u >= 0 && u < 1)
            let v = generator.next(in: -2...2)
            #expect((-2...2).contains(v))
            sawLow = sawLow || v == -2
            sawHigh = sawHigh || v == 2
        }
        #expect(sawLow && sawHigh)
    }
}
