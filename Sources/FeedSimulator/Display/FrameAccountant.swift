/// Why a frame was presented late, in Instruments' Hitches terms.
package enum HitchType: String, Sendable, Equatable, Codable {
    /// On time.
    case none
    /// The app's commit on the main thread missed its deadline.
    case commit
    /// The commit was in time; the render server's prepare and execute were not.
    case render
}

/// One rendered frame.
package struct FrameRecord: Sendable, Equatable, Codable {
    /// Index among rendered frames, from 0.
    package var frame: Int
    /// The vsync the frame started at.
    package var time: SimTime
    /// Main-thread work attributed to the frame: the app's commit.
    package var work: SimTime
    package var budget: SimTime
    package var contentOffset: Double
    /// How far into the first displayed row the top of the readable area
    /// is, in points (negative: the row starts below it): with
    /// `visible.lowerBound`, the reader's place to the point.
    package var pointsIntoFirstRow: Double = 0
    /// Displayed item range; empty when no item is on screen.
    package var visible: Range<Int>
    /// Engine allocations made during the frame's work.
    package var allocations: UInt64
    /// When the render server picked the commit up: the vsync after the
    /// commit's intervals, or later when it was still busy with the frame before.
    package var renderStart: SimTime = 0
    /// The render server's prepare and execute time.
    package var render: SimTime = 0
    /// When the frame reached the screen.
    package var presented: SimTime = 0
    /// How late it was, against double (or, after a render hitch, triple) buffering.
    package var late: SimTime = 0
    package var hitchType: HitchType = .none

    /// Work over budget.
    package var isOverrun: Bool { work > budget }
    /// Vsyncs missed because of this frame: `ceil(work / budget) − 1`.
    package var dropped: Int { work <= budget ? 0 : Int((work + budget - 1) / budget) - 1 }
    /// Work over twice the budget (JankStats' default threshold).
    package var isJank: Bool { work > 2 * budget }
    /// Vsync intervals the frame occupies on the main thread: at least one.
    package var intervals: Int { 1 + dropped }
    /// From the vsync the frame started at to the screen.
    package var latency: SimTime { presented - time }
}

/// A frame travels from a worker to `feedsim run` as an array of its
/// numbers, in the order of the fields, not as an object: a run with
/// `--frames` sends hundreds of thousands of them, and the names of the
/// fields, written and read for every frame, cost more than the numbers.
extension FrameRecord {
    package init(from decoder: any Decoder) throws {
        var c = try decoder.unkeyedContainer()
        frame = try c.decode(Int.self)
        time = try c.decode(SimTime.self)
        work = try c.decode(SimTime.self)
        budget = try c.decode(SimTime.self)
        contentOffset = try c.decode(Double.self)
        pointsIntoFirstRow = try c.decode(Double.self)
        let lower = try c.decode(Int.self), upper = try c.decode(Int.self)
        guard lower <= upper else {
            throw DecodingError.dataCorruptedError(in: c, debugDescription: "a visible range from \(lower) to \(upper)")
        }
        visible = lower..<upper
        allocations = try c.decode(UInt64.self)
        renderStart = try c.decode(SimTime.self)
        render = try c.decode(SimTime.self)
        presented = try c.decode(SimTime.self)
        late = try c.decode(SimTime.self)
        hitchType = try c.decode(HitchType.self)
    }

    package func encode(to encoder: any Encoder) throws {
        var c = encoder.unkeyedContainer()
        try c.encode(frame)
        try c.encode(time)
        try c.encode(work)
        try c.encode(budget)
        try c.encode(contentOffset)
        try c.encode(pointsIntoFirstRow)
        try c.encode(visible.lowerBound)
        try c.encode(visible.upperBound)
        try c.encode(allocations)
        try c.encode(renderStart)
        try c.encode(render)
        try c.encode(presented)
        try c.encode(late)
        try c.encode(hitchType)
    }
}

