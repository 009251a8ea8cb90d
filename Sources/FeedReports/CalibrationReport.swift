import CSVCodec
import FeedSimulator

/// One self-contained HTML page about a calibration: measured against
/// predicted frame time (held-back frames marked), the residuals over the
/// trace with the down-weighted frames marked, a table of the most
/// down-weighted frames, and a bar per cost, base against fitted with its
/// 95% interval; with a check, the frame-time percentiles beside the trace's.
///
/// Like `HTMLReport`, inline CSS and SVG only, no script, no external
/// reference, fixed decimals: the same fit gives the same bytes.
package struct CalibrationReport: Sendable {
    package let calibration: Calibration
    /// The trace's file name, the base profile's and the fitted profile's names.
    package let trace: String
    package let baseName: String
    package let fittedName: String
    package let check: CalibrationCheck?

    /// The most down-weighted frames the page's table lists.
    static let tableFrames = 20
    /// Colours: fitted frames, held-back frames, down-weighted frames, base cost.
    static let fitColor = "#0072B2"
    static let heldColor = "#E69F00"
    static let downColor = "#D62728"
    static let baseColor = "#aeaeb2"

    package init(
        calibration: Calibration, trace: String, baseName: String, fittedName: String, check: CalibrationCheck?
    ) {
        self.calibration = calibration
        self.trace = trace
        self.baseName = baseName
        self.fittedName = fittedName
        self.check = check
    }

    /// The whole page.
    package var html: String {
        let c = calibration
        let down = c.downWeighted
        var out = HTMLReport.pageStart(
            title: "FeedSim calibration: \(trace)", heading: "Calibration of \(fittedName) from \(trace)")
        out +=
            """
            <p class=\"lead\">\(c.frames.count) frames: fitted on \(c.fitFrames), \(c.heldBackFrames) held back \
            (every \(c.holdOutEvery)th).\u{20}
            """
        out += "Fit: \(HTMLText.escape(c.method.title)); residual scale \(ReportNumber.fixed(c.scaleMs, 3)) ms. "
        out +=
            """
            R² \(ReportNumber.fixed(c.rSquared, 4)) on fitted frames, \
            \(ReportNumber.fixed(c.heldBackRSquared, 4)) on held-back frames\u{20}
            """
        out +=
            """
            (absolute error median \(ReportNumber.fixed(c.heldBackMedianErrorMs, 3)) ms, p90 \
            \(ReportNumber.fixed(c.heldBackP90ErrorMs, 3)) ms).\u{20}
            """
        out += "Base profile: \(HTMLText.escape(baseName)).</p>\n"

        out += "<h2 id=\"fit\">Measured against predicted</h2>\n"
        out +=
            """
            <ul class=\"legend\"><li><span class=\"swatch\" style=\"background:\(Self.fitColor)\"></span>fitted \
            frame</li>
            """
        out +=
            """
            <li><span class=\"swatch\" style=\"border:2px solid \
            \(Self.heldColor);box-sizing:border-box\"></span>held-back frame (ring)</li>
            """
        out +=
            """
            <li><span class=\"swatch\" style=\"background:\(Self.downColor)\"></span>down-weighted below \
            0.5</li></ul>\n
            """
        out += "<figure class=\"wide\">\(ScatterPlot.measuredAgainstPredicted(c).svg)</figure>\n"

        out += "<h2 id=\"residuals\">Residuals over the trace</h2>\n"
        out +=
            """
            <p class=\"hint\">Measured minus predicted, ms, by frame in trace order. \(down.count) of \
            \(c.fitFrames) fitted frames down-weighted\u{20}
            """
        out +=
            """
            (\(ReportNumber.fixed(Double(down.count) / Double(max(c.fitFrames, 1)) * 100, 1))%); red: weight \
            below 0.5.</p>\n
            """
        out += "<figure class=\"wide\">\(ScatterPlot.residuals(c).svg)</figure>\n"

        out += "<h2 id=\"down-weighted\">Down-weighted frames</h2>\n"
        if down.isEmpty {
            let why = c.method == .leastSquares ? ": the least-squares fit weighs every frame the same" : ""
            out += "<p class=\"note\">No frame was down-weighted\(why).</p>\n"
        } else {
            out +=
                """
                <p class=\"hint\">The \(min(down.count, Self.tableFrames)) lowest weights of \(down.count); the \
                line is the frame's line in \(HTMLText.escape(trace)).</p>\n
                """
            out +=
                """
                <table class=\"down\"><thead><tr><th>line</th><th>measured ms</th><th>predicted \
                ms</th><th>residual ms</th><th>weight</th></tr></thead><tbody>\n
                """
            for frame in down.prefix(Self.tableFrames) {
                out +=
                    """
                    <tr><td>\(frame.line)</td><td>\(ReportNumber.fixed(frame.measuredMs, 3))</td>\
                    <td>\(ReportNumber.fixed(frame.predictedMs, 3))</td>
                    """
                out +=
                    """
                    <td>\(ReportNumber.fixed(frame.measuredMs - frame.predictedMs, 3))</td>\
                    <td>\(ReportNumber.fixed(frame.weight, 3))</td></tr>\n
                    """
            }
            out += "</tbody></table>\n"
        }

        out += "<h2 id=\"costs\">Costs: base against fitted</h2>\n"
        out +=
            """
            <p class=\"hint\">Each row on its own scale, ns per unit. Grey: \(HTMLText.escape(baseName)); blue: \
            fitted, with its 95% interval.\u{20}
            """
        out += "Terms the trace does not fit keep the base cost; terms it cannot identify are marked.</p>\n"
        out += "<figure class=\"wide\">\(CostBars(terms: c.terms).svg)</figure>\n"

        if let check {
            out += "<h2 id=\"check\">Check on \(HTMLText.escape(check.scenario))</h2>\n"
            out +=
                """
                <p class=\"hint\">Main-thread frame time, ms, nearest rank, with the change against the trace; \
                \(check.runs) run\(check.runs == 1 ? "" : "s") of the scenario per profile.\u{20}
                """
            out += "The scenario's frames are not the trace's: pick one that plays what the trace recorded.</p>\n"
            out +=
                """
                <table class=\"check\"><thead><tr><th \
                class=\"text\"></th><th>frames</th><th>p50</th><th>p90</th><th>p99</th></tr></thead><tbody>\n
                """
            for (label, values, frames) in [
                ("trace", check.trace, check.traceFrames),
                ("\(fittedName) (fitted)", check.fitted, check.fittedFrames),
                ("\(baseName) (base)", check.base, check.baseFrames),
            ] {
                out += "<tr><td class=\"text\">\(HTMLText.escape(label))</td><td>\(frames)</td>"
                for (value, reference) in zip(values.all, check.trace.all) {
                    let change =
                        label == "trace" || reference <= 0
                        ? ""
                        : " (" + (value >= reference ? "+" : "") + ReportNumber.fixed((value / reference - 1) * 100, 1)
                            + "%)"
                    out += "<td>\(ReportNumber.fixed(value, 3))\(change)</td>"
                }
                out += "</tr>\n"
            }
            out += "</tbody></table>\n"
        }
        out += "</body>\n</html>\n"
        return out
    }
}

