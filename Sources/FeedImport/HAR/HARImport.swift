import CSVCodec
import Determinism
import FeedScenario
import FoundationEssentials
import Glibc

/// `feedsim import har`: a HAR 1.2 file read entry by entry into the
/// per-class distributions of NETWORK.json (`ImportedNetwork`).
///
/// Memory grows with the number of entries (three numbers each, for the
/// exact sample quantiles) and of connections, never with the file's bytes.
/// No id is kept, so the output is the same for the same HAR every time and
/// needs no salt.
package struct HARImport: Sendable {
    /// The classes' measurements, in `RequestClassifier.classNames` order.
    package var samples: [ClassSamples]
    /// Entries read.
    package var entries: Int

    /// Reads the HAR at `url` (named `file` in problems), classing requests with `classifier`.
    package static func read(url: URL, file: String, classifier: RequestClassifier) throws(HARProblem) -> HARImport {
        var samples = RequestClassifier.classNames.map(ClassSamples.init(name:))
        var connections = Set<String>()
        var stream = try HARStream(url: url, file: file)
        let entries = try stream.forEachEntry { (index, bytes) throws(HARProblem) in
            let entry = try HAREntry(bytes: bytes, index: index, file: file)
            let name = classifier.classify(url: entry.url, mimeType: entry.mimeType)
            let first = entry.cached ? false : entry.connection.map { connections.insert($0).inserted } ?? true
            let slot = RequestClassifier.classNames.firstIndex(of: name) ?? samples.count - 1
            samples[slot].add(entry, firstOnConnection: first)
        }
        return HARImport(samples: samples, entries: entries)
    }

    /// The NETWORK.json this import writes.
    package var network: ImportedNetwork {
        ImportedNetwork(entries: entries, classes: samples.map { $0.requestClass() })
    }

    /// NETWORK.json's text: members in a fixed order, a newline at the end.
    package var fileText: String {
        let network = network
        let classes: [OrderedJSON] = network.classes.map { c in
            func table(_ values: [Double]?) -> OrderedJSON {
                values.map { .array($0.map(OrderedJSON.number)) } ?? .null
            }
            return .object([
                ("name", .string(c.name)), ("requests", .int(c.requests)), ("measured", .int(c.measured)),
                ("failures", .int(c.failures)), ("timeouts", .int(c.timeouts)), ("redirects", .int(c.redirects)),
                ("cached", .int(c.cached)), ("not_modified", .int(c.notModified)),
                ("without_timings", .int(c.withoutTimings)),
                ("failure_rate", .number(c.failureRate)), ("timeout_rate", .number(c.timeoutRate)),
                ("latency_ms", table(c.latencyMs)), ("bytes", table(c.bytes)),
                ("throughput_kbps", table(c.throughputKbps)),
            ])
        }
        let document: OrderedJSON = .object([
            ("format", .string(network.format)), ("version", .int(network.version)), ("entries", .int(network.entries)),
            ("classes", .array(classes)),
        ])
        return document.text + "\n"
    }
}

// MARK: - The fit table

extension HARImport {
    /// Draws from each table for the fit table's NETWORK.json rows.
    package static let fitDraws = 100_000

    /// Each class's p10, p50, p90, p99 and count beside those of the HAR: the
    /// `HAR` row is the exact sample quantiles of the values read, the
    /// `NETWORK.json` row those of ``fitDraws`` draws from the written table by
    /// inverse CDF (seed 1), as a run samples it.
    package var fitTable: String {
        var rows = [["class", "measure", "from", "count", "p10", "p50", "p90", "p99"]]
        for (sample, written) in zip(samples, network.classes) {
            let measures: [(String, [Double], [Double]?)] = [
                ("latency_ms", sample.latencyMs, written.latencyMs), ("bytes", sample.bytes, written.bytes),
                ("throughput_kbps", sample.throughputKbps, written.throughputKbps),
            ]
            for (measure, values, table) in measures {
                guard let table else {
                    rows.append([sample.counts.name, measure, "HAR", "0", "-", "-", "-", "-"])
                    continue
                }
                rows.append(Self.row(sample.counts.name, measure, "HAR", values.sorted()))
                rows.append(Self.row(sample.counts.name, measure, "NETWORK.json", Self.draws(from: table)))
            }
            rows.append([
                sample.counts.name, "failure_rate", "HAR", String(written.requests - written.cached),
                Self.format(written.failureRate), "", "", "",
            ])
        }
        return Self.aligned(rows)
    }

    private static func row(_ name: String, _ measure: String, _ from: String, _ sorted: [Double]) -> [String] {
        [name, measure, from, String(sorted.count)]
            + [0.10, 0.50, 0.90, 0.99].map { format(Quantiles.quantile(sorted, $0)) }
    }

    /// ``fitDraws`` draws from `table`, sorted.
    static func draws(from table: [Double]) -> [Double] {
        var generator = Xoshiro256StarStar(seed: 1)
        return (0..<fitDraws).map { _ in RequestClass.inverseCDF(table, at: generator.nextUnit()) }.sorted()
    }

    private static func format(_ value: Double) -> String {
        ReportNumber.fixed(value, value < 10 ? 3 : 1)
    }

    /// Columns padded to their widest cell; text left, numbers right.
    private static func aligned(_ rows: [[String]]) -> String {
        let widths = (0..<rows[0].count).map { column in rows.map { $0[column].count }.max() ?? 0 }
        return rows.map { row in
            row.enumerated().map { column, cell in
                let pad = String(repeating: " ", count: widths[column] - cell.count)
                return column < 3 ? cell + pad : pad + cell
            }.joined(separator: "  ")
        }.map { line in String(line.dropLast(line.reversed().prefix { $0 == " " }.count)) }.joined(separator: "\n")
    }
}
