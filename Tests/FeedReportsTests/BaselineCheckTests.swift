import CSVCodec
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// Tolerances from `--tolerance` flags only.
private func flags(_ list: String...) throws -> ToleranceSet {
    var set = ToleranceSet()
    for flag in list { try set.apply(flag: flag) }
    return set
}

@Suite("BaselineCheck: regressions, improvements, missing and new runs")
struct BaselineCheckTests {
    @Test("A planted regression (overrun_frames 3 → 5) is found and fails the check")
    func plantedRegression() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed"), SummaryFixture.row("other")])
        let current = try SummaryFixture.file([
            SummaryFixture.row("feed", ["overrun_frames": "5"]), SummaryFixture.row("other"),
        ])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        #expect(!result.passed)
        #expect(
            result.findings == [
                CheckFinding(
                    key: SummaryKey(scenario: "feed", variant: "default", refreshHz: 60), metric: "overrun_frames",
                    baseline: "3", current: "5", delta: "+2 (+66.7%)", verdict: .regression)
            ])
        #expect(result.comparedRuns == 2)
        #expect(result.verdictLine == "FAIL: 1 regression (2 runs compared)")
        let lines = result.table.split(separator: "\n").map { $0.split(separator: " ").joined(separator: " ") }
        #expect(
            lines == [
                "scenario variant refresh_hz metric baseline current delta verdict",
                "-------- ------- ---------- -------------- -------- ------- ----------- ----------",
                "feed default 60 overrun_frames 3 5 +2 (+66.7%) regression",
            ])
    }

    @Test("A metric column an older baseline lacks is listed as not in the baseline, not compared, and passes")
    func columnNotInBaseline() throws {
        let absent = ["image_wait_p50_ms", "image_wait_p95_ms"]
        let columns = RunReports.summaryColumns.filter { !absent.contains($0) }
        let kept = columns.map { RunReports.summaryColumns.firstIndex(of: $0)! }
        var older = CSVTable(columns: columns)
        for row in [SummaryFixture.row("feed"), SummaryFixture.row("other")] { older.append(kept.map { row[$0] }) }
        // What `feedsim check` asks of a baseline: the run's key and seed.
        let baseline = try SummaryFile(text: older.text, file: "base/summary.csv", requiredColumns: [])
        let current = try SummaryFixture.file([
            SummaryFixture.row("feed", ["image_wait_p50_ms": "16.667", "overrun_frames": "5"]),
            SummaryFixture.row("other"),
        ])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        #expect(result.notInBaseline == absent)
        #expect(result.findings.map(\.metric) == ["overrun_frames"])
        #expect(
            result.verdictLine
                == "FAIL: 1 regression (2 runs compared, not in baseline: image_wait_p50_ms, image_wait_p95_ms)")
        let same = BaselineCheck.compare(
            baseline: baseline,
            current: try SummaryFixture.file([
                SummaryFixture.row("feed"), SummaryFixture.row("other"),
            ]))
        #expect(same.passed)
        #expect(
            same.verdictLine
                == "PASS: no regressions (2 runs compared, not in baseline: image_wait_p50_ms, image_wait_p95_ms)")
        // A baseline with every column lists none.
        #expect(BaselineCheck.compare(baseline: current, current: current).notInBaseline.isEmpty)
    }

    @Test(
        """
        Allocation columns left empty (a build that cannot count) are named as not counted, not compared, and \
        pass; the rest is still checked
        """
    )
    func allocationsNotCounted() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed"), SummaryFixture.row("other")])
        let empty = ["allocations": "", "allocated_bytes": ""]
        let current = try SummaryFixture.file([
            SummaryFixture.row("feed", empty.merging(["overrun_frames": "5"]) { $1 }),
            SummaryFixture.row("other", empty),
        ])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        #expect(result.notCounted == ["allocations", "allocated_bytes"])
        #expect(result.findings.map(\.metric) == ["overrun_frames"])
        #expect(result.verdictLine == "FAIL: 1 regression (2 runs compared, not counted: allocations, allocated_bytes)")
        let rest = BaselineCheck.compare(
            baseline: current,
            current: try SummaryFixture.file([
                SummaryFixture.row("feed", empty.merging(["overrun_frames": "5"]) { $1 }), SummaryFixture.row("other"),
            ]))
        #expect(rest.passed)
        #expect(rest.notCounted == ["allocations", "allocated_bytes"])
        #expect(BaselineCheck.compare(baseline: baseline, current: baseline).notCounted.isEmpty)
    }

    @Test("Identical inputs pass with nothing listed")
    func identicalInputsPass() throws {
        let rows = [
            SummaryFixture.row("feed"), SummaryFixture.row("feed", hz: 120),
            SummaryFixture.row("other", variant: "anchor"),
        ]
        let result = BaselineCheck.compare(
            baseline: try SummaryFixture.file(rows), current: try SummaryFixture.file(rows))

        #expect(result.passed)
        #expect(result.findings.isEmpty)
        #expect(result.table.isEmpty)
        #expect(result.withinTolerance == 0)
        #expect(result.verdictLine == "PASS: no regressions (3 runs compared)")
    }

    @Test("The same number written with more decimals is unchanged")
    func sameNumberDifferentDecimals() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed", ["hitch_time_ms": "12.5"])])
        let current = try SummaryFixture.file([SummaryFixture.row("feed", ["hitch_time_ms": "12.500"])])
        let result = BaselineCheck.compare(baseline: baseline, current: current)
        #expect(result.passed && result.findings.isEmpty && result.withinTolerance == 0)
    }

    @Test("An improvement passes and is listed as one")
    func improvementPasses() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed", ["overrun_frames": "5"])])
        let current = try SummaryFixture.file([SummaryFixture.row("feed", ["overrun_frames": "3"])])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        #expect(result.passed)
        #expect(result.findings.map(\.verdict) == [.improvement])
        #expect(result.findings.first?.metric == "overrun_frames")
        #expect(result.findings.first?.delta == "-2 (-40.0%)")
        #expect(result.verdictLine == "PASS: no regressions (1 run compared, 1 improvement)")
    }

    @Test("A relative tolerance absorbs a small increase but not a larger one")
    func relativeTolerance() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed", ["allocations": "100"])])
        let tolerances = try flags("allocations=5%")

        let small = try SummaryFixture.file([SummaryFixture.row("feed", ["allocations": "105"])])
        let absorbed = BaselineCheck.compare(baseline: baseline, current: small, tolerances: tolerances)
        #expect(absorbed.passed)
        #expect(absorbed.findings.isEmpty)
        #expect(absorbed.withinTolerance == 1)
        #expect(absorbed.verdictLine == "PASS: no regressions (1 run compared, 1 difference within tolerance)")

        let large = try SummaryFixture.file([SummaryFixture.row("feed", ["allocations": "106"])])
        let caught = BaselineCheck.compare(baseline: baseline, current: large, tolerances: tolerances)
        #expect(!caught.passed)
        #expect(caught.findings.map(\.verdict) == [.regression])
        #expect(caught.findings.first?.delta == "+6 (+6.0%)")
    }

    @Test("An absolute tolerance includes its boundary despite binary rounding")
    func absoluteToleranceBoundary() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed", ["hitch_time_ms": "1.100"])])
        let atLimit = try SummaryFixture.file([SummaryFixture.row("feed", ["hitch_time_ms": "1.300"])])
        let beyond = try SummaryFixture.file([SummaryFixture.row("feed", ["hitch_time_ms": "1.301"])])
        let tolerances = try flags("hitch_time_ms=0.2")

        #expect(BaselineCheck.compare(baseline: baseline, current: atLimit, tolerances: tolerances).passed)
        let result = BaselineCheck.compare(baseline: baseline, current: beyond, tolerances: tolerances)
        #expect(result.findings.map(\.verdict) == [.regression])
        #expect(result.findings.first?.delta == "+0.201 (+18.3%)")
    }

    @Test("A run missing from the current results is reported and fails")
    func missingRunFails() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed"), SummaryFixture.row("feed", hz: 120)])
        let current = try SummaryFixture.file([SummaryFixture.row("feed")])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        #expect(!result.passed)
        #expect(
            result.findings == [
                CheckFinding(
                    key: SummaryKey(scenario: "feed", variant: "default", refreshHz: 120), metric: nil,
                    baseline: "present", current: "absent", delta: "-", verdict: .missing)
            ])
        #expect(result.verdictLine == "FAIL: 1 missing run (1 run compared)")
    }

    @Test("A new run is reported and passes")
    func newRunPasses() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed")])
        let current = try SummaryFixture.file([
            SummaryFixture.row("feed"), SummaryFixture.row("feed", variant: "anchor"),
        ])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        #expect(result.passed)
        #expect(result.findings.map(\.verdict) == [.new])
        #expect(result.findings.first?.key == SummaryKey(scenario: "feed", variant: "anchor", refreshHz: 60))
        #expect(result.verdictLine == "PASS: no regressions (1 run compared, 1 new run)")
    }

    struct DirectionCase: Sendable, CustomTestStringConvertible {
        var metric: String
        var baseline: String
        var current: String
        var verdict: CheckVerdict
        var testDescription: String { "\(metric) \(baseline) → \(current) is \(verdict)" }
    }

    @Test(
        "Each metric's direction decides regression or improvement",
        arguments: [
            DirectionCase(metric: "viewmodel_hit_rate", baseline: "0.9000", current: "0.8000", verdict: .regression),
            DirectionCase(metric: "viewmodel_hit_rate", baseline: "0.9000", current: "0.9500", verdict: .improvement),
            DirectionCase(metric: "image_hit_rate", baseline: "0.7500", current: "0.7499", verdict: .regression),
            DirectionCase(metric: "drift_max_pt", baseline: "0.50", current: "1.50", verdict: .regression),
            DirectionCase(metric: "peak_memory_mb", baseline: "120.5", current: "110.0", verdict: .improvement),
            DirectionCase(metric: "frame_work_p99_ms", baseline: "6.152", current: "6.153", verdict: .regression),
            DirectionCase(metric: "frames", baseline: "1000", current: "1200", verdict: .change),
            DirectionCase(metric: "network_requests", baseline: "4", current: "2", verdict: .change),
            DirectionCase(
                metric: "trace_digest", baseline: "81fcec7f61c6cb0b", current: "1986943573f2f7d5", verdict: .change),
        ])
    func direction(_ example: DirectionCase) throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed", [example.metric: example.baseline])])
        let current = try SummaryFixture.file([SummaryFixture.row("feed", [example.metric: example.current])])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        #expect(result.findings.map(\.verdict) == [example.verdict])
        #expect(result.findings.first?.metric == example.metric)
        #expect(result.passed == !example.verdict.isFailure)
    }

    @Test("A neutral change fails only under a strict tolerance")
    func strictNeutralChange() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed")])
        let current = try SummaryFixture.file([
            SummaryFixture.row("feed", ["trace_digest": "0000000000000001", "frames": "1001"])
        ])

        let lenient = BaselineCheck.compare(baseline: baseline, current: current)
        #expect(lenient.passed)
        #expect(lenient.findings.map(\.verdict) == [.change, .change])
        #expect(lenient.findings.map(\.delta) == ["+1 (+0.1%)", "-"])

        let strict = BaselineCheck.compare(
            baseline: baseline, current: current, tolerances: try flags("trace_digest=strict"))
        #expect(!strict.passed)
        #expect(strict.findings.map(\.verdict) == [.strictChange, .change])
        #expect(strict.findings.map(\.metric) == ["trace_digest", "frames"])
        #expect(strict.verdictLine == "FAIL: 1 strict change (1 run compared, 1 neutral change)")

        let withinStrict = BaselineCheck.compare(
            baseline: baseline, current: current, tolerances: try flags("frames=1 strict"))
        #expect(withinStrict.findings.map(\.metric) == ["trace_digest"])
        #expect(withinStrict.withinTolerance == 1)
    }

    @Test("A strict tolerance fails an improvement too")
    func strictImprovement() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed", ["allocations": "100"])])
        let current = try SummaryFixture.file([SummaryFixture.row("feed", ["allocations": "90"])])
        let result = BaselineCheck.compare(
            baseline: baseline, current: current, tolerances: try flags("allocations=strict"))
        #expect(result.findings.map(\.verdict) == [.strictChange])
        #expect(!result.passed)
    }

    @Test("A nan where a directed metric had a number is a regression")
    func nanIsRegression() throws {
        let baseline = try SummaryFixture.file([SummaryFixture.row("feed")])
        let current = try SummaryFixture.file([SummaryFixture.row("feed", ["hitch_ratio_ms_per_s": "nan"])])
        let result = BaselineCheck.compare(
            baseline: baseline, current: current, tolerances: try flags("hitch_ratio_ms_per_s=100%"))
        #expect(result.findings.map(\.verdict) == [.regression])
        #expect(result.findings.first?.delta == "-")
    }

    @Test("Findings list regressions, improvements, changes, missing then new runs, each sorted by run and column")
    func findingsOrder() throws {
        let baseline = try SummaryFixture.file([
            SummaryFixture.row("b"), SummaryFixture.row("a", hz: 120), SummaryFixture.row("a"),
            SummaryFixture.row("gone"),
        ])
        let current = try SummaryFixture.file([
            SummaryFixture.row("added"),
            SummaryFixture.row("b", ["allocations": "101", "overrun_frames": "4", "frames": "999"]),
            SummaryFixture.row("a", hz: 120, ["jank_frames": "1", "image_hit_rate": "0.8000"]),
            SummaryFixture.row("a", ["allocations": "99"]),
        ])

        let result = BaselineCheck.compare(baseline: baseline, current: current)

        let listed = result.findings.map {
            "\($0.verdict) \($0.key.scenario) \($0.key.refreshHz) \($0.metric ?? "(run)")"
        }
        #expect(
            listed == [
                "regression a 120 jank_frames",
                "regression b 60 overrun_frames",
                "regression b 60 allocations",
                "improvement a 60 allocations",
                "improvement a 120 image_hit_rate",
                "changed b 60 frames",
                "missing gone 60 (run)",
                "new added 60 (run)",
            ])
        #expect(
            result.verdictLine
                == "FAIL: 3 regressions, 1 missing run (3 runs compared, 2 improvements, 1 neutral change, 1 new run)")
    }
}

