/// One rendered frame.
public struct FrameRecord: Sendable, Equatable, Codable {
    /// Index among rendered frames, from 0.
    public var frame: Int
    /// The vsync the frame started at.
    public var time: SimTime
    /// Main-thread work attributed to the frame.
    public var work: SimTime
    public var budget: SimTime
    public var contentOffset: Double
    /// Displayed item range; empty when no item is on screen.
    public var visible: Range<Int>
    /// Engine allocations made during the frame's work.
    public var allocations: UInt64

    /// Work over budget.
    public var isOverrun: Bool { work > budget }
    /// Vsyncs missed because of this frame: `ceil(work / budget) − 1`.
    public var dropped: Int { work <= budget ? 0 : Int((work + budget - 1) / budget) - 1 }
    /// Work over twice the budget (JankStats' default threshold).
    public var isJank: Bool { work > 2 * budget }
    /// Time past the budget: `max(0, work − budget)`.
    public var hitch: SimTime { max(0, work - budget) }
    /// Vsync intervals the frame occupies: at least one.
    public var intervals: Int { 1 + dropped }
}

/// The frame metrics of a run, as DESIGN.md defines them.
public struct FrameSummary: Sendable, Equatable, Codable {
    public var frames = 0
    public var overrunFrames = 0
    public var droppedFrames = 0
    public var jankFrames = 0
    /// Σ max(0, work − budget), in nanoseconds.
    public var hitchTime: SimTime = 0
    /// Vsync intervals spent rendering (Σ intervals × budget), in nanoseconds.
    public var renderingTime: SimTime = 0
    public var workP50: SimTime = 0
    public var workP90: SimTime = 0
    public var workP99: SimTime = 0
    public var workMax: SimTime = 0

    /// Hitch milliseconds per second of rendering (Apple's hitch time ratio:
    /// good < 5, warning 5–10, critical > 10).
    public var hitchRatioMsPerS: Double {
        renderingTime == 0 ? 0 : (Double(hitchTime) / 1e6) / (Double(renderingTime) / 1e9)
    }
}

/// Attributes main-thread work to vsync intervals and keeps the frame records.
///
/// The main thread runs one frame at a time. A frame that starts at vsync k
/// with work w keeps the main thread busy until k + w; every vsync inside
/// that span is missed, and the next frame starts at the first vsync after.
public struct FrameAccountant: Sendable {
    public let display: Display
    /// Whether every frame record is kept (for frames.csv); the summary needs
    /// only the work values.
    public let keepsRecords: Bool
    public private(set) var records: [FrameRecord] = []
    private var works: [SimTime] = []
    private var summary = FrameSummary()
    /// When the main thread is next free.
    public private(set) var mainThreadFreeAt: SimTime = 0

    public init(display: Display, keepsRecords: Bool) {
        self.display = display
        self.keepsRecords = keepsRecords
    }

    /// Whether a frame can start at `time` (the main thread is not busy).
    public func canStartFrame(at time: SimTime) -> Bool { time >= mainThreadFreeAt }

    /// Records a rendered frame starting at `time` and returns it; the main
    /// thread is busy until `time + work`.
    @discardableResult
    public mutating func recordFrame(
        at time: SimTime, work: SimTime, contentOffset: Double, visible: Range<Int>, allocations: UInt64
    ) -> FrameRecord {
        let record = FrameRecord(
            frame: summary.frames, time: time, work: work, budget: display.budget,
            contentOffset: contentOffset, visible: visible, allocations: allocations)
        summary.frames += 1
        if record.isOverrun { summary.overrunFrames += 1 }
        if record.isJank { summary.jankFrames += 1 }
        summary.droppedFrames += record.dropped
        summary.hitchTime += record.hitch
        summary.renderingTime += SimTime(record.intervals) * record.budget
        works.append(work)
        if keepsRecords { records.append(record) }
        mainThreadFreeAt = time + work
        return record
    }

    /// The summary with work percentiles by nearest rank on the sorted works.
    public func finish() -> FrameSummary {
        var result = summary
        let sorted = works.sorted()
        result.workP50 = FrameAccountant.nearestRank(sorted, 0.50)
        result.workP90 = FrameAccountant.nearestRank(sorted, 0.90)
        result.workP99 = FrameAccountant.nearestRank(sorted, 0.99)
        result.workMax = sorted.last ?? 0
        return result
    }

    /// The nearest-rank percentile: the value at rank ⌈p·n⌉ (1-based).
    static func nearestRank(_ sorted: [SimTime], _ p: Double) -> SimTime {
        guard !sorted.isEmpty else { return 0 }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }
}
