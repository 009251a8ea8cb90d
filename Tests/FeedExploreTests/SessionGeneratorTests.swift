import FeedEngine
import FeedExplore
import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

enum ExploreFixtures {
    static let packageRoot = PackageRoot.url
    static let devicesFolder = packageRoot.appendingPathComponent("scenarios/devices", isDirectory: true)

    static func device(_ name: String = ExploreConfig.defaults.device) throws -> DeviceProfile {
        let url = devicesFolder.appendingPathComponent("\(name).json")
        return try ScenarioLoader.device(from: Data(contentsOf: url), file: url.lastPathComponent)
    }
}

@Suite("Session generator")
struct SessionGeneratorTests {
    @Test("Every drawn session is a valid scenario: written as a file, it reads back as itself")
    func sessionsAreValidScenarios() throws {
        let device = try ExploreFixtures.device()
        let generator = SessionGenerator(config: .defaults, device: device, seed: 7)
        var actions = Set<ScriptAction.Kind>()
        for index in 0..<200 {
            let session = generator.session(index)
            let text = session.fileText
            let loaded = try ScenarioLoader.load(
                data: Data(text.utf8), file: "\(session.name).json", deviceDirectories: [ExploreFixtures.devicesFolder])
            #expect(loaded.scenario == session, "session \(index):\n\(text)")
            #expect(session.variants.map(\.name) == ExploreConfig.defaults.strategies.map(\.name))
            for step in session.script { actions.insert(step.action.kind) }
        }
        // Swarm testing still reaches every action over a population.
        #expect(actions == Set(ScriptAction.Kind.allCases))
    }

