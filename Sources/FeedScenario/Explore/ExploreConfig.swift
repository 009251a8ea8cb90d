import FeedEngine
import FoundationEssentials

/// What `feedsim explore` searches: the space random sessions are drawn
/// from (feed sizes, how many steps, which actions and how often, networks)
/// and the strategies each session is run under. Every field is optional;
/// `explore/schema.json` is its JSON Schema, generated from the same table
/// the decoder reads.
package struct ExploreConfig: Sendable, Equatable {
    /// The device profile sessions run on (`devices/<device>.json`).
    package var device: String
    /// The position strategies every session runs under, paired.
    package var strategies: [PositionStrategy]
    /// The hosts every session also runs in, paired: each strategy in each
    /// of them it can exist in, as the variant `<host>-<strategy>`. Empty:
    /// each strategy in its own host (the collection view, or `lazy_vstack`
    /// for a SwiftUI strategy), as the variant `<strategy>`.
    package var hosts: [FeedHost] = []
    /// The prefetch policies every session also runs under, paired, each
    /// name setting the image and the page prefetch policy it names (the
    /// default one of a seam that lacks it); empty runs the drawn engine's.
    package var prefetchPolicies: [String] = []
    /// The layout strategies every session also runs under, paired: each
    /// variant once per strategy, as `<variant>-<layout strategy>`; empty
    /// runs the drawn engine's.
    package var layoutStrategies: [LayoutStrategy] = []
    /// Whether sessions with content-sized cells draw quoted records and
    /// external cards into their feeds (`cards`), from a stream of their
    /// own: every other draw of a session is as without them.
    package var cards = false
    /// Simulated time per session, in seconds.
    package var durationS: Double
    /// Posts on the server at launch, drawn from this range.
    package var postCount: ClosedRange<Int>
    /// Script steps per session, drawn from this range.
    package var steps: ClosedRange<Int>
    /// The chance each action is enabled in a session (swarm testing).
    package var swarmFraction: Double
    /// Each action's weight, in `ExploreConfig.actions` order; 0 never draws it.
    package var weights: [Double]
    /// The network profiles sessions draw from.
    package var networkProfiles: [String]
    /// The chance a session has an offline window.
    package var offlineChance: Double
    /// Every n-th session runs twice to check that it replays identically; 0 never.
    package var determinismEvery: Int
    /// The most runs spent shrinking one failing session.
    package var shrinkRuns: Int
    /// Engine fields every session gets over the options it draws (`engine`
    /// in the file): the fields the file names, read from these settings.
    package var engine: EngineSettings = .defaults
    /// The fields of `engine` the file names, in the engine's field order.
    var engineFields: [EngineSettings.Keys] = []
    /// The usage model file sessions are drawn from, relative to the
    /// configuration; nil draws swarm sessions.
    package var usage: String?
    /// The model `usage` names, once read (`ExploreSetup`).
    package var usagePopulation: UsagePopulation?
    /// A feed written by `feedsim import timeline` every session is served
    /// (`feed_from`, relative to the configuration); nil draws synthetic feeds.
    package var feedFrom: String?
    /// The feed `feedFrom` names, once read (`ExploreSetup`).
    package var importedFeed: ImportedFeedSource?
    /// A network written by `feedsim import har` every session runs on
    /// (`network_from`, relative to the configuration); nil draws profiles.
    package var networkFrom: String?
    /// The network `networkFrom` names, once read (`ExploreSetup`).
    package var importedNetwork: ImportedNetwork?

    /// Which sessions a verdict is over: `usage` (like the recorded
    /// readers) or `swarm` (random subsets of actions, for finding bugs).
    package var populationName: String { usage == nil ? "swarm" : "usage" }

    /// The script actions sessions draw from, in the scenario format's order.
    package static let actions: [ScriptAction.Kind] = ScriptAction.Kind.allCases

    /// How often each action is drawn when the configuration says nothing:
    /// scrolling most, then the changes that test a strategy's claims, then
    /// the rarer lifecycle and system events.
    static let defaultWeights: [ScriptAction.Kind: Double] = [
        .drag: 6, .fling: 4, .refresh: 2, .new_posts: 3, .tap_new_posts: 1, .scroll_to_top: 1, .like: 1,
        .content_updates: 2, .rotate: 1, .text_size: 1, .background: 1, .terminate: 1, .memory_warning: 1,
        .scroll_to: 2, .pull: 2, .remove_posts: 2,
    ]

    package static let defaults = ExploreConfig(
        device: "iphone-pro-120hz", strategies: PositionStrategy.builtIn, durationS: 30, postCount: 10...300,
        steps: 1...10,
        swarmFraction: 0.5, weights: ScriptAction.Kind.allCases.map { defaultWeights[$0] ?? 1 },
        networkProfiles: ["wifi", "lte", "3g", "very_bad"], offlineChance: 0.25, determinismEvery: 10, shrinkRuns: 400)

    package init(
        device: String, strategies: [PositionStrategy], durationS: Double, postCount: ClosedRange<Int>,
        steps: ClosedRange<Int>,
        swarmFraction: Double, weights: [Double], networkProfiles: [String], offlineChance: Double,
        determinismEvery: Int,
        shrinkRuns: Int
    ) {
        self.device = device
        self.strategies = strategies
        self.durationS = durationS
        self.postCount = postCount
        self.steps = steps
        self.swarmFraction = swarmFraction
        self.weights = weights
        self.networkProfiles = networkProfiles
        self.offlineChance = offlineChance
        self.determinismEvery = determinismEvery
        self.shrinkRuns = shrinkRuns
    }

    /// The variants each session runs as, in order: a strategy's name, or
    /// `<strategy>-<policy>` for each prefetch policy when there are any,
    /// each followed by `-<layout strategy>` for each layout strategy when
    /// there are any.
    package var variantNames: [String] { variants().map(\.name) }

    /// The variants a session whose drawn engine is `engine` runs as, in
    /// `variantNames` order.
    package func variants(over engine: EngineSettings = .defaults) -> [EngineVariant] {
        let prefetched = placements(over: engine).flatMap { name, settings in
            guard !prefetchPolicies.isEmpty else { return [EngineVariant(name: name, engine: settings)] }
            return prefetchPolicies.map { policy in
                EngineVariant(name: "\(name)-\(policy)", engine: ExploreConfig.engine(settings, prefetch: policy))
            }
        }
        guard !layoutStrategies.isEmpty else { return prefetched }
        return prefetched.flatMap { variant in
            layoutStrategies.map { strategy in
                var settings = variant.engine
                settings.layoutStrategy = strategy
                return EngineVariant(name: "\(variant.name)-\(strategy.name)", engine: settings)
            }
        }
    }

    /// Each strategy in each host it runs in, with the name its variant
    /// starts with: the strategy's alone when `hosts` is empty.
    package func placements(over engine: EngineSettings = .defaults) -> [(name: String, engine: EngineSettings)] {
        strategies.flatMap { strategy in
            let settings = engine.with(strategy: strategy)
            guard !hosts.isEmpty else { return [(strategy.name, settings)] }
            return hosts.filter(strategy.hosts.contains).map { host in
                var placed = settings
                placed.host = host
                return ("\(host.rawValue)-\(strategy.name)", placed)
            }
        }
    }

    /// `placements(over:)` of the defaults.
    var placements: [(name: String, engine: EngineSettings)] { placements() }

    /// Every name a prefetch policy can have here: the image prefetch
    /// policies, then the page prefetch policies not already among them.
    package static var prefetchPolicyNames: [String] {
        let images = ImagePrefetch.known.map(\.name)
        return images + PagePrefetch.known.map(\.name).filter { !images.contains($0) }
    }

    /// `engine` with the prefetch policy named `name`: the image and page
    /// policies of that name, and the defaults for a seam that has none.
    package static func engine(_ engine: EngineSettings, prefetch name: String) -> EngineSettings {
        var settings = engine
        settings.imagePrefetch = ImagePrefetch.named(name) ?? EngineSettings.defaults.imagePrefetch
        settings.pagePrefetch = PagePrefetch.named(name) ?? EngineSettings.defaults.pagePrefetch
        return settings
    }

    /// The weight of actions of `kind`.
    package func weight(of kind: ScriptAction.Kind) -> Double {
        ExploreConfig.actions.firstIndex(of: kind).map { weights[$0] } ?? 0
    }
}

