import FoundationEssentials

// What `feedsim check` writes for CI systems: a JUnit XML file, a Markdown
// job summary and JSON. All three come from the same findings as the text
// table, in the same order.

extension BaselineCheckResult {
    /// The check as JUnit XML: a `testsuite` per scenario, a `testcase` per
    /// run (named `<variant> @ <hz> Hz`, classname the scenario), and a
    /// `failure` per regressed or strictly changed metric, or one for a run
    /// missing from the current results. Improvements, neutral changes and
    /// new runs pass; a passing run's changes are listed in its
    /// `system-out`.
    ///
    /// Only elements and attributes that Jenkins', GitLab's and GitHub
    /// actions' JUnit readers document are written. The check measures no
    /// time, so every `time` is 0, and the file is the same for the same
    /// inputs.
    ///
    /// - Complexity: O(*r* + *f*) for *r* runs and *f* findings.
    package var junitXML: String {
        let byRun = Dictionary(grouping: findings, by: \.key)
        var scenarios: [String] = []
        var runsByScenario: [String: [SummaryKey]] = [:]
        for key in runs {
            if runsByScenario[key.scenario] == nil { scenarios.append(key.scenario) }
            runsByScenario[key.scenario, default: []].append(key)
        }
        func failures(of key: SummaryKey) -> [CheckFinding] {
            (byRun[key] ?? []).filter(\.verdict.isFailure)
        }
        let failedRuns = runs.filter { !failures(of: $0).isEmpty }.count

        var xml = "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
        xml +=
            """
            <testsuites name=\"feedsim check\" tests=\"\(runs.count)\" failures=\"\(failedRuns)\" errors=\"0\" \
            time=\"0\">\n
            """
        for scenario in scenarios {
            let keys = runsByScenario[scenario] ?? []
            let failed = keys.filter { !failures(of: $0).isEmpty }.count
            xml +=
                """
                  <testsuite name=\"\(JUnitText.escaped(scenario))\" tests=\"\(keys.count)\" \
                failures=\"\(failed)\" errors=\"0\" skipped=\"0\" time=\"0\">\n
                """
            for key in keys {
                let findings = byRun[key] ?? []
                let name = "\(key.variant) @ \(key.refreshHz) Hz"
                xml +=
                    """
                        <testcase name=\"\(JUnitText.escaped(name))\" \
                    classname=\"\(JUnitText.escaped(scenario))\" time=\"0\"
                    """
                guard !findings.isEmpty else {
                    xml += "/>\n"
                    continue
                }
                xml += ">\n"
                for finding in findings where finding.verdict.isFailure {
                    let message = JUnitText.escaped(finding.sentence)
                    xml +=
                        """
                              <failure message=\"\(message)\" \
                        type=\"\(JUnitText.escaped(finding.verdict.description))\">\(message)</failure>\n
                        """
                }
                let passing = findings.filter { !$0.verdict.isFailure }
                if !passing.isEmpty {
                    xml +=
                        """
                              \
                        <system-out>\(JUnitText.escaped(passing.map(\.sentence).joined(separator: "\n")))\
                        </system-out>\n
                        """
                }
                xml += "    </testcase>\n"
            }
            xml += "  </testsuite>\n"
        }
        xml += "</testsuites>\n"
        return xml
    }

    /// The check as a Markdown job summary (GitHub's `$GITHUB_STEP_SUMMARY`
    /// takes it as is): failures first (regressions, strict changes and
    /// missing runs), then improvements, then neutral changes and new runs,
    /// then the verdict line.
    package var summaryMarkdown: String {
        let header =
            "| scenario | variant | Hz | metric | baseline | current | delta | tolerance | verdict |\n"
            + "|---|---|--:|---|--:|--:|--:|---|---|\n"
        func section(_ title: String, _ rows: [CheckFinding], empty: String) -> String {
            var text = "### \(title) (\(rows.count))\n\n"
            guard !rows.isEmpty else { return text + empty + "\n\n" }
            text += header
            for f in rows {
                let fields = [
                    f.key.scenario, f.key.variant, String(f.key.refreshHz), f.metric ?? "(run)",
                    f.baseline, f.current, f.delta, f.metric == nil ? "-" : f.tolerance.description,
                    f.verdict.description,
                ]
                text += "| " + fields.map(StrategyComparison.markdownEscaped).joined(separator: " | ") + " |\n"
            }
            return text + "\n"
        }
        var text = "## FeedSim baseline check\n\n"
        text += section("Regressions", findings.filter(\.verdict.isFailure), empty: "None.")
        text += section("Improvements", findings.filter { $0.verdict == .improvement }, empty: "None.")
        let others = findings.filter { $0.verdict == .change || $0.verdict == .new }
        if !others.isEmpty { text += section("Other changes", others, empty: "") }
        // The verdict line without its leading word, which is in bold.
        let counts = verdictLine.drop { $0 != ":" }.dropFirst(2)
        text += "**\(passed ? "PASS" : "FAIL")**: \(StrategyComparison.markdownEscaped(String(counts)))\n"
        return text
    }

