/// A number from a device profile together with why it has that value.
package struct Rated: Sendable, Equatable {
    package var value: Double
    /// One line on where the number comes from.
    package var rationale: String

    package init(value: Double, rationale: String) {
        self.value = value
        self.rationale = rationale
    }
}

/// A modelled device: its screen, its display and what the engine's work
/// costs on its main thread. Lives in `scenarios/devices/<name>.json`.
package struct DeviceProfile: Sendable, Equatable {
    package var name: String
    package var description: String
    /// The fastest refresh rate the display offers; 60 Hz is always offered.
    package var maxRefreshHz: Rated
    package var screenWidthPt: Rated
    package var screenHeightPt: Rated
    package var safeAreaTopPt: Rated
    package var safeAreaBottomPt: Rated
    /// Main-thread cost per unit of engine work, in nanoseconds.
    package var costs: CostTable
    /// σ of the lognormal jitter multiplying every cost (0 turns it off).
    package var costJitterSigma: Rated = Rated(value: 0, rationale: "No jitter: every cost is its mean.")
    /// Whether a 120 Hz display lowers its rate when content is still or
    /// slow (ProMotion), so that frames have the longer 60 Hz budget.
    package var adaptiveRefresh = false
    /// The cores the app's background queues get while it scrolls, and
    /// their speed beside the main thread's (`background` in the file).
    package var background = BackgroundCores.defaults

    package init(
        name: String, description: String, maxRefreshHz: Rated, screenWidthPt: Rated, screenHeightPt: Rated,
        safeAreaTopPt: Rated, safeAreaBottomPt: Rated, costs: CostTable
    ) {
        self.name = name
        self.description = description
        self.maxRefreshHz = maxRefreshHz
        self.screenWidthPt = screenWidthPt
        self.screenHeightPt = screenHeightPt
        self.safeAreaTopPt = safeAreaTopPt
        self.safeAreaBottomPt = safeAreaBottomPt
        self.costs = costs
    }

    /// Refresh rates a scenario may run this device at.
    package var supportedRefreshRates: [Int] {
        Int(maxRefreshHz.value) == 120 ? [60, 120] : [60]
    }
}

/// Main-thread nanoseconds per unit of each kind of work.
package struct CostTable: Sendable, Equatable {
    /// Fixed cost of every rendered frame: layout pass and Core Animation commit.
    package var frameBase: Rated
    package var cellConfigure: Rated
    package var cellMeasure: Rated
    package var itemLayout: Rated
    package var heightUpdate: Rated
    package var offsetQuery: Rated
    package var diffElement: Rated
    package var changeApply: Rated
    package var viewModelCreate: Rated
    /// Decoding an image on the main thread, per megapixel.
    package var decodePerMegapixel: Rated
    /// Content-aware parts of configuring a cell: per character of body text
    /// and per media item laid out. 0 where a profile does not model them.
    package var configurePerTextCharacter: Rated = CostTable.notModelled
    package var configurePerMediaItem: Rated = CostTable.notModelled
    /// Content-aware parts of measuring a cell: per character, per media
    /// item, and per thread row (connector, "show more" row).
    package var measurePerTextCharacter: Rated = CostTable.notModelled
    package var measurePerMediaItem: Rated = CostTable.notModelled
    package var measurePerThreadRow: Rated = CostTable.notModelled
    /// The render server's work per frame: a fixed part, per layer tree of
    /// a visible cell, per image blended, and per offscreen pass (a mask or
    /// shadow that renders into its own buffer first).
    package var renderBase: Rated = CostTable.notModelled
    package var renderPerLayer: Rated = CostTable.notModelled
    package var renderPerImage: Rated = CostTable.notModelled
    package var renderPerOffscreenPass: Rated = CostTable.notModelled
    /// Handing a background job's result back to the main thread and
    /// applying it (a block on the main queue: a precomputed height into
    /// the layout, prepared contents into a cell's layer).
    package var backgroundResult: Rated = CostTable.defaultBackgroundResult
    /// The parts of a cell's work that a quoted record's card and an
    /// external card add, configuring and measuring, beside their text
    /// (charged per character) and their media (per media item). 0 where a
    /// profile does not model them.
    package var configurePerQuote: Rated = CostTable.notModelled
    package var measurePerQuote: Rated = CostTable.notModelled
    package var configurePerExternalCard: Rated = CostTable.notModelled
    package var measurePerExternalCard: Rated = CostTable.notModelled

    /// No source gives the cost of a result handed back to the main queue:
    /// an assumption, 20 µs, a main-queue block and a small layout or layer
    /// update.
    package static let defaultBackgroundResult = Rated(
        value: 20_000,
        rationale:
            "Assumed: a block on the main queue and a small layout or layer update; no source gives a number.")

    /// A cost a profile leaves out.
    package static let notModelled = Rated(value: 0, rationale: "Not modelled by this profile.")

    package init(
        frameBase: Rated, cellConfigure: Rated, cellMeasure: Rated, itemLayout: Rated, heightUpdate: Rated,
        offsetQuery: Rated, diffElement: Rated, changeApply: Rated, viewModelCreate: Rated, decodePerMegapixel: Rated
    ) {
        self.frameBase = frameBase
        self.cellConfigure = cellConfigure
        self.cellMeasure = cellMeasure
        self.itemLayout = itemLayout
        self.heightUpdate = heightUpdate
        self.offsetQuery = offsetQuery
        self.diffElement = diffElement
        self.changeApply = changeApply
        self.viewModelCreate = viewModelCreate
        self.decodePerMegapixel = decodePerMegapixel
    }
}

