import FeedEngine

/// Nanoseconds in a millisecond and in a second.
let nanosecondsPerMillisecond = 1_000_000.0
let nanosecondsPerSecond = 1_000_000_000.0

/// The longest run a scenario may ask for, in seconds (a day of simulated use).
let maximumDurationSeconds = 86_400.0
/// The most posts a synthetic feed may start with.
let maximumPostCount = 1_000_000
/// The fastest fling accepted, in points per second (far beyond a human flick,
/// which tops out near 20,000 pt/s).
let maximumFlingVelocity = 100_000.0

extension Scenario: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case schema_version, name, description, device, refresh_rates_hz, seed, duration_s
        case feed, server, engine, variants, script, limits, memory, lifecycle, network
    }

    /// The display refresh rates a scenario may ask for, in hertz.
    static let refreshRates = [60, 120]

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let version = try c.decodeNumber(Int.self, forKey: .schema_version)
        guard version == Scenario.schemaVersion else {
            throw c.failure(.schema_version, "expected \(Scenario.schemaVersion), found \(version)")
        }
        name = try c.decodeName(forKey: .name, per: Scenario.schema)
        description = try c.decodeNonEmptyString(forKey: .description)
        device = try c.decodeNonEmptyString(forKey: .device)
        do {
            refreshRatesHz = try c.decodeIfPresent([Int].self, forKey: .refresh_rates_hz) ?? []
        } catch let error as DecodingError {
            guard case .dataCorrupted = error else { throw error }
            throw c.failure(.refresh_rates_hz, "expected an array of whole numbers (60 or 120)")
        } catch {
            throw c.failure(.refresh_rates_hz, "expected an array of whole numbers (60 or 120)")
        }
        var seen: [Int] = []
        for (i, rate) in refreshRatesHz.enumerated() {
            let path = c.codingPath + [Keys.refresh_rates_hz, AnyCodingKey(intValue: i)]
            guard Scenario.refreshRates.contains(rate) else {
                throw DecodingFailure(codingPath: path, expected: "expected 60 or 120, found \(rate)")
            }
            guard !seen.contains(rate) else {
                throw DecodingFailure(codingPath: path, expected: "expected each rate once, found \(rate) twice")
            }
            seen.append(rate)
        }
        seed = try c.decodeNumberIfPresent(UInt64.self, forKey: .seed) ?? Scenario.defaultSeed
        let seconds = try c.decode(Double.self, forKey: .duration_s, per: Scenario.schema)
        durationNs = Int64((seconds * nanosecondsPerSecond).rounded())
        feed = try c.decode(FeedSettings.self, forKey: .feed)
        server = try c.decodeIfPresent(ServerSettings.self, forKey: .server) ?? ServerSettings.defaults
        engine =
            c.contains(.engine)
            ? try EngineSettings.decode(from: c.superDecoder(forKey: .engine), base: .defaults, named: false).settings
            : .defaults
        variants = []
        if c.contains(.variants) {
            var list = try c.nestedUnkeyedContainer(forKey: .variants)
            while !list.isAtEnd {
                let decoded = try EngineSettings.decode(from: list.superDecoder(), base: engine, named: true)
                let name = decoded.name ?? ""
                if variants.contains(where: { $0.name == name }) {
                    throw DecodingFailure(
                        codingPath: c.codingPath + [
                            Keys.variants, AnyCodingKey(intValue: variants.count), EngineSettings.Keys.name,
                        ],
                        expected: "expected a name no other variant uses, found \"\(name)\" twice")
                }
                variants.append(EngineVariant(name: name, engine: decoded.settings, network: decoded.network))
            }
            guard !variants.isEmpty else {
                throw c.failure(.variants, "expected at least one variant, or no `variants` field")
            }
        }
        let written = try c.decodeIfPresent([ScriptStep].self, forKey: .script) ?? []
        // Both totals are checked before anything is expanded: a few lines of
        // JSON can ask for billions of repetitions.
        var steps = 0
        var posts = feed.postCount
        for (i, step) in written.enumerated() {
            steps += step.repeatCount
            guard steps <= ScriptStep.maximumExpandedSteps else {
                throw DecodingFailure(
                    codingPath: c.codingPath + [Keys.script, AnyCodingKey(intValue: i)],
                    expected:
                        """
                        expected at most \(ScriptStep.maximumExpandedSteps) steps in the script counting every \
                        repetition, found \(steps) by this step
                        """
                )
            }
            if case let .newPosts(count, _) = step.action {
                posts += count * step.repeatCount
                guard posts <= maximumPostCount else {
                    throw DecodingFailure(
                        codingPath: c.codingPath + [Keys.script, AnyCodingKey(intValue: i), ScriptStep.Keys.count],
                        expected:
                            """
                            expected at most \(maximumPostCount) posts over the run (feed.post_count and every \
                            new_posts count times its repetitions), found \(posts) by this step
                            """
                    )
                }
            }
        }
        // As written: a run performs every repetition (`expandedScript`).
        script = written
        limits = try c.decodeIfPresent(RunLimits.self, forKey: .limits) ?? RunLimits.defaults
        memory = try c.decodeIfPresent(MemorySettings.self, forKey: .memory) ?? .defaults
        lifecycle = try c.decodeIfPresent(LifecycleSettings.self, forKey: .lifecycle) ?? .defaults
        network = try c.decodeIfPresent(NetworkSettings.self, forKey: .network) ?? .defaults

        for (i, step) in written.enumerated() where step.lastNs >= durationNs {
            let key = step.repeatCount > 1 ? ScriptStep.Keys.repeat : ScriptStep.Keys.at_ms
            throw DecodingFailure(
                codingPath: c.codingPath + [Keys.script, AnyCodingKey(intValue: i), key],
                expected:
                    """
                    expected every repetition before the end of the run (\(seconds) s), found one at \
                    \(Double(step.lastNs) / nanosecondsPerMillisecond) ms
                    """
            )
        }
        for i in written.indices.dropFirst() where written[i].atNs < written[i - 1].atNs {
            throw DecodingFailure(
                codingPath: c.codingPath + [Keys.script, AnyCodingKey(intValue: i), ScriptStep.Keys.at_ms],
                expected: "expected steps in time order; this one starts before the step above it")
        }
        guard durationNs <= limits.maxSimulatedNs else {
            throw c.failure(
                .duration_s,
                """
                expected at most limits.max_simulated_s (\(Double(limits.maxSimulatedNs) / nanosecondsPerSecond) \
                s), found \(seconds) s
                """
            )
        }
    }
}

