import Determinism
import Testing

@testable import FeedEngine

@Suite("FeedList anchor search")
struct FeedListAnchorSearchTests {
    private static func post(_ id: Int, _ random: inout Xoshiro256StarStar) -> FeedItem {
        let media =
            random.next(below: 2) == 0
            ? Media(
                kind: .single, pixelWidth: 1_080, pixelHeight: 400 + Int(random.next(below: 1_200)),
                encodedBytes: 200_000) : nil
        // Some rows of zero height, which no search may pick.
        let fixed: Double? = random.next(below: 10) == 0 ? 0 : nil
        return FeedItem(
            post: Post(
                id: PostID(id), authorID: 1, textLength: Int(random.next(below: 400)), media: media,
                fixedHeightPt: fixed))
    }

    @Test(
        "asked again, a search answers and charges as the layout's own search; any change of geometry is seen",
        arguments: [false, true])
    func repeatedSearchesMatchTheLayout(virtual: Bool) {
        var random = Xoshiro256StarStar(seed: virtual ? 5 : 4)
        let list = FeedList(
            configuration: FeedListConfiguration(
                estimatedItemHeight: 180, width: 390, coordinateSpace: virtual ? .tiledView : .ordinary))
        list.replaceAll(with: (1...400).map { Self.post($0, &random) })
        _ = list.drainWork()
        let view = FeedListView(list)
        var minY = list.originY
        for step in 0..<3_000 {
            // Change the geometry now and then: measure, lay out, replace a
            // row, move the origin; or only move the rect.
            switch random.next(below: 8) {
            case 0: list.measure(Int(random.next(below: 400)))
            case 1: list.updateVisibleRect(minY: minY, height: 800)
            case 2: list.replaceItem(at: Int(random.next(below: 400)), with: Self.post(1_000 + step, &random))
            case 3: list.shiftOrigin(by: Double(random.next(below: 64)) - 32)
            case 4: minY += Double(random.next(below: 600)) - 200
            default: break
            }
            _ = list.drainWork()
            // Mostly the rect of the last step, so a change of geometry
            // alone must make the search answer afresh.
            let maxY = minY + (random.next(below: 4) == 0 ? 760 : 800)
            let expected = list.layout.firstItem(visibleAtLeast: 0.3, in: minY, maxY, origin: list.originY)
            // The drift meter's view first, then the engine's, twice.
            let seen = view.firstItem(visibleAtLeast: 0.3, in: minY, maxY)
            #expect(seen?.index == expected.found?.index && seen?.top == expected.found?.top, "step \(step)")
            #expect(list.drainWork().offsetQueries == 0, "step \(step): the view's search is not the engine's work")
            for ask in 0..<2 {
                let found = list.firstItem(visibleAtLeast: 0.3, in: minY, maxY)
                #expect(
                    found?.index == expected.found?.index && found?.top == expected.found?.top,
                    "step \(step), ask \(ask)")
                #expect(list.drainWork().offsetQueries == 2 + expected.examined, "step \(step), ask \(ask)")
            }
            // Another fraction of the same rect is another search (every
            // other step, so the next step mostly starts from this one's).
            guard step % 2 == 0 else { continue }
            let half = list.layout.firstItem(visibleAtLeast: 0.5, in: minY, maxY, origin: list.originY).found
            let halfSeen = view.firstItem(visibleAtLeast: 0.5, in: minY, maxY)
            #expect(halfSeen?.index == half?.index && halfSeen?.top == half?.top, "step \(step), half")
        }
    }
}
