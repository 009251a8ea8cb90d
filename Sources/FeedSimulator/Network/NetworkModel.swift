import Determinism
import FeedScenario
import FoundationEssentials
import Glibc

/// How a client retries a failed request: up to `maxRetries` more attempts,
/// each after an exponentially growing wait.
///
/// The wait before retry `k` (1-based) has ceiling
/// `backoffBaseMs · backoffMultiplier^(k−1)`. Without jitter the client waits
/// exactly the ceiling; with full jitter it waits a uniform draw from
/// `[0, ceiling)`, the "full jitter" of Brooker, "Exponential Backoff And
/// Jitter" (AWS Architecture Blog, 2015), which spreads retries of many
/// clients apart.
package struct RetryPolicy: Sendable, Equatable {
    /// Attempts after the first; 0 means a failure is final.
    package var maxRetries: Int
    /// The wait before the first retry, in milliseconds.
    package var backoffBaseMs: Double
    /// The factor each further wait grows by.
    package var backoffMultiplier: Double
    /// Whether each wait is drawn uniformly below its ceiling (from the
    /// model's generator) instead of being the ceiling itself.
    package var fullJitter: Bool

    /// A policy with every parameter given; the defaults retry nothing.
    package init(
        maxRetries: Int = 0, backoffBaseMs: Double = 0, backoffMultiplier: Double = 2, fullJitter: Bool = false
    ) {
        self.maxRetries = maxRetries
        self.backoffBaseMs = backoffBaseMs
        self.backoffMultiplier = backoffMultiplier
        self.fullJitter = fullJitter
    }

    /// No retries: every failure is final.
    package static let none = RetryPolicy()

    /// The most retries a policy may ask for: a limit, so one request can
    /// never plan an unbounded number of attempts.
    package static let retryLimit = 32

    /// The longest single wait a policy may reach, one simulated day: a limit
    /// that keeps exponential growth inside `SimTime`.
    package static let longestBackoffMs: Double = 86_400_000

    /// The wait ceiling before retry `retry` (1-based), in milliseconds.
    package func backoffCeilingMs(beforeRetry retry: Int) -> Double {
        backoffBaseMs * pow(backoffMultiplier, Double(retry - 1))
    }

    /// Checks every parameter and the longest wait, and says which is wrong.
    package func validate() throws(NetworkConfigurationError) {
        if !(0...Self.retryLimit).contains(maxRetries) {
            throw NetworkConfigurationError("maxRetries \(maxRetries) must be between 0 and \(Self.retryLimit)")
        }
        if !(backoffBaseMs.isFinite && backoffBaseMs >= 0) {
            throw NetworkConfigurationError("backoffBaseMs \(backoffBaseMs) must be finite and ≥ 0")
        }
        if !(backoffMultiplier.isFinite && backoffMultiplier >= 1) {
            throw NetworkConfigurationError("backoffMultiplier \(backoffMultiplier) must be finite and ≥ 1")
        }
        if maxRetries > 0 {
            let longest = backoffCeilingMs(beforeRetry: maxRetries)
            if !(longest <= Self.longestBackoffMs) {
                throw NetworkConfigurationError(
                    """
                    the wait before retry \(maxRetries) would be \(longest) ms, past the limit of \
                    \(Self.longestBackoffMs) ms (one day); lower backoffBaseMs, backoffMultiplier or maxRetries
                    """
                )
            }
        }
    }
}

