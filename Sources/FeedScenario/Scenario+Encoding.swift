import FeedEngine

/// A scenario written back as a scenario file: what `feedsim explore` saves
/// for every session it shrinks, so that `feedsim run` reproduces it.
///
/// The keys come from the decoder's own `Keys` enums, so the writer cannot
/// name a field the reader does not know; fields at their defaults are left
/// out, so a written file says only what sets it apart. Reading the text back
/// gives the same `Scenario` (a test checks it on every bundled scenario).
extension Scenario {
    /// The scenario as a scenario file's JSON value.
    package var fileJSON: OrderedJSON {
        typealias K = Keys
        var members: [(String, OrderedJSON)] = [
            (K.schema_version.rawValue, .int(Scenario.schemaVersion)),
            (K.name.rawValue, .string(name)),
            (K.description.rawValue, .string(description)),
            (K.device.rawValue, .string(device)),
        ]
        if !refreshRatesHz.isEmpty {
            members.append((K.refresh_rates_hz.rawValue, .array(refreshRatesHz.map { .int($0) })))
        }
        if seed != Scenario.defaultSeed { members.append((K.seed.rawValue, .unsigned(seed))) }
        members.append((K.duration_s.rawValue, .number(seconds(durationNs))))
        members.append((K.feed.rawValue, feed.fileJSON))
        if server != .defaults { members.append((K.server.rawValue, server.fileJSON)) }
        if network != .defaults { members.append((K.network.rawValue, network.fileJSON)) }
        let engineMembers = engine.fileMembers(over: .defaults)
        if !engineMembers.isEmpty { members.append((K.engine.rawValue, .object(engineMembers))) }
        if !variants.isEmpty {
            members.append(
                (
                    K.variants.rawValue,
                    .array(
                        variants.map { variant in
                            var fields: [(String, OrderedJSON)] = [
                                (EngineSettings.Keys.name.rawValue, .string(variant.name))
                            ]
                            fields += variant.engine.fileMembers(over: engine)
                            if let network = variant.network {
                                fields.append((EngineSettings.Keys.network.rawValue, network.fileJSON))
                            }
                            return .object(fields)
                        })
                ))
        }
        if memory != .defaults { members.append((K.memory.rawValue, memory.fileJSON)) }
        if lifecycle != .defaults { members.append((K.lifecycle.rawValue, lifecycle.fileJSON)) }
        if !script.isEmpty { members.append((K.script.rawValue, .array(script.map(\.fileJSON)))) }
        if limits != .defaults { members.append((K.limits.rawValue, limits.fileJSON)) }
        return .object(members)
    }

    /// The scenario file's text: two spaces per level and a final newline.
    package var fileText: String { fileJSON.text + "\n" }
}

private func seconds(_ ns: Int64) -> Double { Double(ns) / nanosecondsPerSecond }
private func milliseconds(_ ns: Int64) -> Double { Double(ns) / nanosecondsPerMillisecond }
private let megabyte = Double(1 << 20)

extension FeedSettings {
    var fileJSON: OrderedJSON {
        typealias K = Keys
        let d = FeedSettings.defaults
        var members: [(String, OrderedJSON)] = [(K.post_count.rawValue, .int(postCount))]
        if textLength != FeedSettings.defaultTextLength {
            members.append(
                (
                    K.text_length.rawValue,
                    .object([
                        (RangeKeys.min.rawValue, .int(textLength.lowerBound)),
                        (RangeKeys.max.rawValue, .int(textLength.upperBound)),
                    ])
                ))
        }
        if mediaFraction != FeedSettings.defaultMediaFraction {
            members.append((K.media_fraction.rawValue, .number(mediaFraction)))
        }
        if replyFraction != d.replyFraction { members.append((K.reply_fraction.rawValue, .number(replyFraction))) }
        if repostFraction != d.repostFraction { members.append((K.repost_fraction.rawValue, .number(repostFraction))) }
        if pageSize != d.pageSize { members.append((K.page_size.rawValue, .int(pageSize))) }
        if loadMoreThreshold != d.loadMoreThreshold {
            members.append((K.load_more_threshold.rawValue, .int(loadMoreThreshold)))
        }
        if mediaSizeKnownFraction != d.mediaSizeKnownFraction {
            members.append((K.media_size_known_fraction.rawValue, .number(mediaSizeKnownFraction)))
        }
        if quoteFraction != d.quoteFraction { members.append((K.quote_fraction.rawValue, .number(quoteFraction))) }
        if externalCardFraction != d.externalCardFraction {
            members.append((K.external_card_fraction.rawValue, .number(externalCardFraction)))
        }
        switch itemHeight {
        case .content: break
        case let .fixed(height): members.append((K.item_height_pt.rawValue, .number(height)))
        case let .uniform(range):
            members.append(
                (
                    K.item_height_pt.rawValue,
                    .object([
                        (RangeKeys.min.rawValue, .number(range.lowerBound)),
                        (RangeKeys.max.rawValue, .number(range.upperBound)),
                    ])
                ))
        }
        if let imported {
            members.append((K.from.rawValue, .string(imported.resolvedPath ?? imported.path)))
            if imported.repeats { members.append((K.repeat.rawValue, .bool(true))) }
        }
        return .object(members)
    }
}