@Suite("BaselineCheck tolerances: syntax, files and flags")
struct BaselineCheckToleranceTests {
    struct ValueCase: Sendable, CustomTestStringConvertible {
        var text: String
        var tolerance: Tolerance
        var testDescription: String { text }
    }

    @Test(
        "Tolerance values parse",
        arguments: [
            ValueCase(text: "hitch_time_ms=0.5", tolerance: Tolerance(amount: .absolute(0.5))),
            ValueCase(text: "hitch_time_ms = 2", tolerance: Tolerance(amount: .absolute(2))),
            ValueCase(text: "hitch_time_ms=5%", tolerance: Tolerance(amount: .relative(percent: 5))),
            ValueCase(text: "hitch_time_ms = 2.5 %", tolerance: Tolerance(amount: .relative(percent: 2.5))),
            ValueCase(text: "hitch_time_ms=strict", tolerance: Tolerance(amount: .absolute(0), isStrict: true)),
            ValueCase(text: "hitch_time_ms = 1 strict", tolerance: Tolerance(amount: .absolute(1), isStrict: true)),
            ValueCase(
                text: "hitch_time_ms = 10% strict", tolerance: Tolerance(amount: .relative(percent: 10), isStrict: true)
            ),
            ValueCase(text: "hitch_time_ms=0", tolerance: .exact),
        ])
    func valuesParse(_ example: ValueCase) throws {
        var set = ToleranceSet()
        try set.apply(flag: example.text)
        #expect(set.tolerance(for: "hitch_time_ms") == example.tolerance)
        #expect(set.tolerance(for: "allocations") == .exact)
    }