/// The frame metrics of a run, as docs/design.md ("Metric definitions")
/// and docs/csv-reports.md define them.
package struct FrameSummary: Sendable, Equatable, Codable {
    package var frames = 0
    package var overrunFrames = 0
    package var droppedFrames = 0
    package var jankFrames = 0
    /// Σ of how late frames were presented (Apple's hitch time), in nanoseconds.
    package var hitchTime: SimTime = 0
    /// Vsync intervals spent rendering (Σ intervals × budget), in nanoseconds.
    package var renderingTime: SimTime = 0
    package var workP50: SimTime = 0
    package var workP90: SimTime = 0
    package var workP99: SimTime = 0
    package var workMax: SimTime = 0
    /// Late frames whose commit missed its deadline, and those whose render did.
    package var commitHitches = 0
    package var renderHitches = 0
    /// Nearest-rank percentiles of frame latency (start vsync to screen).
    package var latencyP50: SimTime = 0
    package var latencyP99: SimTime = 0
    /// Σ of the frames' main-thread work (their commits), in nanoseconds.
    package var mainThreadTime: SimTime = 0

    /// Hitch milliseconds per second of rendering (Apple's hitch time ratio:
    /// good < 5, warning 5–10, critical > 10).
    package var hitchRatioMsPerS: Double {
        renderingTime == 0 ? 0 : (Double(hitchTime) / 1e6) / (Double(renderingTime) / 1e9)
    }
}