extension ServerSettings {
    var fileJSON: OrderedJSON {
        .object([
            (Keys.latency_ms.rawValue, .number(milliseconds(latencyNs))),
            (Keys.like_failure_rate.rawValue, .number(likeFailureRate)),
        ])
    }
}

extension EngineSettings {
    /// The fields that differ from `base`, in the table's order.
    func fileMembers(over base: EngineSettings) -> [(String, OrderedJSON)] {
        typealias K = Keys
        var members: [(String, OrderedJSON)] = []
        func add(_ key: K, _ value: OrderedJSON, if differs: Bool) {
            if differs { members.append((key.rawValue, value)) }
        }
        add(
            .estimated_item_height_pt, .number(estimatedItemHeightPt),
            if: estimatedItemHeightPt != base.estimatedItemHeightPt)
        add(.host, .string(host.rawValue), if: host != base.host)
        add(.position_strategy, .string(positionStrategy.name), if: positionStrategy != base.positionStrategy)
        add(.diff_algorithm, .string(diffAlgorithm.rawValue), if: diffAlgorithm != base.diffAlgorithm)
        add(.debounce_ms, .number(milliseconds(debounceNs)), if: debounceNs != base.debounceNs)
        add(.viewmodel_cache_count, .int(viewModelCacheCount), if: viewModelCacheCount != base.viewModelCacheCount)
        add(
            .viewmodel_cache_cost_bytes, .int(viewModelCacheCostBytes),
            if: viewModelCacheCostBytes != base.viewModelCacheCostBytes)
        add(.new_posts_policy, .string(newPostsPolicy.rawValue), if: newPostsPolicy != base.newPostsPolicy)
        add(.hide_replies, .bool(hideReplies), if: hideReplies != base.hideReplies)
        add(.hide_reposts, .bool(hideReposts), if: hideReposts != base.hideReposts)
        add(.refresh_trigger_pt, .number(refreshTriggerPt), if: refreshTriggerPt != base.refreshTriggerPt)
        add(
            .memory_warning_policy, .string(memoryWarningPolicy.rawValue),
            if: memoryWarningPolicy != base.memoryWarningPolicy)
        add(.image_decode, .string(imageDecode.rawValue), if: imageDecode != base.imageDecode)
        add(
            .image_memory_cache_mb, .number(Double(imageMemoryCacheBytes) / megabyte),
            if: imageMemoryCacheBytes != base.imageMemoryCacheBytes)
        add(
            .image_disk_cache_mb, .number(Double(imageDiskCacheBytes) / megabyte),
            if: imageDiskCacheBytes != base.imageDiskCacheBytes)
        add(.image_prefetch_window, .int(imagePrefetchWindow), if: imagePrefetchWindow != base.imagePrefetchWindow)
        add(.image_prefetch, .string(imagePrefetch.name), if: imagePrefetch != base.imagePrefetch)
        add(.page_prefetch, .string(pagePrefetch.name), if: pagePrefetch != base.pagePrefetch)
        if let loadMoreThreshold {
            add(.load_more_threshold, .int(loadMoreThreshold), if: loadMoreThreshold != base.loadMoreThreshold)
        }
        add(.row_retention, .string(rowRetention.rawValue), if: rowRetention != base.rowRetention)
        add(.row_kept_updates, .int(rowKeptUpdates), if: rowKeptUpdates != base.rowKeptUpdates)
        add(.row_view_kb, .int(rowViewBytes >> 10), if: rowViewBytes != base.rowViewBytes)
        add(
            .spare_time_prefetch_rows, .int(spareTimePrefetchRows),
            if: spareTimePrefetchRows != base.spareTimePrefetchRows)
        add(.row_observation, .string(rowObservation.rawValue), if: rowObservation != base.rowObservation)
        add(.layout_strategy, .string(layoutStrategy.name), if: layoutStrategy != base.layoutStrategy)
        return members
    }
}