    @Test("Every metric is exact by default")
    func exactByDefault() {
        let set = ToleranceSet()
        for metric in SummaryMetrics.compared {
            #expect(set.tolerance(for: metric) == .exact, "\(metric)")
        }
        #expect(!SummaryMetrics.compared.contains("seed"))
        #expect(!SummaryMetrics.compared.contains("refresh_hz"))
        #expect(SummaryMetrics.compared.contains("trace_digest"))
    }

    @Test("A tolerance file with comments and blank lines parses")
    func fileWithComments() throws {
        let text = """
            # Tolerances for CI on shared runners.

            allocations = 5%   # malloc counts move with the toolchain
            hitch_time_ms=0.5
              # indented comment
            trace_digest = strict

            """
        let set = try ToleranceSet.parse(fileText: text, file: "ci.tolerances")
        #expect(set.tolerance(for: "allocations") == Tolerance(amount: .relative(percent: 5)))
        #expect(set.tolerance(for: "hitch_time_ms") == Tolerance(amount: .absolute(0.5)))
        #expect(set.tolerance(for: "trace_digest") == Tolerance(amount: .absolute(0), isStrict: true))
        #expect(set.tolerance(for: "overrun_frames") == .exact)
        #expect(set.customised.map(\.metric) == ["allocations", "hitch_time_ms", "trace_digest"])
        #expect(set.customised.map(\.tolerance.description) == ["5%", "0.5", "strict"])
    }