/// A scatter of frames drawn with at most one mark per pixel and class, so
/// its size is bounded whatever the trace's length; later classes are drawn
/// over earlier ones.
struct ScatterPlot {
    /// One mark class: its colour, radius and points (x, y in data units).
    struct Series {
        var name: String
        var color: String
        var radius: Double
        var points: [(x: Double, y: Double)]
        /// Drawn as rings, so the marks under them still show.
        var hollow = false
    }

    static let width = 1100.0
    static let height = 320.0
    static let marginLeft = 60.0
    static let marginRight = 16.0
    static let marginTop = 16.0
    static let marginBottom = 40.0

    var title: String
    var xLabel: String
    var yLabel: String
    var xRange: ClosedRange<Double>
    var yRange: ClosedRange<Double>
    var series: [Series]
    /// Draw y = x (measured against predicted).
    var diagonal = false
    /// Draw y = 0 (residuals).
    var zeroLine = false

    /// Measured against predicted frame time, fitted frames, held-back
    /// frames and frames down-weighted below 0.5.
    static func measuredAgainstPredicted(_ c: Calibration) -> ScatterPlot {
        let top = AxisScale.covering(c.frames.map { max($0.measuredMs, $0.predictedMs) }.max() ?? 1).maximum
        return ScatterPlot(
            title: "Measured against predicted frame time", xLabel: "predicted (ms)", yLabel: "measured (ms)",
            xRange: 0...top, yRange: 0...top,
            series: series(c) { _, frame in (frame.predictedMs, frame.measuredMs) }, diagonal: true)
    }

