import FeedEngine
import FeedExplore
import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

@Suite("Explore on an imported feed")
struct ImportedSessionTests {
    @Test("feed_from serves every session the capture, as captured; every other draw is as without it")
    func importedFeed() throws {
        let here = PackageRoot.appending("docs/examples/your-app/explore.json").path
        let (feed, url) = try ScenarioLoader.importedFeed("feed.json", beside: here, path: "$.feed_from")
        var config = ExploreConfig.defaults
        var source = ImportedFeedSource(path: url.path, repeats: false, pagedAsCaptured: true)
        source.feed = feed
        config.importedFeed = source
        config.feedFrom = url.path
        let device = try ExploreFixtures.device()
        for index in [0, 7, 42] {
            let plain = SessionGenerator(config: .defaults, device: device, seed: 5).session(index)
            let imported = SessionGenerator(config: config, device: device, seed: 5).session(index)
            #expect(imported.feed.imported?.feed == feed)
            #expect(imported.feed.postCount == feed.posts.count)
            #expect(imported.feed.pageSize == feed.pageSizes.max())
            #expect(imported.script == plain.script, "session \(index): the script is drawn as without the feed")
            #expect(
                imported.network == plain.network && imported.seed == plain.seed && imported.variants == plain.variants)
        }
    }
}
