import Determinism
import Testing

@testable import FeedEngine

/// Range queries and the anchor's search against the plain algorithms they
/// replace: two searches down the height tree for a range, and a top looked
/// up for each item examined.
@Suite("List layout")
struct ListLayoutTests {
    /// The items intersecting `[minY, maxY)` by two searches down the tree.
    static func indicesBySearching(_ layout: ListLayout, _ minY: Double, _ maxY: Double) -> Range<Int> {
        guard layout.count > 0, maxY > minY, maxY > 0, minY < layout.contentHeight else { return 0..<0 }
        let first = layout.heights.index(containing: max(0, minY))
        let (found, top) = layout.heights.item(containing: maxY)
        var last = found
        if top >= maxY, last > first { last -= 1 }
        return first..<(last + 1)
    }

    /// The first item of the range at least `fraction` visible, each top
    /// looked up on its own, and the number of items examined.
    static func firstItemByLookingUp(
        _ layout: ListLayout, _ fraction: Double, _ minY: Double, _ maxY: Double, origin: Double
    ) -> (found: (index: Int, top: Double)?, examined: Int) {
        let range = indicesBySearching(layout, minY - origin, maxY - origin)
        for index in range {
            let top = origin + layout.minY(of: index)
            let height = layout.height(of: index)
            let visible = min(top + height, maxY) - max(top, minY)
            if height > 0, visible / height >= fraction { return ((index, top), index - range.lowerBound + 1) }
        }
        // None so visible: the one filling the most of the rect.
        var best: (index: Int, top: Double, visible: Double)?
        for index in range {
            let top = origin + layout.minY(of: index)
            let visible = min(top + layout.height(of: index), maxY) - max(top, minY)
            if visible > 0, visible > best?.visible ?? 0 { best = (index, top, visible) }
        }
        return (best.map { ($0.index, $0.top) }, range.count)
    }

    @Test(
        """
        when no item is 30% visible (a post taller than the screen fills it), the item filling the most of the \
        rect is the anchor
        """
    )
    func tallItemFillsTheRect() {
        var layout = ListLayout(count: 3, estimatedHeight: 100)
        layout.setMeasuredHeight(200, at: 0)
        layout.setMeasuredHeight(2_400, at: 1)
        layout.setMeasuredHeight(1_500, at: 2)
        // A 322 pt landscape reading area inside item 1 (200..<2,600): 13% of it.
        let inside = layout.firstItem(visibleAtLeast: 0.3, in: 1_000, 1_322, origin: 0)
        #expect(inside.found?.index == 1 && inside.found?.top == 200)
        #expect(inside.examined == 1)
        // Across the boundary of items 1 and 2, each under 30% visible: item 1
        // fills 250 pt of it, item 2 72 pt.
        let across = layout.firstItem(visibleAtLeast: 0.3, in: 2_350, 2_672, origin: 0)
        #expect(across.found?.index == 1)
        #expect(across.examined == 2)
        // A rect past the content finds nothing.
        #expect(layout.firstItem(visibleAtLeast: 0.3, in: 5_000, 5_322, origin: 0).found == nil)
    }

    @Test(
        "a range walked from its first item, and the anchor's first visible item, are those the tree's searches find",
        arguments: [(1, 600.0), (5, 600.0), (40, 600.0), (300, 8.0), (300, 0.5)])
    func walkedRangesMatchSearches(count: Int, meanHeight: Double) {
        var random = SplitMix64(seed: UInt64(count) &* 31 &+ UInt64(meanHeight * 64))
        // Some heights zero, as removed or collapsed rows are; short rows put
        // more than the walk's limit on one screen.
        func height() -> Double { random.chance(0.2) ? 0 : Double(random.next(in: 1...Int(meanHeight * 128))) / 64 }
        var layout = ListLayout(count: count, estimatedHeight: meanHeight)
        for index in 0..<count { layout.setMeasuredHeight(height(), at: index) }
        var tops = [0.0]
        for index in 0..<count { tops.append(tops[index] + layout.height(of: index)) }
        var checked = 0
        for _ in 0..<2_000 {
            let origin = random.chance(0.5) ? 0 : -Double(random.next(in: 0...100_000)) / 7
            // Rect edges on item edges half the time: where the range's ends
            // are decided.
            func edge() -> Double {
                random.chance(0.5)
                    ? tops[random.nextIndex(below: tops.count)]
                    : Double(random.next(in: 0...Int(tops[count] * 64) + 64_000)) / 64 - 500
            }
            let a = edge()
            let b = random.chance(0.3) ? a + 852 : edge()
            let (minY, maxY) = (min(a, b), max(a, b))
            #expect(
                layout.indices(intersecting: minY, maxY) == Self.indicesBySearching(layout, minY, maxY),
                "\(minY) ..< \(maxY)")
            let walked = layout.firstItem(visibleAtLeast: 0.3, in: minY + origin, maxY + origin, origin: origin)
            let looked = Self.firstItemByLookingUp(layout, 0.3, minY + origin, maxY + origin, origin: origin)
            #expect(
                walked.found?.index == looked.found?.index && walked.found?.top == looked.found?.top,
                "\(minY) ..< \(maxY)")
            #expect(walked.examined == looked.examined, "\(minY) ..< \(maxY)")
            if walked.found != nil { checked += 1 }
        }
        // The rects found items often enough for the comparison to mean something.
        #expect(checked > 200)
    }
}