    @Test("An unknown metric in a file is an error naming the file and line")
    func unknownMetricInFile() {
        let text = "# header\nallocations = 5%\nallocs = 5%\n"
        #expect {
            _ = try ToleranceSet.parse(fileText: text, file: "ci.tolerances")
        } throws: { error in
            guard let error = error as? ToleranceError else { return false }
            return error.source == "ci.tolerances:3"
                && error.problem.hasPrefix("unknown metric \"allocs\"; tolerances apply to: duration_s, frames,")
                && error.description.hasPrefix("ci.tolerances:3: unknown metric \"allocs\"")
        }
    }

    struct BadCase: Sendable, CustomTestStringConvertible {
        var line: String
        var fragment: String
        var testDescription: String { line }
    }

    @Test(
        "Malformed lines are errors a person can act on",
        arguments: [
            BadCase(line: "allocations 5%", fragment: "expected `metric = value`"),
            BadCase(line: "= 5", fragment: "no metric name before `=`"),
            BadCase(line: "allocations =", fragment: "\"\" is not a tolerance"),
            BadCase(line: "allocations = five", fragment: "\"five\" is not a tolerance; use a non-negative number"),
            BadCase(line: "allocations = -1", fragment: "\"-1\" is not a tolerance"),
            BadCase(line: "allocations = 1 2", fragment: "\"1 2\" is not a tolerance"),
            BadCase(line: "allocations = 5%%", fragment: "\"5%%\" is not a tolerance"),
            BadCase(line: "allocations = 1e3", fragment: "\"1e3\" is not a tolerance"),
            BadCase(line: "trace_digest = 5%", fragment: "trace_digest is compared as text"),
            BadCase(line: "seed = 1", fragment: "seed identifies a run and is not compared"),
            BadCase(line: "refresh_hz = 1", fragment: "refresh_hz identifies a run and is not compared"),
        ])
    func malformedLines(_ example: BadCase) {
        #expect {
            _ = try ToleranceSet.parse(fileText: "# first\n\(example.line)\n", file: "t.txt")
        } throws: { error in
            guard let error = error as? ToleranceError else { return false }
            return error.source == "t.txt:2" && error.problem.contains(example.fragment)
        }
    }

    @Test("A metric named twice in one file is an error naming both lines")
    func duplicateInFile() {
        #expect {
            _ = try ToleranceSet.parse(fileText: "allocations = 5%\n\nallocations = 1\n", file: "t.txt")
        } throws: { error in
            (error as? ToleranceError)
                == ToleranceError(
                    source: "t.txt:3",
                    problem: "allocations already has a tolerance on line 1; keep one of the two lines")
        }
    }

    @Test("A flag overrides the file, and the last flag for a metric wins")
    func flagOverridesFile() throws {
        var set = try ToleranceSet.parse(fileText: "allocations = 5%\nhitch_time_ms = 0.5\n", file: "t.txt")
        try set.apply(flag: "allocations=10")
        try set.apply(flag: "overrun_frames=1")
        try set.apply(flag: "overrun_frames=2")
        #expect(set.tolerance(for: "allocations") == Tolerance(amount: .absolute(10)))
        #expect(set.tolerance(for: "hitch_time_ms") == Tolerance(amount: .absolute(0.5)))
        #expect(set.tolerance(for: "overrun_frames") == Tolerance(amount: .absolute(2)))
    }

    @Test("A bad flag names the flag")
    func badFlag() {
        var set = ToleranceSet()
        #expect(
            throws: ToleranceError(
                source: "--tolerance \"allocs=5%\"",
                problem: "unknown metric \"allocs\"; tolerances apply to: "
                    + SummaryMetrics.compared.joined(separator: ", "))
        ) {
            try set.apply(flag: "allocs=5%")
        }
    }

    @Test("A tolerance file is read from disk, and a missing one is an error naming it")
    func fileOnDisk() throws {
        let folder = FileManager.default.temporaryDirectory
            .appendingPathComponent("feedsim-tolerance-\(ProcessInfo.processInfo.processIdentifier)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let url = folder.appendingPathComponent("t.txt")
        try Data("drift_max_pt = 1\n".utf8).write(to: url)

        let set = try ToleranceSet.load(url: url, file: "t.txt")
        #expect(set.tolerance(for: "drift_max_pt") == Tolerance(amount: .absolute(1)))
        #expect(throws: ToleranceError(source: "nope.txt", problem: "no such tolerance file")) {
            _ = try ToleranceSet.load(url: folder.appendingPathComponent("nope.txt"), file: "nope.txt")
        }
    }
}