extension FeedSettings: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case post_count, text_length, media_fraction, reply_fraction, repost_fraction, page_size, load_more_threshold
        case media_size_known_fraction, item_height_pt
        case quote_fraction, external_card_fraction
        case from
        case `repeat`
    }

    /// The tallest cell a scenario may fix, in points (a screen is under 1,400 pt).
    static let maximumItemHeight = 10_000.0

    enum RangeKeys: String, CodingKey, CaseIterable {
        case min, max
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        postCount = try c.decode(Int.self, forKey: .post_count, per: FeedSettings.schema)
        if c.contains(.text_length) {
            let r = try c.superDecoder(forKey: .text_length)
            let rc = try r.knownFields(RangeKeys.self)
            let low = try rc.decode(Int.self, forKey: .min, per: FeedSettings.textLengthSchema)
            let high = try rc.decode(Int.self, forKey: .max, per: FeedSettings.textLengthSchema)
            guard low <= high else { throw rc.failure(.max, "expected max >= min (\(low)), found \(high)") }
            textLength = low...high
        } else {
            textLength = FeedSettings.defaultTextLength
        }
        mediaFraction = try c.decode(
            Double.self, forKey: .media_fraction, per: FeedSettings.schema, default: FeedSettings.defaultMediaFraction)
        replyFraction = try c.decode(
            Double.self, forKey: .reply_fraction, per: FeedSettings.schema, default: FeedSettings.defaults.replyFraction
        )
        repostFraction = try c.decode(
            Double.self, forKey: .repost_fraction, per: FeedSettings.schema,
            default: FeedSettings.defaults.repostFraction)
        pageSize = try c.decode(
            Int.self, forKey: .page_size, per: FeedSettings.schema, default: FeedSettings.defaults.pageSize)
        loadMoreThreshold = try c.decode(
            Int.self, forKey: .load_more_threshold, per: FeedSettings.schema,
            default: FeedSettings.defaults.loadMoreThreshold)
        mediaSizeKnownFraction = try c.decode(
            Double.self, forKey: .media_size_known_fraction, per: FeedSettings.schema,
            default: FeedSettings.defaults.mediaSizeKnownFraction)
        itemHeight = try FeedSettings.decodeItemHeight(c)
        quoteFraction = try c.decode(
            Double.self, forKey: .quote_fraction, per: FeedSettings.schema, default: FeedSettings.defaults.quoteFraction
        )
        externalCardFraction = try c.decode(
            Double.self, forKey: .external_card_fraction, per: FeedSettings.schema,
            default: FeedSettings.defaults.externalCardFraction)
        if itemHeight != .content {
            // A fixed-size card's height ignores what it shows, so it shows no card of its own.
            for key in [Keys.quote_fraction, .external_card_fraction] where c.contains(key) {
                throw c.failure(
                    key, "expected no `\(key.rawValue)` with `item_height_pt`: fixed-height cells show no cards")
            }
        }
        if c.contains(.from) {
            imported = ImportedFeedSource(
                path: try c.decodeNonEmptyString(forKey: .from),
                repeats: try c.decodeIfPresent(Bool.self, forKey: .repeat) ?? false,
                pagedAsCaptured: !c.contains(.page_size))
        } else if c.contains(.repeat) {
            throw c.failure(.repeat, "expected `repeat` only with `from`, an imported feed to repeat")
        }
    }

    /// `item_height_pt` is a number (every cell that tall) or `{min, max}`
    /// (each cell drawn from the range); absent, heights follow the content.
    private static func decodeItemHeight(_ c: KeyedFields<Keys>) throws -> ItemHeight {
        guard c.contains(.item_height_pt) else { return .content }
        if (try? c.decode(Double.self, forKey: .item_height_pt)) != nil {
            return .fixed(try c.decode(Double.self, forKey: .item_height_pt, per: FeedSettings.schema))
        }
        guard let r = try? c.superDecoder(forKey: .item_height_pt),
            (try? r.fields(AnyCodingKey.self)) != nil
        else {
            throw c.failure(.item_height_pt, "expected a number of points or an object {min, max}")
        }
        let rc = try r.knownFields(RangeKeys.self)
        let low = try rc.decode(Double.self, forKey: .min, per: FeedSettings.itemHeightRangeSchema)
        let high = try rc.decode(Double.self, forKey: .max, per: FeedSettings.itemHeightRangeSchema)
        guard low <= high else { throw rc.failure(.max, "expected max >= min (\(low)), found \(high)") }
        return low == high ? .fixed(low) : .uniform(low...high)
    }

    /// Body text lengths when a scenario names none: short-form social posts
    /// (300 characters is Bluesky's limit).
    package static let defaultTextLength = 0...300
    /// Share of posts with media when a scenario names none.
    package static let defaultMediaFraction = 0.4
}

