import FeedEngine
import FeedExplore
import FeedScenario
import Foundation
import Testing

@Suite("Sessions with cards")
struct CardSessionTests {
    @Test("cards: the same sessions but for their feeds' cards, drawn into content-sized feeds only")
    func cardsAddOnlyCards() throws {
        let device = try ExploreFixtures.device()
        let withCards = try JSONDecoder().decode(ExploreConfig.self, from: Data(#"{"cards": true}"#.utf8))
        #expect(withCards.cards && !ExploreConfig.defaults.cards)
        let plain = SessionGenerator(config: .defaults, device: device, seed: 11)
        let carded = SessionGenerator(config: withCards, device: device, seed: 11)
        var quoting = 0
        var sharing = 0
        for index in 0..<200 {
            let a = plain.session(index)
            var b = carded.session(index)
            #expect(a.feed.quoteFraction == 0 && a.feed.externalCardFraction == 0)
            if b.feed.itemHeight != .content {
                #expect(b.feed.quoteFraction == 0 && b.feed.externalCardFraction == 0, "session \(index)")
            }
            for fraction in [b.feed.quoteFraction, b.feed.externalCardFraction] where fraction > 0 {
                #expect(fraction >= 0.05 && fraction <= 0.5 && (fraction * 20).rounded() == fraction * 20)
            }
            if b.feed.quoteFraction > 0 { quoting += 1 }
            if b.feed.externalCardFraction > 0 { sharing += 1 }
            // Written as a file (`--write-session`), it reads back with its cards.
            let loaded = try ScenarioLoader.load(
                data: Data(b.fileText.utf8), file: "\(b.name).json", deviceDirectories: [ExploreFixtures.devicesFolder])
            #expect(loaded.scenario == b, "session \(index)")
            // Everything else is the session drawn without cards.
            b.feed.quoteFraction = 0
            b.feed.externalCardFraction = 0
            #expect(a == b, "session \(index)")
        }
        // About 60% of sessions size cells to content, half of those draw each kind.
        #expect((35...85).contains(quoting) && (35...85).contains(sharing), "\(quoting) quoting, \(sharing) sharing")
    }
}
