import FeedEngine
import FeedScenario

/// One term of the main-thread cost model: a count of work a frame did and
/// the device's cost per unit of it. `CostTerm.all` is the only list: the
/// cost model charges by it, calibration fits it, and its trace columns are
/// the ones a measured trace must have.
package struct CostTerm: Sendable, Identifiable {
    /// The key under `costs_ns` in a device profile.
    package let key: String
    /// The column of a calibration trace that counts it per frame.
    package let traceColumn: String
    /// What one unit of the count is.
    package let unit: String
    /// The device's cost per unit, in nanoseconds.
    package let cost: @Sendable (CostTable) -> Rated
    /// Sets the device's cost per unit.
    package let setCost: @Sendable (inout CostTable, Rated) -> Void
    /// What the term counts of a frame's work.
    package let counted: Counted

    package var id: String { key }

    /// How many units a frame did.
    package func count(_ work: WorkCounters) -> Double { counted.count(in: work) }

    /// Every term of a frame's main-thread work, `frame_base` first.
    package static let all: [CostTerm] = [
        CostTerm("frame_base", "frames", "rendered frame", \.frameBase, counting: .frame),
        CostTerm("cell_configure", "cells_configured", "cell configured", \.cellConfigure, counting: .cellsConfigured),
        CostTerm(
            "configure_per_text_character", "configured_text_characters", "character of text in a configured cell",
            \.configurePerTextCharacter, counting: .configuredTextCharacters),
        CostTerm(
            "configure_per_media_item", "configured_media_items", "media item in a configured cell",
            \.configurePerMediaItem,
            counting: .configuredMediaItems),
        CostTerm("cell_measure", "cells_measured", "cell measured", \.cellMeasure, counting: .cellsMeasured),
        CostTerm(
            "measure_per_text_character", "measured_text_characters", "character of text in a measured cell",
            \.measurePerTextCharacter, counting: .measuredTextCharacters),
        CostTerm(
            "measure_per_media_item", "measured_media_items", "media item in a measured cell", \.measurePerMediaItem,
            counting: .measuredMediaItems),
        CostTerm(
            "measure_per_thread_row", "measured_thread_rows", "thread row measured", \.measurePerThreadRow,
            counting: .measuredThreadRows),
        CostTerm(
            "item_layout", "items_laid_out", "item placed by a whole-layout pass", \.itemLayout, counting: .itemsLaidOut
        ),
        CostTerm(
            "height_update", "height_updates", "height written into the height index", \.heightUpdate,
            counting: .heightUpdates),
        CostTerm("offset_query", "offset_queries", "offset or index lookup", \.offsetQuery, counting: .offsetQueries),
        CostTerm(
            "diff_element", "diff_elements", "element examined by a diff or the thread tuner", \.diffElement,
            counting: .diffElements),
        CostTerm(
            "change_apply", "changes_applied", "insert, delete, move or reload applied", \.changeApply,
            counting: .changesApplied),
        CostTerm(
            "view_model_create", "view_models_created", "view model built", \.viewModelCreate,
            counting: .viewModelsCreated),
        CostTerm(
            "decode_per_megapixel", "decoded_megapixels", "megapixel decoded on the main thread", \.decodePerMegapixel,
            counting: .mainThreadDecodedMegapixels),
        // The terms from here on were appended, each after the last, so that
        // every term before them keeps its jitter key (its index).
        CostTerm(
            "background_result", "background_results", "background result handed back to the main thread",
            \.backgroundResult, counting: .backgroundResults),
        CostTerm(
            "configure_per_quote", "configured_quotes", "quoted record in a configured cell", \.configurePerQuote,
            counting: .configuredQuotes),
        CostTerm(
            "measure_per_quote", "measured_quotes", "quoted record in a measured cell", \.measurePerQuote,
            counting: .measuredQuotes),
        CostTerm(
            "configure_per_external_card", "configured_external_cards", "external card in a configured cell",
            \.configurePerExternalCard, counting: .configuredExternalCards),
        CostTerm(
            "measure_per_external_card", "measured_external_cards", "external card in a measured cell",
            \.measurePerExternalCard, counting: .measuredExternalCards),
    ]

    init(
        _ key: String, _ traceColumn: String, _ unit: String, _ path: WritableKeyPath<CostTable, Rated> & Sendable,
        counting counted: Counted
    ) {
        self.key = key
        self.traceColumn = traceColumn
        self.unit = unit
        self.cost = { $0[keyPath: path] }
        self.setCost = { $0[keyPath: path] = $1 }
        self.counted = counted
    }

    /// Whether the term is charged cell by cell (so each cell's cost draws
    /// its own jitter), rather than as one count per frame.
    var isPerCell: Bool { CostTerm.perCellKeys.contains(key) }

    static let perCellKeys: Set<String> = [
        "cell_configure", "configure_per_text_character", "configure_per_media_item",
        "cell_measure", "measure_per_text_character", "measure_per_media_item", "measure_per_thread_row",
        "configure_per_quote", "measure_per_quote", "configure_per_external_card", "measure_per_external_card",
    ]
}

extension CostTerm {
    /// A count of a frame's `WorkCounters`: a case, not a closure, because
    /// the cost model reads the per-frame terms' counts every frame, and a
    /// switch costs less than a call through a retained context.
    package enum Counted: Sendable, Equatable {
        /// 1: every rendered frame.
        case frame
        case cellsConfigured
        case configuredTextCharacters
        case configuredMediaItems
        case cellsMeasured
        case measuredTextCharacters
        case measuredMediaItems
        case measuredThreadRows
        case itemsLaidOut
        case heightUpdates
        case offsetQueries
        case diffElements
        case changesApplied
        case viewModelsCreated
        /// Pixels decoded on the main thread, in millions.
        case mainThreadDecodedMegapixels
        case backgroundResults
        case configuredQuotes
        case measuredQuotes
        case configuredExternalCards
        case measuredExternalCards

        /// The count in `work`.
        package func count(in work: WorkCounters) -> Double {
            switch self {
            case .frame: 1
            case .cellsConfigured: Double(work.cellsConfigured)
            case .configuredTextCharacters: Double(work.configuredTextCharacters)
            case .configuredMediaItems: Double(work.configuredMediaItems)
            case .cellsMeasured: Double(work.cellsMeasured)
            case .measuredTextCharacters: Double(work.measuredTextCharacters)
            case .measuredMediaItems: Double(work.measuredMediaItems)
            case .measuredThreadRows: Double(work.measuredThreadRows)
            case .itemsLaidOut: Double(work.itemsLaidOut)
            case .heightUpdates: Double(work.heightUpdates)
            case .offsetQueries: Double(work.offsetQueries)
            case .diffElements: Double(work.diffElements)
            case .changesApplied: Double(work.changesApplied)
            case .viewModelsCreated: Double(work.viewModelsCreated)
            case .mainThreadDecodedMegapixels: Double(work.mainThreadDecodedPixels) / 1_000_000
            case .backgroundResults: Double(work.backgroundResults)
            case .configuredQuotes: Double(work.configuredQuotes)
            case .measuredQuotes: Double(work.measuredQuotes)
            case .configuredExternalCards: Double(work.configuredExternalCards)
            case .measuredExternalCards: Double(work.measuredExternalCards)
            }
        }
    }
}