@Suite("BaselineCheck summary files: typed rows and clear errors")
struct BaselineCheckSummaryFileTests {
    @Test("Rows keep file order, keys and metrics in column order")
    func rowsInFileOrder() throws {
        let file = try SummaryFixture.file([
            SummaryFixture.row("zeta"), SummaryFixture.row("alpha", variant: "anchor", hz: 120, ["allocations": "42"]),
        ])
        #expect(file.rows.map(\.key.scenario) == ["zeta", "alpha"])
        #expect(file.rows.map(\.line) == [2, 3])
        let alpha = try #require(file.row(for: SummaryKey(scenario: "alpha", variant: "anchor", refreshHz: 120)))
        #expect(alpha.seed == 7)
        #expect(alpha.value(of: "allocations") == "42")
        #expect(alpha.metrics.map(\.name) == SummaryMetrics.compared)
        #expect(file.metricColumns == SummaryMetrics.compared)
    }

    @Test("Line numbers count line breaks inside quoted fields")
    func quotedLineBreaks() {
        let text = SummaryFixture.text([
            SummaryFixture.row("two\nlines"), SummaryFixture.row("plain", ["frames": "many"]),
        ])
        #expect(
            throws: SummaryFileError(
                kind: .badValue, file: "s.csv", line: 4, problem: "frames is \"many\", expected a number")
        ) {
            _ = try SummaryFile(text: text, file: "s.csv")
        }
    }

    @Test("Missing required columns are named")
    func missingColumns() {
        let columns = RunReports.summaryColumns.filter { $0 != "jank_frames" && $0 != "trace_digest" }
        let text = columns.joined(separator: ",") + "\n"
        #expect {
            _ = try SummaryFile(text: text, file: "base/summary.csv")
        } throws: { error in
            guard let error = error as? SummaryFileError else { return false }
            return error.kind == .badHeader && error.line == 1
                && error.description.hasPrefix(
                    "base/summary.csv:1: missing required columns jank_frames, trace_digest;")
        }
    }

    @Test("A duplicate key names both lines")
    func duplicateKey() {
        let text = SummaryFixture.text([
            SummaryFixture.row("feed"), SummaryFixture.row("other"), SummaryFixture.row("feed"),
        ])
        #expect(
            throws: SummaryFileError(
                kind: .duplicateKey, file: "s.csv", line: 4,
                problem: "duplicate row for feed / default @ 60 Hz; the first is on line 2")
        ) {
            _ = try SummaryFile(text: text, file: "s.csv")
        }
    }

    struct BadValueCase: Sendable, CustomTestStringConvertible {
        var column: String
        var value: String
        var problem: String
        var testDescription: String { "\(column)=\(value)" }
    }

    @Test(
        "Malformed values name the line, the column and what was expected",
        arguments: [
            BadValueCase(
                column: "overrun_frames", value: "three", problem: "overrun_frames is \"three\", expected a number"),
            BadValueCase(column: "hitch_time_ms", value: "", problem: "hitch_time_ms is \"\", expected a number"),
            BadValueCase(
                column: "allocations", value: "1e3",
                problem: "allocations is \"1e3\", expected a number, or empty where allocations were not counted"),
            BadValueCase(
                column: "seed", value: "-1",
                problem: "seed is \"-1\", expected a whole number from 0 to 18446744073709551615"),
            BadValueCase(
                column: "trace_digest", value: "xyz", problem: "trace_digest is \"xyz\", expected 16 hex digits"),
        ])
    func badValues(_ example: BadValueCase) {
        let text = SummaryFixture.text([
            SummaryFixture.row("feed"), SummaryFixture.row("bad", [example.column: example.value]),
        ])
        #expect(throws: SummaryFileError(kind: .badValue, file: "s.csv", line: 3, problem: example.problem)) {
            _ = try SummaryFile(text: text, file: "s.csv")
        }
    }

    @Test("A bad refresh rate is an error")
    func badRefreshRate() {
        let text = SummaryFixture.text([SummaryFixture.row("feed")]).replacingOccurrences(
            of: "feed,default,60,", with: "feed,default,sixty,")
        #expect(
            throws: SummaryFileError(
                kind: .badValue, file: "s.csv", line: 2,
                problem: "refresh_hz is \"sixty\", expected a positive whole number of hertz")
        ) {
            _ = try SummaryFile(text: text, file: "s.csv")
        }
    }

    @Test("A row with more fields than the header is an error")
    func extraFields() {
        let text = SummaryFixture.text([SummaryFixture.row("feed")]).dropLast() + ",surplus\n"
        #expect {
            _ = try SummaryFile(text: String(text), file: "s.csv")
        } throws: { error in
            (error as? SummaryFileError)?.kind == .badRow && (error as? SummaryFileError)?.line == 2
        }
    }

    @Test("A missing file and an empty file are reported as such")
    func missingAndEmpty() {
        #expect(
            throws: SummaryFileError(
                kind: .missingFile, file: "nowhere/summary.csv", line: nil, problem: "no such file")
        ) {
            _ = try SummaryFile.load(
                url: URL(fileURLWithPath: "/nonexistent-feedsim/summary.csv"), file: "nowhere/summary.csv")
        }
        #expect {
            _ = try SummaryFile(text: "", file: "s.csv")
        } throws: { error in
            (error as? SummaryFileError)?.kind == .badHeader
        }
    }
}
