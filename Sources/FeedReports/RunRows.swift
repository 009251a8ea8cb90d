import FeedSimulator
import Foundation

/// The report rows of one run, as a worker process hands them to the
/// command that started it.
///
/// Each run executes in a process of its own so that nothing one run did —
/// the Swift runtime's one-time allocations above all — can change another's
/// counts: a run's rows are the same whether it runs alone, first, last, in
/// parallel or on another machine of a sharded suite.
public struct RunRows: Sendable, Equatable, Codable {
    public var summary: [String]
    public var drift: [[String]]
    public var frames: [[String]]

    public init(summary: [String], drift: [[String]], frames: [[String]]) {
        self.summary = summary
        self.drift = drift
        self.frames = frames
    }

    public init(_ result: RunResult) {
        self.init(
            summary: RunReports.summaryRow(result),
            drift: RunReports.driftRows(result),
            frames: RunReports.frameRows(result))
    }

    /// The rows as JSON, for the worker's standard output.
    public func encoded() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(self)
    }

    /// Reads rows written by `encoded()`; `nil` if the data is not such rows.
    public static func decode(_ data: Data) -> RunRows? {
        guard let rows = try? JSONDecoder().decode(RunRows.self, from: data),
              rows.summary.count == RunReports.summaryColumns.count
        else { return nil }
        return rows
    }
}