    /// Residual (measured − predicted) by frame index.
    static func residuals(_ c: Calibration) -> ScatterPlot {
        let largest = c.frames.map { abs($0.measuredMs - $0.predictedMs) }.max() ?? 1
        let scale = AxisScale.covering(largest).maximum
        return ScatterPlot(
            title: "Residuals over the trace", xLabel: "frame", yLabel: "residual (ms)",
            xRange: 0...max(Double(c.frames.count - 1), 1), yRange: -scale...scale,
            series: series(c) { index, frame in (Double(index), frame.measuredMs - frame.predictedMs) }, zeroLine: true)
    }

    /// The frames as three series; `point` gets each frame's position in the trace.
    private static func series(_ c: Calibration, _ point: (Int, Calibration.FrameFit) -> (Double, Double)) -> [Series] {
        let all = c.frames.enumerated()
        func points(_ include: (Calibration.FrameFit) -> Bool) -> [(x: Double, y: Double)] {
            all.filter { include($0.element) }.map { point($0.offset, $0.element) }.map { (x: $0.0, y: $0.1) }
        }
        return [
            Series(name: "fitted", color: CalibrationReport.fitColor, radius: 1.5, points: points { !$0.heldBack }),
            Series(
                name: "held back", color: CalibrationReport.heldColor, radius: 2.2, points: points(\.heldBack),
                hollow: true),
            Series(
                name: "down-weighted", color: CalibrationReport.downColor, radius: 2.6,
                points: points { !$0.heldBack && $0.weight < 0.5 }),
        ]
    }