extension MemorySettings: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case limit_mb, baseline_mb, per_post_kb, warning_fraction, critical_fraction
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let d = MemorySettings.defaults
        let megabyte = Double(1 << 20)
        limitBytes = Int64(
            try c.decode(
                Double.self, forKey: .limit_mb, per: MemorySettings.schema, default: Double(d.limitBytes) / megabyte)
                * megabyte)
        baselineBytes = Int64(
            try c.decode(
                Double.self, forKey: .baseline_mb, per: MemorySettings.schema,
                default: Double(d.baselineBytes) / megabyte) * megabyte)
        bytesPerPost = Int64(
            try c.decode(
                Double.self, forKey: .per_post_kb, per: MemorySettings.schema, default: Double(d.bytesPerPost) / 1024)
                * 1024)
        warningFraction = try c.decode(
            Double.self, forKey: .warning_fraction, per: MemorySettings.schema, default: d.warningFraction)
        criticalFraction = try c.decode(
            Double.self, forKey: .critical_fraction, per: MemorySettings.schema, default: d.criticalFraction)
        guard criticalFraction >= warningFraction else {
            throw c.failure(
                .critical_fraction, "expected at least warning_fraction (\(warningFraction)), found \(criticalFraction)"
            )
        }
        guard baselineBytes < limitBytes else {
            throw c.failure(.baseline_mb, "expected less than limit_mb, found \(Double(baselineBytes) / megabyte)")
        }
    }
}

extension LifecycleSettings: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case keep_under_s, check_under_s, restore_max_age_s, cold_start_ms
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let d = LifecycleSettings.defaults
        /// `key`'s duration in nanoseconds, written in units of `unit` ns.
        func duration(_ key: Keys, default value: Int64, unit: Double) throws -> Int64 {
            Int64(
                try c.decode(Double.self, forKey: key, per: LifecycleSettings.schema, default: Double(value) / unit)
                    * unit)
        }
        keepUnderNs = try duration(.keep_under_s, default: d.keepUnderNs, unit: nanosecondsPerSecond)
        checkUnderNs = try duration(.check_under_s, default: d.checkUnderNs, unit: nanosecondsPerSecond)
        guard checkUnderNs >= keepUnderNs else {
            throw c.failure(
                .check_under_s, "expected at least keep_under_s, found \(Double(checkUnderNs) / nanosecondsPerSecond) s"
            )
        }
        restoreMaxAgeNs = try duration(.restore_max_age_s, default: d.restoreMaxAgeNs, unit: nanosecondsPerSecond)
        coldStartNs = try duration(.cold_start_ms, default: d.coldStartNs, unit: nanosecondsPerMillisecond)
    }
}

