import FeedScenario

extension NetworkSettings {
    /// The network model of a run.
    package func model(streams: RandomStreams) throws(NetworkConfigurationError) -> NetworkModel {
        try NetworkModel(
            link: linkProfile(),
            retry: RetryPolicy(maxRetries: maxRetries, backoffBaseMs: backoffBaseMs, backoffMultiplier: backoffMultiplier),
            offlineWindows: offlineWindows,
            streams: streams)
    }
}
