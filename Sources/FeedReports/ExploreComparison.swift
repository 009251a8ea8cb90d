import CSVCodec

/// An exploration's strategies compared, paired by session, with the
/// population its sessions were drawn from (`population.json`), which every
/// format of `feedsim compare` names.
package struct ExploreComparison {
    package var comparison: PairedComparison
    /// nil when the folder has no `population.json`.
    package var population: ExplorePopulation?

    package init(comparison: PairedComparison, population: ExplorePopulation?) {
        self.comparison = comparison
        self.population = population
    }

    /// The columns the CSV adds after the paired differences' own.
    package static let populationColumns = ["population", "usage_model", "usage_sessions"]

    /// The population in words, or that the folder did not record it.
    var populationText: String { population?.text ?? ExplorePopulation.unrecordedText }

    /// `populationColumns`' fields, empty where the population has none
    /// (or was not recorded).
    var populationFields: [String] {
        [
            population?.kind.rawValue ?? "", population?.usageModel ?? "",
            population?.usageSessions.map(String.init) ?? "",
        ]
    }
}

extension ExploreComparison: ComparisonText {
    /// The population's line, then the comparison, as explore prints them.
    package var terminalText: String { "verdicts over the \(populationText)\n" + comparison.terminalText }

    /// The population's sentence, then the comparison's tables.
    package var markdown: String {
        "Verdicts over the \(StrategyComparison.markdownEscaped(populationText)).\n\n" + comparison.markdown
    }

    /// The paired differences with `populationColumns` on every row.
    package var csvTable: CSVTable {
        var table = CSVTable(columns: PairedComparison.differenceColumns + Self.populationColumns)
        for row in comparison.differenceRows { table.append(row + populationFields) }
        return table
    }

    /// The comparison's JSON with `session_population`.
    package var json: String {
        var document = PairedDocument(comparison)
        document.sessionPopulation = PairedDocument.SessionPopulation(
            population: population?.kind.rawValue, usageModel: population?.usageModel,
            usageSessions: population?.usageSessions, description: populationText)
        return JSONDocument.text(of: document)
    }
}
