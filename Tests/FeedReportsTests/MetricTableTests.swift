import FeedReports
import FeedSimTestSupport
import Foundation
import Testing

/// The metric table is the one source of summary.csv's columns and of what
/// every report does with them.
@Suite("Metric table")
struct MetricTableTests {
    static let reference = PackageRoot.appending("docs/csv-reports.md")

    @Test("summary.csv's columns are the keys, the seed and the metrics, in order; names are unique")
    func columns() {
        #expect(RunReports.summaryColumns == ["scenario", "variant", "refresh_hz", "seed"] + Metric.all.map(\.name))
        #expect(Set(Metric.all.map(\.name)).count == Metric.all.count)
        #expect(SummaryMetrics.compared == Metric.all.map(\.name))
    }

    @Test("directions, defaults and report columns follow the table", arguments: Metric.all.map(\.name))
    func follows(_ name: String) throws {
        let metric = try #require(Metric.named(name))
        #expect(SummaryMetrics.direction(of: name) == metric.direction)
        #expect(SummaryMetrics.isText(name) == metric.isText)
        #expect(StrategyComparison.defaultMetrics.contains(name) == metric.comparedByDefault)
        #expect(SummaryFile.textColumns.contains(name) == metric.isText)
        #expect(!metric.definition.isEmpty && !metric.source.isEmpty && !metric.unit.isEmpty)
    }

    @Test("docs/csv-reports.md carries the table exactly as the code has it")
    func reference() throws {
        let text = try String(contentsOf: MetricTableTests.reference, encoding: .utf8)
        #expect(
            text.contains(Metric.markdownTable + "\n"),
            "run `feedsim metrics --markdown` and paste it into docs/csv-reports.md")
    }
}
