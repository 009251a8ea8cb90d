import CSVCodec
import FoundationEssentials

/// The variants of one results folder side by side (`feedsim compare`):
/// for each chosen metric, one row per (scenario, refresh_hz) and one
/// column per variant, the best value of each row marked.
///
/// Rows come in the order their (scenario, refresh_hz) first appears in the
/// summary, variants in the order they first appear. The best value is the
/// lowest for a lower-is-better metric and the highest for a
/// higher-is-better one; every variant sharing it is marked. A row where
/// fewer than two variants have a number, and every row of a neutral or
/// text metric, has no mark.
package struct StrategyComparison: Hashable, Sendable {
    /// The metrics compared when none are chosen.
    package static let defaultMetrics = Metric.all.filter(\.comparedByDefault).map(\.name)

    /// One variant's value in a row.
    package struct Cell: Hashable, Sendable {
        /// The value as the summary writes it.
        package var value: String
        /// Whether it is the row's best.
        package var isBest: Bool

        /// A cell from its parts.
        package init(value: String, isBest: Bool) {
            self.value = value
            self.isBest = isBest
        }
    }

    /// One (scenario, refresh_hz) of one metric.
    package struct Row: Hashable, Sendable {
        /// The scenario's name.
        package var scenario: String
        /// The refresh rate in hertz.
        package var refreshHz: Int
        /// One cell per variant, in `variants` order; `nil` where the
        /// variant has no run for this scenario and rate.
        package var cells: [Cell?]

        /// A row from its parts.
        package init(scenario: String, refreshHz: Int, cells: [Cell?]) {
            self.scenario = scenario
            self.refreshHz = refreshHz
            self.cells = cells
        }
    }

    /// All rows of one metric.
    package struct MetricTable: Hashable, Sendable {
        /// The summary column.
        package var metric: String
        /// Which way is better, deciding the mark.
        package var direction: MetricDirection
        /// The rows.
        package var rows: [Row]
    }

    /// The variants, in order of first appearance.
    package let variants: [String]
    /// One table per chosen metric, in the order chosen.
    package let tables: [MetricTable]

    /// Compares the variants of `summary` on `metrics` (repeats ignored).
    ///
    /// - Throws: `StrategyComparisonError` when a metric is not a column of
    ///   the summary.
    /// - Complexity: O(*r* · *m*) for *r* runs and *m* metrics, plus the
    ///   cost of `SummaryRow.value(of:)`.
    package init(
        summary: SummaryFile, metrics: [String] = StrategyComparison.defaultMetrics
    ) throws(StrategyComparisonError) {
        let available = summary.metricColumns.filter(Metric.isComparable)
        var chosen: [String] = []
        for metric in metrics where !chosen.contains(metric) {
            if let refusal = StrategyComparisonError.hash(metric, available: available) { throw refusal }
            guard available.contains(metric) else {
                throw StrategyComparisonError(
                    problem: "\(summary.file) has no metric \"\(metric)\"; choose from: "
                        + available.joined(separator: ", "))
            }
            chosen.append(metric)
        }

        var variants: [String] = []
        var groups: [ScenarioRate] = []
        var seenGroups: Set<ScenarioRate> = []
        for row in summary.rows {
            if !variants.contains(row.key.variant) { variants.append(row.key.variant) }
            let group = ScenarioRate(scenario: row.key.scenario, refreshHz: row.key.refreshHz)
            if seenGroups.insert(group).inserted { groups.append(group) }
        }
        self.variants = variants
        self.tables = chosen.map { metric in
            let direction = SummaryMetrics.direction(of: metric)
            let rows = groups.map { group -> Row in
                let texts = variants.map { variant in
                    summary.row(
                        for: SummaryKey(scenario: group.scenario, variant: variant, refreshHz: group.refreshHz))?
                        .value(of: metric)
                }
                let best = StrategyComparison.best(texts, direction: direction)
                let cells = texts.enumerated().map { i, text in text.map { Cell(value: $0, isBest: best.contains(i)) } }
                return Row(scenario: group.scenario, refreshHz: group.refreshHz, cells: cells)
            }
            return MetricTable(metric: metric, direction: direction, rows: rows)
        }
    }

    /// What a comparison row stands for: a scenario at one refresh rate.
    private struct ScenarioRate: Hashable {
        var scenario: String
        var refreshHz: Int
    }

    /// The positions of the best values, or none when fewer than two are
    /// numbers or the metric has no direction.
    static func best(_ texts: [String?], direction: MetricDirection) -> Set<Int> {
        guard direction != .neutral else { return [] }
        let numbers = texts.enumerated().compactMap { i, text -> (Int, Double)? in
            guard let text, let value = SummaryFile.parseNumber(text), !value.isNaN else { return nil }
            return (i, value)
        }
        guard numbers.count >= 2 else { return [] }
        let values = numbers.map(\.1)
        let target = direction == .lowerIsBetter ? values.min()! : values.max()!
        return Set(numbers.filter { $0.1 == target }.map(\.0))
    }

    /// The variants holding the best value of `row`, in variant order.
    package func bestVariants(in row: Row) -> [String] {
        row.cells.enumerated().compactMap { i, cell in cell?.isBest == true ? variants[i] : nil }
    }

    /// A terminal table per metric, the best values followed by `*`, a blank
    /// line between metrics; ends with a line break.
    package var terminalText: String {
        tables.map { table in
            let title =
                "\(table.metric) (\(table.direction.rawValue)\(table.direction == .neutral ? "" : ", * = best"))"
            let rows = table.rows.map { row in
                [row.scenario, String(row.refreshHz)]
                    + row.cells.map { cell in cell.map { $0.value + ($0.isBest ? "*" : " ") } ?? "- " }
            }
            let grid = AlignedText.render(
                header: ["scenario", "refresh_hz"] + variants.map { $0 + " " },
                alignments: [.left, .right] + variants.map { _ in .right },
                rows: rows)
            return title + "\n" + grid + "\n"
        }.joined(separator: "\n")
    }

    /// A Markdown section per metric, the best values in **bold**; ends with
    /// a line break.
    package var markdown: String {
        tables.map { table in
            var lines = ["### \(StrategyComparison.markdownEscaped(table.metric))", ""]
            switch table.direction {
            case .neutral: lines.append("Neutral: no value is better than another.")
            case .lowerIsBetter, .higherIsBetter:
                let way = table.direction == .lowerIsBetter ? "Lower" : "Higher"
                lines.append("\(way) is better; the best value in each row is in **bold**.")
            }
            lines.append("")
            let header = ["scenario", "refresh_hz"] + variants
            lines.append("| " + header.map(StrategyComparison.markdownEscaped).joined(separator: " | ") + " |")
            lines.append("| --- | ---: |" + String(repeating: " ---: |", count: variants.count))
            for row in table.rows {
                let cells = row.cells.map { cell in
                    cell.map { $0.isBest ? "**\($0.value)**" : $0.value } ?? "-"
                }
                let fields = [StrategyComparison.markdownEscaped(row.scenario), String(row.refreshHz)] + cells
                lines.append("| " + fields.joined(separator: " | ") + " |")
            }
            return lines.joined(separator: "\n") + "\n"
        }.joined(separator: "\n")
    }

    /// The comparison as CSV: columns `scenario, refresh_hz, metric`, one
    /// per variant, then `best_variant`; one line per metric and row (metric
    /// by metric, as the other formats). A variant without a run has an
    /// empty field; `best_variant` names the best variants joined by `;`,
    /// empty when the row has no mark.
    package var csv: CSVTable {
        var table = CSVTable(columns: ["scenario", "refresh_hz", "metric"] + variants + ["best_variant"])
        for metricTable in tables {
            for row in metricTable.rows {
                table.append(
                    [row.scenario, String(row.refreshHz), metricTable.metric]
                        + row.cells.map { $0?.value ?? "" }
                        + [bestVariants(in: row).joined(separator: ";")])
            }
        }
        return table
    }

    /// The comparison as JSON for other tools: the variants, and per metric
    /// its direction and rows, each row's values by variant (the summary's
    /// text as written, null where the variant has no run) and its best
    /// variants.
    package var json: String {
        JSONDocument.text(
            of: ComparisonDocument(
                variants: variants,
                metrics: tables.map { table in
                    ComparisonDocument.Table(
                        metric: table.metric, direction: ComparisonDocument.name(of: table.direction),
                        rows: table.rows.map { row in
                            ComparisonDocument.Row(
                                scenario: row.scenario, refreshHz: row.refreshHz,
                                values: row.cells.map { $0?.value }, bestVariants: bestVariants(in: row))
                        })
                }))
    }

    static func markdownEscaped(_ text: String) -> String {
        text.replacing("|", with: "\\|")
    }
}