extension NetworkSettings: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case profile, latency, jitter_ms, downlink_kbps, uplink_kbps, loss_rate, timeout_ms
        case max_retries, backoff_ms, backoff_multiplier, offline, from
    }

    enum WindowKeys: String, CodingKey, CaseIterable {
        case from_s, to_s
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let d = NetworkSettings.defaults
        profile = c.contains(.profile) ? try c.decode(String.self, forKey: .profile) : d.profile
        guard NetworkSettings.profileNames.contains(profile) else {
            let names = NetworkSettings.profileNames.map { "\"\($0)\"" }.joined(separator: ", ")
            throw c.failure(.profile, "expected one of \(names), found \"\(profile)\"")
        }
        latency = c.contains(.latency) ? try LatencyDistribution.decode(from: c.superDecoder(forKey: .latency)) : nil
        jitterMs =
            c.contains(.jitter_ms) ? try c.decode(Double.self, forKey: .jitter_ms, per: NetworkSettings.schema) : nil
        downlinkKbps =
            c.contains(.downlink_kbps)
            ? try c.decode(Int.self, forKey: .downlink_kbps, per: NetworkSettings.schema) : nil
        uplinkKbps =
            c.contains(.uplink_kbps) ? try c.decode(Int.self, forKey: .uplink_kbps, per: NetworkSettings.schema) : nil
        lossRate =
            c.contains(.loss_rate) ? try c.decode(Double.self, forKey: .loss_rate, per: NetworkSettings.schema) : nil
        timeoutMs =
            c.contains(.timeout_ms) ? try c.decode(Double.self, forKey: .timeout_ms, per: NetworkSettings.schema) : nil
        maxRetries = try c.decode(Int.self, forKey: .max_retries, per: NetworkSettings.schema, default: d.maxRetries)
        backoffBaseMs = try c.decode(
            Double.self, forKey: .backoff_ms, per: NetworkSettings.schema, default: d.backoffBaseMs)
        backoffMultiplier = try c.decode(
            Double.self, forKey: .backoff_multiplier, per: NetworkSettings.schema, default: d.backoffMultiplier)
        from = c.contains(.from) ? try c.decode(String.self, forKey: .from) : nil
        if let from, from.isEmpty { throw c.failure(.from, "expected the path of a NETWORK.json, found \"\"") }
        imported = nil
        offlineWindows = []
        if c.contains(.offline) {
            var list = try c.nestedUnkeyedContainer(forKey: .offline)
            while !list.isAtEnd {
                let window = try list.superDecoder()
                let w = try window.knownFields(WindowKeys.self)
                let from = try w.decode(Double.self, forKey: .from_s, per: NetworkSettings.offlineWindowSchema)
                let to = try w.decode(Double.self, forKey: .to_s, per: NetworkSettings.offlineWindowSchema)
                guard to > from else {
                    throw w.failure(.to_s, "expected a time after from_s (\(from) s), found \(to) s")
                }
                offlineWindows.append(
                    Int64((from * nanosecondsPerSecond).rounded())..<Int64((to * nanosecondsPerSecond).rounded()))
            }
        }
    }
}

extension LatencyDistribution {
    enum Keys: String, CodingKey, CaseIterable {
        case distribution, ms, min_ms, max_ms, mean_ms, std_dev_ms, median_ms, sigma, scale_ms, shape
    }

    enum Kind: String, CaseIterable {
        case constant, uniform, normal, lognormal, pareto
    }

    static func decode(from decoder: any Decoder) throws -> LatencyDistribution {
        let c = try decoder.knownFields(Keys.self)
        let kind = try c.decode(Kind.self, forKey: .distribution)
        let fields = LatencyDistribution.schema.branch(kind.rawValue)
        let allowed = fields.fields.compactMap { Keys(rawValue: $0.name) }
        for key in Keys.allCases where key != .distribution && c.contains(key) && !allowed.contains(key) {
            throw c.failure(
                key,
                """
                unknown field `\(key.rawValue)` for a \(kind.rawValue) distribution; expected: \
                \(allowed.map(\.rawValue).joined(separator: ", "))
                """
            )
        }
        switch kind {
        case .constant:
            return .constant(ms: try c.decode(Double.self, forKey: .ms, per: fields))
        case .uniform:
            let low = try c.decode(Double.self, forKey: .min_ms, per: fields)
            let high = try c.decode(Double.self, forKey: .max_ms, per: fields)
            guard high >= low else { throw c.failure(.max_ms, "expected max_ms >= min_ms (\(low)), found \(high)") }
            return .uniform(minMs: low, maxMs: high)
        case .normal:
            return .normal(
                meanMs: try c.decode(Double.self, forKey: .mean_ms, per: fields),
                stdDevMs: try c.decode(Double.self, forKey: .std_dev_ms, per: fields))
        case .lognormal:
            return .lognormal(
                medianMs: try c.decode(Double.self, forKey: .median_ms, per: fields),
                sigma: try c.decode(Double.self, forKey: .sigma, per: fields))
        case .pareto:
            return .pareto(
                scaleMs: try c.decode(Double.self, forKey: .scale_ms, per: fields),
                shape: try c.decode(Double.self, forKey: .shape, per: fields))
        }
    }
}