extension Rated: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case value, rationale
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        value = try c.decode(Double.self, forKey: .value, in: 0...1e12)
        rationale = try c.decodeNonEmptyString(forKey: .rationale)
    }
}

extension DeviceProfile: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case schema_version, name, description, max_refresh_hz, screen, costs_ns, cost_jitter_sigma, adaptive_refresh
        case background
    }

    enum ScreenKeys: String, CodingKey, CaseIterable {
        case width_pt, height_pt, safe_area_top_pt, safe_area_bottom_pt
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let version = try c.decodeNumber(Int.self, forKey: .schema_version)
        guard version == Scenario.schemaVersion else {
            throw c.failure(.schema_version, "expected \(Scenario.schemaVersion), found \(version)")
        }
        name = try c.decodeNonEmptyString(forKey: .name)
        description = try c.decodeNonEmptyString(forKey: .description)
        maxRefreshHz = try c.decode(Rated.self, forKey: .max_refresh_hz)
        guard maxRefreshHz.value == 60 || maxRefreshHz.value == 120 else {
            throw DecodingFailure(
                codingPath: c.codingPath + [Keys.max_refresh_hz, Rated.Keys.value],
                expected: "expected 60 or 120, found \(maxRefreshHz.value)")
        }
        let screen = try c.superDecoder(forKey: .screen)
        let s = try screen.knownFields(ScreenKeys.self)
        screenWidthPt = try s.decode(Rated.self, forKey: .width_pt)
        screenHeightPt = try s.decode(Rated.self, forKey: .height_pt)
        safeAreaTopPt = try s.decode(Rated.self, forKey: .safe_area_top_pt)
        safeAreaBottomPt = try s.decode(Rated.self, forKey: .safe_area_bottom_pt)
        for (key, rated) in [(ScreenKeys.width_pt, screenWidthPt), (.height_pt, screenHeightPt)]
        where !(100...5_000).contains(rated.value) {
            throw DecodingFailure(
                codingPath: s.codingPath + [key, Rated.Keys.value],
                expected: "expected a value in 100...5000 pt, found \(rated.value)")
        }
        guard safeAreaTopPt.value + safeAreaBottomPt.value < screenHeightPt.value / 2 else {
            throw s.failure(.safe_area_bottom_pt, "expected safe areas that leave at least half the screen height")
        }
        costs = try c.decode(CostTable.self, forKey: .costs_ns)
        if c.contains(.cost_jitter_sigma) {
            costJitterSigma = try c.decode(Rated.self, forKey: .cost_jitter_sigma)
            guard costJitterSigma.value <= DeviceProfile.maximumJitterSigma else {
                throw DecodingFailure(
                    codingPath: c.codingPath + [Keys.cost_jitter_sigma, Rated.Keys.value],
                    expected:
                        "expected a value in 0...\(DeviceProfile.maximumJitterSigma), found \(costJitterSigma.value)")
            }
        }
        adaptiveRefresh = try c.decodeIfPresent(Bool.self, forKey: .adaptive_refresh) ?? false
        if adaptiveRefresh, maxRefreshHz.value != 120 {
            throw c.failure(.adaptive_refresh, "expected adaptive refresh only on a 120 Hz display")
        }
        background = try c.decodeIfPresent(BackgroundCores.self, forKey: .background) ?? .defaults
    }

    /// The widest jitter a profile may ask for: σ 1 already puts one cost in
    /// twenty at more than five times its mean.
    static let maximumJitterSigma = 1.0
}

