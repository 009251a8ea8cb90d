import Determinism
import Testing

@testable import FeedSimulator

@Suite("Frame accounting")
struct FrameAccountantTests {
    @Test("budgets are one refresh interval to the nanosecond")
    func budgets() {
        #expect(Display(refreshHz: 60).budget == 16_666_667)
        #expect(Display(refreshHz: 120).budget == 8_333_333)
        #expect(Display(refreshHz: 60).vsyncTime(60) == 1_000_000_000)
        #expect(Display(refreshHz: 120).vsyncTime(1) == 8_333_333)
        #expect(Display(refreshHz: 120).firstVsync(atOrAfter: 8_333_334) == 2)
    }

    @Test("the first vsync at or after a time is the first whose time is not before it, at every rate")
    func firstVsyncByDefinition() {
        var random = Xoshiro256StarStar(seed: 5)
        for hz in [1, 10, 24, 30, 48, 60, 80, 90, 96, 120, 144, 240, 7, 1_000, 1_009] {
            let display = Display(refreshHz: hz)
            for trial in 0..<2_000 {
                // Vsync times themselves and their neighbours, then any time
                // up to a day.
                let time: SimTime
                if trial < 1_000 {
                    time = max(
                        0, display.vsyncTime(Int64(random.next(below: 1 << 20))) + SimTime(random.next(below: 3)) - 1)
                } else {
                    time = SimTime(random.next(below: 86_400_000_000_000))
                }
                let index = display.firstVsync(atOrAfter: time)
                #expect(display.vsyncTime(index) >= time, "\(hz) Hz, \(time) ns")
                #expect(index == 0 || display.vsyncTime(index - 1) < time, "\(hz) Hz, \(time) ns")
            }
        }
        #expect(Display(refreshHz: 120).firstVsync(atOrAfter: 0) == 0)
        #expect(Display(refreshHz: 120).firstVsync(atOrAfter: 8_333_333) == 1)
        #expect(Display(refreshHz: 60).firstVsync(atOrAfter: -1) == 0)
        #expect(Display(refreshHz: 60).firstVsync(atOrAfter: -16_666_667) == -1)
    }

    @Test("the next commit waits for the frame's intervals and for the render server to be free by the vsync after it")
    func nextCommitTime() {
        var random = Xoshiro256StarStar(seed: 12)
        var accountant = FrameAccountant(display: Display(refreshHz: 120), keepsRecords: true)
        var time: SimTime = 0
        for frame in 0..<5_000 {
            // Rates change under ProMotion; work and render from nothing to
            // several intervals, so both the commit and the render server hold
            // the next frame back.
            let rate = Display(refreshHz: [120, 120, 80, 60][Int(random.next(below: 4))])
            let work = SimTime(random.next(below: 40_000_000))
            let render = SimTime(random.next(below: 25_000_000))
            let record = accountant.recordFrame(
                at: time, work: work, render: render, contentOffset: 0, visible: 0..<1, allocations: 0, rate: rate)
            // The rule, from the record and where the render server ends.
            let start = rate.firstVsync(atOrAfter: record.time)
            let freeVsync = rate.firstVsync(atOrAfter: accountant.renderServerFreeAt)
            let expected = rate.vsyncTime(max(start + Int64(record.intervals), freeVsync - 1))
            #expect(accountant.nextCommitTime == expected, "frame \(frame)")
            time = max(expected, time + SimTime(random.next(below: 30_000_000)))
        }
    }

