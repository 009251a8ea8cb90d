import CSVCodec
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// A short scenario with two variants, a refresh that lands posts above the
/// reader (drift for `none`, none for `anchor`) and a rotation; its first
/// frames overrun the 60 Hz budget.
private let smallScenario = """
    {
      "schema_version": 1,
      "name": "report-small",
      "description": "A short session for the report tests: a drag, a refresh that lands posts above the reader, and a \
    rotation; two position strategies.",
      "device": "iphone-60hz",
      "seed": 7,
      "duration_s": 12,
      "feed": { "post_count": 120, "media_fraction": 0.4 },
      "server": { "latency_ms": 300 },
      "engine": { "estimated_item_height_pt": 220, "debounce_ms": 50 },
      "variants": [
        { "name": "none", "position_strategy": "none" },
        { "name": "anchor", "position_strategy": "anchor" }
      ],
      "script": [
        { "at_ms": 500, "action": "drag", "distance_pt": 900, "duration_ms": 500, "release": "fling" },
        { "at_ms": 4000, "action": "new_posts", "count": 6, "delivery": "server" },
        { "at_ms": 5000, "action": "refresh" },
        { "at_ms": 8000, "action": "rotate", "width_pt": 844, "height_pt": 390 }
      ]
    }
    """

/// A scratch folder with the small scenario run into `out/` (with
/// `--frames` when `frames`, and `extra` arguments).
func runSmallScenario(frames: Bool, extra: [String] = []) throws -> ScratchFolder {
    let folder = try ScratchFolder(prefix: "feedsim-report")
    try folder.copyDeviceProfiles()
    try folder.write(smallScenario, to: "small.json")
    let outcome = try FeedSimProcess.run(
        ["run", "small.json", "--quiet", "--out", "out"] + (frames ? ["--frames"] : []) + extra, in: folder.url)
    try #require(outcome.status == 0, "\(outcome)")
    return folder
}

/// A scratch folder with the small scenario run under `seeds` seeds into
/// `out/`, and explore results made from its summary in `exploreFolder`.
func populationFolder(seeds: Int, exploreFolder: String) throws -> ScratchFolder {
    let folder = try runSmallScenario(frames: false, extra: ["--seeds", String(seeds)])
    try folder.write(
        try exploreResults(fromSummary: String(contentsOf: folder.appending("out/summary.csv"), encoding: .utf8)),
        to: "\(exploreFolder)/\(HTMLReport.populationFileName)")
    return folder
}

/// Explore results made from the multi-seed summary `text`, in explore.csv's
/// shape: each seed a session (`session-<seed>`), no allocation counts, and a
/// last column `violations` that counts a drift above 1 pt under any variant
/// but `none`.
func exploreResults(fromSummary text: String) throws -> String {
    let summary = try SummaryFile(text: text, file: "summary.csv")
    let columns = summary.columns.filter { $0 != "allocations" && $0 != "allocated_bytes" }
    var table = CSVTable(columns: columns + [PopulationTable.violationsColumn])
    for row in summary.rows {
        let drift = row.value(of: "drift_max_pt").flatMap(Double.init) ?? 0
        let violations = row.key.variant != "none" && drift > 1 ? "1" : "0"
        let fields = columns.map { column -> String in
            switch column {
            case "scenario": return "session-\(row.seed)"
            case "variant": return row.key.variant
            case "refresh_hz": return String(row.key.refreshHz)
            case "seed": return String(row.seed)
            default: return row.value(of: column) ?? ""
            }
        }
        table.append(fields + [violations])
    }
    return table.text
}

/// The number of occurrences of `needle` in `text`.
private func count(_ needle: String, in text: String) -> Int {
    text.components(separatedBy: needle).count - 1
}

