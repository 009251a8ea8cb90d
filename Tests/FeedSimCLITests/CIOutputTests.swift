import CSVCodec
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// The committed baseline with some values changed and some runs left out.
struct EditedSummary {
    static let baseline = FeedSimProcess.packageRoot.appendingPathComponent("results/baseline/summary.csv")

    var columns: [String]
    var rows: [[String]]

    init() throws {
        let records = try CSVReader.records(try Data(contentsOf: Self.baseline))
        columns = try #require(records.first).fields
        rows = records.dropFirst().filter { !$0.isBlank }.map(\.fields)
    }

    func value(_ column: String, row: Int) -> String { rows[row][columns.firstIndex(of: column)!] }

    mutating func set(_ column: String, row: Int, to value: String) {
        rows[row][columns.firstIndex(of: column)!] = value
    }

    var text: String {
        var table = CSVTable(columns: columns)
        for row in rows { table.append(row) }
        return table.text
    }
}

@Suite("CI outputs of check and compare: JUnit, Markdown summary, JSON")
struct CIOutputTests {
    /// Writes the baseline and `current` into a scratch folder and runs
    /// `feedsim check` with `extra` arguments.
    private func check(_ current: EditedSummary, _ extra: [String], in folder: ScratchFolder) throws -> FeedSimOutcome {
        try FileManager.default.createDirectory(at: folder.appending("base"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: EditedSummary.baseline, to: folder.appending("base/summary.csv"))
        try folder.write(current.text, to: "current/summary.csv")
        return try FeedSimProcess.run(["check", "--baseline", "base", "--current", "current"] + extra, in: folder.url)
    }

    @Test(
        """
        A JUnit reader sees every run as a test case, and a planted regression as exactly one failed test case \
        with its message; an improvement passes
        """
    )
    func junitPlantedRegression() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var current = try EditedSummary()
        let overrun = Int(current.value("overrun_frames", row: 3))!
        current.set("overrun_frames", row: 3, to: String(overrun + 4))
        let allocations = Int(current.value("allocations", row: 5))!
        current.set("allocations", row: 5, to: String(allocations - 1))

        let outcome = try check(
            current, ["--junit", "out/check.xml", "--summary-markdown", "out/summary.md"], in: folder)
        #expect(outcome.status == 2, "\(outcome)")

        let junit = try JUnitReading.read(folder.appending("out/check.xml"))
        let rows = current.rows
        #expect(junit.cases.count == rows.count)
        #expect(junit.tests == rows.count)
        let scenarioColumn = current.columns.firstIndex(of: "scenario")!
        let variantColumn = current.columns.firstIndex(of: "variant")!
        let rateColumn = current.columns.firstIndex(of: "refresh_hz")!
        #expect(
            Set(junit.cases.map { "\($0.classname)|\($0.name)" })
                == Set(rows.map { "\($0[scenarioColumn])|\($0[variantColumn]) @ \($0[rateColumn]) Hz" }))
        #expect(Set(junit.suites.map(\.name)) == Set(rows.map { $0[scenarioColumn] }))
        #expect(junit.failures == 1)
        #expect(junit.errors == 0)

