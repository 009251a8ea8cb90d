import FeedEngine
import FeedScenario
import Foundation
import Testing

@testable import FeedSimulator

/// The SwiftUI hosts' strategies, each behaviour against its source
/// (docs/swiftui-hosts.md; "S321" is WWDC26 session 321, "Dive into lazy
/// stacks and scrolling with SwiftUI"). The same session runs under UIKit's
/// `anchor`, SwiftUI's default and `scroll_position_id`, and each test
/// reads what the reader's post did.
@Suite("SwiftUI hosts")
struct SwiftUIHostTests {
    static let variants = """
        [{"name": "uikit_anchor", "position_strategy": "anchor"},
         {"name": "lazy_default", "host": "lazy_vstack"},
         {"name": "lazy_position", "host": "lazy_vstack", "position_strategy": "scroll_position_id"}]
        """

    /// Drift records of each variant of a session of `script` over a feed
    /// of 200 posts, estimated at 100 pt, of which `media` carry images
    /// whose sizes arrive only when they load, on `network`.
    static func drift(_ script: String, media: Double = 0, network: String = "wifi") throws -> [String: [DriftRecord]] {
        let json = """
            {"schema_version": 1, "name": "hosts", "description": "d", "device": "iphone-60hz", "seed": 3, \
            "duration_s": 12,
             "feed": {"post_count": 200, "media_fraction": \(media), "media_size_known_fraction": 0},
             "network": {"profile": "\(network)"},
             "engine": {"estimated_item_height_pt": 100}, "variants": \(variants), "script": [\(script)]}
            """
        let loaded = try ScenarioLoader.load(
            data: Data(json.utf8), file: "hosts.json", deviceDirectories: [CustomStrategyTests.devices])
        var records: [String: [DriftRecord]] = [:]
        for request in RunRequest.expand(loaded, seedOverride: nil, recordFrames: false) {
            records[request.variant] = try Simulation(request: request).run().drift
        }
        return records
    }

    static func moved(_ records: [DriftRecord]?, _ cause: ChangeCause) -> [Double] {
        (records ?? []).filter { $0.cause == cause.rawValue }.compactMap { record in
            record.afterY.map { $0 - record.beforeY }
        }
    }

    @Test(
        """
        new posts above the reader: SwiftUI's default keeps the offset and the reader moves by their height \
        (reported by developers); scroll_position_id and anchor hold the reader
        """
    )
    func insertAbove() throws {
        let records = try Self.drift(
            """
            {"at_ms": 500, "action": "scroll_to", "offset_pt": 3000},
            {"at_ms": 2000, "action": "new_posts", "count": 4, "delivery": "push"}
            """)
        let lazyDefault = Self.moved(records["lazy_default"], .newPosts)
        #expect(lazyDefault.count == 1 && lazyDefault[0] > 300, "\(lazyDefault)")
        #expect(Self.moved(records["lazy_position"], .newPosts).allSatisfy { abs($0) < 1 })
        #expect(Self.moved(records["uikit_anchor"], .newPosts).allSatisfy { abs($0) < 1 })
    }

    @Test(
        """
        an image whose size arrives above the reader pushes them in both SwiftUI strategies, a row already laid \
        out changing height (S321 19:24–19:41); anchor holds them
        """
    )
    func loadedRowResizeAbove() throws {
        // A fling down the feed on a slow network, then a drag back up: an
        // image above the reader, laid out at its estimated size, arrives.
        let records = try Self.drift(
            """
            {"at_ms": 3000, "action": "drag", "distance_pt": -2500, "duration_ms": 400, "release": "fling"},
            {"at_ms": 6000, "action": "drag", "distance_pt": 600, "duration_ms": 300, "release": "stop"}
            """, media: 1, network: "3g")
        let pushedDefault = Self.moved(records["lazy_default"], .imageSize).filter { abs($0) >= 1 }
        let pushedPosition = Self.moved(records["lazy_position"], .imageSize).filter { abs($0) >= 1 }
        #expect(!pushedDefault.isEmpty, "\(records["lazy_default"] ?? [])")
        #expect(!pushedPosition.isEmpty)
        #expect(Self.moved(records["uikit_anchor"], .imageSize).allSatisfy { abs($0) < 1 })
    }

    @Test(
        """
        a rotation keeps the top row in place in both SwiftUI strategies, the offset absorbing the new estimates \
        (S321 4:14–4:42)
        """
    )
    func rotation() throws {
        let records = try Self.drift(
            """
            {"at_ms": 500, "action": "scroll_to", "offset_pt": 3000},
            {"at_ms": 2000, "action": "rotate", "width_pt": 852, "height_pt": 393}
            """)
        for variant in ["lazy_default", "lazy_position"] {
            let moved = Self.moved(records[variant], .widthChange)
            #expect(!moved.isEmpty && moved.allSatisfy { abs($0) < 1 }, "\(variant): \(moved)")
        }
    }

