import FeedEngine
import FeedScenario

/// Turns the engine's work counters into main-thread time on a device, from
/// the device profile's cost table. This, not the host's clock, is what a
/// frame's work is, so runs are the same on every machine.
public struct CostModel: Sendable, Equatable {
    public let costs: CostTable

    public init(costs: CostTable) {
        self.costs = costs
    }

    /// The fixed main-thread cost of a rendered frame.
    public var frameBase: SimTime { SimTime(costs.frameBase.value.rounded()) }

    /// The main-thread time `work` takes.
    public func mainThreadTime(for work: WorkCounters) -> SimTime {
        var ns = 0.0
        ns += Double(work.cellsConfigured) * costs.cellConfigure.value
        ns += Double(work.cellsMeasured) * costs.cellMeasure.value
        ns += Double(work.itemsLaidOut) * costs.itemLayout.value
        ns += Double(work.heightUpdates) * costs.heightUpdate.value
        ns += Double(work.offsetQueries) * costs.offsetQuery.value
        ns += Double(work.diffElements) * costs.diffElement.value
        ns += Double(work.changesApplied) * costs.changeApply.value
        ns += Double(work.viewModelsCreated) * costs.viewModelCreate.value
        ns += Double(work.mainThreadDecodedPixels) / 1_000_000 * costs.decodePerMegapixel.value
        return SimTime(ns.rounded())
    }
}
