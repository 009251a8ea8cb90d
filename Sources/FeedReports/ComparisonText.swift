import CSVCodec

/// A comparison `feedsim compare` can print in each of its formats.
package protocol ComparisonText {
    /// Aligned text for a terminal.
    var terminalText: String { get }
    /// Markdown tables.
    var markdown: String { get }
    /// The comparison's CSV table.
    var csvTable: CSVTable { get }
    /// JSON for other tools.
    var json: String { get }
}

extension StrategyComparison: ComparisonText {
    package var csvTable: CSVTable { csv }
}

extension SeedComparison: ComparisonText {
    package var csvTable: CSVTable { csv }
}

extension PairedComparison: ComparisonText {
    /// The paired differences; the population table has its own CSV.
    package var csvTable: CSVTable { differencesCSV }
}