extension NetworkSettings {
    var fileJSON: OrderedJSON {
        typealias K = Keys
        let d = NetworkSettings.defaults
        var members: [(String, OrderedJSON)] = [(K.profile.rawValue, .string(profile))]
        if let latency { members.append((K.latency.rawValue, latency.fileJSON)) }
        if let jitterMs { members.append((K.jitter_ms.rawValue, .number(jitterMs))) }
        if let downlinkKbps { members.append((K.downlink_kbps.rawValue, .int(downlinkKbps))) }
        if let uplinkKbps { members.append((K.uplink_kbps.rawValue, .int(uplinkKbps))) }
        if let lossRate { members.append((K.loss_rate.rawValue, .number(lossRate))) }
        if let timeoutMs { members.append((K.timeout_ms.rawValue, .number(timeoutMs))) }
        if maxRetries != d.maxRetries { members.append((K.max_retries.rawValue, .int(maxRetries))) }
        if backoffBaseMs != d.backoffBaseMs { members.append((K.backoff_ms.rawValue, .number(backoffBaseMs))) }
        if backoffMultiplier != d.backoffMultiplier {
            members.append((K.backoff_multiplier.rawValue, .number(backoffMultiplier)))
        }
        if !offlineWindows.isEmpty {
            members.append(
                (
                    K.offline.rawValue,
                    .array(
                        offlineWindows.map { window in
                            .object([
                                (WindowKeys.from_s.rawValue, .number(seconds(window.lowerBound))),
                                (WindowKeys.to_s.rawValue, .number(seconds(window.upperBound))),
                            ])
                        })
                ))
        }
        if let from { members.append((K.from.rawValue, .string(from))) }
        return .object(members)
    }
}

extension LatencyDistribution {
    var fileJSON: OrderedJSON {
        typealias K = Keys
        let distribution = K.distribution.rawValue
        return switch self {
        case let .constant(ms):
            .object([(distribution, .string(Kind.constant.rawValue)), (K.ms.rawValue, .number(ms))])
        case let .uniform(low, high):
            .object([
                (distribution, .string(Kind.uniform.rawValue)), (K.min_ms.rawValue, .number(low)),
                (K.max_ms.rawValue, .number(high)),
            ])
        case let .normal(mean, sd):
            .object([
                (distribution, .string(Kind.normal.rawValue)), (K.mean_ms.rawValue, .number(mean)),
                (K.std_dev_ms.rawValue, .number(sd)),
            ])
        case let .lognormal(median, sigma):
            .object([
                (distribution, .string(Kind.lognormal.rawValue)), (K.median_ms.rawValue, .number(median)),
                (K.sigma.rawValue, .number(sigma)),
            ])
        case let .pareto(scale, shape):
            .object([
                (distribution, .string(Kind.pareto.rawValue)), (K.scale_ms.rawValue, .number(scale)),
                (K.shape.rawValue, .number(shape)),
            ])
        }
    }
}

extension MemorySettings {
    var fileJSON: OrderedJSON {
        .object([
            (Keys.limit_mb.rawValue, .number(Double(limitBytes) / megabyte)),
            (Keys.baseline_mb.rawValue, .number(Double(baselineBytes) / megabyte)),
            (Keys.per_post_kb.rawValue, .number(Double(bytesPerPost) / 1024)),
            (Keys.warning_fraction.rawValue, .number(warningFraction)),
            (Keys.critical_fraction.rawValue, .number(criticalFraction)),
        ])
    }
}