    /// The check as JSON for other tools: the verdict, the counts, every run
    /// and every finding. Values are the summary files' text, as written.
    package var json: String {
        let document = CheckDocument(
            passed: passed, verdict: verdictLine, comparedRuns: comparedRuns, withinTolerance: withinTolerance,
            notInBaseline: notInBaseline,
            counts: Dictionary(uniqueKeysWithValues: CheckVerdict.allCases.map { (Self.jsonName(of: $0), count($0)) }),
            runs: runs.map { CheckDocument.Run(scenario: $0.scenario, variant: $0.variant, refreshHz: $0.refreshHz) },
            findings: findings.map {
                CheckDocument.Finding(
                    scenario: $0.key.scenario, variant: $0.key.variant, refreshHz: $0.key.refreshHz, metric: $0.metric,
                    baseline: $0.baseline, current: $0.current, delta: $0.delta,
                    tolerance: $0.metric == nil ? nil : $0.tolerance.description,
                    verdict: Self.jsonName(of: $0.verdict), fails: $0.verdict.isFailure)
            })
        return JSONDocument.text(of: document)
    }

    /// A verdict's name in JSON: one word, snake case.
    static func jsonName(of verdict: CheckVerdict) -> String {
        switch verdict {
        case .regression: "regression"
        case .strictChange: "strict_change"
        case .improvement: "improvement"
        case .change: "change"
        case .missing: "missing"
        case .new: "new"
        }
    }
}

extension CheckFinding {
    /// One sentence: the metric, what it was and is, the difference and the
    /// tolerance; or what happened to a whole run.
    var sentence: String {
        let run = "\(key.scenario) / \(key.variant) / \(key.refreshHz) Hz"
        guard let metric else {
            return verdict == .missing
                ? "\(run): run missing from the current results (in the baseline, absent now)"
                : "\(run): new run (absent from the baseline)"
        }
        return
            """
            \(run): \(metric) \(verdict): baseline \(baseline), current \(current), delta \(delta), tolerance \
            \(tolerance)
            """
    }
}

/// `feedsim check --format json`.
struct CheckDocument: Encodable {
    struct Run: Encodable {
        var scenario: String
        var variant: String
        var refreshHz: Int
        enum CodingKeys: String, CodingKey { case scenario, variant, refreshHz = "refresh_hz" }
    }

    struct Finding: Encodable {
        var scenario: String
        var variant: String
        var refreshHz: Int
        var metric: String?
        var baseline: String
        var current: String
        var delta: String
        var tolerance: String?
        var verdict: String
        var fails: Bool
        enum CodingKeys: String, CodingKey {
            case scenario, variant, refreshHz = "refresh_hz", metric, baseline, current, delta, tolerance, verdict,
                fails
        }

        func encode(to encoder: any Encoder) throws {
            var c = encoder.container(keyedBy: CodingKeys.self)
            try c.encode(scenario, forKey: .scenario)
            try c.encode(variant, forKey: .variant)
            try c.encode(refreshHz, forKey: .refreshHz)
            // Null, not left out, for a whole run: every finding has the same keys.
            try c.encode(metric, forKey: .metric)
            try c.encode(baseline, forKey: .baseline)
            try c.encode(current, forKey: .current)
            try c.encode(delta, forKey: .delta)
            try c.encode(tolerance, forKey: .tolerance)
            try c.encode(verdict, forKey: .verdict)
            try c.encode(fails, forKey: .fails)
        }
    }

    var passed: Bool
    var verdict: String
    var comparedRuns: Int
    var withinTolerance: Int
    var notInBaseline: [String]
    var counts: [String: Int]
    var runs: [Run]
    var findings: [Finding]

    enum CodingKeys: String, CodingKey {
        case passed, verdict, comparedRuns = "compared_runs", withinTolerance = "within_tolerance",
            notInBaseline = "not_in_baseline", counts, runs, findings
    }
}

/// JSON text the same for the same value: keys sorted, two-space indents.
enum JSONDocument {
    static func text(of value: some Encodable) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        // Our own documents hold strings, numbers and booleans only.
        let data = try! encoder.encode(value)
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// Text inside JUnit XML.
enum JUnitText {
    /// `text` as XML attribute or element content: the five special
    /// characters as entities (as HTML writes them), and the characters
    /// XML 1.0 does not allow (control characters other than tab, line feed
    /// and carriage return) replaced by U+FFFD.
    static func escaped(_ text: String) -> String {
        var allowed = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            let isAllowed =
                scalar.value >= 0x20
                ? scalar.value != 0xFFFE && scalar.value != 0xFFFF : "\t\n\r".unicodeScalars.contains(scalar)
            allowed.append(isAllowed ? scalar : "\u{FFFD}")
        }
        return HTMLText.escape(String(allowed))
    }
}