/// A metric the comparison cannot show.
package struct StrategyComparisonError: Error, Equatable, Sendable, CustomStringConvertible {
    /// What is wrong and what to choose instead.
    package var problem: String

    /// An error from its description.
    package init(problem: String) { self.problem = problem }

    /// The problem.
    package var description: String { problem }

    /// The refusal of `metric` when it is compared as text (`trace_digest`,
    /// a hash: two values are equal or not, with no size or direction, and
    /// `feedsim check` already compares it exactly); `nil` for a quantity.
    /// `available` is what to choose from instead.
    static func hash(_ metric: String, available: [String]) -> StrategyComparisonError? {
        guard SummaryMetrics.isText(metric) else { return nil }
        return StrategyComparisonError(
            problem:
                """
                \(metric) is a hash of the run's events, not a quantity to compare (feedsim check compares it \
                exactly);\u{20}
                """
                    + "choose from: \(available.joined(separator: ", "))")
    }
}

extension Metric {
    /// Whether `compare` offers and compares the column `name`: every
    /// metric but those compared as text (`trace_digest`).
    static func isComparable(_ name: String) -> Bool { !SummaryMetrics.isText(name) }
}

/// Plain-text columns with an alignment chosen per column; lines carry no
/// trailing spaces.
enum AlignedText {
    enum Alignment { case left, right }