    @Test("overrun, dropped, jank and hitch on hand-computed frames at 60 Hz")
    func handComputed60() {
        var accountant = FrameAccountant(display: Display(refreshHz: 60), keepsRecords: true)
        // 10 ms: fine. 16,666,667 ns: exactly the budget, not an overrun.
        // 20 ms: overrun, 1 dropped. 40 ms: jank (> 33.33 ms), 2 dropped.
        // 50,000,002 ns (3 budgets + 1 ns): jank, ceil(3.00000006) − 1 = 3 dropped.
        let works: [SimTime] = [10_000_000, 16_666_667, 20_000_000, 40_000_000, 50_000_002]
        for (i, work) in works.enumerated() {
            accountant.recordFrame(
                at: SimTime(i) * 100_000_000, work: work, contentOffset: 0, visible: 0..<1, allocations: 0)
        }
        let summary = accountant.finish()
        #expect(accountant.records.map(\.dropped) == [0, 0, 1, 2, 3])
        #expect(accountant.records.map(\.isOverrun) == [false, false, true, true, true])
        #expect(accountant.records.map(\.isJank) == [false, false, false, true, true])
        #expect(summary.frames == 5)
        #expect(summary.overrunFrames == 3)
        #expect(summary.droppedFrames == 6)
        #expect(summary.jankFrames == 2)
        // Each frame is expected on screen two vsyncs after its start (commit,
        // then render); one whose commit takes k intervals is presented k − 1
        // vsyncs late: the 20, 40 and 50 ms frames, at vsyncs 12, 18 and 24.
        let display = Display(refreshHz: 60)
        let hitchAt12: SimTime = display.vsyncTime(15) - display.vsyncTime(14)
        let hitchAt18: SimTime = display.vsyncTime(22) - display.vsyncTime(20)
        let hitchAt24: SimTime = display.vsyncTime(29) - display.vsyncTime(26)
        let hitch = hitchAt12 + hitchAt18 + hitchAt24
        #expect(summary.hitchTime == hitch)
        #expect(accountant.records.map(\.hitchType) == [.none, .none, .commit, .commit, .commit])
        #expect(summary.commitHitches == 3 && summary.renderHitches == 0)
        #expect(summary.renderingTime == SimTime(1 + 1 + 2 + 3 + 4) * 16_666_667)
        let ratio = (Double(hitch) / 1e6) / (Double(11 * 16_666_667) / 1e9)
        let latencies: [SimTime] = accountant.records.map { (record) -> SimTime in record.presented - record.time }
        let vsyncs: [SimTime] = [2, 2, 3, 4, 5].map { (n: Int64) -> SimTime in display.vsyncTime(n) }
        #expect(latencies == vsyncs)
        #expect(abs(summary.hitchRatioMsPerS - ratio) < 1e-9)
        #expect(summary.workP50 == 20_000_000)
        #expect(summary.workP90 == 50_000_002)
        #expect(summary.workMax == 50_000_002)
    }

    @Test("the same work is a hitch at 120 Hz that fits at 60 Hz")
    func sameWorkBothRates() {
        for (hz, overrun, dropped) in [(60, 0, 0), (120, 1, 1)] {
            var accountant = FrameAccountant(display: Display(refreshHz: hz), keepsRecords: false)
            accountant.recordFrame(at: 0, work: 12_000_000, contentOffset: 0, visible: 0..<0, allocations: 0)
            let summary = accountant.finish()
            #expect(summary.overrunFrames == overrun, "\(hz) Hz")
            #expect(summary.droppedFrames == dropped, "\(hz) Hz")
        }
    }

    @Test("nearest-rank percentiles: the value at rank ⌈p·n⌉, never an interpolation")
    func percentiles() {
        let sorted: [SimTime] = Array(1...100)
        #expect(NearestRank.percentile(sorted, 0.5) == 50)
        #expect(NearestRank.percentile(sorted, 0.9) == 90)
        #expect(NearestRank.percentile(sorted, 0.99) == 99)
        #expect(NearestRank.percentile(sorted, 0.001) == 1)
        #expect(NearestRank.percentile([7], 0.99) == 7)
        #expect(NearestRank.percentile([SimTime](), 0.5) == nil)
        #expect(NearestRank.percentile([1.0, 2.0, 10.0], 0.5) == 2.0)
    }

    @Test(
        "percentiles found by selection are the sorted array's, for every length and shape",
        arguments: ["random", "ascending", "descending", "few distinct", "all equal", "organ pipe"])
    func selectedPercentiles(shape: String) {
        var generator = SplitMix64(seed: 7)
        for count in Array(1...70) + [255, 1_000, 6_513] {
            let values: [SimTime] = (0..<count).map { index in
                switch shape {
                case "random": SimTime(generator.next() % 1_000_000)
                case "ascending": SimTime(index)
                case "descending": SimTime(count - index)
                case "few distinct": SimTime(generator.next() % 3)
                case "all equal": 5
                default: SimTime(min(index, count - index))
                }
            }
            let ps = [0.001, 0.50, 0.90, 0.99, 1.0]
            let sorted = values.sorted()
            let selected = NearestRank.percentilesAndMax(values, ps)
            #expect(
                selected?.percentiles == ps.map { NearestRank.percentile(sorted, $0)! }, "\(shape), \(count) values")
            #expect(selected?.max == sorted.last, "\(shape), \(count) values")
        }
        #expect(NearestRank.percentilesAndMax([SimTime](), [0.5]) == nil)
    }
}