/// Attributes main-thread work to vsync intervals, runs the render loop and
/// keeps the frame records.
///
/// The main thread runs one frame at a time. A frame that starts at vsync k
/// with commit work w keeps the main thread busy until k + w; every vsync
/// inside that span is missed, and the next frame starts at the first vsync
/// after. The render server takes the commit at the first vsync after it
/// ends (or when it finishes the frame before), prepares and executes it,
/// and the frame is presented at the first vsync after that, one interval
/// after the render started at the earliest. With double buffering a frame
/// is expected on screen two intervals after its start vsync (Apple's render
/// loop: one interval to commit, one to render); a frame presented later is
/// a hitch by how much later, a commit hitch if the commit overran its
/// interval and a render hitch otherwise. After a render hitch the system
/// falls back to triple buffering, expecting frames three intervals after
/// their start, until `tripleBufferingFrames` frames have rendered in time.
/// The render server holds back the app: a commit is started only if the
/// render server will have finished the frame before by the vsync that hands
/// it over (`firstVsyncForNextCommit`), so a slow render delays frames
/// instead of queueing them without end.
package struct FrameAccountant: Sendable {
    package let display: Display
    /// Whether every frame record is kept (for frames.csv); the summary needs
    /// only the work values.
    package let keepsRecords: Bool
    package private(set) var records: [FrameRecord] = []
    private var works: [SimTime] = []
    private var latencies: [SimTime] = []
    /// When the render server is next free.
    package private(set) var renderServerFreeAt: SimTime = 0
    /// Frames left in triple buffering after a render hitch; 0 is double buffering.
    private var tripleBufferingLeft = 0

    /// Frames rendered in time before the system returns from triple to
    /// double buffering: assumed half a second at 60 Hz, the length of a
    /// short animation. Apple describes the fallback (WWDC21 "Explore UI
    /// animation hitches and the render loop") but not its length.
    package static let tripleBufferingFrames = 30
    private var summary = FrameSummary()
    /// When the main thread is next free.
    package private(set) var mainThreadFreeAt: SimTime = 0
    /// The earliest time the main thread may start its next commit after
    /// the last frame recorded, at that frame's rate: once the frame's
    /// intervals are over, and when the render server will be free by the
    /// vsync after it. Worked out with the frame, from the vsyncs it found.
    package private(set) var nextCommitTime: SimTime = 0

    package init(display: Display, keepsRecords: Bool) {
        self.display = display
        self.keepsRecords = keepsRecords
    }

    /// Frames rendered so far: the index the next frame will have.
    package var framesRendered: Int { summary.frames }

    /// Makes room for the frames of `duration` at the display's rate, up to
    /// `reservedFramesLimit`, so a run does not grow its arrays as it goes.
    package mutating func reserveCapacity(forDuration duration: SimTime) {
        let frames = Int(min(max(0, duration / display.budget + 1), SimTime(FrameAccountant.reservedFramesLimit)))
        works.reserveCapacity(frames)
        latencies.reserveCapacity(frames)
        if keepsRecords { records.reserveCapacity(frames) }
    }

    /// The most frames reserved ahead: an hour-long run grows past it
    /// rather than holding every frame's room from its start.
    package static let reservedFramesLimit = 1 << 16

    /// Whether a frame can start at `time` (the main thread is not busy).
    package func canStartFrame(at time: SimTime) -> Bool { time >= mainThreadFreeAt }

    /// Records a rendered frame starting at `time` with `work` on the main
    /// thread (the commit) and `render` on the render server, and returns
    /// it; the main thread is busy until `time + work`. `rate` is the
    /// display rate in force for the frame (ProMotion), by default the
    /// accountant's.
    @discardableResult
    package mutating func recordFrame(
        at time: SimTime, work: SimTime, render: SimTime = 0, contentOffset: Double, pointsIntoFirstRow: Double = 0,
        visible: Range<Int>,
        allocations: UInt64, rate: Display? = nil
    ) -> FrameRecord {
        let display = rate ?? self.display
        var record = FrameRecord(
            frame: summary.frames, time: time, work: work, budget: display.budget,
            contentOffset: contentOffset, pointsIntoFirstRow: pointsIntoFirstRow, visible: visible,
            allocations: allocations)
        // Vsync times are exact; whole intervals are counted in vsyncs, not
        // in the rounded budget.
        let start = display.firstVsync(atOrAfter: time)
        // The commit hands over at the vsync after the intervals it occupies
        // (a commit of exactly one budget is in time, as it is no overrun).
        let renderStartVsync = max(start + Int64(record.intervals), display.firstVsync(atOrAfter: renderServerFreeAt))
        let renderStart = max(display.vsyncTime(renderStartVsync), renderServerFreeAt)
        let renderEnd = renderStart + render
        renderServerFreeAt = renderEnd
        let renderEndVsync = display.firstVsync(atOrAfter: renderEnd)
        let presented = display.vsyncTime(max(renderStartVsync + 1, renderEndVsync))
        nextCommitTime = display.vsyncTime(max(start + Int64(record.intervals), renderEndVsync - 1))
        let buffers: Int64 = tripleBufferingLeft > 0 ? 3 : 2
        record.renderStart = renderStart
        record.render = render
        record.presented = presented
        record.late = max(0, presented - display.vsyncTime(start + buffers))
        if record.late > 0 {
            if record.isOverrun {
                record.hitchType = .commit
                summary.commitHitches += 1
            } else {
                record.hitchType = .render
                summary.renderHitches += 1
            }
        }
        if record.hitchType == .render || render > display.budget {
            tripleBufferingLeft = FrameAccountant.tripleBufferingFrames
        } else if tripleBufferingLeft > 0 {
            tripleBufferingLeft -= 1
        }
        summary.frames += 1
        if record.isOverrun { summary.overrunFrames += 1 }
        if record.isJank { summary.jankFrames += 1 }
        summary.droppedFrames += record.dropped
        summary.hitchTime += record.late
        summary.renderingTime += SimTime(record.intervals) * record.budget
        summary.mainThreadTime += work
        works.append(work)
        latencies.append(record.latency)
        if keepsRecords { records.append(record) }
        mainThreadFreeAt = time + work
        return record
    }

    /// The summary with work percentiles by nearest rank on the sorted works.
    package func finish() -> FrameSummary {
        var result = summary
        // Selected, not sorted: sorting a minute's frames at 120 Hz twice was
        // a thirtieth of a run.
        if let work = NearestRank.percentilesAndMax(works, [0.50, 0.90, 0.99]) {
            result.workP50 = work.percentiles[0]
            result.workP90 = work.percentiles[1]
            result.workP99 = work.percentiles[2]
            result.workMax = work.max
        }
        if let latency = NearestRank.percentilesAndMax(latencies, [0.50, 0.99]) {
            result.latencyP50 = latency.percentiles[0]
            result.latencyP99 = latency.percentiles[1]
        }
        return result
    }

}