/// How a SwiftUI lazy stack estimates the rows it has not loaded: "the
/// average size of the views already placed", WWDC26 session 321, "Dive
/// into lazy stacks and scrolling with SwiftUI", 2:42–3:42
/// (docs/swiftui-hosts.md). UIKit's self-sizing keeps one estimate.
@Suite("Estimates from the rows placed")
struct MeanEstimateTests {
    @Test(
        """
        with a mean estimate, rows inserted later start at the mean height of the rows measured so far; without, \
        at the one estimate
        """
    )
    func insertedRowsTakeTheMean() {
        var lazy = ListLayout(count: 4, estimatedHeight: 100)
        lazy.estimatesFromMeasured = true
        var uikit = ListLayout(count: 4, estimatedHeight: 100)
        for layout in [0, 1] {
            for (index, height) in [(0, 300.0), (1, 100.0), (2, 350.0)] {
                if layout == 0 {
                    lazy.setMeasuredHeight(height, at: index)
                } else {
                    uikit.setMeasuredHeight(height, at: index)
                }
            }
        }
        #expect(lazy.estimatedHeight == 250)
        #expect(uikit.estimatedHeight == 100)
        lazy.insertEstimated(count: 2, at: 4)
        uikit.insertEstimated(count: 2, at: 4)
        #expect(lazy.height(of: 4) == 250 && lazy.height(of: 5) == 250)
        #expect(uikit.height(of: 4) == 100)
        // The row still estimated keeps the estimate it had.
        #expect(lazy.height(of: 3) == 100)
        // Rows measured while laying out a range count too.
        _ = lazy.measureUnmeasured(in: 3..<6) { _ in 50 }
        #expect(abs(lazy.estimatedHeight - (300 + 100 + 350 + 50 * 3) / 6) <= 3 * HeightIndex.quantum)
    }

    @Test(
        """
        after every row is invalidated (a rotation) the mean starts again from the rows measured next, from the \
        estimate it had
        """
    )
    func invalidationStartsAgain() {
        var layout = ListLayout(count: 3, estimatedHeight: 100)
        layout.estimatesFromMeasured = true
        layout.setMeasuredHeight(400, at: 0)
        layout.resetToEstimates()
        #expect(layout.estimatedHeight == 400 && layout.height(of: 0) == 400 && !layout.isMeasured(0))
        layout.setMeasuredHeight(200, at: 1)
        #expect(layout.estimatedHeight == 200)
    }

    @Test("a lazy_vstack engine estimates by the mean, a list and a collection view by the one estimate")
    func hostsEstimate() {
        #expect(FeedHost.lazyVStack.estimatesFromPlacedRows)
        #expect(!FeedHost.list.estimatesFromPlacedRows)
        #expect(!FeedHost.collectionView.estimatesFromPlacedRows)
        var configuration = FeedListConfiguration(estimatedItemHeight: 100, width: 390)
        configuration.estimatesFromMeasured = true
        let list = FeedList(configuration: configuration)
        #expect(list.layout.estimatesFromMeasured)
        #expect(
            !FeedList(configuration: FeedListConfiguration(estimatedItemHeight: 100, width: 390)).layout
                .estimatesFromMeasured)
    }
}