extension CostTable: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case frame_base, cell_configure, cell_measure, item_layout, height_update, offset_query
        case diff_element, change_apply, view_model_create, decode_per_megapixel
        case configure_per_text_character, configure_per_media_item
        case measure_per_text_character, measure_per_media_item, measure_per_thread_row
        case render_base, render_per_layer, render_per_image, render_per_offscreen_pass
        case background_result
        case configure_per_quote, measure_per_quote, configure_per_external_card, measure_per_external_card
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        frameBase = try c.decode(Rated.self, forKey: .frame_base)
        cellConfigure = try c.decode(Rated.self, forKey: .cell_configure)
        cellMeasure = try c.decode(Rated.self, forKey: .cell_measure)
        itemLayout = try c.decode(Rated.self, forKey: .item_layout)
        heightUpdate = try c.decode(Rated.self, forKey: .height_update)
        offsetQuery = try c.decode(Rated.self, forKey: .offset_query)
        diffElement = try c.decode(Rated.self, forKey: .diff_element)
        changeApply = try c.decode(Rated.self, forKey: .change_apply)
        viewModelCreate = try c.decode(Rated.self, forKey: .view_model_create)
        decodePerMegapixel = try c.decode(Rated.self, forKey: .decode_per_megapixel)
        func optional(_ key: Keys) throws -> Rated {
            try c.decodeIfPresent(Rated.self, forKey: key) ?? CostTable.notModelled
        }
        configurePerTextCharacter = try optional(.configure_per_text_character)
        configurePerMediaItem = try optional(.configure_per_media_item)
        measurePerTextCharacter = try optional(.measure_per_text_character)
        measurePerMediaItem = try optional(.measure_per_media_item)
        measurePerThreadRow = try optional(.measure_per_thread_row)
        renderBase = try optional(.render_base)
        renderPerLayer = try optional(.render_per_layer)
        renderPerImage = try optional(.render_per_image)
        renderPerOffscreenPass = try optional(.render_per_offscreen_pass)
        backgroundResult =
            try c.decodeIfPresent(Rated.self, forKey: .background_result) ?? CostTable.defaultBackgroundResult
        configurePerQuote = try optional(.configure_per_quote)
        measurePerQuote = try optional(.measure_per_quote)
        configurePerExternalCard = try optional(.configure_per_external_card)
        measurePerExternalCard = try optional(.measure_per_external_card)
    }
}

/// The device's cores as the app's background queues get them: how many
/// run its work at once, and how fast beside the main thread's core.
package struct BackgroundCores: Sendable, Equatable {
    /// Jobs that run at once.
    package var cores: Rated
    /// Speed beside the main thread's core: a job takes its main-thread
    /// cost divided by this.
    package var speed: Rated

    package init(cores: Rated, speed: Rated) {
        self.cores = cores
        self.speed = speed
    }

    /// Two cores at half the main thread's speed: iPhones since the A11
    /// have two performance and four efficiency cores; while the feed
    /// scrolls, the main thread and the render server hold the performance
    /// cores, and the app's background queues run on efficiency cores,
    /// which run its code at about half the speed (an assumption: Apple
    /// gives no ratio).
    package static let defaults = BackgroundCores(
        cores: Rated(
            value: 2,
            rationale:
                """
                Assumed: two of the four efficiency cores an A-series iPhone has; the main thread and the \
                render server hold the two performance cores while the feed scrolls.
                """),
        speed: Rated(
            value: 0.5,
            rationale: "Assumed: an efficiency core runs app code at about half a performance core's speed."))

    /// The most cores a profile may give: an iPhone has six.
    static let maximumCores = 6.0
    /// The speeds a profile may give, beside the main thread's core: from a
    /// twentieth (a core the system mostly keeps) to four times (a
    /// profile of several cores as one queue).
    static let speeds = 0.05...4.0
}

extension BackgroundCores: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case cores, speed
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        cores = try c.decode(Rated.self, forKey: .cores)
        speed = try c.decode(Rated.self, forKey: .speed)
        guard cores.value == cores.value.rounded(), (1...BackgroundCores.maximumCores).contains(cores.value) else {
            throw DecodingFailure(
                codingPath: c.codingPath + [Keys.cores, Rated.Keys.value],
                expected: "expected a whole number of cores in 1...6, found \(cores.value)")
        }
        guard BackgroundCores.speeds.contains(speed.value) else {
            throw DecodingFailure(
                codingPath: c.codingPath + [Keys.speed, Rated.Keys.value],
                expected: "expected a speed in 0.05...4 (1 is the main thread's core), found \(speed.value)")
        }
    }
}
