import FeedScenario

extension NetworkSettings {
    /// The network model of a run; with an imported network (`from`), its
    /// requests draw from the class named `requestClass` (`feed`, `image`).
    package func model(
        streams: RandomStreams, requestClass: String = "feed"
    ) throws(NetworkConfigurationError) -> NetworkModel {
        try NetworkModel(
            link: linkProfile(),
            retry: RetryPolicy(
                maxRetries: maxRetries, backoffBaseMs: backoffBaseMs, backoffMultiplier: backoffMultiplier),
            offlineWindows: offlineWindows,
            empirical: imported?.requestClass(requestClass),
            streams: streams)
    }
}
