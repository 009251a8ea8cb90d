import FeedScenario

/// What one class's entries measured, as the import reads them: counts, and
/// the raw values its quantile tables are made from.
///
/// The rules, in order, for an entry of the class:
/// 1. served from cache (`_fromCache`, or `cache.beforeRequest` with `time`
///    0): counted in `cached`, nothing else; it crossed no network;
/// 2. failed (status 0, status ≥ 500, or an `_error`): counted in
///    `failures`, and in `timeouts` when `_error` mentions a timeout;
/// 3. a redirect (3xx but 304): counted in `redirects`, left out;
/// 4. no `timings`, or `wait` −1: counted in `withoutTimings`, no latency;
///    else latency = `wait`, plus `blocked`, `dns` and `connect` (each where
///    not −1) on the first request of its connection only. `ssl` is never
///    added: HAR 1.2 includes it in `connect`;
/// 5. a 304: counted in `notModified`, its latency kept, no transfer;
///    else bytes (if > 0) kept, and throughput `bytes·8 / receive` kbps
///    where `receive` > 0.
package struct ClassSamples: Sendable {
    package var counts: RequestClass
    package var latencyMs: [Double] = []
    package var bytes: [Double] = []
    package var throughputKbps: [Double] = []

    /// No entries yet for the class `name`.
    package init(name: String) {
        counts = RequestClass(name: name)
    }

    /// Adds one entry; `firstOnConnection` says whether it opened its connection.
    package mutating func add(_ entry: HAREntry, firstOnConnection: Bool) {
        counts.requests += 1
        if entry.cached {
            counts.cached += 1
            return
        }
        if entry.status == 0 || entry.status >= 500 || entry.error != nil {
            counts.failures += 1
            if Self.isTimeout(entry.error) { counts.timeouts += 1 }
            return
        }
        if (300..<400).contains(entry.status) && entry.status != 304 {
            counts.redirects += 1
            return
        }
        if let timings = entry.timings, let wait = timings.wait {
            let setup =
                firstOnConnection ? [timings.blocked, timings.dns, timings.connect].compactMap { $0 }.reduce(0, +) : 0
            latencyMs.append(wait + setup)
            counts.measured += 1
        } else {
            counts.withoutTimings += 1
        }
        if entry.status == 304 {
            counts.notModified += 1
            return
        }
        guard let size = entry.bytes, size > 0 else { return }
        bytes.append(size)
        if let receive = entry.timings?.receive, receive > 0 { throughputKbps.append(size * 8 / receive) }
    }

    /// Whether an `_error` says the request timed out (Chrome's
    /// `net::ERR_TIMED_OUT`, "timeout", "timed out").
    static func isTimeout(_ error: String?) -> Bool {
        guard let error = error?.lowercased() else { return false }
        return error.contains("timed_out") || error.contains("timed out") || error.contains("timeout")
    }

    /// The class as NETWORK.json holds it: the counts, the rates, and the
    /// 101-quantile tables (`nil` for a table with no values).
    package func requestClass() -> RequestClass {
        var result = counts
        let attempted = counts.requests - counts.cached
        result.failureRate = attempted > 0 ? Double(counts.failures) / Double(attempted) : 0
        result.timeoutRate = attempted > 0 ? Double(counts.timeouts) / Double(attempted) : 0
        result.latencyMs = Quantiles.table(latencyMs)
        result.bytes = Quantiles.table(bytes)
        result.throughputKbps = Quantiles.table(throughputKbps)
        return result
    }
}
