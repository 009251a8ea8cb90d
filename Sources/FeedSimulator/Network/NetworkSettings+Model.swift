import FeedScenario

extension LatencyDistribution {
    /// The distribution a scenario wrote.
    init(_ spec: LatencySpec) {
        switch spec {
        case let .constant(ms): self = .constant(ms: ms)
        case let .uniform(minMs, maxMs): self = .uniform(minMs: minMs, maxMs: maxMs)
        case let .normal(meanMs, stdDevMs): self = .normal(meanMs: meanMs, stdDevMs: stdDevMs)
        case let .lognormal(medianMs, sigma): self = .lognormal(medianMs: medianMs, sigma: sigma)
        case let .pareto(scaleMs, shape): self = .pareto(scaleMs: scaleMs, shape: shape)
        }
    }
}

extension NetworkSettings {
    /// The named link profile with the scenario's overrides applied.
    public func linkProfile() throws(NetworkConfigurationError) -> LinkProfile {
        guard var link = LinkProfile.named(profile) else {
            throw NetworkConfigurationError("unknown link profile \"\(profile)\"")
        }
        if let latency { link.latency = LatencyDistribution(latency) }
        if let jitterMs { link.jitterMs = jitterMs }
        if let downlinkKbps { link.downlinkKbps = downlinkKbps }
        if let uplinkKbps { link.uplinkKbps = uplinkKbps }
        if let lossRate { link.lossRate = lossRate }
        if let timeoutMs { link.timeoutMs = timeoutMs }
        try link.validate()
        return link
    }

    /// The network model of a run.
    public func model(streams: RandomStreams) throws(NetworkConfigurationError) -> NetworkModel {
        try NetworkModel(
            link: linkProfile(),
            retry: RetryPolicy(maxRetries: maxRetries, backoffBaseMs: backoffBaseMs, backoffMultiplier: backoffMultiplier),
            offlineWindows: offlineWindows,
            streams: streams)
    }
}
