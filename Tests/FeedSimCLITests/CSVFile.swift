import CSVCodec
import Foundation
import Testing

/// A CSV file `feedsim` wrote, read with the product's own reader.
struct CSVFile {
    /// The header's column names.
    var columns: [String]
    /// Every row that is not blank, by column.
    var rows: [[String: String]]

    init(_ url: URL) throws {
        let records = try CSVReader.records(try Data(contentsOf: url))
        columns = try #require(records.first).fields
        rows = records.dropFirst().filter { !$0.isBlank }.map { [columns] record in
            Dictionary(uniqueKeysWithValues: zip(columns, record.fields))
        }
    }
}