@Suite("HTML report")
struct ReportTests {
    @Test(
        """
        report of a run with frames: plots, budget line, overrun and drift marks, no external references, same \
        bytes twice
        """
    )
    func reportWithFrames() throws {
        let folder = try runSmallScenario(frames: true)
        defer { folder.remove() }
        let first = try FeedSimProcess.run(["report", "out"], in: folder.url)
        try #require(first.status == 0, "\(first)")
        let second = try FeedSimProcess.run(["report", "out", "--out", "again.html"], in: folder.url)
        try #require(second.status == 0, "\(second)")
        let bytes = try Data(contentsOf: folder.appending("out/report.html"))
        #expect(bytes == (try Data(contentsOf: folder.appending("again.html"))), "the same folder gives the same bytes")

        let html = String(decoding: bytes, as: UTF8.self)
        #expect(html.hasPrefix("<!DOCTYPE html>"))
        #expect(html.contains("<svg"))
        #expect(count("<svg class=\"frame-plot\"", in: html) == 2, "one frame plot per run")
        #expect(count("<svg class=\"bar-chart\"", in: html) == 4, "four metrics charted for the one scenario")
        #expect(count("<line class=\"budget\"", in: html) == 2, "a budget line per frame plot")
        #expect(html.contains("budget 16.667 ms"))

        let summary = try SummaryFile.load(url: folder.appending("out/summary.csv"))
        let overruns = summary.rows.map { Int($0.value(of: "overrun_frames") ?? "") ?? 0 }
        let driftEvents = summary.rows.map { Int($0.value(of: "drift_events") ?? "") ?? 0 }
        try #require(overruns.reduce(0, +) > 0, "the scenario is meant to overrun; check it still does")
        #expect(count("<circle class=\"overrun\"", in: html) > 0, "overrun frames are marked")
        #expect(html.contains("fill=\"#D62728\""), "in red")
        try #require(driftEvents.reduce(0, +) > 0, "the scenario is meant to drift; check it still does")
        #expect(html.contains("class=\"drift drift-event\""), "drift events are marked")
        #expect(html.contains(">refresh +"), "with their cause")

        for forbidden in ["http://", "https://", "<script", "src=", "@import", "url("] {
            #expect(!html.contains(forbidden), "the page must be self-contained: found \(forbidden)")
        }
        for row in summary.rows {
            #expect(
                html.contains("<td>\(row.value(of: "frame_work_max_ms")!)</td>"), "the summary table shows \(row.key)")
        }
    }

    @Test("report without frames.csv says so and shows only the summary and the charts")
    func reportWithoutFrames() throws {
        let folder = try runSmallScenario(frames: false)
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(["report", "out", "--out", "page.html"], in: folder.url)
        try #require(outcome.status == 0, "\(outcome)")
        let html = try String(contentsOf: folder.appending("page.html"), encoding: .utf8)
        #expect(html.contains("frames.csv not found"))
        #expect(!html.contains("<svg class=\"frame-plot\""))
        #expect(count("<svg class=\"bar-chart\"", in: html) == 4)
    }

    @Test("report of a missing folder or a folder without summary.csv is a usage error (exit 64)")
    func missingInput() throws {
        let folder = try ScratchFolder(prefix: "feedsim-report")
        defer { folder.remove() }
        try FileManager.default.createDirectory(at: folder.appending("empty"), withIntermediateDirectories: true)
        for path in ["nowhere", "empty"] {
            let outcome = try FeedSimProcess.run(["report", path], in: folder.url)
            #expect(outcome.status == 64, "\(outcome)")
        }
    }

    @Test("text is escaped for HTML")
    func escaping() {
        #expect(
            HTMLText.escape("<a href=\"x\">Tom & Jerry's</a>")
                == "&lt;a href=&quot;x&quot;&gt;Tom &amp; Jerry&#39;s&lt;/a&gt;")
        #expect(HTMLText.identifier("a b-c_d.") == "a~20~b-c_d~2e~")
    }

    @Test("a long run is drawn with at most one point per pixel column, keeping every spike")
    func bucketing() {
        let frameCount = 200_000
        let spikeEvery = 997
        let frames: [FrameWorkPlot.Frame] = (0..<frameCount).map { i in
            let spike = i % spikeEvery == 0
            return FrameWorkPlot.Frame(timeMs: Double(i) * 8.333, workMs: spike ? 40 : 2, overrun: spike)
        }
        let plot = FrameWorkPlot(
            frames: frames, budgetMs: 8.333, durationMs: Double(frameCount) * 8.333, drift: [], title: "t")
        let columns = plot.columns()
        let spikeColumns = columns.filter { $0.frame.workMs == 40 }.count
        let overrunColumns = plot.overrunColumns().count
        let columnsWithSpikes = Set(
            frames.filter(\.overrun).map { frame -> Int in
                Int(frame.timeMs / plot.axisEndMs * FrameWorkPlot.plotWidth)
            }
        ).count
        #expect(columns.count <= Int(FrameWorkPlot.plotWidth))
        #expect(spikeColumns == columnsWithSpikes, "no spike is lost to bucketing")
        #expect(overrunColumns == columnsWithSpikes)
        let svg = plot.svg
        #expect(svg.utf8.count < 120_000, "the SVG stays small: \(svg.utf8.count) bytes")
        #expect(plot.workScale.maximum <= 8.333 * FrameWorkPlot.clipBudgets + 10, "the axis stops near 6 budgets")
        #expect(plot.clippedFrames.isEmpty)
    }

    @Test(
        "axis scales are round and cover their value",
        arguments: [0.0, 0.3, 1, 4.421, 7, 16.667, 29.136, 1876.12, 30154])
    func axisScale(_ value: Double) {
        let scale = AxisScale.covering(value)
        #expect(scale.maximum >= value)
        #expect(scale.ticks.count >= 2 && scale.ticks.count <= 11, "\(scale)")
        #expect(scale.ticks.first == 0)
    }

    @Test(
        """
        multi-seed results: per scenario a distribution plot per metric and the paired differences, every run \
        filed by its seed, same bytes twice
        """
    )
    func multiSeedReport() throws {
        let folder = try runSmallScenario(frames: true, extra: ["--seeds", "3"])
        defer { folder.remove() }
        let first = try FeedSimProcess.run(["report", "out", "--out", "first.html"], in: folder.url)
        try #require(first.status == 0, "\(first)")
        let second = try FeedSimProcess.run(["report", "out", "--out", "second.html"], in: folder.url)
        try #require(second.status == 0, "\(second)")
        let html = try String(contentsOf: folder.appending("first.html"), encoding: .utf8)
        #expect(try Data(contentsOf: folder.appending("second.html")) == Data(html.utf8))
        #expect(count("<svg class=\"distribution-plot\"", in: html) == HTMLReport.populationMetrics.count)
        #expect(
            count("<svg class=\"bar-chart\"", in: html) == 0,
            "a scenario with seeds shows distributions, not one run's bars")
        #expect(
            html.contains("<table class=\"differences\">")
                && html.contains("report-small @ 60 Hz, 3 seeds: paired by seed"))
        #expect(html.contains("<th>seed</th>"))
        for variant in ["none", "anchor"] {
            for seed in 7...9 {
                #expect(
                    count("id=\"run-report-small.\(variant).60.\(seed)\"", in: html) == 1, "\(variant) seed \(seed)")
                #expect(html.contains("Frame work over time, report-small / \(variant) @ 60 Hz, seed \(seed)"))
            }
        }
        #expect(count("<svg class=\"frame-plot\"", in: html) == 6)
        #expect(!html.contains("http://") && !html.contains("https://") && !html.contains("<script"))
    }

    @Test(
        """
        a multi-seed report answers first: the population, its distributions and verdicts, then every run's \
        table, folded and whole
        """
    )
    func multiSeedReportAnswersFirst() throws {
        let folder = try runSmallScenario(frames: false, extra: ["--seeds", "4"])
        defer { folder.remove() }
        let report = try FeedSimProcess.run(["report", "out"], in: folder.url)
        try #require(report.status == 0, "\(report)")
        let html = try String(contentsOf: folder.appending("out/report.html"), encoding: .utf8)

        let population = try #require(
            html.range(of: "8 runs of 1 scenario: 2 variants × 4 seeds"), "the lead gives the population")
        let plot = try #require(html.range(of: "<svg class=\"distribution-plot\""))
        let verdicts = try #require(html.range(of: "<table class=\"differences\">"))
        let folded = try #require(html.range(of: "<details class=\"every-run\" id=\"summary\"><summary>"))
        let table = try #require(html.range(of: "<table class=\"summary\">"))
        #expect(population.lowerBound < plot.lowerBound)
        #expect(
            plot.lowerBound < folded.lowerBound && verdicts.lowerBound < folded.lowerBound,
            "distributions and verdicts come first")
        #expect(folded.upperBound < table.lowerBound, "the table of every run is inside the folded section")
        let body = html[table.upperBound...]
        let rows = try #require(body.range(of: "</table>")).lowerBound
        #expect(count("<tr>", in: String(body[..<rows])) == 1 + 8, "a header and all 8 runs (2 variants × 4 seeds)")

        let single = try runSmallScenario(frames: false)
        defer { single.remove() }
        try #require(try FeedSimProcess.run(["report", "out"], in: single.url).status == 0)
        let page = try String(contentsOf: single.appending("out/report.html"), encoding: .utf8)
        let singleTable = try #require(page.range(of: "<table class=\"summary\">"))
        let bars = try #require(page.range(of: "<svg class=\"bar-chart\""))
        #expect(singleTable.lowerBound < bars.lowerBound, "one run per variant: its table of a few rows still leads")
        #expect(!page.contains("<details class=\"every-run\""))
    }

    @Test(
        """
        explore.csv alone gives a population section: plots per metric, the population table with violations, the \
        paired differences
        """
    )
    func exploreOnly() throws {
        let folder = try populationFolder(seeds: 5, exploreFolder: "explore")
        defer { folder.remove() }
        let report = try FeedSimProcess.run(["report", "explore"], in: folder.url)
        try #require(report.status == 0, "\(report)")
        let html = try String(contentsOf: folder.appending("explore/report.html"), encoding: .utf8)
        #expect(html.contains("<h2>Population: 5 sessions × 2 strategies</h2>"))
        #expect(count("<svg class=\"distribution-plot\"", in: html) == HTMLReport.populationMetrics.count)
        #expect(html.contains("<th>runs with violations</th>") && html.contains("<table class=\"differences\">"))
        #expect(!html.contains("id=\"summary\""), "no summary.csv, no summary table")
        #expect(
            html.contains("<td class=\"text\">drift_max_pt</td>")
                && !html.contains("<td class=\"text\">allocations</td>"),
            "explore results have no allocation counts, so the default metrics leave them out")

        let empty = try FeedSimProcess.run(["report", "nothing-here"], in: folder.url)
        #expect(empty.status == 64, "\(empty)")
    }

    @Test(
        """
        a distribution plot has at most one dot per pixel column, however many runs, and its percentiles are \
        nearest-rank
        """
    )
    func distributionBucketing() {
        let values = (0..<100_000).map { Double($0 % 1000) / 10 }
        let plot = DistributionPlot(
            title: "t", unit: "pt", lanes: [DistributionPlot.Lane(name: "a", color: "#000", values: values)])
        #expect(plot.columns(plot.lanes[0]).count <= Int(DistributionPlot.plotWidth) + 1)
        #expect(plot.columns(plot.lanes[0]).reduce(0) { $0 + $1.runs } == values.count)
        #expect(count("<circle", in: plot.svg) == plot.columns(plot.lanes[0]).count)
        // Median of 0.0 … 99.9, each 100 times: rank 50,000 is 49.9.
        #expect(plot.svg.contains("median 49.900"))
    }

    @Test("Chromium renders the report offline to a page that is not blank")
    func screenshot() throws {
        guard let chromium = Tool.find(["chromium", "chromium-browser"]) else {
            Issue.record(
                """
                No chromium or chromium-browser on PATH: the screenshot test needs headless Chromium. \
                Run scripts/bootstrap (Debian: apt-get install chromium fonts-liberation).
                """)
            return
        }
        guard let python = Tool.find(["python3"]) else {
            Issue.record("No python3 on PATH: the screenshot test decodes the PNG with Python 3's standard library.")
            return
        }
        let folder = try runSmallScenario(frames: true)
        defer { folder.remove() }
        let report = try FeedSimProcess.run(["report", "out"], in: folder.url)
        try #require(report.status == 0, "\(report)")
        try ReportTests.expectRendered(
            folder.appending("out/report.html"), in: folder, chromium: chromium, python: python)
    }

    @Test("Chromium renders the population page of multi-seed and explore results")
    func populationScreenshot() throws {
        guard let chromium = Tool.find(["chromium", "chromium-browser"]), let python = Tool.find(["python3"]) else {
            Issue.record(
                """
                No chromium or python3 on PATH: run scripts/bootstrap (Debian: apt-get install chromium \
                fonts-liberation).
                """
            )
            return
        }
        let folder = try populationFolder(seeds: 6, exploreFolder: "out")
        defer { folder.remove() }
        let report = try FeedSimProcess.run(["report", "out"], in: folder.url)
        try #require(report.status == 0, "\(report)")
        try ReportTests.expectRendered(
            folder.appending("out/report.html"), in: folder, chromium: chromium, python: python)
    }

    /// Renders `page` in headless Chromium and checks the screenshot is a
    /// drawn page, not a blank one; the PNG stays in `folder` as report.png.
    static func expectRendered(_ page: URL, in folder: ScratchFolder, chromium: URL, python: URL) throws {
        let png = folder.appending("report.png")
        let render = try Tool.run(
            chromium,
            [
                "--headless", "--no-sandbox", "--disable-gpu",
                "--user-data-dir=\(folder.appending("chromium-profile").path)",
                "--screenshot=\(png.path)", "--window-size=1280,2000",
                page.absoluteString,
            ], in: folder.url, timeout: 120)
        try #require(render.status == 0 && FileManager.default.fileExists(atPath: png.path), "\(render)")

        let script = FeedSimProcess.packageRoot.appendingPathComponent("Tests/FeedSimCLITests/Fixtures/png_stats.py")
        let stats = try Tool.run(python, [script.path, png.path], in: folder.url, timeout: 300)
        try #require(stats.status == 0, "\(stats)")
        struct Stats: Decodable {
            var width: Int
            var height: Int
            var distinct_colors: Int
            var non_white_fraction: Double
        }
        let decoded = try JSONDecoder().decode(Stats.self, from: Data(stats.stdout.utf8))
        #expect(decoded.width == 1280 && decoded.height == 2000, "\(decoded)")
        #expect(decoded.distinct_colors > 10, "a rendered page has text, bars and lines in many colours: \(decoded)")
        #expect(decoded.non_white_fraction > 0.02, "more than 2% of the page is drawn: \(decoded)")
    }
}

extension ReportTests {
    @Test("Chromium renders the calibration report offline to a page that is not blank")
    func calibrationScreenshot() throws {
        guard let chromium = Tool.find(["chromium", "chromium-browser"]), let python = Tool.find(["python3"]) else {
            Issue.record("The screenshot test needs headless Chromium and python3: run scripts/bootstrap.")
            return
        }
        let (folder, outcome) = try CalibrateCommandTests.calibratedWithReport()
        defer { folder.remove() }
        try #require(outcome.status == 0, "\(outcome)")
        try ReportTests.expectRendered(folder.appending("fit.html"), in: folder, chromium: chromium, python: python)
    }
}