extension LifecycleSettings {
    var fileJSON: OrderedJSON {
        .object([
            (Keys.keep_under_s.rawValue, .number(seconds(keepUnderNs))),
            (Keys.check_under_s.rawValue, .number(seconds(checkUnderNs))),
            (Keys.restore_max_age_s.rawValue, .number(seconds(restoreMaxAgeNs))),
            (Keys.cold_start_ms.rawValue, .number(milliseconds(coldStartNs))),
        ])
    }
}

extension RunLimits {
    var fileJSON: OrderedJSON {
        .object([
            (Keys.max_events.rawValue, .int(maxEvents)),
            (Keys.max_simulated_s.rawValue, .number(seconds(maxSimulatedNs))),
        ])
    }
}

extension ScriptStep {
    var fileJSON: OrderedJSON {
        typealias K = Keys
        var members: [(String, OrderedJSON)] = [
            (K.at_ms.rawValue, .number(milliseconds(atNs))), (K.action.rawValue, .string(action.fileName)),
        ]
        func delivery(_ push: Bool) -> (String, OrderedJSON) {
            (K.delivery.rawValue, .string((push ? Delivery.push : Delivery.server).rawValue))
        }
        switch action {
        case .refresh, .tapNewPosts, .scrollToTop, .like, .memoryWarning:
            break
        case let .drag(trajectory, release, deceleration):
            if trajectory.count == 2, trajectory[0].timeNs == 0, trajectory[0].displacementPt == 0 {
                members.append((K.distance_pt.rawValue, .number(trajectory[1].displacementPt)))
                members.append((K.duration_ms.rawValue, .number(milliseconds(trajectory[1].timeNs))))
            } else {
                members.append(
                    (
                        K.trajectory.rawValue,
                        .array(
                            trajectory.map { point in
                                .object([
                                    (PointKeys.t_ms.rawValue, .number(milliseconds(point.timeNs))),
                                    (PointKeys.dy_pt.rawValue, .number(point.displacementPt)),
                                ])
                            })
                    ))
            }
            members.append((K.release.rawValue, .string(release.rawValue)))
            members.append((K.deceleration.rawValue, .string(deceleration.rawValue)))
        case let .fling(velocity, deceleration):
            members.append((K.velocity_pt_s.rawValue, .number(velocity)))
            members.append((K.deceleration.rawValue, .string(deceleration.rawValue)))
        case let .newPosts(count, push):
            members += [(K.count.rawValue, .int(count)), delivery(push)]
        case let .scrollTo(target, animated):
            switch target {
            case let .offset(offset): members.append((K.offset_pt.rawValue, .number(offset)))
            case let .post(index): members.append((K.post_index.rawValue, .int(index)))
            case let .intoPost(index, pointsIn):
                members += [(K.post_index.rawValue, .int(index)), (K.into_post_pt.rawValue, .number(pointsIn))]
            }
            members.append((K.animated.rawValue, .bool(animated)))
        case let .pull(distance, duration, hold):
            members += [
                (K.distance_pt.rawValue, .number(distance)), (K.duration_ms.rawValue, .number(milliseconds(duration))),
                (K.hold_ms.rawValue, .number(milliseconds(hold))),
            ]
        case let .removePosts(count, place, push):
            members += [(K.count.rawValue, .int(count)), (K.where.rawValue, .string(place.rawValue)), delivery(push)]
        case let .contentUpdates(count):
            members.append((K.count.rawValue, .int(count)))
        case let .rotate(width, height):
            members += [(K.width_pt.rawValue, .number(width)), (K.height_pt.rawValue, .number(height))]
        case let .textSize(scale):
            members.append((K.scale.rawValue, .number(scale)))
        case let .background(duration):
            members.append((K.duration_s.rawValue, .number(seconds(duration))))
        case let .terminate(relaunchAfter):
            members.append((K.relaunch_after_s.rawValue, .number(seconds(relaunchAfter))))
        }
        if repeatCount > 1 {
            members.append(
                (
                    K.repeat.rawValue,
                    .object([
                        (RepeatKeys.count.rawValue, .int(repeatCount)),
                        (RepeatKeys.every_ms.rawValue, .number(milliseconds(repeatEveryNs))),
                    ])
                ))
        }
        return .object(members)
    }
}