    static func render(header: [String], alignments: [Alignment], rows: [[String]]) -> String {
        var widths = header.map(\.count)
        for row in rows {
            for (i, field) in row.enumerated() { widths[i] = max(widths[i], field.count) }
        }
        func line(_ fields: [String]) -> String {
            let padded = fields.enumerated().map { i, field in
                let pad = String(repeating: " ", count: widths[i] - field.count)
                return alignments[i] == .right ? pad + field : field + pad
            }
            return String(padded.joined(separator: "  ").reversed().drop { $0 == " " }.reversed())
        }
        let rule = widths.map { String(repeating: "-", count: $0) }.joined(separator: "  ")
        return ([line(header), rule] + rows.map(line)).joined(separator: "\n")
    }
}

/// `feedsim compare --format json`.
struct ComparisonDocument: Encodable {
    struct Row: Encodable {
        var scenario: String
        var refreshHz: Int
        /// In `variants` order.
        var values: [String?]
        var bestVariants: [String]
        enum CodingKeys: String, CodingKey {
            case scenario, refreshHz = "refresh_hz", values, bestVariants = "best_variants"
        }
    }

    struct Table: Encodable {
        var metric: String
        /// Which way is better: `lower`, `higher` or `neutral`.
        var direction: String
        var rows: [Row]
    }

    var variants: [String]
    var metrics: [Table]

    static func name(of direction: MetricDirection) -> String {
        switch direction {
        case .lowerIsBetter: "lower"
        case .higherIsBetter: "higher"
        case .neutral: "neutral"
        }
    }
}
