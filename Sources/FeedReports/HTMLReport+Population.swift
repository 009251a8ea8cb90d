extension HTMLReport {
    /// How to read a distribution plot, said once above the plots.
    static let distributionHint =
        "One lane per variant; each dot above the box holds the runs in its pixel column (darker: more runs); "
        + "the box spans the 25th to 75th percentile, the thick bar is the median, the whiskers reach the 5th and 95th "
        + "percentiles and the orange diamond marks the largest value (nearest-rank percentiles)."

    /// The explore results' section: a distribution plot per metric with a
    /// lane per strategy over every session, the population table and the
    /// strategies' paired differences.
    func populationSection(_ population: SummaryFile, comparison: PairedComparison) -> String {
        let lanes = comparison.variants.enumerated().map { i, variant in
            let rows = population.rows.filter { $0.key.variant == variant }
            return PopulationLane(name: variant, color: SVGPlot.color(i)) { column in
                rows.compactMap { $0.value(of: column).flatMap(SummaryFile.parseNumber) }
            }
        }
        return populationSection(
            sessions: Set(population.rows.map(PairKey.init)).count, runs: population.rows.count, comparison: comparison,
            lanes: lanes)
    }

    /// The explore results' section from results read as columns
    /// (`PopulationColumns`), as `populationSection(_:comparison:)` draws
    /// it from rows.
    func populationSection(_ columns: PopulationColumns, comparison: PairedComparison) -> String {
        let lanes = columns.variants.enumerated().map { v, variant in
            PopulationLane(name: variant, color: SVGPlot.color(v)) { column in columns.column(column, of: v) ?? [] }
        }
        return populationSection(
            sessions: columns.keys.count, runs: columns.order.reduce(0) { $0 + $1.count }, comparison: comparison,
            lanes: lanes)
    }

    /// The section: its heading, the distribution plots of `lanes`, the
    /// population table and the paired differences.
    private func populationSection(
        sessions: Int, runs: Int, comparison: PairedComparison, lanes: [PopulationLane]
    ) -> String {
        var out = "<section class=\"population\" id=\"population\">\n"
        out +=
            """
            <h2>Population: \(sessions) session\(sessions == 1 ? "" : "s") × \(comparison.variants.count) \
            strateg\(comparison.variants.count == 1 ? "y" : "ies")</h2>\n
            """
        out +=
            "<p class=\"lead\">\(HTMLText.escape(HTMLReport.populationFileName)): \(runs) run\(runs == 1 ? "" : "s"), "
        out +=
            """
            each session run under every strategy with the same random draws, so strategies are compared paired, \
            session by session.</p>\n
            """
        let verdicts = "Verdicts over the \(explorePopulation?.text ?? ExplorePopulation.unrecordedText)."
        out += "<p class=\"lead\">\(HTMLText.escape(verdicts))</p>\n"
        out += legend(comparison.variants)
        out += "<p class=\"hint\">\(HTMLText.escape(HTMLReport.distributionHint))</p>\n"
        out += distributionPlots(lanes)
        out += populationTables(comparison)
        out += "</section>\n"
        return out
    }

    /// One lane of the distribution plots: a name, a colour, and its runs'
    /// values of a column.
    struct PopulationLane {
        var name: String
        var color: String
        var values: (String) -> [Double]
    }

    /// A multi-seed scenario's charts: a distribution plot per metric with a
    /// lane per variant (and rate, when it has several), then per rate its
    /// population table and paired differences.
    func seedPopulation(runs: [SummaryRow], variants: [String], rates: [Int], groups: [SeedComparison.Group]) -> String
    {
        var out = "<p class=\"hint\">\(HTMLText.escape(HTMLReport.distributionHint))</p>\n"
        let lanes = variants.enumerated().flatMap { i, variant in
            rates.map { hz in
                (
                    name: rates.count > 1 ? "\(variant) @ \(hz) Hz" : variant, color: SVGPlot.color(i),
                    rows: runs.filter { $0.key.variant == variant && $0.key.refreshHz == hz }
                )
            }
        }.filter { !$0.rows.isEmpty }.map { lane in
            PopulationLane(name: lane.name, color: lane.color) { column in
                lane.rows.compactMap { $0.value(of: column).flatMap(SummaryFile.parseNumber) }
            }
        }
        out += distributionPlots(lanes)
        for group in groups {
            out += "<h3>\(HTMLText.escape(SeedComparison.title(group))): paired by seed</h3>\n"
            out += populationTables(group.comparison)
        }
        return out
    }

    /// The legend of `variants`' colours.
    func legend(_ variants: [String]) -> String {
        var out = "<ul class=\"legend\">"
        for (i, variant) in variants.enumerated() {
            out +=
                """
                <li><span class=\"swatch\" \
                style=\"background:\(SVGPlot.color(i))\"></span>\(HTMLText.escape(variant))</li>
                """
        }
        return out + "</ul>\n"
    }

    /// One distribution plot per population metric, lanes in order.
    func distributionPlots(_ lanes: [PopulationLane]) -> String {
        var out = "<div class=\"charts\">\n"
        for column in HTMLReport.populationMetrics {
            let metric = Metric.named(column)
            let plot = DistributionPlot(
                title: metric?.chartTitle ?? column, unit: "\(column), \(metric?.unit ?? "")",
                lanes: lanes.map { lane in
                    DistributionPlot.Lane(name: lane.name, color: lane.color, values: lane.values(column))
                })
            out += "<figure>\(plot.svg)</figure>\n"
        }
        return out + "</div>\n"
    }

    /// The population table and the paired differences of `comparison`.
    func populationTables(_ comparison: PairedComparison) -> String {
        let table = comparison.population
        var out = "<div class=\"scroll\"><table class=\"population-table\">\n<thead><tr>"
        out += table.headings.enumerated().map { i, heading in
            "<th\(i == 0 ? " class=\"text\"" : "")>\(HTMLText.escape(heading))</th>"
        }.joined()
        out += "</tr></thead>\n<tbody>\n"
        for row in table.rows {
            let fields = table.fields(row)
            out += "<tr><td class=\"text\">\(HTMLText.escape(fields[0]))</td>"
            out += fields.dropFirst().map { "<td>\(HTMLText.escape($0))</td>" }.joined() + "</tr>\n"
        }
        out += "</tbody>\n</table></div>\n"
        guard !comparison.differences.isEmpty else {
            return out + "<p class=\"hint\">\(HTMLText.escape(comparison.noDifferencesText)).</p>\n"
        }
        out += "<p class=\"hint\">\(HTMLText.escape(comparison.intervalNote))</p>\n"
        out += "<div class=\"scroll\"><table class=\"differences\">\n<thead><tr>"
        out += PairedComparison.differenceHeadings.enumerated().map { i, heading in
            """
            <th\(i < 3 || i == PairedComparison.differenceHeadings.count - 1 ? " class=\"text\"" : "")\
            >\(HTMLText.escape(heading))</th>
            """
        }.joined()
        out += "</tr></thead>\n<tbody>\n"
        for difference in comparison.differences {
            let fields = comparison.fields(difference)
            let verdictClass =
                switch difference.verdict {
                case .better: "verdict-better"
                case .worse: "verdict-worse"
                case .differentSizeUnclear: "verdict-unclear"
                default: "verdict"
                }
            out += "<tr>" + fields.prefix(3).map { "<td class=\"text\">\(HTMLText.escape($0))</td>" }.joined()
            out += fields.dropFirst(3).dropLast().map { "<td>\(HTMLText.escape($0))</td>" }.joined()
            out += "<td class=\"\(verdictClass)\">\(HTMLText.escape(fields.last ?? ""))</td></tr>\n"
        }
        out += "</tbody>\n</table></div>\n"
        return out
    }
}