/// What happens to one request: every attempt the client makes and the final
/// result, decided in advance so the world can schedule each event.
package struct RequestPlan: Sendable, Equatable {
    /// One try at the request.
    package struct Attempt: Sendable, Equatable {
        /// How one attempt ends.
        package enum Outcome: Sendable, Equatable {
            /// The response arrived in full.
            case success
            /// The network failed the request outright; the client learns
            /// after one round trip.
            case lost
            /// The attempt would have taken longer than the link's timeout;
            /// the client gives up at start + timeout.
            case timedOut
            /// The attempt started inside an offline window (fails at once),
            /// or an offline window began while it was in flight (fails then).
            case offline
        }

        /// When the client sends the attempt.
        package var start: SimTime
        /// How it ended.
        package var outcome: Outcome
        /// When the client learns the outcome.
        package var end: SimTime

        /// An attempt sent at `start` that ended with `outcome` at `end`.
        package init(start: SimTime, outcome: Outcome, end: SimTime) {
            self.start = start
            self.outcome = outcome
            self.end = end
        }
    }

    /// Why a request failed for good: the outcome of its last attempt.
    package enum FailureReason: Sendable, Equatable {
        /// The last attempt was failed by the network.
        case lost
        /// The last attempt timed out.
        case timedOut
        /// The last attempt met an offline window.
        case offline
    }

    /// How the request ends.
    package enum Result: Sendable, Equatable {
        /// The response arrived in full at the given time.
        case succeeded(at: SimTime)
        /// Every allowed attempt failed; the client knows at the given time.
        case failed(FailureReason, at: SimTime)
    }

    /// When the app asked for the request.
    package var requestedAt: SimTime
    /// The first attempt, which starts at `requestedAt`.
    package var firstAttempt: Attempt
    /// The attempts after the first, in order: none for most requests, so
    /// planning one allocates nothing.
    package var retriedAttempts: [Attempt]
    /// The final result.
    package var result: Result

    /// Every attempt, in order; the first starts at `requestedAt`.
    package var attempts: [Attempt] { [firstAttempt] + retriedAttempts }

    /// When the final result is known: the last attempt's end.
    package var finishedAt: SimTime {
        switch result {
        case .succeeded(let time), .failed(_, let time): time
        }
    }

    /// Whether the request succeeded in the end.
    package var succeeded: Bool {
        if case .succeeded = result { true } else { false }
    }

    /// Attempts after the first.
    package var retries: Int { retriedAttempts.count }
}

