import CSVCodec
import FeedSimulator

/// One metric's distribution over a population of runs, one horizontal lane
/// per variant: each run a dot (in a row above the box, so none hides
/// behind it), a box from the 25th to the 75th percentile,
/// a bar at the median, whiskers from the 5th to the 95th, and a diamond at
/// the largest value. Percentiles are `NearestRank` percentiles, as in the
/// population table.
///
/// A population can have thousands of runs, more than a lane has pixels:
/// runs are bucketed by pixel column and each occupied column is one dot,
/// its opacity growing with the runs in it, so the SVG's size is bounded
/// whatever the population's size and the same values give the same bytes.
/// The axis starts at 0; values below 0 are drawn at its left edge.
struct DistributionPlot {
    /// One variant's values.
    struct Lane: Equatable {
        /// The lane's label (a variant, perhaps with a refresh rate).
        var name: String
        /// Its colour.
        var color: String
        /// The finite values, in any order.
        var values: [Double]
    }

    /// Total width of the SVG, px: half the report's width, as the bar charts.
    static let width = 540.0
    static let marginLeft = 118.0
    static let marginRight = 16.0
    static let marginTop = 30.0
    static let marginBottom = 34.0
    /// Height of one lane, px.
    static let laneHeight = 34.0
    /// How far above the lane's middle the dots are, px.
    static let dotRise = 10.0
    /// How far below the lane's middle the box's centre is, px.
    static let boxDrop = 4.0
    /// Pixel columns of the plot area: the most dots a lane can have.
    static let plotWidth = width - marginLeft - marginRight
    /// Characters of a lane's label shown before it is cut with "…".
    static let labelCharacters = 17

    /// What the plot shows.
    let title: String
    /// The unit of the axis.
    let unit: String
    /// The lanes, top to bottom.
    let lanes: [Lane]
    /// The value axis, covering the largest value.
    let scale: AxisScale

    init(title: String, unit: String, lanes: [Lane]) {
        self.title = title
        self.unit = unit
        self.lanes = lanes.map { Lane(name: $0.name, color: $0.color, values: $0.values.filter(\.isFinite).sorted()) }
        scale = AxisScale.covering(max(self.lanes.compactMap(\.values.last).max() ?? 0, 0))
    }

    /// Total height of the SVG, px.
    var height: Double {
        DistributionPlot.marginTop + DistributionPlot.laneHeight * Double(max(lanes.count, 1))
            + DistributionPlot.marginBottom
    }

    private func x(_ value: Double) -> Double {
        DistributionPlot.marginLeft + min(max(value / scale.maximum, 0), 1) * DistributionPlot.plotWidth
    }

    /// The dots of a lane: each occupied pixel column and how many of the
    /// lane's runs fall in it, left to right.
    ///
    /// - Complexity: O(*n*) for *n* values.
    func columns(_ lane: Lane) -> [(column: Int, runs: Int)] {
        let count = Int(DistributionPlot.plotWidth)
        var runs = Array(repeating: 0, count: count + 1)
        for value in lane.values {
            let c = Int((min(max(value / scale.maximum, 0), 1) * Double(count)).rounded(.down))
            runs[c] += 1
        }
        return runs.enumerated().compactMap { c, k in k > 0 ? (c, k) : nil }
    }

