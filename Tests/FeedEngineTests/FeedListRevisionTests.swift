import Determinism
import Testing

@testable import FeedEngine

@Suite("FeedList items revision")
struct FeedListRevisionTests {
    private static func item(_ id: Int, likes: Int = 0) -> FeedItem {
        FeedItem(post: Post(id: PostID(id), authorID: 1, textLength: 40 + id % 200, likeCount: likes))
    }

    @Test("every change of the rows changes the revision: a reload, a batch update, one row replaced")
    func everyChangeOfTheRowsIsSeen() {
        var random = Xoshiro256StarStar(seed: 8)
        let list = FeedList(configuration: FeedListConfiguration(estimatedItemHeight: 180, width: 390))
        list.replaceAll(with: (1...200).map { Self.item($0) })
        var seen: [UInt32: [FeedItem]] = [list.itemsRevision: list.items]
        var changes = 0
        for step in 0..<2_000 {
            let before = list.items
            let revision = list.itemsRevision
            switch random.next(below: 7) {
            case 0:
                // A batch update: a few rows out, a few in, likes changed.
                var newItems = before.filter { _ in random.next(below: 20) != 0 }
                newItems.insert(Self.item(1_000 + step), at: Int(random.next(below: UInt64(newItems.count + 1))))
                if !newItems.isEmpty {
                    let at = Int(random.next(below: UInt64(newItems.count)))
                    newItems[at] = Self.item(Int(newItems[at].id), likes: step)
                }
                list.apply(heckelDiff(from: before, to: newItems), newItems: newItems, anchorIndex: nil)
            case 1:
                guard !before.isEmpty else { continue }
                let at = Int(random.next(below: UInt64(before.count)))
                // The same post again, or another in its place.
                let id = random.next(below: 2) == 0 ? Int(before[at].id) : 2_000 + step
                list.replaceItem(at: at, with: Self.item(id, likes: step))
            case 2:
                list.replaceAll(with: (0..<Int(random.next(below: 300))).map { Self.item(3_000 + step * 300 + $0) })
            case 3:
                list.updateVisibleRect(minY: Double(random.next(below: 20_000)), height: 800)
            case 4:
                if !before.isEmpty { list.measure(Int(random.next(below: UInt64(before.count)))) }
            case 5:
                list.shiftOrigin(by: Double(random.next(below: 64)) - 32)
            default:
                list.setWidth(random.next(below: 2) == 0 ? 390 : 430)
            }
            _ = list.drainWork()
            if list.items != before {
                changes += 1
                #expect(list.itemsRevision != revision, "step \(step): the rows changed, the revision did not")
            }
            // No revision comes back with other rows.
            if let earlier = seen[list.itemsRevision] {
                #expect(earlier == list.items, "step \(step): revision \(list.itemsRevision) names two lists of rows")
            }
            seen[list.itemsRevision] = list.items
        }
        #expect(changes > 500)
    }
}
