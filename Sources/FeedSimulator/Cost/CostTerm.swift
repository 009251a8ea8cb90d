import FeedEngine
import FeedScenario

/// One term of the main-thread cost model: a count of work a frame did and
/// the device's cost per unit of it. `CostTerm.all` is the only list: the
/// cost model charges by it, calibration fits it, and its trace columns are
/// the ones a measured trace must have.
public struct CostTerm: Sendable, Identifiable {
    /// The key under `costs_ns` in a device profile.
    public let key: String
    /// The column of a calibration trace that counts it per frame.
    public let traceColumn: String
    /// What one unit of the count is.
    public let unit: String
    /// The device's cost per unit, in nanoseconds.
    public let cost: @Sendable (CostTable) -> Rated
    /// Sets the device's cost per unit.
    public let setCost: @Sendable (inout CostTable, Rated) -> Void
    /// How many units a frame did.
    public let count: @Sendable (WorkCounters) -> Double

    public var id: String { key }

    /// Every term of a frame's main-thread work, `frame_base` first.
    public static let all: [CostTerm] = [
        CostTerm("frame_base", "frames", "rendered frame", \.frameBase) { _ in 1 },
        CostTerm("cell_configure", "cells_configured", "cell configured", \.cellConfigure) { Double($0.cellsConfigured) },
        CostTerm("configure_per_text_character", "configured_text_characters", "character of text in a configured cell", \.configurePerTextCharacter) {
            Double($0.configuredTextCharacters)
        },
        CostTerm("configure_per_media_item", "configured_media_items", "media item in a configured cell", \.configurePerMediaItem) {
            Double($0.configuredMediaItems)
        },
        CostTerm("cell_measure", "cells_measured", "cell measured", \.cellMeasure) { Double($0.cellsMeasured) },
        CostTerm("measure_per_text_character", "measured_text_characters", "character of text in a measured cell", \.measurePerTextCharacter) {
            Double($0.measuredTextCharacters)
        },
        CostTerm("measure_per_media_item", "measured_media_items", "media item in a measured cell", \.measurePerMediaItem) {
            Double($0.measuredMediaItems)
        },
        CostTerm("measure_per_thread_row", "measured_thread_rows", "thread row measured", \.measurePerThreadRow) {
            Double($0.measuredThreadRows)
        },
        CostTerm("item_layout", "items_laid_out", "item placed by a whole-layout pass", \.itemLayout) { Double($0.itemsLaidOut) },
        CostTerm("height_update", "height_updates", "height written into the height index", \.heightUpdate) { Double($0.heightUpdates) },
        CostTerm("offset_query", "offset_queries", "offset or index lookup", \.offsetQuery) { Double($0.offsetQueries) },
        CostTerm("diff_element", "diff_elements", "element examined by a diff or the thread tuner", \.diffElement) { Double($0.diffElements) },
        CostTerm("change_apply", "changes_applied", "insert, delete, move or reload applied", \.changeApply) { Double($0.changesApplied) },
        CostTerm("view_model_create", "view_models_created", "view model built", \.viewModelCreate) { Double($0.viewModelsCreated) },
        CostTerm("decode_per_megapixel", "decoded_megapixels", "megapixel decoded on the main thread", \.decodePerMegapixel) {
            Double($0.mainThreadDecodedPixels) / 1_000_000
        },
    ]

    init(
        _ key: String, _ traceColumn: String, _ unit: String, _ path: WritableKeyPath<CostTable, Rated> & Sendable,
        count: @escaping @Sendable (WorkCounters) -> Double
    ) {
        self.key = key
        self.traceColumn = traceColumn
        self.unit = unit
        self.cost = { $0[keyPath: path] }
        self.setCost = { $0[keyPath: path] = $1 }
        self.count = count
    }

    /// Whether the term is charged cell by cell (so each cell's cost draws
    /// its own jitter), rather than as one count per frame.
    var isPerCell: Bool { CostTerm.perCellKeys.contains(key) }

    static let perCellKeys: Set<String> = [
        "cell_configure", "configure_per_text_character", "configure_per_media_item",
        "cell_measure", "measure_per_text_character", "measure_per_media_item", "measure_per_thread_row",
    ]
}
