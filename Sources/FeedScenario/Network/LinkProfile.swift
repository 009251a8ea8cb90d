/// A network link as the app sees it: how long a round trip takes, how fast
/// bytes move each way, how often a request fails outright and how long the
/// client waits before giving up.
package struct LinkProfile: Sendable, Equatable {
    /// The profile's name, as scenarios spell it (`"3g"`, `"very_bad"`).
    package var name: String
    /// The round-trip latency of one attempt, before any bytes are transferred.
    package var latency: LatencyDistribution
    /// Extra latency drawn uniformly from `[−jitterMs, +jitterMs)` and added
    /// to each latency sample; the sum is clamped at 0.
    package var jitterMs: Double
    /// Server-to-device bandwidth in kilobits (1,000 bits) per second, or
    /// `nil` for no limit (transfer takes no time).
    package var downlinkKbps: Int?
    /// Device-to-server bandwidth in kilobits (1,000 bits) per second, or
    /// `nil` for no limit.
    package var uplinkKbps: Int?
    /// The probability that one attempt fails outright (the client hears of
    /// the failure after one round trip), in `[0, 1]`.
    package var lossRate: Double
    /// How long the client waits for a whole attempt, in milliseconds, before
    /// it gives up and reports a timeout.
    package var timeoutMs: Double

    /// A profile with every parameter given; `jitterMs`, `lossRate` and
    /// `timeoutMs` default to no jitter, no loss and URLSession's default timeout.
    package init(
        name: String,
        latency: LatencyDistribution,
        jitterMs: Double = 0,
        downlinkKbps: Int?,
        uplinkKbps: Int?,
        lossRate: Double = 0,
        timeoutMs: Double = LinkProfile.urlSessionDefaultTimeoutMs
    ) {
        self.name = name
        self.latency = latency
        self.jitterMs = jitterMs
        self.downlinkKbps = downlinkKbps
        self.uplinkKbps = uplinkKbps
        self.lossRate = lossRate
        self.timeoutMs = timeoutMs
    }

    /// URLSession's default request timeout, 60 s: Apple documents "The
    /// default value is 60" for `URLSessionConfiguration.timeoutIntervalForRequest`
    /// and 60 seconds for `URLRequest.timeoutInterval`. URLSession resets that
    /// timer whenever data arrives; this model applies it to the whole attempt.
    package static let urlSessionDefaultTimeoutMs: Double = 60_000

    /// The longest timeout a profile may have, one simulated day: a limit that
    /// keeps every attempt's end time far inside `SimTime`.
    package static let longestTimeoutMs: Double = 86_400_000

    /// Checks every parameter and says which one is wrong, if any.
    package func validate() throws(NetworkConfigurationError) {
        try latency.validate()
        if !(jitterMs.isFinite && jitterMs >= 0) {
            throw NetworkConfigurationError("link \(name): jitterMs \(jitterMs) must be finite and ≥ 0")
        }
        if let downlinkKbps, downlinkKbps <= 0 {
            throw NetworkConfigurationError(
                "link \(name): downlinkKbps \(downlinkKbps) must be > 0 (or absent for no limit)")
        }
        if let uplinkKbps, uplinkKbps <= 0 {
            throw NetworkConfigurationError(
                "link \(name): uplinkKbps \(uplinkKbps) must be > 0 (or absent for no limit)")
        }
        if !(0...1).contains(lossRate) {
            throw NetworkConfigurationError("link \(name): lossRate \(lossRate) must be a probability in [0, 1]")
        }
        if !(timeoutMs > 0 && timeoutMs <= Self.longestTimeoutMs) {
            throw NetworkConfigurationError(
                "link \(name): timeoutMs \(timeoutMs) must be > 0 and at most \(Self.longestTimeoutMs) (one day)"
            )
        }
    }
}

// MARK: - Named profiles

extension LinkProfile {
    /// The named profiles, in the order `allNames` lists them.
    package static let all: [LinkProfile] = [wifi, lte, threeG, edge, veryBad, offline]

    /// The names scenarios may use: `wifi`, `lte`, `3g`, `edge`, `very_bad`, `offline`.
    package static let allNames: [String] = all.map(\.name)

    /// The named profile called `name` (exact spelling), or `nil` if there is none.
    package static func named(_ name: String) -> LinkProfile? {
        all.first { $0.name == name }
    }

    /// Network Link Conditioner's "WiFi" preset.
    package static let wifi = conditioned("wifi", by: .wifi, sigma: healthyLinkSigma)
    /// Network Link Conditioner's "LTE" preset.
    package static let lte = conditioned("lte", by: .lte, sigma: healthyLinkSigma)
    /// Network Link Conditioner's "3G" preset.
    package static let threeG = conditioned("3g", by: .threeG, sigma: healthyLinkSigma)
    /// Network Link Conditioner's "Edge" preset.
    package static let edge = conditioned("edge", by: .edge, sigma: healthyLinkSigma)
    /// Network Link Conditioner's "Very Bad Network" preset.
    package static let veryBad = conditioned("very_bad", by: .veryBadNetwork, sigma: veryBadLinkSigma)
    /// Network Link Conditioner's "100% Loss" preset: every attempt fails, at
    /// once, since the preset adds no delay.
    package static let offline = LinkProfile(
        name: "offline",
        latency: .constant(ms: 0),
        downlinkKbps: ConditionerPreset.totalLoss.downlinkKbps,
        uplinkKbps: ConditionerPreset.totalLoss.uplinkKbps,
        lossRate: ConditionerPreset.totalLoss.packetsDropped
    )