extension ServerSettings: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case latency_ms, like_failure_rate
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let latencyMs = try c.decode(
            Double.self, forKey: .latency_ms, per: ServerSettings.schema, default: ServerSettings.defaultLatencyMs)
        latencyNs = Int64((latencyMs * nanosecondsPerMillisecond).rounded())
        likeFailureRate = try c.decode(
            Double.self, forKey: .like_failure_rate, per: ServerSettings.schema,
            default: ServerSettings.defaults.likeFailureRate)
    }
}

extension EngineSettings {
    enum Keys: String, CodingKey, CaseIterable {
        case name
        case estimated_item_height_pt, host, position_strategy, diff_algorithm, debounce_ms
        case viewmodel_cache_count, viewmodel_cache_cost_bytes, new_posts_policy
        case hide_replies, hide_reposts, refresh_trigger_pt, memory_warning_policy
        case image_decode, image_memory_cache_mb, image_disk_cache_mb, image_prefetch_window
        case image_prefetch, page_prefetch, load_more_threshold
        case row_retention, row_kept_updates, row_view_kb, spare_time_prefetch_rows, row_observation
        case layout_strategy
        case network
    }

    /// The engine configuration when a scenario names none.
    package static let defaults = EngineSettings()

    /// Decodes engine fields over `base`; a variant (`named`) also has a name.
    static func decode(
        from decoder: any Decoder, base: EngineSettings, named: Bool
    ) throws -> (name: String?, settings: EngineSettings, network: NetworkSettings?) {
        let c = try decoder.knownFields(Keys.self)
        var name: String? = nil
        if named {
            name = try c.decodeName(forKey: .name, per: EngineVariant.schema)
        } else if c.contains(.name) {
            throw c.failure(.name, "unknown field `name`; only a variant has a name")
        } else if c.contains(.network) {
            throw c.failure(
                .network, "unknown field `network` in engine; the network is set at the top level or per variant")
        }
        let network = named && c.contains(.network) ? try c.decode(NetworkSettings.self, forKey: .network) : nil
        var s = base
        s.estimatedItemHeightPt = try c.decode(
            Double.self, forKey: .estimated_item_height_pt, per: EngineSettings.schema,
            default: base.estimatedItemHeightPt)
        s.host = try c.decode(FeedHost.self, forKey: .host, default: base.host)
        s.positionStrategy = try c.decodePart(forKey: .position_strategy, default: base.positionStrategy)
        if !s.positionStrategy.hosts.contains(s.host) {
            // A SwiftUI host named without a strategy gets SwiftUI's own
            // behaviour; a strategy named that cannot exist there is refused.
            if !c.contains(.position_strategy), s.host.isSwiftUI {
                s.positionStrategy = .swiftUIDefault
            } else {
                let possible = PositionStrategy.known.filter { $0.hosts.contains(s.host) }.map { "`\($0.name)`" }
                throw c.failure(
                    c.contains(.position_strategy) ? .position_strategy : .host,
                    "position strategy `\(s.positionStrategy.name)` cannot exist in host `\(s.host.rawValue)`, only in "
                        + s.positionStrategy.hosts.map { "`\($0.rawValue)`" }.joined(separator: ", ")
                        + "; in `\(s.host.rawValue)` use one of: \(possible.joined(separator: ", "))")
            }
        }
        s.diffAlgorithm = try c.decode(DiffAlgorithm.self, forKey: .diff_algorithm, default: base.diffAlgorithm)
        let debounceMs = try c.decode(
            Double.self, forKey: .debounce_ms, per: EngineSettings.schema,
            default: Double(base.debounceNs) / nanosecondsPerMillisecond)
        s.debounceNs = Int64((debounceMs * nanosecondsPerMillisecond).rounded())
        s.viewModelCacheCount = try c.decode(
            Int.self, forKey: .viewmodel_cache_count, per: EngineSettings.schema, default: base.viewModelCacheCount)
        s.viewModelCacheCostBytes = try c.decode(
            Int.self, forKey: .viewmodel_cache_cost_bytes, per: EngineSettings.schema,
            default: base.viewModelCacheCostBytes)
        s.newPostsPolicy = try c.decode(NewPostsPolicy.self, forKey: .new_posts_policy, default: base.newPostsPolicy)
        s.hideReplies = try c.decodeIfPresent(Bool.self, forKey: .hide_replies) ?? base.hideReplies
        s.hideReposts = try c.decodeIfPresent(Bool.self, forKey: .hide_reposts) ?? base.hideReposts
        s.refreshTriggerPt = try c.decode(
            Double.self, forKey: .refresh_trigger_pt, per: EngineSettings.schema, default: base.refreshTriggerPt)
        s.memoryWarningPolicy = try c.decode(
            MemoryWarningPolicy.self, forKey: .memory_warning_policy, default: base.memoryWarningPolicy)
        s.imageDecode = try c.decode(ImageDecodeSetting.self, forKey: .image_decode, default: base.imageDecode)
        let megabyte = Double(1 << 20)
        s.imageMemoryCacheBytes = Int(
            try c.decode(
                Double.self, forKey: .image_memory_cache_mb, per: EngineSettings.schema,
                default: Double(base.imageMemoryCacheBytes) / megabyte) * megabyte)
        s.imageDiskCacheBytes = Int(
            try c.decode(
                Double.self, forKey: .image_disk_cache_mb, per: EngineSettings.schema,
                default: Double(base.imageDiskCacheBytes) / megabyte) * megabyte)
        s.imagePrefetchWindow = try c.decode(
            Int.self, forKey: .image_prefetch_window, per: EngineSettings.schema, default: base.imagePrefetchWindow)
        s.imagePrefetch = try c.decodePart(forKey: .image_prefetch, default: base.imagePrefetch)
        s.pagePrefetch = try c.decodePart(forKey: .page_prefetch, default: base.pagePrefetch)
        if c.contains(.load_more_threshold) {
            s.loadMoreThreshold = try c.decode(
                Int.self, forKey: .load_more_threshold, per: EngineSettings.schema, default: 0)
        }
        s.rowRetention = try c.decode(RowRetention.self, forKey: .row_retention, default: base.rowRetention)
        s.rowKeptUpdates = try c.decode(
            Int.self, forKey: .row_kept_updates, per: EngineSettings.schema, default: base.rowKeptUpdates)
        s.rowViewBytes =
            try c.decode(Int.self, forKey: .row_view_kb, per: EngineSettings.schema, default: base.rowViewBytes >> 10)
            << 10
        s.spareTimePrefetchRows = try c.decode(
            Int.self, forKey: .spare_time_prefetch_rows, per: EngineSettings.schema, default: base.spareTimePrefetchRows
        )
        s.rowObservation = try c.decode(RowObservation.self, forKey: .row_observation, default: base.rowObservation)
        s.layoutStrategy = try c.decodePart(forKey: .layout_strategy, default: base.layoutStrategy)
        return (name, s, network)
    }
}

