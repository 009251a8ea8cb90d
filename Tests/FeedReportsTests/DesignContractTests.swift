import FeedReports
import FeedSimTestSupport
import Foundation
import Testing

/// docs/design.md lists the CSV columns users script against; these tests
/// keep its lists equal to the columns the reports write.
@Suite("docs/design.md's contracts")
struct DesignContractTests {
    /// The columns the block after `<!-- not output: the contract for FILE's
    /// columns … -->` lists, in order.
    static func documentedColumns(of file: String) throws -> [String] {
        let text = try String(contentsOf: PackageRoot.appending("docs/design.md"), encoding: .utf8)
        let marker = "<!-- not output: the contract for \(file)'s columns"
        let start = try #require(text.range(of: marker), "docs/design.md has no column list for \(file)")
        let rest = text[start.upperBound...]
        let open = try #require(rest.range(of: "```text\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        return rest[open.upperBound..<close.lowerBound]
            .split(whereSeparator: { $0 == "," || $0 == "\n" })
            .map { $0.trimmingCharacters(in: .whitespaces) }
            .filter { !$0.isEmpty }
    }

    @Test("summary.csv, frames.csv and drift.csv have the columns docs/design.md lists, in order")
    func columns() throws {
        #expect(try DesignContractTests.documentedColumns(of: "summary.csv") == RunReports.summaryColumns)
        #expect(try DesignContractTests.documentedColumns(of: "frames.csv") == RunReports.frameColumns)
        #expect(try DesignContractTests.documentedColumns(of: "drift.csv") == RunReports.driftColumns)
    }
}