    @Test("prefetch_policies: each session also runs under each policy, paired, as <strategy>-<policy>")
    func prefetchPolicies() throws {
        let device = try ExploreFixtures.device()
        let config = try JSONDecoder().decode(
            ExploreConfig.self,
            from: Data(
                #"{"strategies": ["anchor", "none"], "prefetch_policies": ["window", "velocity_prefetch"]}"#.utf8))
        #expect(
            config.variantNames == [
                "anchor-window", "anchor-velocity_prefetch", "none-window", "none-velocity_prefetch",
            ])
        let session = SessionGenerator(config: config, device: device, seed: 5).session(3)
        #expect(session.variants.map(\.name) == config.variantNames)
        let byName = Dictionary(uniqueKeysWithValues: session.variants.map { ($0.name, $0.engine) })
        #expect(byName["anchor-window"]?.imagePrefetch == .window)
        #expect(byName["anchor-window"]?.pagePrefetch == .threshold)
        #expect(byName["none-velocity_prefetch"]?.imagePrefetch == .velocity)
        #expect(byName["none-velocity_prefetch"]?.pagePrefetch == .velocity)
        #expect(byName["none-velocity_prefetch"]?.positionStrategy == PositionStrategy.none)
        // Paired: the variants differ in their strategy and policies only.
        var a = try #require(byName["anchor-window"])
        var b = try #require(byName["anchor-velocity_prefetch"])
        a.imagePrefetch = .window
        a.pagePrefetch = .threshold
        b.imagePrefetch = .window
        b.pagePrefetch = .threshold
        #expect(a == b)
        // The session written as a file reads back as itself.
        let loaded = try ScenarioLoader.load(
            data: Data(session.fileText.utf8), file: "\(session.name).json",
            deviceDirectories: [ExploreFixtures.devicesFolder])
        #expect(loaded.scenario == session)
    }

    @Test(
        """
        hosts: each strategy also runs in each listed host it can exist in, paired, as <host>-<strategy>; a \
        strategy that can exist in none of them is refused
        """
    )
    func hosts() throws {
        let device = try ExploreFixtures.device()
        let config = try JSONDecoder().decode(
            ExploreConfig.self,
            from: Data(
                #"""
                {"strategies": ["anchor", "scroll_position_id"], "hosts": ["collection_view", "lazy_vstack", \#
                "list"]}
                """#
                .utf8))
        #expect(
            config.variantNames == [
                "collection_view-anchor", "lazy_vstack-scroll_position_id", "list-scroll_position_id",
            ])
        let session = SessionGenerator(config: config, device: device, seed: 5).session(3)
        #expect(session.variants.map(\.name) == config.variantNames)
        #expect(session.variants.map(\.engine.host) == [.collectionView, .lazyVStack, .list])
        // Paired: the two SwiftUI variants differ in their host alone.
        var lazy = session.variants[1].engine, list = session.variants[2].engine
        lazy.host = .list
        #expect(lazy == list)
        let loaded = try ScenarioLoader.load(
            data: Data(session.fileText.utf8), file: "\(session.name).json",
            deviceDirectories: [ExploreFixtures.devicesFolder])
        #expect(loaded.scenario == session)
        // Without hosts, a SwiftUI strategy runs in lazy_vstack under its own name.
        let plain = try JSONDecoder().decode(
            ExploreConfig.self, from: Data(#"{"strategies": ["anchor", "swiftui_default"]}"#.utf8))
        #expect(plain.variantNames == ["anchor", "swiftui_default"])
        #expect(
            SessionGenerator(config: plain, device: device, seed: 5).session(3).variants.map(\.engine.host) == [
                .collectionView, .lazyVStack,
            ])
        let refused = #expect(throws: (any Error).self) {
            try JSONDecoder().decode(
                ExploreConfig.self,
                from: Data(#"{"strategies": ["anchor", "swiftui_default"], "hosts": ["list"]}"#.utf8))
        }
        #expect("\(String(describing: refused))".contains("anchor"))
    }

    @Test(
        """
        engine: the fields it names are every session's, over the options drawn, in every variant; the rest is \
        drawn as without it; host and position_strategy are refused
        """
    )
    func engineFields() throws {
        let device = try ExploreFixtures.device()
        let plain = try JSONDecoder().decode(
            ExploreConfig.self,
            from: Data(
                #"{"strategies": ["anchor", "scroll_position_id"], "hosts": ["collection_view", "lazy_vstack"]}"#.utf8))
        let set = try JSONDecoder().decode(
            ExploreConfig.self,
            from: Data(
                #"""
                {"strategies": ["anchor", "scroll_position_id"], "hosts": ["collection_view", "lazy_vstack"], \#
                "engine": {"row_retention": "pinned", "spare_time_prefetch_rows": 6, "debounce_ms": 150}}
                """#
                .utf8))
        for index in 0..<20 {
            let drawn = SessionGenerator(config: plain, device: device, seed: 5).session(index)
            let session = SessionGenerator(config: set, device: device, seed: 5).session(index)
            #expect(session.feed == drawn.feed && session.script == drawn.script && session.network == drawn.network)
            for (variant, drawnVariant) in zip(session.variants, drawn.variants) {
                #expect(variant.engine.rowRetention == .pinned && variant.engine.spareTimePrefetchRows == 6)
                #expect(variant.engine.debounceNs == 150_000_000)
                var rest = variant.engine
                rest.rowRetention = drawnVariant.engine.rowRetention
                rest.spareTimePrefetchRows = drawnVariant.engine.spareTimePrefetchRows
                rest.debounceNs = drawnVariant.engine.debounceNs
                #expect(rest == drawnVariant.engine, "session \(index), \(variant.name)")
            }
            // A session is a scenario: written as a file, it reads back as itself.
            let loaded = try ScenarioLoader.load(
                data: Data(session.fileText.utf8), file: "\(session.name).json",
                deviceDirectories: [ExploreFixtures.devicesFolder])
            #expect(loaded.scenario == session)
        }
        for field in [#""host": "list""#, #""position_strategy": "anchor""#] {
            let refused = #expect(throws: (any Error).self) {
                try ScenarioLoader.exploreConfig(from: Data(#"{"engine": {\#(field)}}"#.utf8), file: "x.json")
            }
            #expect("\(String(describing: refused))".contains("strategies"), "\(String(describing: refused))")
        }
        #expect(throws: (any Error).self) {
            try ScenarioLoader.exploreConfig(from: Data(#"{"engine": {"row_kept_updates": -1}}"#.utf8), file: "x.json")
        }
    }

    @Test("prefetch_policies: an unknown or repeated name is refused at its place")
    func prefetchPolicyErrors() {
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(
                ExploreConfig.self, from: Data(#"{"prefetch_policies": ["window", "lookahead"]}"#.utf8))
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(
                ExploreConfig.self, from: Data(#"{"prefetch_policies": ["window", "window"]}"#.utf8))
        }
        #expect(throws: (any Error).self) {
            try JSONDecoder().decode(ExploreConfig.self, from: Data(#"{"prefetch_policies": []}"#.utf8))
        }
        do {
            _ = try JSONDecoder().decode(
                ExploreConfig.self, from: Data(#"{"prefetch_policies": ["window", "lookahead"]}"#.utf8))
        } catch {
            // At the second name: `$.prefetch_policies[1]` in a message.
            #expect("\(error)".contains("prefetch_policies"), "\(error)")
            #expect("\(error)".contains("intValue: 1"), "\(error)")
            #expect("\(error)".contains("lookahead"), "\(error)")
        }
    }

    @Test("Session i depends only on the seed and i")
    func sessionsAreIndependentAndDeterministic() throws {
        let device = try ExploreFixtures.device()
        let a = SessionGenerator(config: .defaults, device: device, seed: 3)
        let b = SessionGenerator(config: .defaults, device: device, seed: 3)
        #expect(a.session(41) == b.session(41))
        #expect(a.session(41) != a.session(42))
        #expect(SessionGenerator(config: .defaults, device: device, seed: 4).session(41) != a.session(41))
    }

    @Test("Swarm testing: sessions enable different subsets of actions")
    func swarm() throws {
        let device = try ExploreFixtures.device()
        var config = ExploreConfig.defaults
        config.steps = 20...20
        let generator = SessionGenerator(config: config, device: device, seed: 11)
        let subsets = Set((0..<50).map { Set(generator.session($0).script.map(\.action.fileName)) })
        #expect(subsets.count > 40)
        // With half the actions enabled on average, most sessions of 20 steps
        // miss several actions entirely.
        #expect(subsets.filter { $0.count <= 12 }.count > 25)
    }

    @Test("An action with weight 0 is never drawn")
    func zeroWeight() throws {
        let device = try ExploreFixtures.device()
        var config = ExploreConfig.defaults
        config.weights = ExploreConfig.actions.map { $0 == .rotate || $0 == .like ? 1 : 0 }
        config.swarmFraction = 1
        let generator = SessionGenerator(config: config, device: device, seed: 5)
        let drawn = Set((0..<30).flatMap { generator.session($0).script.map(\.action.kind) })
        #expect(drawn == [.rotate, .like])
    }
}
