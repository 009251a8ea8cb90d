import CSVCodec
import FoundationEssentials
import Glibc

/// The inline SVG plots of the HTML report: plain text, fixed decimals,
/// no scripts, no external references, so the same data gives the same bytes.
enum SVGPlot {
    /// Colours of the variants of a scenario, in order (Okabe and Ito's
    /// colour-blind-safe palette, with its yellow, unreadable on white,
    /// replaced by a purple).
    static let seriesColors = ["#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#6A3D9A"]

    /// The colour of series `index`, cycling through `seriesColors`.
    static func color(_ index: Int) -> String { seriesColors[index % seriesColors.count] }

    /// A coordinate or size with one decimal.
    static func n(_ value: Double) -> String { ReportNumber.fixed(value, 1) }
}

/// An axis from 0 to a round maximum, with round steps (1, 2 or 5 × 10ⁿ).
struct AxisScale: Equatable {
    /// The top of the axis.
    var maximum: Double
    /// The distance between ticks.
    var step: Double

    /// The smallest round axis from 0 that covers `value`, in about `ticks` steps.
    static func covering(_ value: Double, ticks: Int = 5) -> AxisScale {
        guard value.isFinite, value > 0 else { return AxisScale(maximum: 1, step: 0.2) }
        let raw = value / Double(ticks)
        let magnitude = pow10(floor(log10(raw)))
        let step = [1.0, 2.0, 2.5, 5.0, 10.0].map { $0 * magnitude }.first { $0 >= raw * (1 - 1e-9) } ?? 10 * magnitude
        let maximum = (value / step).rounded(.up) * step
        return AxisScale(maximum: max(maximum, step), step: step)
    }

    /// The tick values from 0 to `maximum`.
    var ticks: [Double] {
        let count = Int((maximum / step).rounded())
        return (0...count).map { Double($0) * step }
    }

    /// Decimals that show every tick exactly.
    var decimals: Int {
        var decimals = 0
        var scaled = step
        while decimals < 6, abs(scaled - scaled.rounded()) > 1e-9 {
            scaled *= 10
            decimals += 1
        }
        return decimals
    }

    private static func pow10(_ exponent: Double) -> Double {
        var result = 1.0
        let e = Int(exponent)
        for _ in 0..<abs(e) { result *= 10 }
        return e < 0 ? 1 / result : result
    }
}

