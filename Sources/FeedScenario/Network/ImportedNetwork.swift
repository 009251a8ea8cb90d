import FoundationEssentials

/// A network measured from a capture: what `feedsim import har` writes
/// (NETWORK.json) and a scenario's `"network": {"from": ...}` reads.
///
/// Requests fall into classes (the feed's API pages, images, everything
/// else); each class keeps the empirical distributions the network model
/// samples from, as tables of ``quantileCount`` quantiles (p0, p1, …, p100),
/// and the rates of failures and timeouts. No URL, host or header is kept.
package struct ImportedNetwork: Sendable, Equatable, Codable {
    /// The value of `format`, so a file of another kind is refused by name.
    package static let formatName = "feedsim-network"
    /// The one version of the format there is.
    package static let currentVersion = 1
    /// Quantiles per table: p0 to p100 in steps of 1%.
    package static let quantileCount = 101

    /// Always ``formatName``.
    package var format: String
    /// Always ``currentVersion``.
    package var version: Int
    /// HAR entries read, across all classes.
    package var entries: Int
    /// The classes, always `feed`, `image` and `other` in that order.
    package var classes: [RequestClass]

    /// A file holding `classes`.
    package init(entries: Int, classes: [RequestClass]) {
        self.format = Self.formatName
        self.version = Self.currentVersion
        self.entries = entries
        self.classes = classes
    }

    /// The class named `name`, if the file has it.
    package func requestClass(_ name: String) -> RequestClass? {
        classes.first { $0.name == name }
    }

    enum CodingKeys: String, CodingKey, CaseIterable {
        case format, version, entries, classes
    }

    /// Decodes and checks a file, naming the field at fault.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(CodingKeys.self)
        format = try c.decode(String.self, forKey: .format)
        guard format == Self.formatName else {
            throw c.failure(
                .format, "expected \"\(Self.formatName)\" (a file `feedsim import har` wrote), found \"\(format)\"")
        }
        version = try c.decodeNumber(Int.self, forKey: .version)
        guard version == Self.currentVersion else {
            throw c.failure(.version, "expected \(Self.currentVersion), found \(version)")
        }
        entries = try c.decodeNumber(Int.self, forKey: .entries)
        classes = try c.decode([RequestClass].self, forKey: .classes)
    }
}

/// One class of requests in an ``ImportedNetwork``.
package struct RequestClass: Sendable, Equatable, Codable {
    /// `feed`, `image` or `other`.
    package var name: String
    /// Entries of this class in the HAR, whatever became of them.
    package var requests: Int
    /// Entries whose latency went into `latency_ms` (see the import's rules).
    package var measured: Int
    /// Entries that failed: status 0, status ≥ 500, or an `_error`.
    package var failures: Int
    /// Failures whose `_error` says the request timed out (counted in `failures` too).
    package var timeouts: Int
    /// 3xx responses other than 304, left out of the distributions.
    package var redirects: Int
    /// Responses served from the browser's cache, left out of the distributions.
    package var cached: Int
    /// 304 responses: in `latency_ms`, not in the transfer tables.
    package var notModified: Int
    /// Entries without usable `timings`, left out of `latency_ms`.
    package var withoutTimings: Int
    /// `failures / (requests − cached)`: the chance one attempt fails; 0 with no requests.
    package var failureRate: Double
    /// `timeouts / (requests − cached)`: the chance one attempt times out.
    package var timeoutRate: Double
    /// Time to first byte, in milliseconds: 101 quantiles, or `nil` with no measured entry.
    package var latencyMs: [Double]?
    /// Response bytes on the wire: 101 quantiles, or `nil`.
    package var bytes: [Double]?
    /// Download throughput, bytes·8 / receive time, in kilobits per second: 101 quantiles, or `nil`.
    package var throughputKbps: [Double]?

    enum CodingKeys: String, CodingKey, CaseIterable {
        case name, requests, measured, failures, timeouts, redirects, cached
        case notModified = "not_modified"
        case withoutTimings = "without_timings"
        case failureRate = "failure_rate"
        case timeoutRate = "timeout_rate"
        case latencyMs = "latency_ms"
        case bytes
        case throughputKbps = "throughput_kbps"
    }

    /// A class with every count and table given.
    package init(
        name: String, requests: Int = 0, measured: Int = 0, failures: Int = 0, timeouts: Int = 0, redirects: Int = 0,
        cached: Int = 0, notModified: Int = 0, withoutTimings: Int = 0, failureRate: Double = 0,
        timeoutRate: Double = 0,
        latencyMs: [Double]? = nil, bytes: [Double]? = nil, throughputKbps: [Double]? = nil
    ) {
        self.name = name
        self.requests = requests
        self.measured = measured
        self.failures = failures
        self.timeouts = timeouts
        self.redirects = redirects
        self.cached = cached
        self.notModified = notModified
        self.withoutTimings = withoutTimings
        self.failureRate = failureRate
        self.timeoutRate = timeoutRate
        self.latencyMs = latencyMs
        self.bytes = bytes
        self.throughputKbps = throughputKbps
    }

    /// Decodes and checks one class: counts ≥ 0, rates in 0…1, tables of
    /// 101 finite, non-negative, non-decreasing values.
    package init(from decoder: any Decoder) throws {
        let c = try decoder.knownFields(CodingKeys.self)
        name = try c.decode(String.self, forKey: .name)
        func count(_ key: CodingKeys) throws -> Int {
            let value = try c.decodeNumber(Int.self, forKey: key)
            guard value >= 0 else { throw c.failure(key, "expected a whole number ≥ 0, found \(value)") }
            return value
        }
        func rate(_ key: CodingKeys) throws -> Double {
            let value = try c.decodeNumber(Double.self, forKey: key)
            guard (0...1).contains(value) else { throw c.failure(key, "expected a number in 0…1, found \(value)") }
            return value
        }
        (requests, measured, failures, timeouts) = (
            try count(.requests), try count(.measured), try count(.failures), try count(.timeouts)
        )
        (redirects, cached, notModified) = (try count(.redirects), try count(.cached), try count(.notModified))
        withoutTimings = try count(.withoutTimings)
        (failureRate, timeoutRate) = (try rate(.failureRate), try rate(.timeoutRate))
        latencyMs = try Self.table(c, .latencyMs)
        bytes = try Self.table(c, .bytes)
        throughputKbps = try Self.table(c, .throughputKbps)
    }

    /// The quantile table at `key`, checked, or `nil` when it is null or absent.
    private static func table(_ c: KeyedFields<CodingKeys>, _ key: CodingKeys) throws -> [Double]? {
        guard c.contains(key), try !c.decodeNil(forKey: key) else { return nil }
        let values = try c.decode([Double].self, forKey: key)
        guard values.count == ImportedNetwork.quantileCount else {
            throw c.failure(key, "expected \(ImportedNetwork.quantileCount) quantiles, found \(values.count)")
        }
        for (i, value) in values.enumerated()
        where !(value.isFinite && value >= 0 && (i == 0 || value >= values[i - 1])) {
            throw DecodingFailure(
                codingPath: c.codingPath + [key, AnyCodingKey(intValue: i)],
                expected: "expected a finite number ≥ 0 and ≥ the quantile before it, found \(value)")
        }
        return values
    }

    /// The `u`-quantile of `table` for `u` in [0, 1): linear between the two
    /// neighbouring entries, the inverse of the piecewise-linear CDF through
    /// them; a draw of `u` uniform on [0, 1) samples that distribution.
    package static func inverseCDF(_ table: [Double], at u: Double) -> Double {
        Quantiles.quantile(table, min(max(u, 0), 1))
    }
}