        let failed = try #require(junit.failed.first)
        #expect(junit.failed.count == 1)
        #expect(failed.classname == rows[3][scenarioColumn])
        #expect(failed.name == "\(rows[3][variantColumn]) @ \(rows[3][rateColumn]) Hz")
        #expect(failed.results.count == 1)
        let failure = try #require(failed.results.first)
        #expect(failure.kind == "Failure")
        #expect(failure.type == "regression")
        let message = try #require(failure.message)
        #expect(
            message.contains("overrun_frames regression: baseline \(overrun), current \(overrun + 4), delta +4"),
            "\(message)")
        #expect(message.contains("tolerance 0"), "\(message)")

        let improved = try #require(
            junit.cases.first {
                $0.classname == rows[5][scenarioColumn]
                    && $0.name == "\(rows[5][variantColumn]) @ \(rows[5][rateColumn]) Hz"
            })
        #expect(improved.passed)

        // The job summary: regressions first, then improvements, then the verdict.
        let markdown = try String(contentsOf: folder.appending("out/summary.md"), encoding: .utf8)
        let regressions = try #require(markdown.range(of: "### Regressions (1)"))
        let improvements = try #require(markdown.range(of: "### Improvements (1)"))
        #expect(regressions.lowerBound < improvements.lowerBound)
        #expect(markdown.contains("| overrun_frames | \(overrun) | \(overrun + 4) |"))
        let lines = markdown.split(separator: "\n")
        #expect(lines.last == "**FAIL**: 1 regression (\(rows.count) runs compared, 1 improvement)")
    }

    @Test("A run missing from the current results is a failed test case; a new run passes")
    func junitMissingRun() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var current = try EditedSummary()
        let gone = current.rows.removeLast()
        let outcome = try check(current, ["--junit", "check.xml"], in: folder)
        #expect(outcome.status == 2, "\(outcome)")

        let junit = try JUnitReading.read(folder.appending("check.xml"))
        #expect(junit.cases.count == current.rows.count + 1)
        let failed = try #require(junit.failed.first)
        #expect(junit.failed.count == 1)
        #expect(failed.classname == gone[current.columns.firstIndex(of: "scenario")!])
        #expect(failed.results.first?.type == "missing")
        #expect(failed.results.first?.message?.contains("run missing from the current results") == true)
    }

    @Test("check --format json: the verdict, counts, runs and findings, exit code unchanged")
    func checkJSON() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var current = try EditedSummary()
        let overrun = Int(current.value("overrun_frames", row: 0))!
        current.set("overrun_frames", row: 0, to: String(overrun + 1))
        let outcome = try check(current, ["--format", "json", "--tolerance", "hitch_time_ms=0.5"], in: folder)
        #expect(outcome.status == 2)

        let document = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        #expect(document["passed"] as? Bool == false)
        #expect(document["compared_runs"] as? Int == current.rows.count)
        #expect((document["runs"] as? [Any])?.count == current.rows.count)
        #expect((document["counts"] as? [String: Int])?["regression"] == 1)
        let findings = try #require(document["findings"] as? [[String: Any]])
        #expect(findings.count == 1)
        #expect(findings.first?["metric"] as? String == "overrun_frames")
        #expect(findings.first?["verdict"] as? String == "regression")
        #expect(findings.first?["current"] as? String == String(overrun + 1))
        #expect(findings.first?["fails"] as? Bool == true)

        let same = try FeedSimProcess.run(
            ["check", "--baseline", "base", "--current", "base", "--format", "json"], in: folder.url)
        #expect(same.status == 0)
        let passed = try #require(try JSONSerialization.jsonObject(with: Data(same.stdout.utf8)) as? [String: Any])
        #expect(passed["passed"] as? Bool == true)
    }

    @Test("check against a baseline written before a metric existed: the column is not in the baseline, not an error")
    func baselineWithoutNewColumn() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let current = try EditedSummary()
        var older = current
        let dropped = "image_wait_p95_ms"
        let index = try #require(older.columns.firstIndex(of: dropped))
        older.columns.remove(at: index)
        for row in older.rows.indices { older.rows[row].remove(at: index) }
        try folder.write(older.text, to: "base/summary.csv")
        try folder.write(current.text, to: "current/summary.csv")

        let text = try FeedSimProcess.run(["check", "--baseline", "base", "--current", "current"], in: folder.url)
        #expect(text.status == 0, "\(text)")
        #expect(text.stdout.contains("PASS: no regressions ("))
        #expect(text.stdout.contains("not in baseline: \(dropped)"))

        let json = try FeedSimProcess.run(
            ["check", "--baseline", "base", "--current", "current", "--format", "json"], in: folder.url)
        #expect(json.status == 0, "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        #expect(document["not_in_baseline"] as? [String] == [dropped])
        #expect(document["passed"] as? Bool == true)

        // The current results must still have every column.
        let reversed = try FeedSimProcess.run(["check", "--baseline", "current", "--current", "base"], in: folder.url)
        #expect(reversed.status == 1, "\(reversed)")
        #expect(reversed.stderr.contains("missing required column \(dropped)"))
    }

    @Test("compare --format json: every variant's value per row, the best variants named")
    func compareJSON() throws {
        let outcome = try FeedSimProcess.run(
            [
                "compare", "results/baseline", "--format", "json", "--metric", "allocations", "--metric",
                "network_requests",
            ],
            in: FeedSimProcess.packageRoot)
        #expect(outcome.status == 0, "\(outcome)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(outcome.stdout.utf8)) as? [String: Any])
        let variants = try #require(document["variants"] as? [String])
        #expect(variants.count >= 2)
        let metrics = try #require(document["metrics"] as? [[String: Any]])
        #expect(metrics.map { $0["metric"] as? String } == ["allocations", "network_requests"])
        #expect(metrics.map { $0["direction"] as? String } == ["lower", "neutral"])
        let rows = try #require(metrics.first?["rows"] as? [[String: Any]])
        #expect(!rows.isEmpty)
        for row in rows {
            let values = try #require(row["values"] as? [Any])
            #expect(values.count == variants.count)
            let best = try #require(row["best_variants"] as? [String])
            #expect(best.allSatisfy(variants.contains))
        }
    }
}