/// Frame work over time for one run: a polyline of per-frame work, the
/// frame budget as a dashed line, overrun frames as red dots and drift
/// records as vertical lines labelled with their cause.
///
/// Long runs have far more frames than the plot has pixels, so frames are
/// bucketed by pixel column and each column keeps only the frame with the
/// most work: the line has at most one point per column (`plotWidth`
/// columns), spikes are never lost, and the SVG's size is bounded whatever
/// the run's length. Overrun dots are bucketed the same way. The line breaks
/// where `gapColumns` or more columns hold no frame (the screen was idle).
/// The y axis stops at `clipBudgets` × budget; frames above it are drawn at
/// the top edge and counted in a note.
package struct FrameWorkPlot {
    /// One rendered frame.
    struct Frame: Equatable {
        /// Vsync time, ms from launch.
        var timeMs: Double
        /// Main-thread work, ms.
        var workMs: Double
        /// Whether work exceeded the budget.
        var overrun: Bool
    }

    /// One drift record.
    package struct Drift: Equatable {
        /// When the change was committed, ms from launch.
        var timeMs: Double
        /// What made the change.
        var cause: String
        /// How far the anchor moved, pt; `nil` when the anchor was lost.
        var driftPt: Double?
        /// Whether it counts as a drift event (moved ≥ 1 pt, or lost).
        var isEvent: Bool
    }

    /// Total width of the SVG, px.
    static let width = 1100.0
    /// Total height of the SVG, px.
    static let height = 300.0
    static let marginLeft = 60.0
    static let marginRight = 16.0
    /// Room above the plot for up to `labelRows` rows of drift labels.
    static let marginTop = 44.0
    static let marginBottom = 40.0
    static let labelRows = 3
    /// Pixel columns of the plot area: the most points the line can have.
    static let plotWidth = width - marginLeft - marginRight
    static let plotHeight = height - marginTop - marginBottom
    /// Empty columns that break the line.
    static let gapColumns = 3
    /// The y axis shows at most this many frame budgets of work.
    static let clipBudgets = 6.0
    /// Approximate width of a label character at the label font size, px.
    static let labelCharacterWidth = 6.0

    let frames: [Frame]
    let budgetMs: Double
    let drift: [Drift]
    /// What the plot shows, for its accessible title.
    let title: String
    /// The time axis' end, ms: the run's duration, or the last frame or
    /// drift record if later.
    let axisEndMs: Double
    /// The work axis: covers the largest work and the budget with room, but
    /// stops at `clipBudgets` budgets.
    let workScale: AxisScale

    /// A plot of `frames` against a budget of `budgetMs`, on a time axis of
    /// at least `durationMs`.
    init(frames: [Frame], budgetMs: Double, durationMs: Double, drift: [Drift], title: String) {
        self.frames = frames
        self.budgetMs = budgetMs
        self.drift = drift
        self.title = title
        axisEndMs = max(durationMs, frames.map(\.timeMs).max() ?? 0, drift.map(\.timeMs).max() ?? 0, 1)
        let wanted = max(frames.map(\.workMs).max() ?? 0, budgetMs * 1.25)
        workScale = AxisScale.covering(budgetMs > 0 ? min(wanted, budgetMs * FrameWorkPlot.clipBudgets) : wanted)
    }

    /// The frames the plot draws, at most one per pixel column: in each
    /// column the frame with the most work (the first of equals), with its
    /// column index.
    ///
    /// - Complexity: O(*n*) for *n* frames.
    func columns() -> [(column: Int, frame: Frame)] {
        let count = Int(FrameWorkPlot.plotWidth)
        var best: [Frame?] = Array(repeating: nil, count: count)
        for frame in frames {
            let c = column(of: frame.timeMs)
            if let current = best[c], current.workMs >= frame.workMs { continue }
            best[c] = frame
        }
        return best.enumerated().compactMap { c, frame in frame.map { (c, $0) } }
    }

    /// Overrun frames to mark, at most one per pixel column (the largest).
    func overrunColumns() -> [Frame] {
        let count = Int(FrameWorkPlot.plotWidth)
        var best: [Frame?] = Array(repeating: nil, count: count)
        for frame in frames where frame.overrun {
            let c = column(of: frame.timeMs)
            if let current = best[c], current.workMs >= frame.workMs { continue }
            best[c] = frame
        }
        return best.compactMap { $0 }
    }

    /// Frames whose work is above the work axis.
    var clippedFrames: [Frame] {
        let top = workScale.maximum
        return frames.filter { $0.workMs > top }
    }

    private func column(of timeMs: Double) -> Int {
        let count = Int(FrameWorkPlot.plotWidth)
        let c = Int((timeMs / axisEndMs * Double(count)).rounded(.down))
        return min(max(c, 0), count - 1)
    }

    private func x(_ timeMs: Double) -> Double {
        FrameWorkPlot.marginLeft + min(max(timeMs / axisEndMs, 0), 1) * FrameWorkPlot.plotWidth
    }

    private func y(_ workMs: Double, _ scale: AxisScale) -> Double {
        FrameWorkPlot.marginTop + FrameWorkPlot.plotHeight * (1 - min(max(workMs / scale.maximum, 0), 1))
    }

    /// The plot as an `<svg>` element.
    var svg: String {
        typealias P = FrameWorkPlot
        let n = SVGPlot.n
        let scale = workScale
        let left = P.marginLeft, top = P.marginTop, right = P.marginLeft + P.plotWidth,
            bottom = P.marginTop + P.plotHeight
        var out =
            """
            <svg class=\"frame-plot\" viewBox=\"0 0 \(n(P.width)) \(n(P.height))\" width=\"\(n(P.width))\" \
            height=\"\(n(P.height))\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">\n
            """
        out += "<title>\(HTMLText.escape(title))</title>\n"
        out +=
            """
            <rect class=\"plot-area\" x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(P.plotWidth))\" \
            height=\"\(n(P.plotHeight))\" fill=\"#fbfbfd\" stroke=\"#d2d2d7\"/>\n
            """

        for tick in scale.ticks {
            let ty = y(tick, scale)
            out += "<line x1=\"\(n(left))\" y1=\"\(n(ty))\" x2=\"\(n(right))\" y2=\"\(n(ty))\" stroke=\"#e5e5ea\"/>"
            out +=
                """
                <text x=\"\(n(left - 6))\" y=\"\(n(ty + 4))\" text-anchor=\"end\" font-size=\"11\" \
                fill=\"#555\">\(ReportNumber.fixed(tick, scale.decimals))</text>\n
                """
        }
        let seconds = AxisScale.covering(axisEndMs / 1000, ticks: 10)
        for tick in seconds.ticks where tick * 1000 <= axisEndMs + 1e-6 {
            let tx = x(tick * 1000)
            out += "<line x1=\"\(n(tx))\" y1=\"\(n(bottom))\" x2=\"\(n(tx))\" y2=\"\(n(bottom + 4))\" stroke=\"#555\"/>"
            out +=
                """
                <text x=\"\(n(tx))\" y=\"\(n(bottom + 16))\" text-anchor=\"middle\" font-size=\"11\" \
                fill=\"#555\">\(ReportNumber.fixed(tick, seconds.decimals))</text>\n
                """
        }
        out +=
            """
            <text x=\"\(n((left + right) / 2))\" y=\"\(n(P.height - 4))\" text-anchor=\"middle\" font-size=\"12\" \
            fill=\"#333\">time (s)</text>\n
            """
        out +=
            """
            <text x=\"14\" y=\"\(n((top + bottom) / 2))\" text-anchor=\"middle\" font-size=\"12\" fill=\"#333\" \
            transform=\"rotate(-90 14 \(n((top + bottom) / 2)))\">work (ms)</text>\n
            """

        out += driftMarks(top: top, bottom: bottom)

        var segments: [[(x: Double, y: Double)]] = []
        var previous: Int?
        for (c, frame) in columns() {
            let point = (x: x(frame.timeMs), y: y(frame.workMs, scale))
            if let p = previous, c - p <= P.gapColumns, !segments.isEmpty {
                segments[segments.count - 1].append(point)
            } else {
                segments.append([point])
            }
            previous = c
        }
        for segment in segments {
            if segment.count == 1 {
                out +=
                    """
                    <circle class=\"work\" cx=\"\(n(segment[0].x))\" cy=\"\(n(segment[0].y))\" r=\"1.5\" \
                    fill=\"#0072B2\"/>\n
                    """
            } else {
                let points = segment.map { "\(n($0.x)),\(n($0.y))" }.joined(separator: " ")
                out +=
                    """
                    <polyline class=\"work\" fill=\"none\" stroke=\"#0072B2\" stroke-width=\"1.2\" \
                    stroke-linejoin=\"round\" points=\"\(points)\"/>\n
                    """
            }
        }

        if budgetMs > 0 {
            let by = y(budgetMs, scale)
            out +=
                """
                <line class=\"budget\" x1=\"\(n(left))\" y1=\"\(n(by))\" x2=\"\(n(right))\" y2=\"\(n(by))\" \
                stroke=\"#1d1d1f\" stroke-width=\"1.2\" stroke-dasharray=\"6 4\"/>
                """
            out +=
                """
                <text x=\"\(n(right - 4))\" y=\"\(n(by - 5))\" text-anchor=\"end\" font-size=\"11\" \
                fill=\"#1d1d1f\">budget \(ReportNumber.fixed(budgetMs, 3)) ms</text>\n
                """
        }

        for frame in overrunColumns() {
            out +=
                """
                <circle class=\"overrun\" cx=\"\(n(x(frame.timeMs)))\" cy=\"\(n(y(frame.workMs, scale)))\" \
                r=\"3\" fill=\"#D62728\">
                """
            out +=
                """
                <title>overrun: \(ReportNumber.fixed(frame.workMs, 3)) ms at \
                \(ReportNumber.fixed(frame.timeMs / 1000, 3)) s</title></circle>\n
                """
        }
        out += "</svg>"
        return out
    }

    /// Vertical lines for drift records, events in purple with their cause
    /// above the plot (in the first label row with room; unlabelled when no
    /// row has room, the table below the plot lists them all), other records
    /// in grey.
    private func driftMarks(top: Double, bottom: Double) -> String {
        let n = SVGPlot.n
        var out = ""
        var rowEnds = Array(repeating: -Double.infinity, count: FrameWorkPlot.labelRows)
        for record in drift {
            let dx = x(record.timeMs)
            let amount =
                record.driftPt.map { ($0 >= 0 ? "+" : "") + ReportNumber.fixed($0, 1) + " pt" } ?? "anchor lost"
            let detail = "\(record.cause) at \(ReportNumber.fixed(record.timeMs / 1000, 3)) s: \(amount)"
            let style =
                record.isEvent
                ? "stroke=\"#7B3FB5\" stroke-width=\"1.5\""
                : "stroke=\"#aeaeb2\" stroke-width=\"1\" stroke-dasharray=\"2 3\""
            out +=
                """
                <line class=\"\(record.isEvent ? "drift drift-event" : "drift")\" x1=\"\(n(dx))\" \
                y1=\"\(n(top))\" x2=\"\(n(dx))\" y2=\"\(n(bottom))\" \
                \(style)><title>\(HTMLText.escape(detail))</title></line>\n
                """
            guard record.isEvent else { continue }
            let label = "\(record.cause) \(amount)"
            let labelWidth = Double(label.count) * FrameWorkPlot.labelCharacterWidth
            let start = min(dx, FrameWorkPlot.width - labelWidth - 2)
            guard let row = rowEnds.indices.first(where: { rowEnds[$0] + 4 <= start }) else { continue }
            rowEnds[row] = start + labelWidth
            let ly = top - 6 - Double(FrameWorkPlot.labelRows - 1 - row) * 13
            out +=
                """
                <line x1=\"\(n(dx))\" y1=\"\(n(ly + 2))\" x2=\"\(n(dx))\" y2=\"\(n(top))\" stroke=\"#7B3FB5\" \
                stroke-width=\"0.8\"/>
                """
            out +=
                """
                <text class=\"drift-label\" x=\"\(n(start + 2))\" y=\"\(n(ly))\" font-size=\"10\" \
                fill=\"#7B3FB5\">\(HTMLText.escape(label))</text>\n
                """
        }
        return out
    }
}

