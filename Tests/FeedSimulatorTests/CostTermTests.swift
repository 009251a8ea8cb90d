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
        work.configuredQuotes = 1 << 16
        work.measuredQuotes = 1 << 17
        work.configuredExternalCards = 1 << 18
        work.measuredExternalCards = 1 << 19
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
            "configured_quotes": Double(work.configuredQuotes),
            "measured_quotes": Double(work.measuredQuotes),
            "configured_external_cards": Double(work.configuredExternalCards),
            "measured_external_cards": Double(work.measuredExternalCards),
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

    @Test("a cell with cards costs its quote's and its external card's parts, configured or measured")
    func cardsArePerCellCosts() {
        let unset = CostTable.notModelled
        var costs = CostTable(
            frameBase: unset, cellConfigure: Rated(value: 800, rationale: "test"),
            cellMeasure: Rated(value: 2_500, rationale: "test"), itemLayout: unset, heightUpdate: unset,
            offsetQuery: unset, diffElement: unset, changeApply: unset, viewModelCreate: unset,
            decodePerMegapixel: unset)
        costs.configurePerTextCharacter = Rated(value: 2, rationale: "test")
        costs.measurePerTextCharacter = Rated(value: 4, rationale: "test")
        costs.configurePerQuote = Rated(value: 400, rationale: "test")
        costs.measurePerQuote = Rated(value: 1_000, rationale: "test")
        costs.configurePerExternalCard = Rated(value: 300, rationale: "test")
        costs.measurePerExternalCard = Rated(value: 800, rationale: "test")
        let model = CostModel(costs: costs, jitterSigma: 0, seed: 7)
        func cell(_ kind: CellWork.Kind, _ cards: CellWork.Cards) -> CellWork {
            CellWork(kind: kind, postID: 1, textCharacters: 100, mediaItems: 0, isThreadRow: false, cards: cards)
        }
        #expect(model.time(of: cell(.configure, []), vsync: 1) == 800 + 200)
        #expect(model.time(of: cell(.configure, .quote), vsync: 1) == 800 + 200 + 400)
        #expect(model.time(of: cell(.configure, [.quote, .externalCard]), vsync: 1) == 800 + 200 + 400 + 300)
        #expect(model.time(of: cell(.measure, []), vsync: 1) == 2_500 + 400)
        #expect(model.time(of: cell(.measure, .externalCard), vsync: 1) == 2_500 + 400 + 800)
        #expect(model.time(of: cell(.measure, [.quote, .externalCard]), vsync: 1) == 2_500 + 400 + 1_000 + 800)
        // Off the main thread: a height is a measure, contents the content part of a configure.
        let display = BackgroundJob(kind: .display, cell: cell(.configure, [.quote, .externalCard]))
        #expect(model.mainThreadTime(of: display, sequence: 1) == 200 + 400 + 300)
        let height = BackgroundJob(kind: .height, cell: cell(.measure, .quote))
        #expect(model.mainThreadTime(of: height, sequence: 1) == 2_500 + 400 + 1_000)
        // The four terms are charged cell by cell, not per frame.
        for key in [
            "configure_per_quote", "measure_per_quote", "configure_per_external_card", "measure_per_external_card",
        ] {
            #expect(CostTerm.all.first { $0.key == key }?.isPerCell == true, "\(key)")
        }
    }
}
