import FeedSimTestSupport
import Testing

@testable import FeedReports

/// Three variants, listed in an order that is not alphabetical, over two
/// rates of one scenario, and a second scenario that only one variant ran.
///
/// | row              | overrun (lower)     | viewmodel hit (higher)      | allocations (lower) |
/// |------------------|---------------------|-----------------------------|---------------------|
/// | refresh-top 60   | 4, **2**, 7         | 0.8000, **0.9000**, **0.9000** | 120, **100**, **100** |
/// | refresh-top 120  | **6**, **6**, 9     | **0.8000**, 0.7500, 0.7000  | 130, **90**, 150    |
/// | cold-start 60    | -, 1, - (no mark)   | -, 0.5000, -                | -, 50, -            |
private func threeVariantSummary() throws -> SummaryFile {
    func run(
        _ scenario: String, _ variant: String, _ hz: Int, overrun: String, hitRate: String, allocations: String
    ) -> [String] {
        SummaryFixture.row(
            scenario, variant: variant, hz: hz,
            [
                "overrun_frames": overrun, "viewmodel_hit_rate": hitRate, "allocations": allocations,
            ])
    }
    return try SummaryFixture.file([
        run("refresh-top", "offset_adjust", 60, overrun: "4", hitRate: "0.8000", allocations: "120"),
        run("refresh-top", "anchor", 60, overrun: "2", hitRate: "0.9000", allocations: "100"),
        run("refresh-top", "none", 60, overrun: "7", hitRate: "0.9000", allocations: "100"),
        run("refresh-top", "offset_adjust", 120, overrun: "6", hitRate: "0.8000", allocations: "130"),
        run("refresh-top", "anchor", 120, overrun: "6", hitRate: "0.7500", allocations: "90"),
        run("refresh-top", "none", 120, overrun: "9", hitRate: "0.7000", allocations: "150"),
        run("cold-start", "anchor", 60, overrun: "1", hitRate: "0.5000", allocations: "50"),
    ])
}

private let chosenMetrics = ["overrun_frames", "viewmodel_hit_rate", "allocations", "frames"]

/// The lines of a terminal block with runs of spaces collapsed, for
/// comparing content without restating column widths.
private func collapsed(_ text: String) -> [String] {
    text.split(separator: "\n", omittingEmptySubsequences: false).map {
        $0.split(separator: " ").joined(separator: " ")
    }
}

