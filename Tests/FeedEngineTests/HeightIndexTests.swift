import Determinism
import Testing

@testable import FeedEngine

/// The height index against a plain array of heights: every query answered
/// by a direct sum, after every kind of edit.
@Suite("Height index")
struct HeightIndexTests {
    /// The item `index(containing:)` promises, found by walking the heights:
    /// the first for `y` above the content, the last for `y` at or below its
    /// end, else the one whose span contains `y` (never one of zero height).
    static func itemByWalking(_ heights: [Double], _ y: Double) -> Int {
        guard !heights.isEmpty, y >= 0 else { return 0 }
        var top = 0.0
        for (index, height) in heights.enumerated() where height > 0 {
            if y < top + height { return index }
            top += height
        }
        return heights.count - 1
    }

    @Test(
        "an item found by its y comes with its top edge, and the total is the sum, after every kind of edit",
        arguments: [0, 1, 2, 3, 7, 64, 100])
    func itemsAndTotal(count: Int) {
        var random = SplitMix64(seed: UInt64(count) + 1)
        // Some heights zero, as removed or collapsed rows are.
        func height() -> Double { random.chance(0.2) ? 0 : Double(random.next(in: 1...40_000)) / 64 }
        var heights = (0..<count).map { _ in height() }
        var index = HeightIndex(heights: heights)
        for step in 0..<40 {
            switch step % 4 {
            case 0 where !heights.isEmpty:
                let at = random.nextIndex(below: heights.count)
                heights[at] = height()
                index.setHeight(heights[at], at: at)
            case 1:
                let at = random.nextIndex(below: heights.count + 1)
                let new = [height(), height()]
                heights.insert(contentsOf: new, at: at)
                index.insert(contentsOf: new, at: at)
            case 2 where heights.count > 1:
                let at = random.nextIndex(below: heights.count - 1)
                heights.removeSubrange(at..<(at + 1))
                index.removeSubrange(at..<(at + 1))
            default:
                break
            }
            let total = heights.reduce(0, +)
            #expect(index.totalHeight == total, "count \(count), step \(step)")
            #expect(index.totalHeight == index.offset(of: index.count), "count \(count), step \(step)")
            for y in [-10, 0, total / 3, total / 2, total - 0.5, total, total + 10]
                + heights.indices.map({ index.offset(of: $0) })
            {
                let found = index.item(containing: y)
                #expect(found.index == index.index(containing: y), "count \(count), step \(step), y \(y)")
                #expect(
                    found.index == HeightIndexTests.itemByWalking(heights, y), "count \(count), step \(step), y \(y)")
                if !heights.isEmpty {
                    #expect(found.top == index.offset(of: found.index), "count \(count), step \(step), y \(y)")
                }
            }
            #if DEBUG
            index._checkInvariants()
            #endif
        }
    }
}
