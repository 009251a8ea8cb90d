import CSVCodec
import FeedScenario
import FoundationEssentials
import SystemSupport

/// A problem that keeps a results folder from becoming a report.
package typealias HTMLReportError = FileProblem

/// One self-contained HTML page about a results folder: a summary table of
/// every run, per scenario its variants side by side as grouped bar charts,
/// and per run (when the folder has frames.csv) frame work over time with
/// the budget, overrun frames and drift records.
///
/// Results that hold a population get distribution plots instead of single
/// values: with several seeds per run (`feedsim run --seeds N`), the page
/// opens with the population's shape, each scenario's charts show every
/// seed's run, lane by variant, with the population table and the paired
/// differences, and the table of every run comes last, folded; an
/// `explore.csv` in the folder (one row per session and strategy) gets a
/// population section of its own, the same plots over every session.
///
/// The page has inline CSS and inline SVG only: no script, no external
/// asset, no link off the page, so it opens offline and can be attached to
/// a CI run. It holds no date and formats every number with fixed decimals:
/// the same folder always gives the same bytes.
package struct HTMLReport: Sendable {
    /// The report's file name inside a results folder, by default.
    package static let defaultFileName = "report.html"

    /// The summary columns the table shows, with their headings; every
    /// column is in summary.csv.
    static let tableColumns: [(column: String, heading: String)] =
        SummaryFile.keyHeadings + Metric.all.filter(\.inReportTable).map { ($0.name, $0.heading) }

    /// The metrics charted per scenario, with their titles.
    static let chartedMetrics: [(column: String, title: String)] = Metric.all.compactMap { metric in
        metric.chartTitle.map { (metric.name, $0) }
    }

    /// Apple's hitch-ratio bands (WWDC21 "Explore UI animation hitches and
    /// the render loop"): good below 5 ms/s, warning to 10, critical above.
    static let hitchRatioWarning = 5.0
    static let hitchRatioCritical = 10.0

    /// A change moving the anchor at least this far is a drift event
    /// (Catbird's verification threshold, as the simulator's drift meter).
    static let driftEventThresholdPt = 1.0

    /// The frames of one run and its budget.
    package struct RunFrames: Sendable {
        var budgetMs: Double?
        var frames: [FrameWorkPlot.Frame] = []
    }

    /// The file of explore results a folder may hold: summary.csv's columns
    /// and `violations`, one row per session and strategy.
    package static let populationFileName = "explore.csv"

    /// The metrics whose distributions population plots show.
    static let populationMetrics = [
        PopulationTable.driftColumn, PopulationTable.hitchColumn, PopulationTable.overrunColumn,
    ]

    /// What the drift and frames of one run are filed under: its key, and
    /// its seed when the files have a `seed` column (`--seeds`).
    package struct RunKey: Hashable {
        var key: SummaryKey
        var seed: UInt64?
    }

    /// The runs, in summary order; `nil` when the folder has explore
    /// results only.
    package let summary: SummaryFile?
    /// The explore results (explore.csv); `nil` when the folder has none.
    package let population: SummaryFile?
    /// Drift records by run; `nil` when the folder has no drift.csv.
    let drift: [RunKey: [FrameWorkPlot.Drift]]?
    /// Frames by run; `nil` when the folder has no frames.csv.
    let frames: [RunKey: RunFrames]?
    /// Whether drift.csv and frames.csv file their rows by seed too.
    let seededRuns: Bool
    /// The explore results read as columns, when explore.csv is too large
    /// to hold as rows (`PopulationColumns.streamingThreshold`); then
    /// `population` is `nil`.
    let populationColumns: PopulationColumns?
    /// The explore results' strategies compared, paired by session.
    let populationComparison: PairedComparison?
    /// Which sessions the explore results are over, from population.json;
    /// nil when the folder has none.
    let explorePopulation: ExplorePopulation?
    /// A multi-seed summary's variants compared per scenario and rate,
    /// paired by seed.
    let seedComparison: SeedComparison?

    /// `package`, like the readers of drift.csv and frames.csv below: the
    /// fuzzer (Fuzz/FeedSimFuzz) builds reports from bytes through them.
    package init(
        summary: SummaryFile?, population: SummaryFile? = nil, drift: [RunKey: [FrameWorkPlot.Drift]]?,
        frames: [RunKey: RunFrames]?
    ) throws(HTMLReportError) {
        try self.init(summary: summary, population: population, populationColumns: nil, drift: drift, frames: frames)
    }

    init(
        summary: SummaryFile?, population: SummaryFile?, populationColumns: PopulationColumns?,
        explorePopulation: ExplorePopulation? = nil, drift: [RunKey: [FrameWorkPlot.Drift]]?,
        frames: [RunKey: RunFrames]?
    ) throws(HTMLReportError) {
        self.summary = summary
        self.population = population
        self.explorePopulation = explorePopulation
        self.populationColumns = populationColumns
        self.drift = drift
        self.frames = frames
        seededRuns =
            (drift?.keys.contains { $0.seed != nil } ?? false) || (frames?.keys.contains { $0.seed != nil } ?? false)
        do throws(StrategyComparisonError) {
            // Each strategy against the first (k − 1 comparisons, corrected
            // together), as compare and explore do by default.
            if let population {
                populationComparison = try PairedComparison(
                    rows: population.rows, baseline: population.rows.first?.key.variant)
            } else if let populationColumns {
                populationComparison = try PairedComparison(
                    columns: populationColumns, metrics: nil, pairing: .firstVariant, bootstrap: PairedBootstrap(),
                    smallestDifferences: ToleranceSet(), correction: .default)
            } else {
                populationComparison = nil
            }
            if let summary, summary.isMultiSeed {
                seedComparison = try SeedComparison(summary: summary, pairing: .firstVariant)
            } else {
                seedComparison = nil
            }
        } catch {
            throw HTMLReportError(
                file: population?.file ?? populationColumns?.file ?? summary?.file ?? "", line: nil,
                problem: error.problem)
        }
    }

    /// Reads summary.csv, drift.csv and (if present) frames.csv and
    /// explore.csv from the results folder `folder`; `name` is how messages
    /// name the folder. A folder with explore.csv needs no summary.csv.
    package static func load(folder: URL, name: String) throws(HTMLReportError) -> HTMLReport {
        func display(_ file: String) -> String { name.hasSuffix("/") ? name + file : name + "/" + file }
        func summaryFile(
            _ file: String, requiredColumns: [String] = RunReports.summaryColumns
        ) throws(HTMLReportError) -> SummaryFile {
            do {
                return try SummaryFile.load(
                    url: folder.appendingPathComponent(file), file: display(file), requiredColumns: requiredColumns)
            } catch {
                throw HTMLReportError(file: error.file, line: error.line, problem: error.problem)
            }
        }
        let populationURL = folder.appendingPathComponent(populationFileName)
        let hasPopulation = FileManager.default.fileExists(atPath: populationURL.path)
        // A large explore.csv is read as columns, as compare reads it.
        let asColumns = hasPopulation && PairedComparison.readsAsColumns(populationURL.path)
        let population =
            hasPopulation && !asColumns
            ? try summaryFile(populationFileName, requiredColumns: PopulationTable.exploreColumns) : nil
        var populationColumns: PopulationColumns?
        if asColumns {
            do {
                populationColumns = try PopulationColumns.read(
                    url: populationURL, file: display(populationFileName),
                    wanted: PairedComparison.defaultMetrics + HTMLReport.populationMetrics)
            } catch {
                throw HTMLReportError(file: error.file, line: error.line, problem: error.problem)
            }
        }
        let summaryURL = folder.appendingPathComponent("summary.csv")
        let summary =
            !hasPopulation || FileManager.default.fileExists(atPath: summaryURL.path)
            ? try summaryFile("summary.csv") : nil
        let driftURL = folder.appendingPathComponent("drift.csv")
        let framesURL = folder.appendingPathComponent("frames.csv")
        let drift =
            summary != nil && FileManager.default.fileExists(atPath: driftURL.path)
            ? try readDrift(driftURL, file: display("drift.csv")) : nil
        let frames =
            summary != nil && FileManager.default.fileExists(atPath: framesURL.path)
            ? try readFrames(framesURL, file: display("frames.csv")) : nil
        let explorePopulation: ExplorePopulation?
        do {
            explorePopulation = hasPopulation ? try ExplorePopulation.load(inFolder: folder) : nil
        } catch {
            throw HTMLReportError(file: error.file, line: error.line, problem: error.problem)
        }
        return try HTMLReport(
            summary: summary, population: population, populationColumns: populationColumns,
            explorePopulation: explorePopulation, drift: drift, frames: frames)
    }

    // MARK: Reading

    /// The rows of a CSV file as (line, field by column) with the
    /// `required` columns checked.
    private static func rows(
        _ data: Data, file: String, required: [String]
    ) throws(HTMLReportError) -> (seeded: Bool, rows: [(line: Int, field: (String) -> String)]) {
        let records: [CSVReader.Record]
        do {
            records = try CSVReader.records(data)
        } catch {
            throw HTMLReportError(file: file, line: error.line, problem: error.problem)
        }
        guard let header = records.first?.fields else {
            throw HTMLReportError(file: file, line: 1, problem: "the file is empty; expected a header line")
        }
        let position = Dictionary(header.enumerated().map { ($1, $0) }, uniquingKeysWith: { first, _ in first })
        let missing = required.filter { position[$0] == nil }
        guard missing.isEmpty else {
            throw HTMLReportError(
                file: file, line: 1,
                problem: "missing column\(missing.count == 1 ? "" : "s") \(missing.joined(separator: ", "))")
        }
        let rows = records.dropFirst().filter { !$0.isBlank }
        if let short = rows.first(where: { $0.fields.count != header.count }) {
            throw HTMLReportError(
                file: file, line: short.line,
                problem: "the row has \(short.fields.count) fields but the header has \(header.count) columns")
        }
        return (
            position[RunReports.seedColumn] != nil,
            rows.map { record in
                (
                    record.line,
                    { column in
                        let index = position[column]!
                        return index < record.fields.count ? record.fields[index] : ""
                    }
                )
            }
        )
    }

    private static func key(
        _ field: (String) -> String, file: String, line: Int, seeded: Bool
    ) throws(HTMLReportError) -> RunKey {
        guard let hz = Int(field("refresh_hz")) else {
            throw HTMLReportError(
                file: file, line: line, problem: "refresh_hz is \"\(field("refresh_hz"))\", expected a whole number")
        }
        for column in ["scenario", "variant"] where SummaryFile.hasControlCharacter(field(column)) {
            throw HTMLReportError(file: file, line: line, problem: "the \(column) field holds a control character")
        }
        var seed: UInt64?
        if seeded {
            guard let value = UInt64(field(RunReports.seedColumn)) else {
                throw HTMLReportError(
                    file: file, line: line,
                    problem: "seed is \"\(field(RunReports.seedColumn).prefix(40))\", expected a whole number")
            }
            seed = value
        }
        return RunKey(
            key: SummaryKey(scenario: field("scenario"), variant: field("variant"), refreshHz: hz), seed: seed)
    }

    private static func number(
        _ field: (String) -> String, _ column: String, file: String, line: Int
    ) throws(HTMLReportError) -> Double {
        // Double's own parser: these files have far more rows than the
        // summary, and a report needs no stricter check than "a number".
        // Finite, though: every plotted value becomes a pixel position.
        guard let value = Double(field(column)), value.isFinite else {
            throw HTMLReportError(
                file: file, line: line,
                problem: "\(column) is \"\(field(column).prefix(40))\", expected a finite number")
        }
        return value
    }

    /// The bytes of the file at `url`.
    static func contents(of url: URL, file: String) throws(HTMLReportError) -> Data {
        var isDirectory = false
        if FileManager.default.fileExists(atPath: url.path, isDirectory: &isDirectory), isDirectory {
            throw HTMLReportError(file: file, line: nil, problem: "is a folder, expected a CSV file")
        }
        do {
            return try Data(contentsOf: url)
        } catch {
            throw HTMLReportError(
                file: file, line: nil, problem: "cannot read the file (\(error.readableDescription))")
        }
    }

    static func readDrift(_ url: URL, file: String) throws(HTMLReportError) -> [RunKey: [FrameWorkPlot.Drift]] {
        try readDrift(contents(of: url, file: file), file: file)
    }

    static func readFrames(_ url: URL, file: String) throws(HTMLReportError) -> [RunKey: RunFrames] {
        try readFrames(contents(of: url, file: file), file: file)
    }

    /// Drift records by run from the bytes of a drift.csv.
    package static func readDrift(_ data: Data, file: String) throws(HTMLReportError) -> [RunKey: [FrameWorkPlot.Drift]]
    {
        var drift: [RunKey: [FrameWorkPlot.Drift]] = [:]
        let table = try rows(
            data, file: file, required: ["scenario", "variant", "refresh_hz", "time_ms", "cause", "drift_pt"])
        for (line, field) in table.rows {
            let key = try key(field, file: file, line: line, seeded: table.seeded)
            let time = try number(field, "time_ms", file: file, line: line)
            let amount: Double?
            switch field("drift_pt") {
            case "lost", "": amount = nil
            default: amount = try number(field, "drift_pt", file: file, line: line)
            }
            let isEvent = amount.map { abs($0) >= driftEventThresholdPt } ?? true
            drift[key, default: []].append(
                FrameWorkPlot.Drift(timeMs: time, cause: field("cause"), driftPt: amount, isEvent: isEvent))
        }
        return drift
    }

    /// Frames by run from the bytes of a frames.csv.
    package static func readFrames(_ data: Data, file: String) throws(HTMLReportError) -> [RunKey: RunFrames] {
        var frames: [RunKey: RunFrames] = [:]
        let table = try rows(
            data, file: file,
            required: ["scenario", "variant", "refresh_hz", "time_ms", "work_ms", "budget_ms", "overrun"])
        for (line, field) in table.rows {
            let key = try key(field, file: file, line: line, seeded: table.seeded)
            let frame = FrameWorkPlot.Frame(
                timeMs: try number(field, "time_ms", file: file, line: line),
                workMs: try number(field, "work_ms", file: file, line: line),
                overrun: field("overrun") == "1")
            let budget = try number(field, "budget_ms", file: file, line: line)
            frames[key, default: RunFrames()].frames.append(frame)
            if frames[key]!.budgetMs == nil { frames[key]!.budgetMs = budget }
        }
        return frames
    }

    // MARK: Writing

    /// The scenarios in the order the summary first lists them, each with
    /// its runs in summary order.
    var scenarios: [(name: String, runs: [SummaryRow])] {
        var order: [String] = []
        var runs: [String: [SummaryRow]] = [:]
        for row in summary?.rows ?? [] {
            if runs[row.key.scenario] == nil { order.append(row.key.scenario) }
            runs[row.key.scenario, default: []].append(row)
        }
        return order.map { ($0, runs[$0]!) }
    }

    /// The whole page.
    package var html: String {
        let scenarios = self.scenarios
        var out = HTMLReport.pageStart(title: "FeedSim report", heading: "FeedSim report")
        if let populationComparison, let population {
            out += populationSection(population, comparison: populationComparison)
        } else if let populationComparison, let populationColumns {
            out += populationSection(populationColumns, comparison: populationComparison)
        }
        guard let summary else {
            out += "</body>\n</html>\n"
            return out
        }
        let frameNote =
            frames == nil
            ? """
            This folder has no frames.csv, so there are no per-run frame plots: run <code>feedsim run \
            --frames</code> for them. The per-scenario charts and the table of every run are shown.
            """
            : """
            Per run: frame work over time with the frame budget, overrun frames in red and drift records as \
            vertical lines.
            """
        let seedNote =
            summary.isMultiSeed
            ? """
             Several seeds per run (<code>feedsim run --seeds</code>): each scenario shows the distribution of \
            its seeds' runs, its population table and its variants compared paired by seed.
            """
            : ""
        out +=
            """
            <p class=\"lead\">\(summary.rows.count) run\(summary.rows.count == 1 ? "" : "s") of \
            \(scenarios.count) \
            scenario\(scenarios.count == 1 ? "" : "s")\(HTMLReport.populationShape(summary)).\(seedNote) \
            \(frameNote)</p>\n
            """
        if frames == nil {
            out += "<p class=\"note missing-frames\">frames.csv not found: per-run frame plots are not shown.</p>\n"
        }
        if drift == nil { out += "<p class=\"note\">drift.csv not found: drift records are not shown.</p>\n" }
        out += "<nav><strong>Scenarios:</strong> "
        out += scenarios.map { "<a href=\"#\(HTMLReport.scenarioID($0.name))\">\(HTMLText.escape($0.name))</a>" }
            .joined(separator: " · ")
        if summary.isMultiSeed {
            out += " · <a href=\"#summary\">every run</a>"
        }
        out += "</nav>\n"
        // A population is read by its distributions and verdicts, which come
        // first; its table of every run (seeds × variants × rates, hundreds
        // of rows) is folded at the end, whole. One run per variant keeps
        // its few rows on top.
        if !summary.isMultiSeed { out += summaryTable(summary) }
        for scenario in scenarios {
            out += scenarioSection(scenario.name, runs: scenario.runs)
        }
        if summary.isMultiSeed { out += summaryTable(summary) }
        out += "</body>\n</html>\n"
        return out
    }

    /// The table of every run: under a heading, or for a multi-seed
    /// summary folded in a `<details>` whose summary line counts its rows.
    private func summaryTable(_ summary: SummaryFile) -> String {
        var out =
            summary.isMultiSeed
            ? """
            <details class=\"every-run\" id=\"summary\"><summary>Every run: \(summary.rows.count) rows, one per \
            scenario, variant, rate and seed (summary.csv)</summary>\n
            """
            : "<h2 id=\"summary\">Summary</h2>\n"
        out +=
            """
            <p class=\"hint\">Hitch ratio bands (Apple): <span class=\"good\">good &lt; \
            \(ReportNumber.fixed(HTMLReport.hitchRatioWarning, 0))</span>\u{20}
            """
        out +=
            """
            <span class=\"warning\">warning \
            \(ReportNumber.fixed(HTMLReport.hitchRatioWarning, 0))\
            –\(ReportNumber.fixed(HTMLReport.hitchRatioCritical, 0))</span>\u{20}
            """
        out +=
            """
            <span class=\"critical\">critical &gt; \(ReportNumber.fixed(HTMLReport.hitchRatioCritical, 0))</span> \
            ms/s. Every column is in summary.csv.</p>\n
            """
        out += "<div class=\"scroll\"><table class=\"summary\">\n<thead><tr>"
        // A multi-seed summary shows each run's seed after its rate.
        let columns =
            summary.isMultiSeed
            ? Array(HTMLReport.tableColumns.prefix(SummaryFile.keyColumns.count)) + [(SummaryFile.seedColumn, "seed")]
                + HTMLReport.tableColumns.dropFirst(SummaryFile.keyColumns.count)
            : HTMLReport.tableColumns
        out += columns.map { column in
            let text = SummaryFile.textColumns.contains(column.column) ? " class=\"text\"" : ""
            return "<th\(text)>\(HTMLText.escape(column.heading))</th>"
        }.joined()
        out += "</tr></thead>\n<tbody>\n"
        for row in summary.rows {
            out += "<tr>"
            for (column, _) in columns {
                switch column {
                case "scenario":
                    out += "<td class=\"text\">\(HTMLText.escape(row.key.scenario))</td>"
                case "variant":
                    out += "<td class=\"text\"><a href=\"#\(runID(row))\">\(HTMLText.escape(row.key.variant))</a></td>"
                case "refresh_hz":
                    out += "<td>\(row.key.refreshHz)</td>"
                case SummaryFile.seedColumn:
                    out += "<td>\(row.seed)</td>"
                case "trace_digest":
                    out += "<td class=\"text mono\">\(HTMLText.escape(row.value(of: column) ?? ""))</td>"
                case "hitch_ratio_ms_per_s":
                    let value = row.value(of: column) ?? ""
                    out +=
                        """
                        <td \
                        class=\"\(HTMLReport.hitchBand(SummaryFile.parseNumber(value)))\
                        \">\(HTMLText.escape(value))</td>
                        """
                default:
                    out += "<td>\(HTMLText.escape(row.value(of: column) ?? ""))</td>"
                }
            }
            out += "</tr>\n"
        }
        out += "</tbody>\n</table></div>\n"
        if summary.isMultiSeed { out += "</details>\n" }
        return out
    }

    /// A multi-seed summary's shape after its run count, e.g. ": 5 variants
    /// × 20 seeds"; empty for one run per variant.
    static func populationShape(_ summary: SummaryFile) -> String {
        guard summary.isMultiSeed else { return "" }
        var variants: Set<String> = []
        var seeds: Set<UInt64> = []
        var rates: Set<Int> = []
        for row in summary.rows {
            variants.insert(row.key.variant)
            seeds.insert(row.seed)
            rates.insert(row.key.refreshHz)
        }
        func count(_ n: Int, _ noun: String) -> String { "\(n) \(noun)\(n == 1 ? "" : "s")" }
        return ": " + count(variants.count, "variant") + (rates.count > 1 ? " × " + count(rates.count, "rate") : "")
            + " × " + count(seeds.count, "seed")
    }

    private func scenarioSection(_ name: String, runs: [SummaryRow]) -> String {
        var variants: [String] = []
        var rates: [Int] = []
        for run in runs {
            if !variants.contains(run.key.variant) { variants.append(run.key.variant) }
            if !rates.contains(run.key.refreshHz) { rates.append(run.key.refreshHz) }
        }
        var out =
            "<section class=\"scenario\" id=\"\(HTMLReport.scenarioID(name))\">\n<h2>\(HTMLText.escape(name))</h2>\n"
        out += "<ul class=\"legend\">"
        for (i, variant) in variants.enumerated() {
            out +=
                """
                <li><span class=\"swatch\" \
                style=\"background:\(SVGPlot.color(i))\"></span>\(HTMLText.escape(variant))</li>
                """
        }
        out += "</ul>\n"
        if let group = seedComparison?.groups.filter({ $0.scenario == name }), !group.isEmpty {
            out += seedPopulation(runs: runs, variants: variants, rates: rates, groups: group)
            if frames != nil {
                for run in runs { out += runSection(run) }
            }
            out += "</section>\n"
            return out
        }
        out += "<div class=\"charts\">\n"
        for (column, title) in HTMLReport.chartedMetrics {
            let series = variants.enumerated().map { i, variant in
                GroupedBarChart.Series(
                    name: variant, color: SVGPlot.color(i),
                    values: rates.map { hz in
                        let key = SummaryKey(scenario: name, variant: variant, refreshHz: hz)
                        guard let row = runs.first(where: { $0.key == key }), let text = row.value(of: column),
                            let number = SummaryFile.parseNumber(text)
                        else { return nil }
                        return (number, text)
                    })
            }
            let references =
                column == "hitch_ratio_ms_per_s"
                ? [
                    GroupedBarChart.Reference(value: HTMLReport.hitchRatioWarning, label: "warning"),
                    GroupedBarChart.Reference(value: HTMLReport.hitchRatioCritical, label: "critical"),
                ]
                : []
            let chart = GroupedBarChart(
                title: title, groups: rates.map { "\($0) Hz" }, series: series, references: references)
            out += "<figure>\(chart.svg)</figure>\n"
        }
        out += "</div>\n"
        if frames != nil {
            for run in runs { out += runSection(run) }
        }
        out += "</section>\n"
        return out
    }

    private func runSection(_ run: SummaryRow) -> String {
        let key = run.key
        let filed = RunKey(key: key, seed: seededRuns ? run.seed : nil)
        let recorded = frames?[filed]
        let records = drift?[filed] ?? []
        let name = summary?.isMultiSeed == true ? "\(key.description), seed \(run.seed)" : key.description
        var out = "<section class=\"run\" id=\"\(runID(run))\">\n<h3>\(HTMLText.escape(name))</h3>\n"
        guard let recorded, !recorded.frames.isEmpty else {
            out += "<p class=\"note\">No frames of this run in frames.csv: nothing rendered.</p>\n</section>\n"
            return out
        }
        let budget = recorded.budgetMs ?? 1000 / Double(key.refreshHz)
        let durationMs = (run.value(of: "duration_s").flatMap(SummaryFile.parseNumber) ?? 0) * 1000
        let plot = FrameWorkPlot(
            frames: recorded.frames, budgetMs: budget, durationMs: durationMs, drift: records,
            title: "Frame work over time, \(name)")
        let overruns = recorded.frames.filter(\.overrun).count
        let events = records.filter(\.isEvent).count
        out +=
            """
            <p class=\"hint\">\(recorded.frames.count) frames, \(overruns) overrun (red); \(records.count) drift \
            record\(records.count == 1 ? "" : "s"), \(events) of them drift events (purple; grey moved less than \
            \(ReportNumber.fixed(HTMLReport.driftEventThresholdPt, 0)) pt).</p>\n
            """
        out += "<figure class=\"wide\">\(plot.svg)</figure>\n"
        let clipped = plot.clippedFrames
        if let highest = clipped.map(\.workMs).max() {
            out +=
                """
                <p class=\"hint\">\(clipped.count) frame\(clipped.count == 1 ? "" : "s") above \
                \(ReportNumber.fixed(plot.workScale.maximum, 1)) ms drawn at the top edge (largest \
                \(ReportNumber.fixed(highest, 3)) ms).</p>\n
                """
        }
        if !records.isEmpty {
            out +=
                """
                <details><summary>\(records.count) drift record\(records.count == 1 ? "" : "s")</summary>\n<table \
                class=\"drift\"><thead><tr><th>time s</th><th>cause</th><th>drift pt</th></tr></thead><tbody>\n
                """
            for record in records {
                let amount = record.driftPt.map { ReportNumber.fixed($0, 2) } ?? "anchor lost"
                out +=
                    """
                    <tr\(record.isEvent ? " class=\"event\"" : "")>\
                    <td>\(ReportNumber.fixed(record.timeMs / 1000, 3))</td><td \
                    class=\"text\">\(HTMLText.escape(record.cause))</td><td>\(amount)</td></tr>\n
                    """
            }
            out += "</tbody></table></details>\n"
        }
        out += "</section>\n"
        return out
    }

    /// A page's start up to its heading: the document type, the head with
    /// `title` and the report's CSS, and the `<h1>` (both escaped here).
    static func pageStart(title: String, heading: String) -> String {
        """
        <!DOCTYPE html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(HTMLText.escape(title))</title>
        <style>
        \(HTMLReport.css)
        </style>
        </head>
        <body>
        <h1>\(HTMLText.escape(heading))</h1>

        """
    }

    /// The CSS class of a hitch ratio's band.
    static func hitchBand(_ ratio: Double?) -> String {
        guard let ratio, ratio.isFinite else { return "" }
        if ratio > hitchRatioCritical { return "critical" }
        if ratio >= hitchRatioWarning { return "warning" }
        return "good"
    }

    static func scenarioID(_ name: String) -> String { "scenario-" + HTMLText.identifier(name) }

    static func runID(_ key: SummaryKey, seed: UInt64? = nil) -> String {
        "run-" + HTMLText.identifier(key.scenario) + "." + HTMLText.identifier(key.variant) + ".\(key.refreshHz)"
            + (seed.map { ".\($0)" } ?? "")
    }

    /// The id of `run`'s section: with its seed in a multi-seed summary.
    func runID(_ run: SummaryRow) -> String {
        HTMLReport.runID(run.key, seed: summary?.isMultiSeed == true ? run.seed : nil)
    }

    static let css = """
        body { font: 14px/1.45 -apple-system, "Segoe UI", "Helvetica Neue", "Liberation Sans", "DejaVu Sans", \
        sans-serif; color: #1d1d1f; background: #fff; max-width: 1160px; margin: 24px auto; padding: 0 16px; }
        h1 { font-size: 26px; margin: 0 0 8px; }
        h2 { font-size: 20px; margin: 32px 0 8px; padding-top: 8px; border-top: 1px solid #d2d2d7; }
        h3 { font-size: 15px; margin: 24px 0 4px; }
        a { color: #0066cc; text-decoration: none; }
        code, .mono { font-family: "SF Mono", Menlo, "DejaVu Sans Mono", monospace; font-size: 12px; }
        .lead { color: #333; }
        .hint { color: #6e6e73; font-size: 12px; margin: 4px 0; }
        .note { background: #f5f5f7; border-left: 4px solid #8e8e93; padding: 8px 12px; }
        nav { margin: 12px 0; }
        .scroll { overflow-x: auto; }
        table { border-collapse: collapse; font-size: 12px; font-variant-numeric: tabular-nums; }
        th, td { padding: 3px 6px; border-bottom: 1px solid #e5e5ea; text-align: right; white-space: nowrap; }
        th { background: #f5f5f7; font-weight: 600; }
        td.text, th.text { text-align: left; }
        .good { background: #e3f4e6; }
        .warning { background: #fff4d6; }
        .critical { background: #fde2e1; }
        .hint span { padding: 0 4px; }
        ul.legend { list-style: none; padding: 0; margin: 4px 0 8px; display: flex; flex-wrap: wrap; gap: 16px; \
        font-size: 13px; }
        .swatch { display: inline-block; width: 12px; height: 12px; margin-right: 6px; vertical-align: -1px; \
        border-radius: 2px; }
        .charts { display: grid; grid-template-columns: repeat(2, minmax(0, 1fr)); gap: 8px 16px; }
        figure { margin: 0; }
        svg { display: block; max-width: 100%; height: auto; font-family: inherit; }
        details { margin: 4px 0 12px; font-size: 12px; }
        details.every-run { margin-top: 32px; padding-top: 8px; border-top: 1px solid #d2d2d7; }
        details.every-run > summary { font-size: 20px; font-weight: 600; cursor: pointer; }
        tr.event td { color: #7B3FB5; }
        td.verdict-better { background: #e3f4e6; text-align: left; }
        td.verdict-worse { background: #fde2e1; text-align: left; }
        td.verdict-unclear { background: #fff4d6; text-align: left; }
        td.verdict { text-align: left; color: #6e6e73; }
        .population-tables { display: grid; grid-template-columns: minmax(0, 1fr); gap: 8px; margin: 8px 0; }
        """
}

/// Text made safe for HTML and SVG.
enum HTMLText {
    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, safe in
    /// element content and in quoted attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }

    /// `text` as part of an HTML id: ASCII letters, digits, `-` and `_`
    /// kept (all a scenario or variant name may hold), anything else written
    /// as its code point in hex between `~`s, so different texts give
    /// different ids and `.` is free to join parts.
    static func identifier(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            if scalar.isASCII,
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar) || scalar == "-" || scalar == "_"
            {
                out.unicodeScalars.append(scalar)
            } else {
                out += "~" + String(scalar.value, radix: 16) + "~"
            }
        }
        return out
    }
}
