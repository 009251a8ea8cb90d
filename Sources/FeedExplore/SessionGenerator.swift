import Determinism
import FeedEngine
import FeedScenario

/// Draws random, valid sessions from an explore configuration: a feed, a
/// network, engine options and a script, one scenario per session with a
/// variant per strategy, so that every strategy sees the same session and
/// the same random draws.
///
/// Swarm testing (Groce, Zhang, Eide, Chen and Regehr, "Swarm Testing",
/// ISSTA 2012): each session enables its own random subset of the actions
/// and draws its own weight for each, so that sessions made mostly of rare
/// actions (all removals and text-size changes, say) happen, which one fixed
/// mix of weights almost never produces.
///
/// Session `i` depends only on the explore seed and `i`: any worker can draw
/// any session, and the same command draws the same sessions.
package struct SessionGenerator: Sendable {
    package let config: ExploreConfig
    package let device: DeviceProfile
    package let seed: UInt64

    package init(config: ExploreConfig, device: DeviceProfile, seed: UInt64) {
        self.config = config
        self.device = device
        self.seed = seed
    }

    /// The name of session `index`: its `scenario` in every report.
    package static func name(of index: Int) -> String {
        let digits = String(index)
        return "session-" + String(repeating: "0", count: max(0, 6 - digits.count)) + digits
    }

    /// The seeds a run's own random streams start from stay below 2^53, so
    /// that every JSON reader reads them exactly.
    static let runSeedMask: UInt64 = (1 << 53) - 1

    /// Session `index` as a scenario with one variant per strategy.
    package func session(_ index: Int) -> Scenario {
        var mix = SplitMix64(seed: seed ^ (UInt64(index) &* 0x9E37_79B9_7F4A_7C15))
        var random = Xoshiro256StarStar(seed: mix.next())
        let durationNs = Int64((config.durationS * 1e9).rounded())
        // An imported feed or network replaces the drawn one after the draws,
        // so that every other part of a session is drawn as without it.
        var feed = drawFeed(&random)
        if config.cards, feed.itemHeight == .content {
            // A stream of its own, so that every other draw is as without cards.
            var cards = Xoshiro256StarStar(seed: mix.next())
            if cards.chance(Self.cardChance) { feed.quoteFraction = Self.drawCardFraction(&cards) }
            if cards.chance(Self.cardChance) { feed.externalCardFraction = Self.drawCardFraction(&cards) }
        }
        if let source = config.importedFeed, let imported = source.feed {
            feed.imported = source
            feed.postCount = imported.posts.count
            feed.pageSize = imported.pageSizes.max() ?? 0
        }
        var engine = config.engine(over: drawEngine(&random))
        engine = config.placements(over: engine)[0].engine
        var network = drawNetwork(&random, durationNs: durationNs)
        if let imported = config.importedNetwork {
            network.from = config.networkFrom
            network.imported = imported
        }
        let steps: [ScriptStep]
        let description: String
        var sessionNs = durationNs
        if let usage = config.usagePopulation {
            var reader = UsageReader(usage: usage, device: device)
            sessionNs = reader.drawLength(&random, upTo: durationNs)
            steps = reader.drawScript(&random, durationNs: sessionNs)
            description =
                """
                A session of feedsim explore drawn from the usage model \(usage.file) (seed \(seed), session \
                \(index)).
                """
        } else {
            let enabled = drawSwarm(&random)
            steps = drawScript(&random, enabled: enabled, feed: feed, durationNs: durationNs)
            let enabledNames = enabled.map(\.kind.rawValue).joined(separator: ", ")
            description =
                """
                A random session of feedsim explore (seed \(seed), session \(index)); actions enabled: \
                \(enabledNames).
                """
        }
        var scenario = Scenario(
            name: SessionGenerator.name(of: index), description: description,
            device: config.device, seed: random.next() & SessionGenerator.runSeedMask, durationNs: sessionNs,
            feed: feed,
            engine: engine,
            variants: config.variants(over: engine),
            script: steps)
        scenario.network = network
        return scenario
    }

    // MARK: - The parts of a session

    /// With `cards`: the chance a content-sized session's feed has each
    /// kind of card, and the share of its posts that do (in twentieths).
    static let cardChance = 0.5
    static let cardFractions = 0.05...0.5

    private static func drawCardFraction(_ random: inout Xoshiro256StarStar) -> Double {
        max(cardFractions.lowerBound, twentieths(random.nextUnit() * cardFractions.upperBound))
    }

    private func drawFeed(_ random: inout Xoshiro256StarStar) -> FeedSettings {
        var feed = FeedSettings(postCount: random.next(in: config.postCount))
        if random.chance(0.5) { feed.pageSize = random.next(in: 5...40) }
        feed.mediaFraction = twentieths(random.nextUnit())
        if random.chance(0.5) { feed.mediaSizeKnownFraction = twentieths(random.nextUnit()) }
        if random.chance(0.3) { feed.replyFraction = twentieths(random.nextUnit() * 0.4) }
        if random.chance(0.3) { feed.repostFraction = twentieths(random.nextUnit() * 0.3) }
        switch random.nextIndex(below: 5) {
        case 0: feed.itemHeight = .fixed(Double(random.next(in: 60...300)))
        case 1:
            let low = Double(random.next(in: 40...200))
            feed.itemHeight = .uniform(low...(low + Double(random.next(in: 1...400))))
        default: break
        }
        return feed
    }

    private func drawEngine(_ random: inout Xoshiro256StarStar) -> EngineSettings {
        var engine = EngineSettings()
        if random.chance(0.5) { engine.estimatedItemHeightPt = Double(random.next(in: 60...400)) }
        if random.chance(0.3) { engine.newPostsPolicy = .indicator }
        engine.debounceNs = [0, 50, 150][random.nextIndex(below: 3)] * 1_000_000
        engine.memoryWarningPolicy =
            MemoryWarningPolicy.allCases[random.nextIndex(below: MemoryWarningPolicy.allCases.count)]
        if random.chance(0.3) { engine.imageDecode = .main }
        if random.chance(0.2) {
            engine.diffAlgorithm = DiffAlgorithm.allCases[random.nextIndex(below: DiffAlgorithm.allCases.count)]
        }
        return engine
    }

    private func drawNetwork(_ random: inout Xoshiro256StarStar, durationNs: Int64) -> NetworkSettings {
        var network = NetworkSettings(
            profile: config.networkProfiles[random.nextIndex(below: config.networkProfiles.count)])
        if random.chance(config.offlineChance), durationNs > 2_000_000_000 {
            let from = Int64(random.next(in: 0...Int(durationNs / 1_000_000_000 - 1))) * 1_000_000_000
            let length = Int64(random.next(in: 1...8)) * 1_000_000_000
            network.offlineWindows = [from..<min(durationNs, from + length)]
        }
        return network
    }

    /// The actions this session may draw, with their weights: each action
    /// with a configured weight is enabled with the swarm fraction's chance
    /// (at least one always is), and its weight scaled by a draw in (0, 1].
    private func drawSwarm(_ random: inout Xoshiro256StarStar) -> [(kind: ScriptAction.Kind, weight: Double)] {
        let candidates = ExploreConfig.actions.enumerated().filter { config.weights[$0.offset] > 0 }
        guard !candidates.isEmpty else { return [] }
        var enabled: [(kind: ScriptAction.Kind, weight: Double)] = []
        for (index, kind) in candidates where random.chance(config.swarmFraction) {
            enabled.append((kind, config.weights[index] * (1 - random.nextUnit())))
        }
        if enabled.isEmpty {
            let (index, kind) = candidates[random.nextIndex(below: candidates.count)]
            enabled.append((kind, config.weights[index]))
        }
        return enabled
    }

    private func drawScript(
        _ random: inout Xoshiro256StarStar, enabled: [(kind: ScriptAction.Kind, weight: Double)], feed: FeedSettings,
        durationNs: Int64
    ) -> [ScriptStep] {
        guard !enabled.isEmpty else { return [] }
        let count = random.next(in: config.steps)
        // Steps start on whole 10 ms, before the last half second of the run.
        let lastStartMs = max(0, Int(durationNs / 1_000_000) - 500)
        let times = (0..<count).map { _ in Int64(random.next(in: 0...lastStartMs) / 10 * 10) * 1_000_000 }.sorted()
        let total = enabled.reduce(0) { $0 + $1.weight }
        return times.map { atNs in
            var pick = random.nextUnit() * total
            var kind = enabled[enabled.count - 1].kind
            for action in enabled {
                if pick < action.weight {
                    kind = action.kind
                    break
                }
                pick -= action.weight
            }
            return ScriptStep(atNs: atNs, action: drawAction(kind, &random, feed: feed))
        }
    }

    /// Ranges a person produces: drags of a few hundred to a few thousand
    /// points over 0.1–1.2 s, flicks up to 8,000 pt/s, pulls past the
    /// refresh trigger or short of it, a few posts at a time.
    private func drawAction(
        _ kind: ScriptAction.Kind, _ random: inout Xoshiro256StarStar, feed: FeedSettings
    ) -> ScriptAction {
        func sign() -> Double { random.chance(0.5) ? 1 : -1 }
        func deceleration() -> DecelerationRate { random.chance(0.8) ? .normal : .fast }
        func push() -> Bool { random.chance(0.7) }
        switch kind {
        case .drag:
            let distance = sign() * Double(random.next(in: 50...4000))
            let durationNs = Int64(random.next(in: 8...120)) * 10_000_000
            return .drag(
                trajectory: [
                    TrajectoryPoint(timeNs: 0, displacementPt: 0),
                    TrajectoryPoint(timeNs: durationNs, displacementPt: distance),
                ],
                release: random.chance(0.7) ? .fling : .stop, deceleration: deceleration())
        case .fling:
            return .fling(velocityPtPerS: sign() * Double(random.next(in: 2...80) * 100), deceleration: deceleration())
        case .refresh: return .refresh
        case .new_posts: return .newPosts(count: random.next(in: 1...25), push: push())
        case .tap_new_posts: return .tapNewPosts
        case .scroll_to_top: return .scrollToTop
        case .like: return .like
        case .content_updates: return .contentUpdates(count: random.next(in: 1...8))
        case .rotate:
            let (w, h) = (device.screenWidthPt.value, device.screenHeightPt.value)
            return random.chance(0.5) ? .rotate(widthPt: h, heightPt: w) : .rotate(widthPt: w, heightPt: h)
        case .text_size: return .textSize(scale: [0.8, 1, 1.25, 1.5, 2, 3][random.nextIndex(below: 6)])
        case .background:
            return .background(durationNs: Int64([1, 5, 700, 2000][random.nextIndex(below: 4)]) * 1_000_000_000)
        case .terminate:
            return .terminate(relaunchAfterNs: Int64([0, 2, 30][random.nextIndex(below: 3)]) * 1_000_000_000)
        case .memory_warning: return .memoryWarning
        case .scroll_to:
            let target: ScrollTarget =
                random.chance(0.5) && feed.postCount > 0
                ? .post(index: random.next(in: 0...(feed.postCount - 1)))
                : .offset(Double(random.next(in: 0...300) * 100))
            return .scrollTo(target: target, animated: random.chance(0.5))
        case .pull:
            return .pull(
                distancePt: Double(random.next(in: 2...30) * 10),
                durationNs: Int64(random.next(in: 10...80)) * 10_000_000,
                holdNs: Int64(random.next(in: 0...20)) * 100_000_000)
        case .remove_posts:
            return .removePosts(
                count: random.next(in: 1...8), place: RemovalPlace.allCases[random.nextIndex(below: 3)], push: push())
        }
    }
}

/// `value` rounded to a multiple of 1/20, so that drawn fractions read as
/// people write them (0.15, not 0.1500000000000000222).
func twentieths(_ value: Double) -> Double {
    (value * 20).rounded() / 20
}