extension RunLimits: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case max_events, max_simulated_s
    }

    package static let defaults = RunLimits(
        maxEvents: defaultMaxEvents,
        maxSimulatedNs: Int64(defaultMaxSimulatedSeconds * nanosecondsPerSecond))

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        maxEvents = try c.decode(
            Int.self, forKey: .max_events, per: RunLimits.schema, default: RunLimits.defaultMaxEvents)
        let seconds = try c.decode(
            Double.self, forKey: .max_simulated_s, per: RunLimits.schema, default: RunLimits.defaultMaxSimulatedSeconds)
        maxSimulatedNs = Int64((seconds * nanosecondsPerSecond).rounded())
    }
}

extension ScriptStep: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case at_ms, action, `repeat`
        case distance_pt, duration_ms, trajectory, release, deceleration
        case velocity_pt_s, count, delivery, width_pt, height_pt, scale, duration_s, relaunch_after_s
        case offset_pt, post_index, into_post_pt, animated, hold_ms, `where`
    }

    /// The farthest a `pull` may stretch the content past the top, in points:
    /// the rubber band never reaches the viewport's height, and a phone's is
    /// at least this.
    static let maximumPullDistance = 500.0

    enum PointKeys: String, CodingKey, CaseIterable {
        case t_ms, dy_pt
    }

    enum RepeatKeys: String, CodingKey, CaseIterable {
        case count, every_ms
    }

    /// The most steps a script may expand to, repetitions counted. Each
    /// step is work for the engine: a like re-diffs and re-tunes the loaded
    /// feed, about 1 ms in a release build, so 100,000 of them ran for more
    /// than four minutes. At this bound the dearest script takes seconds,
    /// and a longer one is refused at load, before expanding costs memory.
    static let maximumExpandedSteps = 10_000

    /// The most repetitions one step may ask for: all of them.
    static let maximumRepeatCount = maximumExpandedSteps

    enum Delivery: String, CaseIterable {
        case push, server
    }

    /// The fields each action may carry besides `at_ms`, `action` and `repeat`:
    /// its branch of the schema's table.
    static func allowedKeys(for action: ScriptAction.Kind) -> [Keys] {
        fields(of: action).fields.compactMap { Keys(rawValue: $0.name) }
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let atMs = try c.decode(Double.self, forKey: .at_ms, per: ScriptStep.schema)
        atNs = Int64((atMs * nanosecondsPerMillisecond).rounded())
        let kind = try c.decode(ScriptAction.Kind.self, forKey: .action)
        let fields = ScriptStep.fields(of: kind)
        let allowed = ScriptStep.allowedKeys(for: kind) + [.at_ms, .action, .repeat]
        for key in Keys.allCases where c.contains(key) && !allowed.contains(key) {
            let expected = allowed.map(\.rawValue).joined(separator: ", ")
            throw c.failure(key, "unknown field `\(key.rawValue)` for a \(kind.rawValue); expected one of: \(expected)")
        }
        let deceleration = try c.decode(DecelerationRate.self, forKey: .deceleration, default: .normal)
        switch kind {
        case .refresh: action = .refresh
        case .tap_new_posts: action = .tapNewPosts
        case .scroll_to_top: action = .scrollToTop
        case .like: action = .like
        case .new_posts:
            let count = try c.decode(Int.self, forKey: .count, per: fields)
            let delivery = try c.decode(Delivery.self, forKey: .delivery, default: .push)
            action = .newPosts(count: count, push: delivery == .push)
        case .content_updates:
            action = .contentUpdates(count: try c.decode(Int.self, forKey: .count, per: fields))
        case .rotate:
            action = .rotate(
                widthPt: try c.decode(Double.self, forKey: .width_pt, per: fields),
                heightPt: try c.decode(Double.self, forKey: .height_pt, per: fields))
        case .text_size:
            action = .textSize(scale: try c.decode(Double.self, forKey: .scale, per: fields))
        case .background:
            let seconds = try c.decode(Double.self, forKey: .duration_s, per: fields)
            action = .background(durationNs: Int64((seconds * nanosecondsPerSecond).rounded()))
        case .terminate:
            let seconds = try c.decode(Double.self, forKey: .relaunch_after_s, per: fields)
            action = .terminate(relaunchAfterNs: Int64((seconds * nanosecondsPerSecond).rounded()))
        case .memory_warning:
            action = .memoryWarning
        case .fling:
            let velocity = try c.decode(Double.self, forKey: .velocity_pt_s, per: fields)
            guard velocity != 0 else { throw c.failure(.velocity_pt_s, "expected a non-zero velocity") }
            action = .fling(velocityPtPerS: velocity, deceleration: deceleration)
        case .scroll_to:
            let animated = try c.decodeIfPresent(Bool.self, forKey: .animated) ?? false
            switch (c.contains(.offset_pt), c.contains(.post_index)) {
            case (true, false):
                guard !c.contains(.into_post_pt) else {
                    throw c.failure(.into_post_pt, "expected `into_post_pt` only with `post_index`")
                }
                action = .scrollTo(
                    target: .offset(try c.decode(Double.self, forKey: .offset_pt, per: fields)), animated: animated)
            case (false, true):
                let index = try c.decode(Int.self, forKey: .post_index, per: fields)
                let into = try c.decode(Double.self, forKey: .into_post_pt, per: fields, default: 0)
                action = .scrollTo(
                    target: into == 0 ? .post(index: index) : .intoPost(index: index, pointsIn: into),
                    animated: animated)
            default:
                throw c.failure(.offset_pt, "expected exactly one of `offset_pt` and `post_index`")
            }
        case .pull:
            let distance = try c.decode(Double.self, forKey: .distance_pt, per: fields)
            let durationMs = try c.decode(Double.self, forKey: .duration_ms, per: fields)
            let holdMs = try c.decode(Double.self, forKey: .hold_ms, per: fields)
            let durationNs = Int64((durationMs * nanosecondsPerMillisecond).rounded())
            guard durationNs >= 1 else {
                throw c.failure(.duration_ms, "expected at least 1 ns, found \(durationMs) ms")
            }
            action = .pull(
                distancePt: distance, durationNs: durationNs,
                holdNs: Int64((holdMs * nanosecondsPerMillisecond).rounded()))
        case .remove_posts:
            let count = try c.decode(Int.self, forKey: .count, per: fields)
            let place = try c.decode(RemovalPlace.self, forKey: .where)
            let delivery = try c.decode(Delivery.self, forKey: .delivery, default: .push)
            action = .removePosts(count: count, place: place, push: delivery == .push)
        case .drag:
            let release = try c.decode(DragRelease.self, forKey: .release, default: .fling)
            action = .drag(trajectory: try ScriptStep.decodeTrajectory(c), release: release, deceleration: deceleration)
        }
        repeatCount = 1
        repeatEveryNs = 0
        if c.contains(.repeat) {
            let r = try c.superDecoder(forKey: .repeat)
            let rc = try r.knownFields(RepeatKeys.self)
            repeatCount = try rc.decode(Int.self, forKey: .count, per: ScriptStep.repeatSchema)
            let everyMs = try rc.decode(Double.self, forKey: .every_ms, per: ScriptStep.repeatSchema)
            repeatEveryNs = Int64((everyMs * nanosecondsPerMillisecond).rounded())
            guard repeatEveryNs >= 1 else { throw rc.failure(.every_ms, "expected at least 1 ns, found \(everyMs) ms") }
            if case let .drag(trajectory, _, _) = action, let last = trajectory.last, last.timeNs > repeatEveryNs {
                throw rc.failure(
                    .every_ms,
                    """
                    expected at least the drag's own length (\(Double(last.timeNs) / nanosecondsPerMillisecond) \
                    ms), found \(everyMs) ms
                    """
                )
            }
            if case let .pull(_, duration, hold) = action, duration + hold > repeatEveryNs {
                throw rc.failure(
                    .every_ms,
                    """
                    expected at least the pull's own length \
                    (\(Double(duration + hold) / nanosecondsPerMillisecond) ms), found \(everyMs) ms
                    """
                )
            }
            // Once is no repetition: the step reads back from the file it writes.
            if repeatCount == 1 { repeatEveryNs = 0 }
        }
    }

    /// A drag is either `distance_pt` over `duration_ms` at constant speed, or
    /// an explicit `trajectory` of `{t_ms, dy_pt}` points starting at 0.
    private static func decodeTrajectory(_ c: KeyedFields<Keys>) throws -> [TrajectoryPoint] {
        if c.contains(.trajectory) {
            if c.contains(.distance_pt) || c.contains(.duration_ms) {
                throw c.failure(
                    .trajectory, "expected either `trajectory` or `distance_pt` with `duration_ms`, not both")
            }
            var list = try c.nestedUnkeyedContainer(forKey: .trajectory)
            var points: [TrajectoryPoint] = []
            while !list.isAtEnd {
                let index = list.currentIndex
                let pointDecoder = try list.superDecoder()
                let p = try pointDecoder.knownFields(PointKeys.self)
                let tMs = try p.decode(Double.self, forKey: .t_ms, per: ScriptStep.trajectoryPointSchema)
                let dy = try p.decode(Double.self, forKey: .dy_pt, per: ScriptStep.trajectoryPointSchema)
                let point = TrajectoryPoint(
                    timeNs: Int64((tMs * nanosecondsPerMillisecond).rounded()), displacementPt: dy)
                if index == 0, point.timeNs != 0 || dy != 0 {
                    throw p.failure(
                        point.timeNs != 0 ? .t_ms : .dy_pt,
                        "expected the first point at t_ms 0 and dy_pt 0 (the touch-down)")
                }
                if let last = points.last, point.timeNs <= last.timeNs {
                    throw p.failure(
                        .t_ms,
                        """
                        expected times that increase, found \(tMs) ms after \
                        \(Double(last.timeNs) / nanosecondsPerMillisecond) ms
                        """
                    )
                }
                points.append(point)
            }
            guard points.count >= 2 else {
                throw c.failure(.trajectory, "expected at least two points (touch-down and lift)")
            }
            return points
        }
        let distance = try c.decode(Double.self, forKey: .distance_pt, per: ScriptStep.fields(of: .drag))
        let durationMs = try c.decode(Double.self, forKey: .duration_ms, per: ScriptStep.fields(of: .drag))
        guard (durationMs * nanosecondsPerMillisecond).rounded() >= 1 else {
            throw c.failure(.duration_ms, "expected at least 1 ns, found \(durationMs) ms")
        }
        return [
            TrajectoryPoint(timeNs: 0, displacementPt: 0),
            TrajectoryPoint(
                timeNs: Int64((durationMs * nanosecondsPerMillisecond).rounded()), displacementPt: distance),
        ]
    }
}

extension KeyedFields where Key: CodingKey {
    /// A part chosen by name (a position strategy, a prefetch policy): a
    /// built-in name or one a program registered.
    func decodePart<Part: RegisteredPart>(forKey key: Key, default defaultValue: Part) throws -> Part {
        guard contains(key) else { return defaultValue }
        let name = try decode(String.self, forKey: key)
        guard let part = Part.named(name) else {
            let known = Part.known.map { "\"\($0.name)\"" }.joined(separator: ", ")
            throw failure(key, "expected one of \(known), found \"\(name)\"")
        }
        return part
    }
}
