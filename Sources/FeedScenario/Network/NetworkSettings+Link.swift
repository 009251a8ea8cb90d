extension NetworkSettings {
    /// The named link profile with the scenario's overrides applied.
    package func linkProfile() throws(NetworkConfigurationError) -> LinkProfile {
        guard var link = LinkProfile.named(profile) else {
            throw NetworkConfigurationError("unknown link profile \"\(profile)\"")
        }
        if let latency { link.latency = latency }
        if let jitterMs { link.jitterMs = jitterMs }
        if let downlinkKbps { link.downlinkKbps = downlinkKbps }
        if let uplinkKbps { link.uplinkKbps = uplinkKbps }
        if let lossRate { link.lossRate = lossRate }
        if let timeoutMs { link.timeoutMs = timeoutMs }
        try link.validate()
        return link
    }
}
