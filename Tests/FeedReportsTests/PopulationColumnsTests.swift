import CSVCodec
import Determinism
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

@Suite("Explore results read as columns: the comparison of a file too large to hold as rows")
struct PopulationColumnsTests {
    /// explore.csv text of `sessions` sessions under `variants`, with
    /// seeded values (some missing, a variant name that needs quoting).
    static func exploreText(sessions: Int, variants: [String]) -> String {
        let columns =
            RunReports.summaryColumns.filter { $0 != "allocations" && $0 != "allocated_bytes" } + ["violations"]
        var table = CSVTable(columns: columns)
        var generator = Xoshiro256StarStar(seed: 12)
        for session in 0..<sessions {
            let base = generator.nextUnit() * 50
            for (v, variant) in variants.enumerated() {
                let drift = generator.nextUnit() < 0.85 ? 0 : base * Double(v + 1) + generator.nextUnit() * 100
                let values: [String: String] = [
                    "seed": String(1000 + session), "drift_max_pt": ReportNumber.fixed(drift, 2),
                    "hitch_ratio_ms_per_s": session % 97 == 5 && v == 1
                        ? "nan" : ReportNumber.fixed(base + Double(v) * generator.nextUnit(), 3),
                    "overrun_frames": String(Int(generator.nextUnit() * 6) + v),
                    "violations": generator.nextUnit() < 0.01 ? "1" : "0",
                ]
                let row = SummaryFixture.row(String(format: "session-%06d", session), variant: variant, values)
                let byColumn = Dictionary(uniqueKeysWithValues: zip(RunReports.summaryColumns, row))
                table.append(columns.map { $0 == "violations" ? values["violations"]! : byColumn[$0]! })
            }
        }
        return table.text
    }

    @Test(
        "Read as columns or as rows, the comparison prints the same bytes in every format",
        arguments: [
            (40, VariantPairing.firstVariant), (PairedBootstrap.largestResampledSample + 300, .allPairs),
        ])
    func columnsEqualRows(sessions: Int, pairing: VariantPairing) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(
            PopulationColumnsTests.exploreText(
                sessions: sessions, variants: ["none", "anchor, pinned", "offset_adjust"]), to: "explore.csv")
        let url = folder.appending("explore.csv")
        let bootstrap = PairedBootstrap(resamples: 500, seed: 4)
        let rows = try SummaryFile.load(url: url, file: "explore.csv", requiredColumns: PopulationTable.exploreColumns)
        let baseline: String? = pairing == .allPairs ? nil : "none"
        let fromRows = try PairedComparison(summary: rows, baseline: baseline, bootstrap: bootstrap)
        let fromColumns = try PairedComparison.streaming(
            url: url, file: "explore.csv", metrics: nil, pairing: pairing, bootstrap: bootstrap)
        #expect(fromColumns.differences.count == (pairing == .allPairs ? 9 : 6))
        #expect(fromColumns.terminalText == fromRows.terminalText)
        #expect(fromColumns.markdown == fromRows.markdown)
        #expect(fromColumns.differencesCSV.text == fromRows.differencesCSV.text)
        #expect(fromColumns.population.csv.text == fromRows.population.csv.text)
        #expect(fromColumns.json == fromRows.json)
        if sessions > PairedBootstrap.largestResampledSample {
            #expect(fromColumns.differences.allSatisfy { $0.method == .batchedBCa })
        }
    }

    @Test("The report's population section is the same read as columns or as rows")
    func reportFromColumns() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(
            PopulationColumnsTests.exploreText(sessions: 60, variants: ["none", "anchor"]), to: "explore.csv")
        let url = folder.appending("explore.csv")
        let rows = try SummaryFile.load(url: url, file: "explore.csv", requiredColumns: PopulationTable.exploreColumns)
        let columns = try PopulationColumns.read(
            url: url, file: "explore.csv", wanted: PairedComparison.defaultMetrics + HTMLReport.populationMetrics)
        let fromRows = try HTMLReport(summary: nil, population: rows, drift: nil, frames: nil)
        let fromColumns = try HTMLReport(
            summary: nil, population: nil, populationColumns: columns, drift: nil, frames: nil)
        #expect(fromColumns.html == fromRows.html)
        #expect(fromColumns.html.contains("Population: 60 sessions × 2 strategies"))
    }

    @Test("What SummaryFile refuses, the column reader refuses, naming the line")
    func refusals() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let good = PopulationColumnsTests.exploreText(sessions: 3, variants: ["none", "anchor"])
        var lines = good.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func refused(_ text: String, _ problem: String) throws {
            try folder.write(text, to: "bad.csv")
            #expect {
                try PairedComparison.streaming(
                    url: folder.appending("bad.csv"), file: "bad.csv", metrics: nil, pairing: .firstVariant)
            } throws: { error in
                (error as? SummaryFileError)?.problem.contains(problem) == true
            }
        }
        try refused(
            ([lines[0].replacingOccurrences(of: ",violations", with: "")] + lines.dropFirst()).joined(separator: "\n"),
            "missing required column violations")
        let duplicate = lines[1]
        lines.insert(duplicate, at: 2)
        try refused(lines.joined(separator: "\n"), "duplicate row for session-000000 / none @ 60 Hz, seed 1000")
        lines.remove(at: 2)
        try refused(
            lines.joined(separator: "\n").replacingOccurrences(of: ",0.00,", with: ",many,"),
            "drift_max_pt is \"many\", expected a number")
        #expect(throws: StrategyComparisonError.self) {
            try folder.write(good, to: "good.csv")
            _ = try PairedComparison.streaming(
                url: folder.appending("good.csv"), file: "good.csv", metrics: ["allocations"], pairing: .firstVariant)
        }
    }
}
