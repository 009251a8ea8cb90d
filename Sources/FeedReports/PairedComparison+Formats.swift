import CSVCodec

extension PairedComparison {
    /// Decimals of the means, differences and interval ends.
    static let decimals = 3

    /// The headings of the differences table, one per column.
    static let differenceHeadings = [
        "metric", "A", "B", "pairs", "mean A", "mean B", "B − A", "CI low", "CI high", "δ", "p adj", "B vs A",
    ]

    /// Lines saying what the intervals are and how the verdicts are reached.
    package var intervalNote: String {
        let level = ReportNumber.fixed(bootstrap.confidence * 100, 0)
        let alpha = ReportNumber.fixed(bootstrap.alpha, 2)
        var note =
            "B − A is the mean paired difference; its \(level)% interval is a studentized bootstrap "
            + "(\(bootstrap.resamples) resamples of the pairs, seed \(bootstrap.seed)"
        if bootstrap.resamples != requestedResamples {
            note +=
                """
                ; \(requestedResamples) asked for, raised so that \(comparisons) \
                comparison\(comparisons == 1 ? "" : "s") can each be shown
                """
        }
        if differences.contains(where: { $0.method == .bca }) {
            note += "; BCa where it is not defined: differences all the same, or too many resamples without spread"
        }
        if differences.contains(where: { $0.method == .batchedBCa }) {
            note +=
                """
                ; above \(PairedBootstrap.largestResampledSample) pairs, BCa of \
                \(PairedBootstrap.largestResampledSample) batch means
                """
        }
        note += ")"
        note +=
            ". δ is the smallest difference that matters. B is better or worse when the difference is shown to be "
                + """
                beyond δ (corrected p of \"|B − A| ≤ δ\" ≤ \(alpha)); equivalent when two one-sided tests, corrected, \
                put it inside ±δ;\u{20}
                """
                + """
                \"\(PairedVerdict.differentSizeUnclear.rawValue)\" when a difference is shown (p adj ≤ \(alpha)) but \
                neither;\u{20}
                """
            + "otherwise \"\(PairedVerdict.noDifferenceShown.rawValue)\". "
            + correctionNote
        if comparisons > 0 {
            note +=
                " The smallest p adj this run can show is \(PairedComparison.pText(smallestAdjustedPValue))"
                + " (2/(B + 1)\(correction == .none ? "" : " × \(comparisons)"))."
        }
        if verdictUnreachable { note += " " + unreachableWarning }
        return note
    }

    /// The warning when the family is too large for any resampled
    /// difference to be shown.
    package var unreachableWarning: String {
        "Warning: with \(comparisons) comparisons and at most \(PairedBootstrap.maximumResamples) resamples, no "
            + """
            difference can reach p adj ≤ \(ReportNumber.fixed(bootstrap.alpha, 2)); compare fewer metrics or \
            variants.
            """
    }

    /// One sentence naming the correction and the family it covered.
    package var correctionNote: String {
        switch correction {
        case .holm:
            """
            p-values are corrected by Holm's method over \(comparisons) comparison\(comparisons == 1 ? "" : "s") \
            made together.
            """
        case .none: "p-values are not corrected: each of the \(comparisons) comparisons stands alone."
        }
    }

    /// The fields of one difference as the text formats write them.
    func fields(_ difference: Difference) -> [String] {
        let d = PairedComparison.decimals
        return [
            difference.metric, difference.baseline, difference.candidate, String(difference.pairs),
            ReportNumber.fixed(difference.baselineMean, d), ReportNumber.fixed(difference.candidateMean, d),
            ReportNumber.fixed(difference.meanDifference, d),
            difference.interval.map { ReportNumber.fixed($0.lower, d) } ?? "-",
            difference.interval.map { ReportNumber.fixed($0.upper, d) } ?? "-",
            ReportNumber.fixed(difference.smallestDifference, d),
            difference.interval == nil ? "-" : PairedComparison.pText(difference.adjustedPValue),
            difference.verdict.rawValue,
        ]
    }

    /// A p-value for people: four decimals, `<0.0001` below that.
    static func pText(_ p: Double) -> String {
        p < 0.0001 ? "<0.0001" : ReportNumber.fixed(p, 4)
    }

    /// What the text formats say when there is no difference to show.
    static let noDifferences = "no paired differences: the runs have one variant"

    /// Why this comparison has no differences.
    var noDifferencesText: String {
        missingBaseline.map { "no paired differences: no variant \"\($0)\" (the baseline) here" }
            ?? PairedComparison.noDifferences
    }

    /// The population table, then the differences, as aligned terminal
    /// text; ends with a line break.
    package var terminalText: String {
        var out = population.terminalText + "\n"
        guard !differences.isEmpty else { return out + noDifferencesText + "\n" }
        out += "paired differences (\(intervalNote))\n"
        out +=
            AlignedText.render(
                header: PairedComparison.differenceHeadings,
                alignments: [.left, .left, .left] + Array(repeating: .right, count: 8) + [.left],
                rows: differences.map(fields)) + "\n"
        return out
    }