/// The network between the app and its server: plans each request's attempts
/// from a link profile, a retry policy and offline windows, drawing every
/// random number from one generator it owns, so the same seed and the same
/// sequence of requests always give the same plans.
///
/// An attempt that starts online takes, in order: a latency draw (plus a
/// jitter draw if the link has jitter) as the round trip, then a loss draw.
/// A lost attempt ends after the round trip; a delivered one after the round
/// trip plus the upload and download transfer times (`bytes·8 / kbps`). If
/// that is longer than the timeout it ends as `timedOut` at start + timeout;
/// if an offline window begins first it ends as `offline` when the window
/// begins. An attempt that starts inside a window fails as `offline` at its
/// start and draws nothing, as URLSession does by default when there is no
/// route (`waitsForConnectivity` is `false`, so a task fails immediately with
/// `notConnectedToInternet`). After a failure the client waits its backoff
/// (one more draw under full jitter) and tries again, until the policy's
/// retries run out.
package struct NetworkModel: Sendable {
    /// The link every attempt crosses.
    package let link: LinkProfile
    /// How failed attempts are retried.
    package let retry: RetryPolicy
    /// The windows with no connectivity, sorted, with overlapping and touching
    /// windows merged and empty ones dropped.
    package let offlineWindows: [Range<SimTime>]

    /// The class of an imported network (`network.from`) this model's
    /// requests draw from, instead of the link's latency, loss and downlink.
    package let empirical: RequestClass?

    /// The model's only source of randomness.
    private var generator: Xoshiro256StarStar
    private let timeout: SimTime

    /// Requests planned.
    package private(set) var requests = 0
    /// Attempts planned, first tries and retries together.
    package private(set) var attempts = 0
    /// Requests whose final result is a failure.
    package private(set) var failures = 0
    /// Attempts after a failure (attempts minus requests).
    package private(set) var retries = 0

    /// The largest request or response a plan accepts, 1 TiB: a limit that
    /// keeps `bytes · 8 · 10⁶` (bits times nanoseconds per millisecond) exact
    /// in `Int64`.
    package static let payloadLimitBytes = 1 << 40

    /// A model drawing from `generator`, after checking the link and policy.
    package init(
        link: LinkProfile,
        retry: RetryPolicy = .none,
        offlineWindows: [Range<SimTime>] = [],
        empirical: RequestClass? = nil,
        generator: Xoshiro256StarStar
    ) throws(NetworkConfigurationError) {
        try link.validate()
        try retry.validate()
        self.empirical = empirical
        self.link = link
        self.retry = retry
        self.offlineWindows = Self.merged(offlineWindows)
        self.generator = generator
        self.timeout = Self.nanoseconds(milliseconds: link.timeoutMs)
    }

    /// A model drawing from the run's network stream.
    package init(
        link: LinkProfile,
        retry: RetryPolicy = .none,
        offlineWindows: [Range<SimTime>] = [],
        empirical: RequestClass? = nil,
        streams: RandomStreams
    ) throws(NetworkConfigurationError) {
        try self.init(
            link: link, retry: retry, offlineWindows: offlineWindows, empirical: empirical,
            generator: streams.generator(for: .network))
    }

    /// Whether `time` falls inside an offline window.
    ///
    /// - Complexity: O(log w) for w offline windows.
    package func isOffline(at time: SimTime) -> Bool {
        firstWindow(endingAfter: time)?.contains(time) ?? false
    }

    /// Plans a request the app makes at `time`, sending `requestBytes` and
    /// receiving `responseBytes`, and counts it.
    ///
    /// - Complexity: O(a · log w) for a attempts (at most `maxRetries + 1`)
    ///   and w offline windows.
    package mutating func plan(requestAt time: SimTime, requestBytes: Int, responseBytes: Int) -> RequestPlan {
        let upload = Self.transferTime(bytes: requestBytes, kbps: link.uplinkKbps)
        let download = empirical == nil ? Self.transferTime(bytes: responseBytes, kbps: link.downlinkKbps) : 0
        requests += 1
        let transfer = upload + download
        let downloadBytes = empirical == nil ? 0 : responseBytes
        let first = attempt(startingAt: time, transfer: transfer, downloadBytes: downloadBytes)
        var retried: [RequestPlan.Attempt] = []
        var last = first
        while true {
            attempts += 1
            let reason: RequestPlan.FailureReason
            switch last.outcome {
            case .success:
                return RequestPlan(
                    requestedAt: time, firstAttempt: first, retriedAttempts: retried, result: .succeeded(at: last.end))
            case .lost: reason = .lost
            case .timedOut: reason = .timedOut
            case .offline: reason = .offline
            }
            let nextRetry = retried.count + 1
            guard nextRetry <= retry.maxRetries else {
                failures += 1
                return RequestPlan(
                    requestedAt: time, firstAttempt: first, retriedAttempts: retried,
                    result: .failed(reason, at: last.end))
            }
            retries += 1
            last = attempt(
                startingAt: last.end + backoff(beforeRetry: nextRetry), transfer: transfer,
                downloadBytes: downloadBytes)
            retried.append(last)
        }
    }

    /// The time `bytes` take at `kbps` kilobits per second, in nanoseconds,
    /// rounded up: `bytes·8` bits at `kbps` bits per millisecond is
    /// `bytes·8·10⁶ / kbps` ns. No limit (`nil`) takes no time.
    package static func transferTime(bytes: Int, kbps: Int?) -> SimTime {
        precondition(
            (0...payloadLimitBytes).contains(bytes),
            "payload of \(bytes) bytes is outside 0...\(payloadLimitBytes)"
        )
        guard let kbps else { return 0 }
        let (quotient, remainder) = (SimTime(bytes) * 8 * 1_000_000).quotientAndRemainder(dividingBy: SimTime(kbps))
        return remainder > 0 ? quotient + 1 : quotient
    }

    /// One attempt starting at `start`, whose delivery takes `transfer` on top
    /// of its round trip, plus `downloadBytes` at a drawn throughput when the
    /// model draws from an imported class.
    private mutating func attempt(
        startingAt start: SimTime, transfer: SimTime, downloadBytes: Int
    ) -> RequestPlan.Attempt {
        let window = firstWindow(endingAfter: start)
        if let window, window.contains(start) {
            return RequestPlan.Attempt(start: start, outcome: .offline, end: start)
        }
        let roundTrip: SimTime, delivery: SimTime
        var outcome: RequestPlan.Attempt.Outcome
        if let empirical {
            (roundTrip, outcome, delivery) = draw(from: empirical, downloadBytes: downloadBytes)
        } else {
            (roundTrip, outcome, delivery) = drawFromLink()
        }
        var elapsed = outcome == .success ? roundTrip + transfer + delivery : roundTrip
        if outcome == .timedOut || elapsed > timeout {
            outcome = .timedOut
            elapsed = timeout
        }
        var end = start + elapsed
        // `window` does not contain `start`, so it begins after it.
        if let window, window.lowerBound < end {
            outcome = .offline
            end = window.lowerBound
        }
        return RequestPlan.Attempt(start: start, outcome: outcome, end: end)
    }

    /// The link's draws for one attempt: a latency (plus a jitter draw if
    /// the link has jitter) and a loss draw.
    private mutating func drawFromLink() -> (SimTime, RequestPlan.Attempt.Outcome, SimTime) {
        var roundTripMs = link.latency.sample(using: &generator)
        if link.jitterMs > 0 {
            roundTripMs += link.jitterMs * (2 * generator.nextUnit() - 1)
        }
        let lost = generator.chance(link.lossRate)
        return (Self.nanoseconds(milliseconds: max(0, roundTripMs)), lost ? .lost : .success, 0)
    }

    /// An imported class's draws for one attempt, always three uniforms in
    /// this order: the latency (inverse CDF of `latency_ms`, else the
    /// link's), the outcome (a timeout below `timeout_rate`, else a failure
    /// below `failure_rate`), and the throughput `downloadBytes` arrive at
    /// (inverse CDF of `throughput_kbps`, else the link's downlink).
    private mutating func draw(
        from imported: RequestClass, downloadBytes: Int
    ) -> (SimTime, RequestPlan.Attempt.Outcome, SimTime) {
        let latencyDraw = generator.nextUnit()
        let outcomeDraw = generator.nextUnit()
        let throughputDraw = generator.nextUnit()
        let roundTripMs =
            imported.latencyMs.map { RequestClass.inverseCDF($0, at: latencyDraw) }
            ?? link.latency.quantile(latencyDraw)
        let outcome: RequestPlan.Attempt.Outcome =
            outcomeDraw < imported.timeoutRate
            ? .timedOut : outcomeDraw < imported.failureRate ? .lost : .success
        var delivery = Self.transferTime(bytes: downloadBytes, kbps: link.downlinkKbps)
        if let table = imported.throughputKbps {
            let kbps = RequestClass.inverseCDF(table, at: throughputDraw)
            if kbps > 0 { delivery = Self.nanoseconds(milliseconds: Double(downloadBytes) * 8 / kbps) }
        }
        return (Self.nanoseconds(milliseconds: max(0, roundTripMs)), outcome, delivery)
    }

    /// The wait before retry `retry` (1-based), in nanoseconds.
    private mutating func backoff(beforeRetry number: Int) -> SimTime {
        let ceiling = retry.backoffCeilingMs(beforeRetry: number)
        return Self.nanoseconds(milliseconds: retry.fullJitter ? ceiling * generator.nextUnit() : ceiling)
    }

    /// The first offline window that ends after `time` (it may or may not
    /// contain `time`), by binary search over the sorted windows.
    private func firstWindow(endingAfter time: SimTime) -> Range<SimTime>? {
        var low = 0
        var high = offlineWindows.count
        while low < high {
            let middle = (low + high) / 2
            if offlineWindows[middle].upperBound > time { high = middle } else { low = middle + 1 }
        }
        return low < offlineWindows.count ? offlineWindows[low] : nil
    }

    /// The longest duration a millisecond value converts to: a quarter of
    /// `SimTime`'s range, so a few such durations still add without
    /// overflow. Only a heavy-tailed draw gets near it, and any value past
    /// the timeout ends the attempt at the timeout anyway.
    static let longestDuration = SimTime.max / 4

    /// Non-negative milliseconds as whole nanoseconds, rounded to nearest and
    /// saturating at ``longestDuration``.
    static func nanoseconds(milliseconds: Double) -> SimTime {
        let nanoseconds = (milliseconds * 1_000_000).rounded()
        return nanoseconds < Double(longestDuration) ? SimTime(nanoseconds) : longestDuration
    }

    /// `windows` sorted by start, empty ones dropped, overlapping or touching
    /// ones merged.
    static func merged(_ windows: [Range<SimTime>]) -> [Range<SimTime>] {
        let sorted = windows.filter { !$0.isEmpty }.sorted {
            ($0.lowerBound, $0.upperBound) < ($1.lowerBound, $1.upperBound)
        }
        var merged: [Range<SimTime>] = []
        for window in sorted {
            if let last = merged.last, window.lowerBound <= last.upperBound {
                merged[merged.count - 1] = last.lowerBound..<max(last.upperBound, window.upperBound)
            } else {
                merged.append(window)
            }
        }
        return merged
    }
}
