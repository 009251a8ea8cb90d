/// The nearest-rank percentile, the one definition every percentile of the
/// project uses (frame work and latency, calibration errors, population
/// tables): the value at rank ⌈p·n⌉ (1-based) of the sorted values, so it is
/// always one of the values, never an interpolation between two.
package enum NearestRank {
    /// The value at rank ⌈p·n⌉ of `sorted` (ascending), clamped to the first
    /// and last ranks; `nil` when `sorted` is empty.
    ///
    /// - Complexity: O(1).
    package static func percentile<Value>(_ sorted: [Value], _ p: Double) -> Value? {
        guard !sorted.isEmpty else { return nil }
        let rank = Int((p * Double(sorted.count)).rounded(.up))
        return sorted[min(max(rank, 1), sorted.count) - 1]
    }

    /// The nearest-rank percentiles `ps` (ascending) of `values`, in any
    /// order, and the largest value: the same values as `percentile` gives
    /// on `values.sorted()`, found by selection instead of a sort.
    ///
    /// Each rank is selected in place (Hoare's quickselect, median-of-three
    /// pivots) in the part of the buffer above the rank before it, so the
    /// ranks cost about as much as one pass each; a value at a rank is the
    /// same whichever way it is found.
    ///
    /// - Complexity: O(*n*) expected for *n* values; O(*n* log *n*) at worst
    ///   (a range that does not shrink fast enough is sorted instead).
    package static func percentilesAndMax<Value: Comparable>(
        _ values: [Value], _ ps: [Double]
    ) -> (percentiles: [Value], max: Value)? {
        guard !values.isEmpty else { return nil }
        var buffer = values
        let n = buffer.count
        var percentiles: [Value] = []
        percentiles.reserveCapacity(ps.count)
        return buffer.withUnsafeMutableBufferPointer { items in
            var low = 0
            for p in ps {
                let rank = min(max(Int((p * Double(n)).rounded(.up)), 1), n) - 1
                precondition(rank >= low, "percentiles must be asked for in ascending order")
                select(rank, in: items, from: low)
                percentiles.append(items[rank])
                low = rank
            }
            // Every value below `low` is at most the one there: the largest
            // is the largest from there on, found in one pass without moving
            // anything.
            var largest = items[low]
            for index in (low + 1)..<n where largest < items[index] { largest = items[index] }
            return (percentiles, largest)
        }
    }

    /// Moves the value of rank `k` to index `k` of `items[low...]`, smaller
    /// or equal values before it and larger or equal after.
    private static func select<Value: Comparable>(_ k: Int, in items: UnsafeMutableBufferPointer<Value>, from low: Int)
    {
        var low = low
        var high = items.count - 1
        // Past this many rounds the range is sorted: a bound on the worst case.
        var rounds = 2 * (Int.bitWidth - items.count.leadingZeroBitCount) + 8
        while high > low {
            rounds -= 1
            if rounds == 0 {
                var rest = UnsafeMutableBufferPointer(rebasing: items[low...high])
                rest.sort()
                return
            }
            let middle = low + (high - low) / 2
            // Median of three at low, middle and high, then Hoare's partition.
            if items[middle] < items[low] { items.swapAt(middle, low) }
            if items[high] < items[low] { items.swapAt(high, low) }
            if items[high] < items[middle] { items.swapAt(high, middle) }
            let pivot = items[middle]
            var i = low
            var j = high
            while i <= j {
                while items[i] < pivot { i += 1 }
                while pivot < items[j] { j -= 1 }
                if i <= j {
                    items.swapAt(i, j)
                    i += 1
                    j -= 1
                }
            }
            if k <= j {
                high = j
            } else if k >= i {
                low = i
            } else {
                return
            }
        }
    }
}