    /// The population table, then the differences, as Markdown tables;
    /// ends with a line break.
    package var markdown: String {
        guard !differences.isEmpty else { return population.markdown + "\n" + noDifferencesText + "\n" }
        var lines = [population.markdown, intervalNote, ""]
        lines.append("| " + PairedComparison.differenceHeadings.joined(separator: " | ") + " |")
        lines.append("| --- | --- | --- |" + String(repeating: " ---: |", count: 8) + " --- |")
        for difference in differences {
            let cells = fields(difference)
            let escaped = cells.prefix(3).map(StrategyComparison.markdownEscaped) + cells.dropFirst(3)
            lines.append("| " + escaped.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The columns of `differencesCSV`.
    package static let differenceColumns = [
        "metric", "direction", "variant_a", "variant_b", "pairs", "mean_a", "mean_b", "mean_difference",
        "ci_low", "ci_high", "confidence", "resamples", "bootstrap_seed", "smallest_difference", "p_value",
        "p_adjusted",
        "equivalence_p_value", "equivalence_p_adjusted", "matters_p_value", "matters_p_adjusted", "correction",
        "comparisons",
        "interval_method", "smallest_p_adjusted", "verdict",
    ]

    /// The differences as CSV (`differenceColumns`), one line per metric
    /// and variant pair; `ci_low` and `ci_high` are empty without an
    /// interval.
    package var differencesCSV: CSVTable {
        var table = CSVTable(columns: PairedComparison.differenceColumns)
        for row in differenceRows { table.append(row) }
        return table
    }

    /// A p-value as the CSV writes it: six decimals, empty when there is none.
    static func pField(_ p: Double) -> String {
        p.isFinite ? ReportNumber.fixed(p, 6) : ""
    }

    /// The lines of `differencesCSV`, without its header.
    var differenceRows: [[String]] {
        let d = PairedComparison.decimals
        return differences.map { difference in
            [
                difference.metric, difference.direction.rawValue, difference.baseline, difference.candidate,
                String(difference.pairs),
                ReportNumber.fixed(difference.baselineMean, d), ReportNumber.fixed(difference.candidateMean, d),
                ReportNumber.fixed(difference.meanDifference, d),
                difference.interval.map { ReportNumber.fixed($0.lower, d) } ?? "",
                difference.interval.map { ReportNumber.fixed($0.upper, d) } ?? "",
                ReportNumber.fixed(bootstrap.confidence, 2), String(bootstrap.resamples), String(bootstrap.seed),
                ReportNumber.fixed(difference.smallestDifference, d),
                PairedComparison.pField(difference.pValue), PairedComparison.pField(difference.adjustedPValue),
                PairedComparison.pField(difference.equivalencePValue),
                PairedComparison.pField(difference.adjustedEquivalencePValue),
                PairedComparison.pField(difference.mattersPValue),
                PairedComparison.pField(difference.adjustedMattersPValue),
                correction.description, String(comparisons), difference.method?.rawValue ?? "",
                difference.method == nil ? "" : PairedComparison.pField(smallestAdjustedPValue),
                difference.verdict.rawValue,
            ]
        }
    }
}

extension PopulationTable {
    /// The headings of the table, with the violation columns when the
    /// results have them.
    var headings: [String] {
        [
            "variant", "runs", "drift p50 pt", "drift p95 pt", "drift max pt", "hitch mean ms/s", "hitch p95 ms/s",
            "overruns",
        ]
            + (hasViolations ? ["violations", "runs with violations"] : [])
            + ["drift p95 run", "drift max run", "hitch p95 run"]
    }

    /// One row's fields as the text formats write them.
    func fields(_ row: Row) -> [String] {
        [
            row.variant, String(row.runs),
            ReportNumber.fixed(row.driftP50, 2), ReportNumber.fixed(row.driftP95, 2),
            ReportNumber.fixed(row.driftMax, 2),
            ReportNumber.fixed(row.hitchMean, 3), ReportNumber.fixed(row.hitchP95, 3),
            ReportNumber.fixed(row.overrunFrames, 0),
        ]
            + (hasViolations
                ? [ReportNumber.fixed(row.violations ?? 0, 0), String(row.runsWithViolations ?? 0)]
                : [])
            + [row.driftP95Run, row.driftMaxRun, row.hitchP95Run]
    }

    /// The table as aligned terminal text under a title line; ends with a
    /// line break.
    package var terminalText: String {
        let title = "population (nearest-rank percentiles over each variant's runs)"
        return title + "\n"
            + AlignedText.render(
                header: headings,
                alignments: [.left] + Array(repeating: .right, count: headings.count - 4)
                    + Array(repeating: .left, count: 3),
                rows: rows.map(fields)) + "\n"
    }

    /// The table in Markdown; ends with a line break.
    package var markdown: String {
        var lines = ["| " + headings.joined(separator: " | ") + " |"]
        lines.append(
            "| --- |" + String(repeating: " ---: |", count: headings.count - 4) + String(repeating: " --- |", count: 3))
        for row in rows {
            var cells = fields(row)
            cells[0] = StrategyComparison.markdownEscaped(cells[0])
            lines.append("| " + cells.joined(separator: " | ") + " |")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    /// The CSV columns, with `violations` and `runs_with_violations` when
    /// the results have them.
    package var columns: [String] {
        [
            "variant", "runs", "drift_p50_pt", "drift_p95_pt", "drift_max_pt", "hitch_mean_ms_per_s",
            "hitch_p95_ms_per_s", "overrun_frames",
        ]
            + (hasViolations ? ["violations", "runs_with_violations"] : [])
            + ["drift_p95_run", "drift_max_run", "hitch_p95_run"]
    }

    /// The table as CSV (`columns`), one line per variant.
    package var csv: CSVTable {
        var table = CSVTable(columns: columns)
        for row in rows { table.append(fields(row)) }
        return table
    }
}
