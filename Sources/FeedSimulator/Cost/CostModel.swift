import Determinism
import FeedEngine
import FeedScenario

/// Turns the engine's work into time on a device, from the device profile:
/// main-thread time for the app's commit (by `CostTerm`, each cell charged
/// for what it shows) and render-server time for drawing the frame. This,
/// not the host's clock, is what a frame's work is, so runs are the same on
/// every machine.
///
/// Each cost is multiplied by a lognormal jitter with mean 1 and the
/// profile's σ, drawn from a counter-based generator keyed by the run's
/// seed, the vsync, the operation and the item: the same frame always gets
/// the same draws, and a change in one frame moves no other frame's.
///
/// A class, though immutable: its cost table (a number and a rationale per
/// term) is 480 bytes, which a struct copied for every frame's charges.
package final class CostModel: Sendable {
    package let costs: CostTable
    package let jitterSigma: Double
    let seed: UInt64
    /// The terms charged per frame: index in `CostTerm.all`, count and per-unit cost.
    private let frameTerms: [FrameTerm]

    /// Every draw's key starts with the seed, mixed once.
    private let seedKey: CounterRandom.Prefix

    /// What a frame's commit needs of a term, without the term's names: read
    /// every frame, so kept to what charging it reads.
    private struct FrameTerm: Sendable {
        var index: Int
        var counted: CostTerm.Counted
        var cost: Double
    }

    package init(costs: CostTable, jitterSigma: Double = 0, seed: UInt64 = 0) {
        self.costs = costs
        self.jitterSigma = jitterSigma
        self.seed = seed
        seedKey = CounterRandom.Prefix(seed)
        frameTerms = CostTerm.all.enumerated().filter { !$0.element.isPerCell }.map {
            FrameTerm(index: $0.offset, counted: $0.element.counted, cost: $0.element.cost(costs).value)
        }
    }

    /// Keys of the jitter draws that are not a cell's: per-frame terms use
    /// their index in `CostTerm.all` plus this, the render server its own.
    static let frameTermKey: UInt64 = 0x100
    static let renderKey: UInt64 = 0x200
    /// The first word, after the seed, of a background job's draws.
    static let backgroundKey: UInt64 = 0x300

    /// The jitter factor for `operation` on `item` at vsync `vsync`.
    func jitter(vsync: Int64, operation: UInt64, item: UInt64) -> Double {
        jitter(frame: frameKey(vsync), operation: operation, item: item)
    }

    /// The key shared by every draw at vsync `vsync`.
    private func frameKey(_ vsync: Int64) -> CounterRandom.Prefix {
        seedKey.then(UInt64(bitPattern: vsync))
    }

    /// The jitter factor for `operation` on `item` in the frame whose key is `frame`.
    private func jitter(frame: CounterRandom.Prefix, operation: UInt64, item: UInt64) -> Double {
        CounterRandom.lognormalFactor(sigma: jitterSigma, frame, operation, item)
    }

    /// Main-thread nanoseconds of one cell configured or measured at vsync `vsync`.
    package func time(of cell: CellWork, vsync: Int64) -> Double {
        let mean =
            switch cell.kind {
            // Summed left to right as before the content part had a function
            // of its own, so every main-thread cost stays the same double.
            case .configure:
                costs.cellConfigure.value + Double(cell.textCharacters) * costs.configurePerTextCharacter.value
                    + Double(cell.mediaItems) * costs.configurePerMediaItem.value + cardsMean(cell)
            case .measure: measureMean(cell)
            }
        return mean * jitter(vsync: vsync, operation: cell.kind.rawValue, item: cell.postID)
    }

    /// The mean cost of measuring `cell`, on the main thread's core.
    private func measureMean(_ cell: CellWork) -> Double {
        costs.cellMeasure.value
            + Double(cell.textCharacters) * costs.measurePerTextCharacter.value
            + Double(cell.mediaItems) * costs.measurePerMediaItem.value
            + (cell.isThreadRow ? costs.measurePerThreadRow.value : 0) + cardsMean(cell)
    }

    /// The mean cost of the cards `cell` lays out besides its text and
    /// media: a quoted record's and an external card's, configured or
    /// measured as `cell` is.
    private func cardsMean(_ cell: CellWork) -> Double {
        // Adding 0 leaves a sum as it was: cells without cards cost what they did.
        guard !cell.cards.isEmpty else { return 0 }
        let (quote, card) =
            switch cell.kind {
            case .configure: (costs.configurePerQuote.value, costs.configurePerExternalCard.value)
            case .measure: (costs.measurePerQuote.value, costs.measurePerExternalCard.value)
            }
        return (cell.cards.contains(.quote) ? quote : 0) + (cell.cards.contains(.externalCard) ? card : 0)
    }

    /// The mean cost of the content-aware part of configuring `cell`: its
    /// text, its media and its cards.
    private func configuredContentMean(_ cell: CellWork) -> Double {
        Double(cell.textCharacters) * costs.configurePerTextCharacter.value
            + Double(cell.mediaItems) * costs.configurePerMediaItem.value + cardsMean(cell)
    }

    /// Nanoseconds `job` would take on the main thread's core, jitter drawn
    /// for the `sequence`-th job of the run: a height is a cell measured; a
    /// cell's contents are the content-aware part of configuring it (the
    /// cell itself is made on the main thread).
    package func mainThreadTime(of job: BackgroundJob, sequence: UInt64) -> Double {
        let mean =
            switch job.kind {
            case .height: measureMean(job.cell)
            case .display: configuredContentMean(job.cell)
            }
        return mean
            * jitter(
                frame: seedKey.then(CostModel.backgroundKey).then(sequence), operation: job.kind.rawValue,
                item: job.cell.postID)
    }

    /// The commit's main-thread time at vsync `vsync`: the terms counted per
    /// frame in `work`, plus `cellTime`, the cells' own (from `time(of:vsync:)`).
    package func commitTime(for work: WorkCounters, cellTime: Double, vsync: Int64) -> SimTime {
        var ns = cellTime
        let frame = frameKey(vsync)
        for term in frameTerms {
            if let time = termTime(term, in: work, frame: frame) { ns += time }
        }
        return SimTime(ns.rounded())
    }

    /// Term `term`'s nanoseconds for `work` in the frame whose key is
    /// `frame`, jitter drawn; `nil` when the frame did none of its work
    /// (and nothing is drawn).
    private func termTime(_ term: FrameTerm, in work: WorkCounters, frame: CounterRandom.Prefix) -> Double? {
        let count = term.counted.count(in: work)
        guard count > 0 else { return nil }
        return count * term.cost * jitter(frame: frame, operation: CostModel.frameTermKey + UInt64(term.index), item: 0)
    }

    /// The commit's main-thread time at vsync `vsync` by cause, for a
    /// timeline: `frame_base`, then the cells configured and measured
    /// (`configureTime` and `measureTime`, each cell's draws as
    /// `time(of:vsync:)` made them), then every other per-frame term in
    /// `CostTerm.all` order; causes that took no time are left out. The
    /// terms are drawn exactly as `commitTime` draws them, so the parts add
    /// up to it before its rounding to the nanosecond.
    package func commitParts(
        for work: WorkCounters, configureTime: Double, measureTime: Double, vsync: Int64
    ) -> [Timeline.Part] {
        var parts: [Timeline.Part] = []
        parts.reserveCapacity(frameTerms.count + 2)
        let frame = frameKey(vsync)
        for (position, term) in frameTerms.enumerated() {
            if let ns = termTime(term, in: work, frame: frame), ns > 0 {
                parts.append(Timeline.Part(name: CostTerm.all[term.index].key, nanoseconds: ns))
            }
            if position == 0 {
                if configureTime > 0 { parts.append(Timeline.Part(name: "cell_configure", nanoseconds: configureTime)) }
                if measureTime > 0 { parts.append(Timeline.Part(name: "cell_measure", nanoseconds: measureTime)) }
            }
        }
        return parts
    }

    /// What the render server draws in a frame.
    package struct Scene: Sendable, Equatable {
        /// Cells on screen, each its own layer tree.
        package var layers = 0
        /// Images on screen, blended over their cells.
        package var images = 0
        /// Offscreen passes: a rounded-corner mask on each image.
        package var offscreenPasses = 0

        package init(layers: Int = 0, images: Int = 0, offscreenPasses: Int = 0) {
            self.layers = layers
            self.images = images
            self.offscreenPasses = offscreenPasses
        }
    }

    /// The render server's time to prepare and execute `scene` at vsync `vsync`.
    package func renderTime(for scene: Scene, vsync: Int64) -> SimTime {
        let mean =
            costs.renderBase.value + Double(scene.layers) * costs.renderPerLayer.value
            + Double(scene.images) * costs.renderPerImage.value + Double(scene.offscreenPasses)
            * costs.renderPerOffscreenPass.value
        return SimTime((mean * jitter(vsync: vsync, operation: CostModel.renderKey, item: 0)).rounded())
    }
}