    var svg: String {
        typealias P = ScatterPlot
        let n = SVGPlot.n
        let plotWidth = P.width - P.marginLeft - P.marginRight
        let plotHeight = P.height - P.marginTop - P.marginBottom
        let left = P.marginLeft, top = P.marginTop, bottom = P.marginTop + plotHeight, right = P.marginLeft + plotWidth
        func x(_ v: Double) -> Double {
            left + plotWidth * min(max((v - xRange.lowerBound) / (xRange.upperBound - xRange.lowerBound), 0), 1)
        }
        func y(_ v: Double) -> Double {
            bottom - plotHeight * min(max((v - yRange.lowerBound) / (yRange.upperBound - yRange.lowerBound), 0), 1)
        }
        var out =
            """
            <svg class=\"scatter-plot\" viewBox=\"0 0 \(n(P.width)) \(n(P.height))\" width=\"\(n(P.width))\" \
            height=\"\(n(P.height))\" role=\"img\" aria-label=\"\(HTMLText.escape(title))\">\n
            """
        out += "<title>\(HTMLText.escape(title))</title>\n"
        out +=
            """
            <rect x=\"\(n(left))\" y=\"\(n(top))\" width=\"\(n(plotWidth))\" height=\"\(n(plotHeight))\" \
            fill=\"#fbfbfd\" stroke=\"#d2d2d7\"/>\n
            """
        let yScale = AxisScale.covering(max(abs(yRange.lowerBound), abs(yRange.upperBound)))
        for tick in yScale.ticks.flatMap({ yRange.lowerBound < 0 && $0 > 0 ? [-$0, $0] : [$0] })
        where yRange.contains(tick) {
            out +=
                """
                <line x1=\"\(n(left))\" y1=\"\(n(y(tick)))\" x2=\"\(n(right))\" y2=\"\(n(y(tick)))\" \
                stroke=\"#e5e5ea\"/>
                """
            out +=
                """
                <text x=\"\(n(left - 6))\" y=\"\(n(y(tick) + 4))\" text-anchor=\"end\" font-size=\"11\" \
                fill=\"#555\">\(ReportNumber.fixed(tick, yScale.decimals))</text>\n
                """
        }
        let xScale = AxisScale.covering(xRange.upperBound, ticks: 10)
        for tick in xScale.ticks where tick <= xRange.upperBound + 1e-9 {
            out +=
                """
                <line x1=\"\(n(x(tick)))\" y1=\"\(n(bottom))\" x2=\"\(n(x(tick)))\" y2=\"\(n(bottom + 4))\" \
                stroke=\"#555\"/>
                """
            out +=
                """
                <text x=\"\(n(x(tick)))\" y=\"\(n(bottom + 16))\" text-anchor=\"middle\" font-size=\"11\" \
                fill=\"#555\">\(ReportNumber.fixed(tick, xScale.decimals))</text>\n
                """
        }
        out +=
            """
            <text x=\"\(n((left + right) / 2))\" y=\"\(n(P.height - 4))\" text-anchor=\"middle\" font-size=\"12\" \
            fill=\"#333\">\(HTMLText.escape(xLabel))</text>\n
            """
        out +=
            """
            <text x=\"14\" y=\"\(n((top + bottom) / 2))\" text-anchor=\"middle\" font-size=\"12\" fill=\"#333\" \
            transform=\"rotate(-90 14 \(n((top + bottom) / 2)))\">\(HTMLText.escape(yLabel))</text>\n
            """
        if diagonal {
            let end = min(xRange.upperBound, yRange.upperBound)
            out +=
                """
                <line class=\"diagonal\" x1=\"\(n(x(0)))\" y1=\"\(n(y(0)))\" x2=\"\(n(x(end)))\" \
                y2=\"\(n(y(end)))\" stroke=\"#1d1d1f\" stroke-dasharray=\"6 4\"/>\n
                """
        }
        if zeroLine {
            out +=
                """
                <line class=\"zero\" x1=\"\(n(left))\" y1=\"\(n(y(0)))\" x2=\"\(n(right))\" y2=\"\(n(y(0)))\" \
                stroke=\"#1d1d1f\" stroke-dasharray=\"6 4\"/>\n
                """
        }
        for item in series {
            // One mark per pixel: the first point to land there.
            var seen = Set<Int64>()
            let paint =
                item.hollow ? "fill=\"none\" stroke=\"\(item.color)\" stroke-width=\"1\"" : "fill=\"\(item.color)\""
            out += "<g class=\"\(HTMLText.identifier(item.name))\" \(paint)>"
            for point in item.points {
                let px = x(point.x).rounded(), py = y(point.y).rounded()
                guard seen.insert(Int64(px) * 100_000 + Int64(py)).inserted else { continue }
                out += "<circle cx=\"\(n(px))\" cy=\"\(n(py))\" r=\"\(n(item.radius))\"/>"
            }
            out += "</g>\n"
        }
        out += "</svg>"
        return out
    }
}

/// A row per cost term: the base cost as a grey bar, the fitted cost as a
/// blue bar with its 95% interval as a whisker, each row on its own scale.
struct CostBars {
    var terms: [Calibration.TermFit]

    static let width = 1100.0
    static let rowHeight = 30.0
    static let labelWidth = 250.0
    static let valueWidth = 290.0
    static let marginTop = 8.0