extension ExploreConfig: Decodable {
    enum Keys: String, CodingKey, CaseIterable {
        case device, strategies, hosts, prefetch_policies, duration_s, post_count, steps, swarm_fraction, weights,
            network_profiles
        case offline_chance, determinism_every, shrink_runs, engine, usage, feed_from, network_from
        case layout_strategies
        case cards
    }

    enum RangeKeys: String, CodingKey, CaseIterable {
        case min, max
    }

    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(Keys.self)
        let d = ExploreConfig.defaults
        device = try c.decodeIfPresent(String.self, forKey: .device) ?? d.device
        strategies = d.strategies
        if c.contains(.strategies) {
            strategies = try ExploreConfig.decodeParts(c, .strategies, what: "strategy")
        }
        if c.contains(.hosts) {
            let names = try c.decode([String].self, forKey: .hosts)
            guard !names.isEmpty else { throw c.failure(.hosts, "expected at least one host") }
            hosts = try names.enumerated().map { index, name in
                guard let host = FeedHost(rawValue: name) else {
                    throw DecodingFailure(
                        codingPath: c.codingPath + [Keys.hosts, AnyCodingKey(intValue: index)],
                        expected:
                            """
                            expected one of \
                            \(FeedHost.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")), found \
                            \"\(name)\"
                            """
                    )
                }
                return host
            }
            guard Set(names).count == names.count else { throw c.failure(.hosts, "expected each host once") }
            for strategy in strategies where !strategy.hosts.contains(where: hosts.contains) {
                throw c.failure(
                    .hosts,
                    """
                    expected a host strategy `\(strategy.name)` can exist in \
                    (\(strategy.hosts.map { "`\($0.rawValue)`" }.joined(separator: ", "))), found none of them
                    """
                )
            }
        }
        if c.contains(.prefetch_policies) {
            let names = try c.decode([String].self, forKey: .prefetch_policies)
            guard !names.isEmpty else { throw c.failure(.prefetch_policies, "expected at least one prefetch policy") }
            let known = ExploreConfig.prefetchPolicyNames
            for (index, name) in names.enumerated() where !known.contains(name) {
                throw DecodingFailure(
                    codingPath: c.codingPath + [Keys.prefetch_policies, AnyCodingKey(intValue: index)],
                    expected: "expected one of \(known.map { "\"\($0)\"" }.joined(separator: ", ")), found \"\(name)\"")
            }
            guard Set(names).count == names.count else {
                throw c.failure(.prefetch_policies, "expected each prefetch policy once")
            }
            prefetchPolicies = names
        }
        if c.contains(.layout_strategies) {
            layoutStrategies = try ExploreConfig.decodeParts(c, .layout_strategies, what: "layout strategy")
        }
        cards = try c.decodeIfPresent(Bool.self, forKey: .cards) ?? d.cards
        durationS = try c.decode(Double.self, forKey: .duration_s, per: ExploreConfig.schema, default: d.durationS)
        postCount = try ExploreConfig.decodeRange(c, .post_count, schema: ExploreConfig.postCountSchema) ?? d.postCount
        steps = try ExploreConfig.decodeRange(c, .steps, schema: ExploreConfig.stepsSchema) ?? d.steps
        swarmFraction = try c.decode(
            Double.self, forKey: .swarm_fraction, per: ExploreConfig.schema, default: d.swarmFraction)
        weights = d.weights
        if c.contains(.weights) {
            let w = try c.superDecoder(forKey: .weights)
            let wc = try w.knownFields(ScriptAction.Kind.self)
            for (index, action) in ScriptAction.Kind.allCases.enumerated() where wc.contains(action) {
                weights[index] = try wc.decode(Double.self, forKey: action, per: ExploreConfig.weightsSchema)
            }
            guard weights.contains(where: { $0 > 0 }) || steps.upperBound == 0 else {
                throw c.failure(.weights, "expected at least one action with a weight above 0")
            }
        }
        networkProfiles = d.networkProfiles
        if c.contains(.network_profiles) {
            let names = try c.decode([String].self, forKey: .network_profiles)
            guard !names.isEmpty else { throw c.failure(.network_profiles, "expected at least one profile") }
            for (index, name) in names.enumerated() where !NetworkSettings.profileNames.contains(name) {
                throw DecodingFailure(
                    codingPath: c.codingPath + [Keys.network_profiles, AnyCodingKey(intValue: index)],
                    expected:
                        """
                        expected one of \
                        \(NetworkSettings.profileNames.map { "\"\($0)\"" }.joined(separator: ", ")), found \
                        \"\(name)\"
                        """
                )
            }
            networkProfiles = names
        }
        offlineChance = try c.decode(
            Double.self, forKey: .offline_chance, per: ExploreConfig.schema, default: d.offlineChance)
        determinismEvery = try c.decode(
            Int.self, forKey: .determinism_every, per: ExploreConfig.schema, default: d.determinismEvery)
        shrinkRuns = try c.decode(Int.self, forKey: .shrink_runs, per: ExploreConfig.schema, default: d.shrinkRuns)
        if c.contains(.usage) {
            let path = try c.decode(String.self, forKey: .usage)
            guard !path.isEmpty else { throw c.failure(.usage, "expected the path of a usage model (usage.json)") }
            usage = path
        }
        for key in [Keys.feed_from, .network_from] where c.contains(key) {
            let path = try c.decode(String.self, forKey: key)
            guard !path.isEmpty else { throw c.failure(key, "expected the path of a file, relative to this one") }
            if key == .feed_from { feedFrom = path } else { networkFrom = path }
        }
        if c.contains(.engine) {
            let e = try c.superDecoder(forKey: .engine)
            engine = try EngineSettings.decode(from: e, base: .defaults, named: false).settings
            let named = try e.fields(EngineSettings.Keys.self)
            engineFields = EngineSettings.Keys.allCases.filter(named.contains)
            if !layoutStrategies.isEmpty, named.contains(.layout_strategy) {
                throw named.failure(
                    .layout_strategy,
                    "`layout_strategy` is set by the configuration's `layout_strategies`, not in its engine")
            }
            for key in [EngineSettings.Keys.host, .position_strategy] where named.contains(key) {
                throw named.failure(
                    key, "`\(key.rawValue)` is set by the configuration's `strategies` and `hosts`, not in its engine")
            }
        }
    }

    /// `drawn`, a session's engine, with the fields the configuration's
    /// `engine` names.
    package func engine(over drawn: EngineSettings) -> EngineSettings {
        var s = drawn
        for key in engineFields {
            switch key {
            case .name, .network, .host, .position_strategy: break
            case .estimated_item_height_pt: s.estimatedItemHeightPt = engine.estimatedItemHeightPt
            case .diff_algorithm: s.diffAlgorithm = engine.diffAlgorithm
            case .debounce_ms: s.debounceNs = engine.debounceNs
            case .viewmodel_cache_count: s.viewModelCacheCount = engine.viewModelCacheCount
            case .viewmodel_cache_cost_bytes: s.viewModelCacheCostBytes = engine.viewModelCacheCostBytes
            case .new_posts_policy: s.newPostsPolicy = engine.newPostsPolicy
            case .hide_replies: s.hideReplies = engine.hideReplies
            case .hide_reposts: s.hideReposts = engine.hideReposts
            case .refresh_trigger_pt: s.refreshTriggerPt = engine.refreshTriggerPt
            case .memory_warning_policy: s.memoryWarningPolicy = engine.memoryWarningPolicy
            case .image_decode: s.imageDecode = engine.imageDecode
            case .image_memory_cache_mb: s.imageMemoryCacheBytes = engine.imageMemoryCacheBytes
            case .image_disk_cache_mb: s.imageDiskCacheBytes = engine.imageDiskCacheBytes
            case .image_prefetch_window: s.imagePrefetchWindow = engine.imagePrefetchWindow
            case .image_prefetch: s.imagePrefetch = engine.imagePrefetch
            case .page_prefetch: s.pagePrefetch = engine.pagePrefetch
            case .load_more_threshold: s.loadMoreThreshold = engine.loadMoreThreshold
            case .row_retention: s.rowRetention = engine.rowRetention
            case .row_kept_updates: s.rowKeptUpdates = engine.rowKeptUpdates
            case .row_view_kb: s.rowViewBytes = engine.rowViewBytes
            case .spare_time_prefetch_rows: s.spareTimePrefetchRows = engine.spareTimePrefetchRows
            case .row_observation: s.rowObservation = engine.rowObservation
            case .layout_strategy: s.layoutStrategy = engine.layoutStrategy
            }
        }
        return s
    }

    /// The parts `key` names, each known and named once, at least one:
    /// `what` says what a part is in the messages.
    private static func decodeParts<Part: RegisteredPart>(
        _ c: KeyedFields<Keys>, _ key: Keys, what: String
    ) throws -> [Part] {
        let names = try c.decode([String].self, forKey: key)
        guard !names.isEmpty else { throw c.failure(key, "expected at least one \(what)") }
        let parts = try names.enumerated().map { index, name in
            guard let part = Part.named(name) else {
                let known = Part.known.map { "\"\($0.name)\"" }.joined(separator: ", ")
                throw DecodingFailure(
                    codingPath: c.codingPath + [key, AnyCodingKey(intValue: index)],
                    expected: "expected one of \(known), found \"\(name)\"")
            }
            return part
        }
        guard Set(names).count == names.count else { throw c.failure(key, "expected each \(what) once") }
        return parts
    }

    private static func decodeRange(
        _ c: KeyedFields<Keys>, _ key: Keys, schema: ObjectSchema
    ) throws -> ClosedRange<Int>? {
        guard c.contains(key) else { return nil }
        let r = try c.superDecoder(forKey: key)
        let rc = try r.knownFields(RangeKeys.self)
        let low = try rc.decode(Int.self, forKey: .min, per: schema)
        let high = try rc.decode(Int.self, forKey: .max, per: schema)
        guard low <= high else { throw rc.failure(.max, "expected max >= min (\(low)), found \(high)") }
        return low...high
    }
}

extension ScenarioLoader {
    /// Decodes an explore configuration file's bytes; `file` names it in errors.
    package static func exploreConfig(from data: Data, file: String) throws(ScenarioError) -> ExploreConfig {
        try decode(ExploreConfig.self, from: data, file: file)
    }
}