    /// Log-space spread of the latency for links NLC models as healthy: an
    /// assumption (p99 ≈ 2× the median, since e^(0.3·2.326) ≈ 2.0).
    static let healthyLinkSigma = 0.3
    /// Log-space spread for "Very Bad Network": an assumption (p99 ≈ 4× the
    /// median, since e^(0.6·2.326) ≈ 4.0).
    static let veryBadLinkSigma = 0.6

    /// A profile from an NLC preset. NLC delays every packet by a fixed amount
    /// in each direction, so a request and its response see the downlink plus
    /// the uplink delay: that sum is the round trip, and it becomes the median
    /// of a lognormal. A constant would make every request identical and hide
    /// the slow tail that pagination and position-keeping bugs depend on;
    /// measured mobile round trips are right-skewed above a floor, which a
    /// lognormal reproduces with one extra parameter while keeping NLC's
    /// figure as the typical (median) request. NLC adds no jitter, so neither
    /// do these profiles; all the spread is in `sigma`.
    ///
    /// NLC's packet drop rate becomes the per-request `lossRate`. That is an
    /// assumption: TCP retransmits a dropped packet, so on a real link most
    /// such requests arrive late rather than fail; the per-request reading
    /// overstates failures and understates their latency.
    private static func conditioned(_ name: String, by preset: ConditionerPreset, sigma: Double) -> LinkProfile {
        LinkProfile(
            name: name,
            latency: .lognormal(medianMs: preset.downlinkDelayMs + preset.uplinkDelayMs, sigma: sigma),
            downlinkKbps: preset.downlinkKbps,
            uplinkKbps: preset.uplinkKbps,
            lossRate: preset.packetsDropped
        )
    }
}

/// The Network Link Conditioner presets the named profiles copy, with each
/// number's source. Apple ships these inside the NLC preference pane
/// (Additional Tools for Xcode) and on iOS under Settings › Developer, and
/// publishes no table of them, so the numbers come from public code and
/// documents that reproduce the panes.
///
/// | Preset           | Down kbps | Up kbps | Delay down/up ms | Dropped | Sources |
/// |------------------|-----------|---------|------------------|---------|---------|
/// | WiFi             | 40,000    | 33,000  | 1 / 1            | 0%      | [P]     |
/// | LTE              | 50,000    | 10,000  | 50 / 65          | 0%      | [P]     |
/// | 3G               | 780       | 330     | 100 / 100        | 0%      | [P] [F] |
/// | Edge             | 240       | 200     | 400 / 440        | 0%      | [P] [S] [F] |
/// | Very Bad Network | 1,000     | 1,000   | 500 / 500        | 10%     | [P] [S] |
/// | 100% Loss        | no limit  | no limit| 0 / 0            | 100%    | [P] [S] |
///
/// - [P] pion/transport, `vnet/network_conditioner_presets.go` (commit
///   2dfbb942): a Go port that names each constant after the NLC preset.
/// - [S] soundtrackyourbrand/docs, `sdk/index.md`, "Poor internet
///   connectivity profiles": the NLC values for 100% Loss, Very Bad Network
///   and Edge, both directions.
/// - [F] a public ipfw shell script (its repository could not be identified)
///   reproducing the iOS device presets "3G, Average" (780/330 kbps,
///   100/100 ms) and "Edge, Average" (240/200 kbps, 400/440 ms).
///
/// WiFi and LTE rest on one source [P] only. Every NLC delay is added on top
/// of the real path under the Mac or device; a simulated link has no such
/// path, so these profiles are as fast as the conditioner alone.
struct ConditionerPreset {
    var downlinkKbps: Int?
    var uplinkKbps: Int?
    var downlinkDelayMs: Double
    var uplinkDelayMs: Double
    var packetsDropped: Double

    static let wifi = ConditionerPreset(
        downlinkKbps: 40_000, uplinkKbps: 33_000, downlinkDelayMs: 1, uplinkDelayMs: 1, packetsDropped: 0
    )
    static let lte = ConditionerPreset(
        downlinkKbps: 50_000, uplinkKbps: 10_000, downlinkDelayMs: 50, uplinkDelayMs: 65, packetsDropped: 0
    )
    static let threeG = ConditionerPreset(
        downlinkKbps: 780, uplinkKbps: 330, downlinkDelayMs: 100, uplinkDelayMs: 100, packetsDropped: 0
    )
    static let edge = ConditionerPreset(
        downlinkKbps: 240, uplinkKbps: 200, downlinkDelayMs: 400, uplinkDelayMs: 440, packetsDropped: 0
    )
    static let veryBadNetwork = ConditionerPreset(
        downlinkKbps: 1_000, uplinkKbps: 1_000, downlinkDelayMs: 500, uplinkDelayMs: 500, packetsDropped: 0.10
    )
    static let totalLoss = ConditionerPreset(
        downlinkKbps: nil, uplinkKbps: nil, downlinkDelayMs: 0, uplinkDelayMs: 0, packetsDropped: 1
    )
}
