import FeedEngine
import FeedScenario
import Testing

@testable import FeedSimulator

@Suite("Cost terms")
struct CostTermTests {
    /// Work with every counter a different power of two, so a term that
    /// reads the wrong counter reads a different number.
    static let work: WorkCounters = {
        var work = WorkCounters()
        work.cellsConfigured = 1 << 1
        work.cellsMeasured = 1 << 2
        work.itemsLaidOut = 1 << 3
        work.heightUpdates = 1 << 4
        work.offsetQueries = 1 << 5
        work.diffElements = 1 << 6
        work.changesApplied = 1 << 7
        work.viewModelsCreated = 1 << 8
        work.mainThreadDecodedPixels = 1 << 30
        work.configuredTextCharacters = 1 << 10
        work.configuredMediaItems = 1 << 11
        work.measuredTextCharacters = 1 << 12
        work.measuredMediaItems = 1 << 13
        work.measuredThreadRows = 1 << 14
        work.backgroundResults = 1 << 15
        return work
    }()

    @Test("each term counts the work its trace column names")
    func countsByTraceColumn() {
        let work = CostTermTests.work
        // Written out from the trace columns' meaning, not from the terms.
        let expected: [String: Double] = [
            "frames": 1,
            "cells_configured": Double(work.cellsConfigured),
            "configured_text_characters": Double(work.configuredTextCharacters),
            "configured_media_items": Double(work.configuredMediaItems),
            "cells_measured": Double(work.cellsMeasured),
            "measured_text_characters": Double(work.measuredTextCharacters),
            "measured_media_items": Double(work.measuredMediaItems),
            "measured_thread_rows": Double(work.measuredThreadRows),
            "items_laid_out": Double(work.itemsLaidOut),
            "height_updates": Double(work.heightUpdates),
            "offset_queries": Double(work.offsetQueries),
            "diff_elements": Double(work.diffElements),
            "changes_applied": Double(work.changesApplied),
            "view_models_created": Double(work.viewModelsCreated),
            "decoded_megapixels": Double(work.mainThreadDecodedPixels) / 1_000_000,
            "background_results": Double(work.backgroundResults),
        ]
        #expect(CostTerm.all.count == expected.count)
        for term in CostTerm.all {
            #expect(term.count(work) == expected[term.traceColumn], "\(term.key)")
            #expect(term.count(WorkCounters()) == (term.traceColumn == "frames" ? 1 : 0), "\(term.key)")
        }
    }

    @Test("a commit costs what its terms' counts, costs and draws add up to")
    func commitTimeAddsTheTerms() {
        let unset = CostTable.notModelled
        var costs = CostTable(
            frameBase: unset, cellConfigure: unset, cellMeasure: unset, itemLayout: unset, heightUpdate: unset,
            offsetQuery: unset, diffElement: unset, changeApply: unset, viewModelCreate: unset,
            decodePerMegapixel: unset)
        for (i, term) in CostTerm.all.enumerated() {
            term.setCost(&costs, Rated(value: Double(100 + 37 * i), rationale: "test"))
        }
        let model = CostModel(costs: costs, jitterSigma: 0, seed: 7)
        let work = CostTermTests.work
        var expected = 250.0
        for term in CostTerm.all where !term.isPerCell { expected += term.count(work) * term.cost(costs).value }
        #expect(model.commitTime(for: work, cellTime: 250, vsync: 3) == SimTime(expected.rounded()))
        let parts = model.commitParts(for: work, configureTime: 150, measureTime: 100, vsync: 3)
        #expect(abs(parts.reduce(0) { $0 + $1.nanoseconds } - expected) < 1e-6)
    }
}