@Suite("StrategyCompare: best values per row in table, Markdown and CSV")
struct StrategyCompareTests {
    @Test("Variants keep first-appearance order and rows their (scenario, refresh_hz) order")
    func order() throws {
        let comparison = try StrategyComparison(summary: try threeVariantSummary(), metrics: chosenMetrics)
        #expect(comparison.variants == ["offset_adjust", "anchor", "none"])
        #expect(comparison.tables.map(\.metric) == chosenMetrics)
        #expect(
            comparison.tables[0].rows.map { "\($0.scenario)@\($0.refreshHz)" } == [
                "refresh-top@60", "refresh-top@120", "cold-start@60",
            ])
    }

    @Test("The best cells are marked by direction; ties all marked; a lone variant and a neutral metric unmarked")
    func bestCells() throws {
        let comparison = try StrategyComparison(summary: try threeVariantSummary(), metrics: chosenMetrics)
        let best = comparison.tables.map { table in table.rows.map { comparison.bestVariants(in: $0) } }
        #expect(
            best == [
                [["anchor"], ["offset_adjust", "anchor"], []],
                [["anchor", "none"], ["offset_adjust"], []],
                [["anchor", "none"], ["anchor"], []],
                [[], [], []],
            ])
        #expect(comparison.tables.map(\.direction) == [.lowerIsBetter, .higherIsBetter, .lowerIsBetter, .neutral])
        #expect(comparison.tables[0].rows[2].cells == [nil, StrategyComparison.Cell(value: "1", isBest: false), nil])
    }

    @Test("The terminal table marks the best with *")
    func terminalTable() throws {
        let comparison = try StrategyComparison(summary: try threeVariantSummary(), metrics: chosenMetrics)
        let lines = collapsed(comparison.terminalText)
        #expect(
            Array(lines.prefix(7)) == [
                "overrun_frames (lower is better, * = best)",
                "scenario refresh_hz offset_adjust anchor none",
                "----------- ---------- -------------- ------- -----",
                "refresh-top 60 4 2* 7",
                "refresh-top 120 6* 6* 9",
                "cold-start 60 - 1 -",
                "",
            ])
        #expect(lines.contains("viewmodel_hit_rate (higher is better, * = best)"))
        #expect(lines.contains("refresh-top 60 0.8000 0.9000* 0.9000*"))
        #expect(lines.contains("refresh-top 120 0.8000* 0.7500 0.7000"))
        #expect(lines.contains("refresh-top 120 130 90* 150"))
        #expect(lines.contains("frames (neutral)"))
        #expect(lines.contains("refresh-top 60 1000 1000 1000"))
        #expect(comparison.terminalText.hasSuffix("\n"))
        #expect(!comparison.terminalText.split(separator: "\n").contains { $0.hasSuffix(" ") })
    }

    @Test("Markdown puts the best in bold")
    func markdown() throws {
        let comparison = try StrategyComparison(
            summary: try threeVariantSummary(), metrics: ["overrun_frames", "viewmodel_hit_rate"])
        #expect(
            comparison.markdown == """
                ### overrun_frames

                Lower is better; the best value in each row is in **bold**.

                | scenario | refresh_hz | offset_adjust | anchor | none |
                | --- | ---: | ---: | ---: | ---: |
                | refresh-top | 60 | 4 | **2** | 7 |
                | refresh-top | 120 | **6** | **6** | 9 |
                | cold-start | 60 | - | 1 | - |

                ### viewmodel_hit_rate

                Higher is better; the best value in each row is in **bold**.

                | scenario | refresh_hz | offset_adjust | anchor | none |
                | --- | ---: | ---: | ---: | ---: |
                | refresh-top | 60 | 0.8000 | **0.9000** | **0.9000** |
                | refresh-top | 120 | **0.8000** | 0.7500 | 0.7000 |
                | cold-start | 60 | - | 0.5000 | - |

                """)
    }

    @Test("CSV names the best variants in best_variant, ties joined by ;")
    func csv() throws {
        let comparison = try StrategyComparison(summary: try threeVariantSummary(), metrics: chosenMetrics)
        #expect(
            comparison.csv.text == """
                scenario,refresh_hz,metric,offset_adjust,anchor,none,best_variant
                refresh-top,60,overrun_frames,4,2,7,anchor
                refresh-top,120,overrun_frames,6,6,9,offset_adjust;anchor
                cold-start,60,overrun_frames,,1,,
                refresh-top,60,viewmodel_hit_rate,0.8000,0.9000,0.9000,anchor;none
                refresh-top,120,viewmodel_hit_rate,0.8000,0.7500,0.7000,offset_adjust
                cold-start,60,viewmodel_hit_rate,,0.5000,,
                refresh-top,60,allocations,120,100,100,anchor;none
                refresh-top,120,allocations,130,90,150,anchor
                cold-start,60,allocations,,50,,
                refresh-top,60,frames,1000,1000,1000,
                refresh-top,120,frames,1000,1000,1000,
                cold-start,60,frames,,1000,,

                """)
    }

    @Test("The default metrics are overrun frames, hitch ratio, largest drift and allocations")
    func defaultMetrics() throws {
        let comparison = try StrategyComparison(summary: try threeVariantSummary())
        #expect(
            comparison.tables.map(\.metric) == [
                "overrun_frames", "hitch_ratio_ms_per_s", "drift_max_pt", "allocations",
            ])
    }

    @Test("An unknown metric is an error listing the metrics there are")
    func unknownMetric() throws {
        let summary = try threeVariantSummary()
        #expect {
            _ = try StrategyComparison(summary: summary, metrics: ["overruns"])
        } throws: { error in
            (error as? StrategyComparisonError)?.problem.hasPrefix(
                "summary.csv has no metric \"overruns\"; choose from: duration_s,") == true
        }
    }
    @Test("trace_digest, a hash, is neither offered nor compared: its values have no size or direction")
    func hashIsNotAMetricToCompare() throws {
        let summary = try threeVariantSummary()
        #expect {
            _ = try StrategyComparison(summary: summary, metrics: ["overruns"])
        } throws: { error in
            let problem = (error as? StrategyComparisonError)?.problem ?? ""
            return problem.contains("choose from: duration_s,") && !problem.contains("trace_digest")
        }
        #expect {
            _ = try StrategyComparison(summary: summary, metrics: ["trace_digest"])
        } throws: { error in
            let problem = (error as? StrategyComparisonError)?.problem ?? ""
            return problem.hasPrefix("trace_digest is a hash of the run's events") && problem.contains("feedsim check")
        }
        let seeded = try SummaryFixture.file([
            SummaryFixture.row("feed", variant: "none", ["seed": "1"]),
            SummaryFixture.row("feed", variant: "none", ["seed": "2"]),
            SummaryFixture.row("feed", variant: "anchor", ["seed": "1"]),
            SummaryFixture.row("feed", variant: "anchor", ["seed": "2"]),
        ])
        #expect {
            _ = try PairedComparison(rows: seeded.rows, metrics: ["trace_digest"])
        } throws: { error in
            ((error as? StrategyComparisonError)?.problem ?? "").hasPrefix("trace_digest is a hash of the run's events")
        }
        #expect {
            _ = try PairedComparison(rows: seeded.rows, metrics: ["overruns"])
        } throws: { error in
            let problem = (error as? StrategyComparisonError)?.problem ?? ""
            return problem.contains("choose from: ") && !problem.contains("trace_digest")
        }
        #expect {
            _ = try SeedComparison(summary: seeded, metrics: ["trace_digest"])
        } throws: { error in
            ((error as? StrategyComparisonError)?.problem ?? "").hasPrefix("trace_digest is a hash of the run's events")
        }
        #expect {
            _ = try SeedComparison(summary: seeded, metrics: ["overruns"])
        } throws: { error in
            let problem = (error as? StrategyComparisonError)?.problem ?? ""
            return problem.hasPrefix("summary.csv has no metric \"overruns\"; choose from: duration_s,")
                && !problem.contains("trace_digest")
        }
    }
}