/// Bars for one metric of one scenario: a group per refresh rate, a bar per
/// variant in the group, each labelled with the value as the summary wrote it.
struct GroupedBarChart {
    /// One variant's values, one per group (`nil`: the variant has no run there).
    struct Series {
        var name: String
        var color: String
        /// The value as a number and as the summary wrote it.
        var values: [(number: Double, text: String)?]
    }

    /// A horizontal reference line (a threshold).
    struct Reference {
        var value: Double
        var label: String
    }

    static let width = 540.0
    static let height = 250.0
    static let marginLeft = 60.0
    static let marginRight = 12.0
    static let marginTop = 34.0
    static let marginBottom = 30.0
    /// Share of a group's width the bars take.
    static let groupFill = 0.8
    /// The widest a bar gets, px.
    static let maximumBarWidth = 56.0

    var title: String
    var groups: [String]
    var series: [Series]
    var references: [Reference] = []

    /// The chart as an `<svg>` element.
    var svg: String {
        typealias G = GroupedBarChart
        let n = SVGPlot.n
        let plotWidth = G.width - G.marginLeft - G.marginRight
        let plotHeight = G.height - G.marginTop - G.marginBottom
        let left = G.marginLeft, bottom = G.marginTop + plotHeight
        let values = series.flatMap { $0.values.compactMap { $0?.number } }.filter(\.isFinite)
        let scale = AxisScale.covering(max(values.max() ?? 0, 0))
        func y(_ value: Double) -> Double { bottom - plotHeight * min(max(value / scale.maximum, 0), 1) }

        var out =
            """
            <svg class=\"bar-chart\" viewBox=\"0 0 \(n(G.width)) \(n(G.height))\" width=\"\(n(G.width))\" \
            height=\"\(n(G.height))\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">\n
            """
        out += "<title>\(HTMLText.escape(title))</title>\n"
        out +=
            """
            <text x=\"\(n(left))\" y=\"18\" font-size=\"13\" font-weight=\"600\" \
            fill=\"#1d1d1f\">\(HTMLText.escape(title))</text>\n
            """
        for tick in scale.ticks {
            out +=
                """
                <line x1=\"\(n(left))\" y1=\"\(n(y(tick)))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(y(tick)))\" \
                stroke=\"#e5e5ea\"/>
                """
            out +=
                """
                <text x=\"\(n(left - 6))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\" font-size=\"11\" \
                fill=\"#555\">\(ReportNumber.fixed(tick, scale.decimals))</text>\n
                """
        }
        for reference in references where reference.value <= scale.maximum {
            out +=
                """
                <line class=\"reference\" x1=\"\(n(left))\" y1=\"\(n(y(reference.value)))\" \
                x2=\"\(n(left + plotWidth))\" y2=\"\(n(y(reference.value)))\" stroke=\"#8e8e93\" \
                stroke-dasharray=\"4 3\"/>
                """
            out +=
                """
                <text x=\"\(n(left + plotWidth - 2))\" y=\"\(n(y(reference.value) - 3))\" text-anchor=\"end\" \
                font-size=\"10\" fill=\"#6e6e73\">\(HTMLText.escape(reference.label))</text>\n
                """
        }
        let groupWidth = plotWidth / Double(max(groups.count, 1))
        let barWidth = min(G.maximumBarWidth, groupWidth * G.groupFill / Double(max(series.count, 1)))
        for (g, group) in groups.enumerated() {
            let groupStart = left + Double(g) * groupWidth
            let barsStart = groupStart + (groupWidth - barWidth * Double(series.count)) / 2
            for (s, item) in series.enumerated() {
                let bx = barsStart + Double(s) * barWidth
                guard g < item.values.count, let value = item.values[g] else { continue }
                let height = value.number.isFinite ? bottom - y(value.number) : 0
                out +=
                    """
                    <rect x=\"\(n(bx + 1))\" y=\"\(n(bottom - height))\" width=\"\(n(max(barWidth - 2, 1)))\" \
                    height=\"\(n(height))\" fill=\"\(item.color)\">
                    """
                out += "<title>\(HTMLText.escape("\(item.name), \(group): \(value.text)"))</title></rect>"
                out +=
                    """
                    <text x=\"\(n(bx + barWidth / 2))\" y=\"\(n(bottom - height - 3))\" text-anchor=\"middle\" \
                    font-size=\"9\" fill=\"#333\">\(HTMLText.escape(value.text))</text>\n
                    """
            }
            out +=
                """
                <text x=\"\(n(groupStart + groupWidth / 2))\" y=\"\(n(bottom + 18))\" text-anchor=\"middle\" \
                font-size=\"12\" fill=\"#333\">\(HTMLText.escape(group))</text>\n
                """
        }
        out +=
            """
            <line x1=\"\(n(left))\" y1=\"\(n(bottom))\" x2=\"\(n(left + plotWidth))\" y2=\"\(n(bottom))\" \
            stroke=\"#8e8e93\"/>\n
            """
        out += "</svg>"
        return out
    }
}