    var svg: String {
        typealias B = CostBars
        let n = SVGPlot.n
        let height = B.marginTop * 2 + Double(terms.count) * B.rowHeight
        let barLeft = B.labelWidth
        let barWidth = B.width - B.labelWidth - B.valueWidth
        var out =
            """
            <svg class=\"cost-bars\" viewBox=\"0 0 \(n(B.width)) \(n(height))\" width=\"\(n(B.width))\" \
            height=\"\(n(height))\" role=\"img\" aria-label=\"Costs, base against fitted\">\n
            """
        out += "<title>Costs, base against fitted, with 95% intervals</title>\n"
        for (row, term) in terms.enumerated() {
            let top = B.marginTop + Double(row) * B.rowHeight
            let upper = term.interval?.upperBound ?? term.fitted
            let scale = max(term.base, term.fitted, upper, 1)
            func w(_ value: Double) -> Double { barWidth * min(max(value / scale, 0), 1) }
            out +=
                """
                <text x=\"\(n(barLeft - 8))\" y=\"\(n(top + 18))\" text-anchor=\"end\" font-size=\"12\" \
                fill=\"#1d1d1f\">\(HTMLText.escape(term.term.key))</text>\n
                """
            out +=
                """
                <rect class=\"base\" x=\"\(n(barLeft))\" y=\"\(n(top + 4))\" width=\"\(n(w(term.base)))\" \
                height=\"9\" fill=\"\(CalibrationReport.baseColor)\"><title>base \
                \(ReportNumber.fixed(term.base, 1)) ns</title></rect>\n
                """
            let note: String
            switch term.outcome {
            case .fitted:
                out +=
                    """
                    <rect class=\"fitted\" x=\"\(n(barLeft))\" y=\"\(n(top + 14))\" \
                    width=\"\(n(w(term.fitted)))\" height=\"9\" \
                    fill=\"\(CalibrationReport.fitColor)\"><title>fitted \(ReportNumber.fixed(term.fitted, 1)) \
                    ns</title></rect>\n
                    """
                if let interval = term.interval {
                    let color = term.unidentified == nil ? "#1d1d1f" : CalibrationReport.downColor
                    let y = n(top + 18.5)
                    out +=
                        """
                        <line class=\"interval\" x1=\"\(n(barLeft + w(interval.lowerBound)))\" y1=\"\(y)\" \
                        x2=\"\(n(barLeft + w(interval.upperBound)))\" y2=\"\(y)\" stroke=\"\(color)\" \
                        stroke-width=\"1.5\"/>
                        """
                    for end in [interval.lowerBound, interval.upperBound] {
                        out +=
                            """
                            <line x1=\"\(n(barLeft + w(end)))\" y1=\"\(n(top + 14))\" \
                            x2=\"\(n(barLeft + w(end)))\" y2=\"\(n(top + 23))\" stroke=\"\(color)\" \
                            stroke-width=\"1.5\"/>
                            """
                    }
                    out += "\n"
                }
                let change =
                    term.base > 0
                    ? " (" + (term.fitted >= term.base ? "+" : "")
                        + ReportNumber.fixed((term.fitted / term.base - 1) * 100, 1) + "%)" : ""
                let width =
                    term.relativeHalfWidth.map { " ±" + ReportNumber.fixed($0 * 100, 1) + "%" }
                    ?? (term.fitted == 0 ? " held at 0" : "")
                note =
                    "\(Calibration.format(term.fitted, term.fitted < 100 ? 2 : 0)) ns\(change)\(width)"
                    + (term.unidentified == nil ? "" : " not identified")
            case .notInTrace: note = "kept: not in trace"
            case .allZero: note = "kept: all zeros"
            case .dependent: note = "kept: not separable"
            }
            let color = term.unidentified == nil ? "#333" : CalibrationReport.downColor
            out +=
                """
                <text x=\"\(n(barLeft + barWidth + 8))\" y=\"\(n(top + 18))\" font-size=\"11\" \
                fill=\"\(color)\">\(HTMLText.escape(note))</text>\n
                """
        }
        out += "</svg>"
        return out
    }
}