    @Test(
        """
        rows measured for the first time above the screen are absorbed into the offset (S321 4:14–4:57); a row \
        already laid out that changes height is not (S321 19:24–19:41)
        """
    )
    func estimatesCorrectedAbove() {
        for strategy in PositionStrategy.swiftUI {
            let keeper = strategy.makePositionKeeper()
            #expect(keeper.heightsChangedAbove(by: 120) == .adjustOffset(by: 120), "\(strategy.name)")
            #expect(keeper.loadedRowResizedAbove(by: 120, inUpdate: false) == .keepOffset, "\(strategy.name)")
            #expect(strategy.hosts == [.lazyVStack, .list])
        }
        // UIKit's strategies treat both alike, as self-sizing cells do.
        let anchor = PositionStrategy.anchor.makePositionKeeper()
        #expect(anchor.loadedRowResizedAbove(by: 120, inUpdate: false) == anchor.heightsChangedAbove(by: 120))
        #expect(anchor.loadedRowResizedAbove(by: 120, inUpdate: true) == anchor.heightsChangedAbove(by: 120))
        // Inside an update, scrollPosition(id:) keeps its row through the
        // whole update's layout; SwiftUI's default anchors nothing.
        #expect(
            PositionStrategy.scrollPositionID.makePositionKeeper().loadedRowResizedAbove(by: 120, inUpdate: true)
                == .adjustOffset(by: 120))
        #expect(
            PositionStrategy.swiftUIDefault.makePositionKeeper().loadedRowResizedAbove(by: 120, inUpdate: true)
                == .keepOffset)
        #expect(PositionStrategy.anchor.hosts == [.collectionView])
    }

    @Test(
        """
        a strategy that cannot exist in the host is refused, naming both; a SwiftUI host named alone gets \
        SwiftUI's default
        """
    )
    func refusedAndDefaulted() throws {
        func load(_ engine: String) throws -> LoadedScenario {
            let json = """
                {"schema_version": 1, "name": "hosts", "description": "d", "device": "iphone-60hz", "duration_s": 2,
                 "feed": {"post_count": 10}, "engine": {\(engine)}, "script": []}
                """
            return try ScenarioLoader.load(
                data: Data(json.utf8), file: "hosts.json", deviceDirectories: [CustomStrategyTests.devices])
        }
        let error = #expect(throws: ScenarioError.self) {
            try load(#""host": "lazy_vstack", "position_strategy": "offset_adjust""#)
        }
        #expect(error?.path == "$.engine.position_strategy")
        #expect(
            error?.expected.contains("`offset_adjust` cannot exist in host `lazy_vstack`") == true,
            "\(String(describing: error))")
        #expect(error?.expected.contains("`swiftui_default`, `scroll_position_id`") == true)
        let other = #expect(throws: ScenarioError.self) {
            try load(#""host": "collection_view", "position_strategy": "scroll_position_id""#)
        }
        #expect(other?.expected.contains("`scroll_position_id` cannot exist in host `collection_view`") == true)
        #expect(try load(#""host": "list""#).scenario.engine.positionStrategy.name == "swiftui_default")
        #expect(try load(#""host": "lazy_vstack""#).scenario.engine.host == .lazyVStack)
    }
}

/// The bundled migration scenario answers its question only if the reader
/// really reads down a feed under every variant.
@Suite("The bundled SwiftUI migration scenario")
struct SwiftUIMigrationScenarioTests {
    @Test(
        """
        every variant shows posts within 5 s and reads down past post 60: the feed loads page by page, not in one \
        response the link takes most of the session to bring
        """
    )
    func readsDownALoadedFeed() throws {
        let url = CustomStrategyTests.devices.deletingLastPathComponent().appendingPathComponent(
            "swiftui-migration.json")
        let loaded = try ScenarioLoader.load(
            data: Data(contentsOf: url), file: "swiftui-migration.json",
            deviceDirectories: [CustomStrategyTests.devices])
        let requests = RunRequest.expand(loaded, seedOverride: nil, recordFrames: true)
        #expect(requests.count == 6)
        for request in requests {
            let frames = try Simulation(request: request).run().frames
            let firstShown = frames.first { !$0.visible.isEmpty }?.time ?? .max
            let deepest = frames.map { $0.visible.upperBound }.max() ?? 0
            #expect(
                firstShown <= 5_000_000_000, "\(request.variant): the first post shows at \(Double(firstShown) / 1e9) s"
            )
            #expect(deepest > 60, "\(request.variant): the reader gets no further than post \(deepest)")
        }
    }
}