    /// The plot as an `<svg>` element.
    var svg: String {
        typealias D = DistributionPlot
        let n = SVGPlot.n
        let height = self.height
        let left = D.marginLeft, right = D.marginLeft + D.plotWidth
        let top = D.marginTop, bottom = D.marginTop + D.laneHeight * Double(max(lanes.count, 1))
        let label = "\(title) (\(unit))"
        var out =
            """
            <svg class=\"distribution-plot\" viewBox=\"0 0 \(n(D.width)) \(n(height))\" width=\"\(n(D.width))\" \
            height=\"\(n(height))\" role=\"img\" aria-label=\"\(HTMLText.escape(label))\">\n
            """
        out += "<title>\(HTMLText.escape(label))</title>\n"
        out +=
            """
            <text x=\"\(n(left))\" y=\"18\" font-size=\"13\" font-weight=\"600\" \
            fill=\"#1d1d1f\">\(HTMLText.escape(title))</text>\n
            """
        for tick in scale.ticks {
            let tx = x(tick)
            out += "<line x1=\"\(n(tx))\" y1=\"\(n(top))\" x2=\"\(n(tx))\" y2=\"\(n(bottom))\" stroke=\"#e5e5ea\"/>"
            out +=
                """
                <text x=\"\(n(tx))\" y=\"\(n(bottom + 14))\" text-anchor=\"middle\" font-size=\"10\" \
                fill=\"#555\">\(ReportNumber.fixed(tick, scale.decimals))</text>\n
                """
        }
        out +=
            """
            <text x=\"\(n((left + right) / 2))\" y=\"\(n(height - 4))\" text-anchor=\"middle\" font-size=\"11\" \
            fill=\"#333\">\(HTMLText.escape(unit))</text>\n
            """
        for (i, lane) in lanes.enumerated() {
            let mid = top + D.laneHeight * (Double(i) + 0.5)
            let shown =
                lane.name.count > D.labelCharacters ? String(lane.name.prefix(D.labelCharacters - 1)) + "…" : lane.name
            out +=
                """
                <text x=\"\(n(left - 8))\" y=\"\(n(mid - 1))\" text-anchor=\"end\" font-size=\"11\" \
                fill=\"#1d1d1f\">\(HTMLText.escape(shown))</text>
                """
            out +=
                """
                <text x=\"\(n(left - 8))\" y=\"\(n(mid + 10))\" text-anchor=\"end\" font-size=\"9\" \
                fill=\"#6e6e73\">n = \(lane.values.count)</text>\n
                """
            guard let p5 = NearestRank.percentile(lane.values, 0.05),
                let p25 = NearestRank.percentile(lane.values, 0.25),
                let p50 = NearestRank.percentile(lane.values, 0.50),
                let p75 = NearestRank.percentile(lane.values, 0.75),
                let p95 = NearestRank.percentile(lane.values, 0.95), let largest = lane.values.last
            else { continue }
            let summary =
                """
                \(lane.name): n = \(lane.values.count), p5 \(ReportNumber.fixed(p5, 3)), p25 \
                \(ReportNumber.fixed(p25, 3)), median \(ReportNumber.fixed(p50, 3)), p75 \
                \(ReportNumber.fixed(p75, 3)), p95 \(ReportNumber.fixed(p95, 3)), max \
                \(ReportNumber.fixed(largest, 3)) \(unit)
                """
            out += "<g class=\"lane\"><title>\(HTMLText.escape(summary))</title>\n"
            let largestRuns = Double(columns(lane).map(\.runs).max() ?? 1)
            let dots = mid - D.dotRise, box = mid + D.boxDrop
            for (c, runs) in columns(lane) {
                let opacity = 0.3 + 0.7 * Double(runs) / largestRuns
                out +=
                    """
                    <circle cx=\"\(n(left + Double(c)))\" cy=\"\(n(dots))\" r=\"3\" fill=\"\(lane.color)\" \
                    fill-opacity=\"\(ReportNumber.fixed(opacity, 2))\"/>
                    """
            }
            out +=
                """
                \n<line class=\"whisker\" x1=\"\(n(x(p5)))\" y1=\"\(n(box))\" x2=\"\(n(x(p95)))\" \
                y2=\"\(n(box))\" stroke=\"#333\"/>
                """
            out +=
                """
                <rect class=\"box\" x=\"\(n(x(p25)))\" y=\"\(n(box - 6))\" \
                width=\"\(n(max(x(p75) - x(p25), 1)))\" height=\"12\" fill=\"\(lane.color)\" \
                fill-opacity=\"0.25\" stroke=\"#333\" stroke-width=\"1.2\"/>
                """
            out +=
                """
                <line class=\"median\" x1=\"\(n(x(p50)))\" y1=\"\(n(box - 8))\" x2=\"\(n(x(p50)))\" \
                y2=\"\(n(box + 8))\" stroke=\"#1d1d1f\" stroke-width=\"2.5\"/>
                """
            let mx = x(largest)
            out +=
                """
                <path class=\"max\" d=\"M\(n(mx)) \(n(box - 5)) L\(n(mx + 5)) \(n(box)) L\(n(mx)) \(n(box + 5)) \
                L\(n(mx - 5)) \(n(box)) Z\" fill=\"#D55E00\"/></g>\n
                """
        }
        out +=
            "<line x1=\"\(n(left))\" y1=\"\(n(bottom))\" x2=\"\(n(right))\" y2=\"\(n(bottom))\" stroke=\"#8e8e93\"/>\n"
        out += "</svg>"
        return out
    }
}
