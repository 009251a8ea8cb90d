import FeedEngine

// The settings objects' fields: `feed`, `server`, `engine` and its variants,
// `limits`, `memory`, `lifecycle` and `network`. Each table is indexed by
// the decoder's coding keys, so a key without a field does not compile.

/// Bytes in a megabyte (MiB) and in a kilobyte (KiB), the units of the memory fields.
private let bytesPerMegabyte = Double(1 << 20)
private let bytesPerKilobyte = Double(1 << 10)

extension FeedSettings {
    /// The fields of `feed`.
    static let schema = ObjectSchema(definition: "feed", description: "Fields of `feed`.", keys: Keys.self) { key in
        switch key {
        case .post_count:
            .integer(
                "Post count", "Posts in the feed at launch: a whole number 0…1,000,000.", 0...maximumPostCount,
                unit: "posts", required: true)
        case .text_length:
            .object(
                "Text length, in characters",
                """
                Body text length range, in characters, drawn uniformly: `{min, max}` with min ≤ max. Absent: \
                0…300 (300 characters is Bluesky's limit).
                """,
                textLengthSchema,
                default: ["min": .int(defaultTextLength.lowerBound), "max": .int(defaultTextLength.upperBound)])
        case .media_fraction:
            .number("Media fraction", "Fraction of posts with media, 0…1.", 0...1, default: defaultMediaFraction)
        case .reply_fraction:
            .number(
                "Reply fraction", "Fraction of posts that are replies in a thread, 0…1.", 0...1,
                default: defaults.replyFraction)
        case .repost_fraction:
            .number(
                "Repost fraction", "Fraction of posts that are reposts, 0…1.", 0...1, default: defaults.repostFraction)
        case .page_size:
            .integer(
                "Page size, in posts",
                "Posts per page, a whole number 0…10,000; 0 loads the whole feed in one response.", 0...10_000,
                unit: "posts", default: defaults.pageSize)
        case .load_more_threshold:
            .integer(
                "Load-more threshold, in posts",
                """
                Load the next page when the last visible post is this many from the end: a whole number 0…1,000. \
                Kept for older files: the engine's `load_more_threshold`, which a variant can set, takes \
                precedence.
                """,
                0...1_000, unit: "posts", default: defaults.loadMoreThreshold)
        case .media_size_known_fraction:
            .number(
                "Known media size fraction",
                """
                Fraction of media whose pixel size the feed's data gives, 0…1; the rest are laid out as squares \
                until the image arrives.
                """,
                0...1, default: defaults.mediaSizeKnownFraction)
        case .item_height_pt:
            SchemaField(
                title: "Item height, in pt",
                description:
                    """
                    How tall each post's cell measures: a number of points 1…10,000 (every cell that tall, at any \
                    width and type size), or `{min, max}` (each post's height drawn uniformly from the range and \
                    kept for its life). Absent: heights follow the content (text lines at the width and type \
                    size, media at its aspect ratio, header, action bar and insets).
                    """,
                kind: .oneOf([.number(itemHeightBounds), .object(itemHeightRangeSchema)]), unit: "pt")
        case .quote_fraction:
            .number(
                "Quote fraction",
                """
                Fraction of posts that quote another post, 0…1: a card under the post's text and media with the \
                quoted author's line and text, whose length is drawn from `text_length`. Not with `item_height_pt`.
                """,
                0...1, default: defaults.quoteFraction)
        case .external_card_fraction:
            .number(
                "External card fraction",
                """
                Fraction of posts that share a link as an external card, 0…1: a 1.91:1 thumbnail (in place of \
                other media) over the link's title, description and domain. Not with `item_height_pt`.
                """,
                0...1, default: defaults.externalCardFraction)
        case .from:
            .text(
                "Imported feed",
                """
                A FEED.json written by `feedsim import timeline`, relative to the scenario file: the server \
                serves its posts, newest first, instead of synthetic ones, in the capture's pages (or in pages of \
                `page_size` when set). The synthetic fields (text length, fractions, item height) are then \
                unused. A `post_count` above the capture's is refused unless `repeat` is true.
                """,
                pattern: "\\S", examples: ["feed.json"])
        case .repeat:
            .boolean(
                "Repeat the imported feed",
                """
                With `from`: serve the capture's posts again (with new ids) until `post_count` posts are served; \
                without it a `post_count` above the capture's is refused.
                """,
                default: false)
        }
    }

    /// `feed.text_length`: `{min, max}` characters.
    static let textLengthSchema = ObjectSchema(definition: nil, keys: RangeKeys.self) { key in
        switch key {
        case .min:
            .integer(
                "Shortest text, in characters",
                "Shortest body text, in characters: a whole number 0…10,000, at most `max`.", 0...10_000,
                unit: "characters", required: true)
        case .max:
            .integer(
                "Longest text, in characters",
                "Longest body text, in characters: a whole number 0…10,000, at least `min`.", 0...10_000,
                unit: "characters", required: true)
        }
    }

    /// A fixed cell height, and each end of a range of them.
    static let itemHeightBounds = SchemaField.NumberBounds(lower: 1, lowerIsExclusive: false, upper: maximumItemHeight)

    /// `feed.item_height_pt` as a range: `{min, max}` points.
    static let itemHeightRangeSchema = ObjectSchema(definition: nil, keys: RangeKeys.self) { key in
        switch key {
        case .min:
            .number(
                "Shortest cell, in pt", "Shortest cell, in points, 1…10,000, at most `max`.", 1...maximumItemHeight,
                unit: "pt", required: true)
        case .max:
            .number(
                "Tallest cell, in pt", "Tallest cell, in points, 1…10,000, at least `min`.", 1...maximumItemHeight,
                unit: "pt", required: true)
        }
    }
}

extension ServerSettings {
    /// The latency of a file that gives none, in the file's milliseconds.
    static let defaultLatencyMs = Double(defaults.latencyNs) / nanosecondsPerMillisecond

    /// The fields of `server`.
    static let schema = ObjectSchema(definition: "server", description: "Fields of `server`.", keys: Keys.self) { key in
        switch key {
        case .latency_ms:
            .number(
                "Latency, in ms", "Time from request to response, in milliseconds, 0…600,000.", 0...600_000, unit: "ms",
                default: defaultLatencyMs)
        case .like_failure_rate:
            .number(
                "Like failure rate", "Probability that a like request fails, 0…1.", 0...1,
                default: defaults.likeFailureRate)
        }
    }
}

extension EngineSettings {
    /// The engine fields `engine` and every variant share; each closes the
    /// object where it is used.
    static let schema = ObjectSchema(
        definition: "engine_fields",
        description:
            """
            The engine fields shared by `engine` and each variant. Only the fields are listed here; `engine` and \
            `variant` close the object.
            """,
        keys: Keys.self, isFragment: true
    ) { key in
        let d = EngineSettings.defaults
        return switch key {
        case .name, .network: nil
        case .estimated_item_height_pt:
            .number(
                "Estimated item height, in pt",
                "The height a cell is assumed to have before it is measured, in points, 1…10,000.", 1...10_000,
                unit: "pt", default: d.estimatedItemHeightPt)
        case .host:
            .choice(
                "Host",
                """
                The view that hosts the feed: `collection_view` (UIKit's UICollectionView with batch updates and \
                a settable contentOffset: every strategy but SwiftUI's), `lazy_vstack` (a SwiftUI ScrollView with \
                a LazyVStack and ForEach) or `list` (SwiftUI's List). In a SwiftUI host only `swiftui_default`, \
                `scroll_position_id` and `default_anchor_bottom` exist, and `swiftui_default` is the default; a \
                strategy that cannot exist in the host is refused. What each host does, with its sources: \
                docs/swiftui-hosts.md.
                """,
                FeedHost.self, default: d.host)
        case .position_strategy:
            .choice(
                "Position strategy",
                """
                How the engine keeps the reader's place when content above changes: `none` keeps contentOffset \
                (content moves under the reader); `index_restore` scrolls back to the old first visible index; \
                `offset_adjust` adds the height inserted or resized above to contentOffset; `anchor` (Catbird) \
                restores the first sufficiently visible post to its viewport position; `virtual_space` \
                (TiledView) grows content upwards around a fixed anchor; `multi_anchor` puts the reader's post \
                back like `anchor` and, when it is gone, the offset most of the four posts below it agree on; \
                `velocity_restore` is `anchor`, except that an update landing during a fling moves where the \
                fling comes to rest instead of the content, so the post lands where `anchor` holds it. \
                `content_anchor` is `anchor` holding the first post on screen, from the reader's down, whose \
                height is final (measured, and text only or media of known size). In the SwiftUI hosts (`host`): \
                `swiftui_default` is SwiftUI's own behaviour (data changes keep the offset; rows measured for the \
                first time above the screen are absorbed into it; a width or text size change keeps the top row); \
                `scroll_position_id` is `scrollPosition(id:)` with `scrollTargetLayout()`, which keeps the top \
                row through data changes too; `default_anchor_bottom` is SwiftUI's default with \
                `.defaultScrollAnchor(.bottom)`, which keeps the distance from the content's end through data \
                changes while the last row is on screen (so a page appended there carries the reader on) and is \
                `swiftui_default` elsewhere. A program built on FeedSimCLI can register strategies of its own, \
                which then appear here.
                """,
                PositionStrategy.known.map(\.name), default: d.positionStrategy.name)
        case .diff_algorithm:
            .choice(
                "Diff algorithm",
                """
                How data changes are diffed: `heckel` (Heckel's O(n) algorithm over ids), `collection_difference` \
                (the standard library's Myers diff, moves inferred) or `reload_all` (no diff: delete and insert \
                everything, as reloadData() does).
                """,
                DiffAlgorithm.self, default: d.diffAlgorithm)
        case .debounce_ms:
            .number(
                "Debounce, in ms",
                """
                Debounce interval for data changes, in milliseconds, 0…60,000: bursts closer than this are \
                applied as one (Catbird uses 50 and 150).
                """,
                0...60_000, unit: "ms", default: Double(d.debounceNs) / nanosecondsPerMillisecond)
        case .viewmodel_cache_count:
            .integer(
                "View model cache count", "Most view models the cache holds: a whole number 0…1,000,000.",
                0...1_000_000, default: d.viewModelCacheCount)
        case .viewmodel_cache_cost_bytes:
            .integer(
                "View model cache cost, in bytes",
                "Cost limit of the view model cache, in bytes: a whole number 0…17,179,869,184 (16 GiB).",
                0...(1 << 34), unit: "bytes", default: d.viewModelCacheCostBytes)
        case .new_posts_policy:
            .choice(
                "New posts policy",
                """
                What happens to new posts: `insert` puts them above at once (the position strategy keeps the \
                reader's place); `indicator` holds them behind a \"new posts\" indicator until the reader taps it \
                or scrolls to the top.
                """,
                NewPostsPolicy.self, default: d.newPostsPolicy)
        case .hide_replies:
            .boolean(
                "Hide replies",
                """
                Drop replies from the feed (self-threads are kept). Null or absent: false, or the engine's value \
                in a variant.
                """,
                default: d.hideReplies, nullable: true)
        case .hide_reposts:
            .boolean(
                "Hide reposts",
                "Drop reposts from the feed. Null or absent: false, or the engine's value in a variant.",
                default: d.hideReposts, nullable: true)
        case .refresh_trigger_pt:
            .number(
                "Refresh trigger, in pt", "How far past the top a pull must go to refresh, in points, 1…1,000.",
                1...1_000, unit: "pt", default: d.refreshTriggerPt)
        case .memory_warning_policy:
            .choice(
                "Memory warning policy",
                """
                How the engine trims its caches on a memory warning: `clear_all` drops every cached view model \
                and decoded image, `trim_half` keeps half of each cache's cost, `none` ignores warnings (the \
                control case).
                """,
                MemoryWarningPolicy.self, default: d.memoryWarningPolicy)
        case .image_decode:
            .choice(
                "Image decode",
                """
                Where images are decoded: `main` (on the main thread: costs frame time per megapixel) or \
                `background` (on a background queue: costs latency before the image shows).
                """,
                ImageDecodeSetting.self, default: d.imageDecode)
        case .image_memory_cache_mb:
            .number(
                "Image memory cache, in MB",
                "Cost limit of the decoded-image memory cache, in megabytes (MiB), 0…16,384.", 0...16_384, unit: "MB",
                default: Double(d.imageMemoryCacheBytes) / bytesPerMegabyte)
        case .image_disk_cache_mb:
            .number(
                "Image disk cache, in MB", "Size limit of the encoded-image disk cache, in megabytes (MiB), 0…65,536.",
                0...65_536, unit: "MB", default: Double(d.imageDiskCacheBytes) / bytesPerMegabyte)
        case .image_prefetch_window:
            .integer(
                "Image prefetch window, in posts",
                """
                Posts past the viewport whose images are prefetched, the window the image prefetch policy works \
                with (0 turns prefetching off): a whole number 0…50.
                """,
                0...50, default: d.imagePrefetchWindow)
        case .image_prefetch:
            .choice(
                "Image prefetch policy",
                """
                Which images load before their cells ask: `window` prefetches the `image_prefetch_window` posts \
                past the screen, looking forward whatever the reader does; `velocity_prefetch` adds the posts the \
                reader crosses in half a second at their current speed (at most 40 in all), in the direction they \
                move. A program built on FeedSimCLI can register policies of its own, which then appear here.
                """,
                ImagePrefetch.known.map(\.name), default: d.imagePrefetch.name)
        case .page_prefetch:
            .choice(
                "Page prefetch policy",
                """
                When the next page is asked for: `threshold` once the last post on screen is \
                `load_more_threshold` posts from the end; `velocity_prefetch` that many posts earlier again as \
                the reader crosses in 1.5 s at their current speed; `on_appear` only once the last post is on \
                screen, as a SwiftUI feed asks from the `onAppear` of a view after its last row. A program built \
                on FeedSimCLI can register policies of its own, which then appear here.
                """,
                PagePrefetch.known.map(\.name), default: d.pagePrefetch.name)
        case .row_retention:
            .choice(
                "Row retention (lazy_vstack)",
                """
                What a lazy stack does with a row's view once it leaves the screen (other hosts reuse their cells \
                and keep none): `released` keeps it, neither rendered nor updated, for `row_kept_updates` \
                updates, then frees it (WWDC26 session 321, 16:59); `pinned` keeps every row loaded so far, and \
                every environment change (a text size) runs their bodies again, as when a row's body resolves to \
                a varying number of views (session 321, 11:15). Each kept view counts `row_view_kb` in peak \
                memory. Sources: docs/swiftui-hosts.md.
                """,
                RowRetention.self, default: d.rowRetention)
        case .row_kept_updates:
            .integer(
                "Row views kept, in updates",
                """
                Updates (layout passes) a `released` row view is kept after it leaves the screen: a whole number \
                0…10,000. Session 321 says only \"a number of updates\"; the default is an assumption.
                """,
                0...10_000, unit: "updates", default: d.rowKeptUpdates)
        case .row_view_kb:
            .integer(
                "Kept row view, in KiB",
                """
                Memory one kept row view holds, in KiB: a whole number 0…65,536. No source gives it; the default \
                is an assumption to calibrate.
                """,
                0...65_536, unit: "KiB", default: d.rowViewBytes >> 10)
        case .spare_time_prefetch_rows:
            .integer(
                "Spare-time prefetch, in rows",
                """
                Rows past the screen the host lays out in a frame's spare time while the reader scrolls down \
                towards them, each only if the frame's budget still covers its measure; that work delays nothing \
                and is charged to no frame. A lazy stack does this (WWDC26 session 321, 13:27), and so does a \
                collection view, `List`'s included, with prefetching on (UIKit's `isPrefetchingEnabled`, on by \
                default). Neither source gives a distance: 0, the default, turns it off, so that every other \
                number stays as before. A whole number 0…100.
                """,
                0...100, unit: "rows", default: d.spareTimePrefetchRows)
        case .row_observation:
            .choice(
                "Row observation (lazy_vstack, list)",
                """
                Which row bodies a SwiftUI host runs again when the feed changes (a like, a page, new posts), \
                each charged as configuring a cell; a collection view configures only the changed cells whatever \
                this says. `per_row`: each row reads only its own post, so only changed rows run (Observation \
                tracks the properties a body reads: WWDC23 session 10149, 2:26). `whole_feed`: each row reads the \
                feed's whole collection (a helper over a shared array, or an `ObservableObject` model), so every \
                change runs the body of every row on screen (WWDC25 session 306, 27:40); rows off screen are not \
                updated (WWDC26 session 321, 16:59). Sources: docs/swiftui-hosts.md.
                """,
                RowObservation.self, default: d.rowObservation)
        case .layout_strategy:
            .choice(
                "Layout strategy",
                """
                Where cells are measured and drawn. `self_sizing`: each cell is measured on the main thread the \
                first time it shows, its estimate standing in until then (UIKit's self-sizing cells). \
                `precomputed`: heights are computed on the device's background cores (`background` in the device \
                profile) when posts arrive, a page, new posts, a width or text size change, and replace the \
                estimates at the next layout pass; a cell that must show first is measured on the main thread. \
                `async_display`: heights precomputed, and each cell's text and media drawn on the background \
                cores while its row is within a screenful of the screen (Texture's display range), a placeholder \
                showing until they are ready. A program built on FeedSimCLI can register strategies of its own, \
                which then appear here. Sources: docs/main-thread.md.
                """,
                LayoutStrategy.known.map(\.name), default: d.layoutStrategy.name)
        case .load_more_threshold:
            .integer(
                "Load-more threshold, in posts",
                """
                The threshold the page prefetch policy works with, in posts from the end: a whole number 0…1,000. \
                Absent: the feed's `load_more_threshold` (where older files set it), else 5. A variant can set it.
                """,
                0...1_000, unit: "posts")
        }
    }
}

extension EngineVariant {
    /// A variant: a name, optionally a network, over the engine fields.
    static let schema = ObjectSchema(
        definition: "variant", title: "Engine variant",
        description:
            """
            A named engine configuration to run and compare: `engine` with these fields written over it, and \
            optionally its own network to compare links.
            """,
        keys: EngineSettings.Keys.self, extending: EngineSettings.schema
    ) { key in
        switch key {
        case .name:
            .text(
                "Variant name",
                """
                Names the variant in reports (the `variant` column); unique among the variants: letters, digits, \
                `-` and `_` only, 1…100 characters (it is part of output file names).
                """,
                pattern: namePattern, maxLength: nameMaxLength, required: true)
        case .network:
            .object(
                "Variant network", "A network replacing the scenario's for this variant, to compare links.",
                NetworkSettings.schema)
        default: nil
        }
    }
}

extension RunLimits {
    /// The fields of `limits`.
    static let schema = ObjectSchema(definition: "limits", description: "Fields of `limits`.", keys: Keys.self) { key in
        switch key {
        case .max_events:
            .integer(
                "Maximum events",
                """
                Events the simulation may process before the run stops with an error: a whole number \
                1,000…1,000,000,000.
                """,
                1_000...1_000_000_000, default: defaultMaxEvents)
        case .max_simulated_s:
            .number(
                "Maximum simulated time, in seconds",
                """
                Simulated time no event may be scheduled beyond, in seconds, 1…86,400; `duration_s` must not \
                exceed it.
                """,
                1...maximumDurationSeconds, unit: "s", default: defaultMaxSimulatedSeconds)
        }
    }
}

extension MemorySettings {
    /// The fields of `memory`.
    static let schema = ObjectSchema(definition: "memory", description: "Fields of `memory`.", keys: Keys.self) { key in
        let d = MemorySettings.defaults
        return switch key {
        case .limit_mb:
            .number(
                "Memory limit, in MB",
                """
                Above this footprint the app is killed (jetsam), in megabytes (MiB), 16…65,536. The default is \
                about half the RAM of a 4 GB iPhone.
                """,
                16...65_536, unit: "MB", default: Double(d.limitBytes) / bytesPerMegabyte)
        case .baseline_mb:
            .number(
                "Baseline, in MB",
                """
                The app's footprint with nothing loaded (code, frameworks, UI), in megabytes (MiB), 0…65,536; \
                less than `limit_mb`.
                """,
                0...65_536, unit: "MB", default: Double(d.baselineBytes) / bytesPerMegabyte)
        case .per_post_kb:
            .number(
                "Per post, in KB", "Model objects per post held by the feed, in kilobytes (KiB), 0…10,240.", 0...10_240,
                unit: "KB", default: Double(d.bytesPerPost) / bytesPerKilobyte)
        case .warning_fraction:
            .number(
                "Warning fraction", "Fraction of the limit at which a memory warning is sent, 0.1…1.", 0.1...1,
                default: d.warningFraction)
        case .critical_fraction:
            .number(
                "Critical fraction",
                """
                Fraction of the limit at which a second, critical warning is sent, 0.1…1; at least \
                `warning_fraction`.
                """,
                0.1...1, default: d.criticalFraction)
        }
    }
}

extension LifecycleSettings {
    /// The fields of `lifecycle`.
    static let schema = ObjectSchema(
        definition: "lifecycle",
        description:
            """
            Fields of `lifecycle`. When the app returns from the background after less than `keep_under_s` \
            nothing happens; after less than `check_under_s` new posts are fetched and held behind the indicator; \
            after longer the feed reloads from the top.
            """,
        keys: Keys.self
    ) { key in
        let d = LifecycleSettings.defaults
        return switch key {
        case .keep_under_s:
            .number(
                "Keep under, in seconds", "Below this time away the feed is kept as it is, in seconds, 0…86,400.",
                0...86_400, unit: "s", default: Double(d.keepUnderNs) / nanosecondsPerSecond)
        case .check_under_s:
            .number(
                "Check under, in seconds",
                """
                Below this time away (and at or above `keep_under_s`) new posts are fetched and held behind the \
                indicator; at or above it the feed reloads from the top. In seconds, 0…86,400; at least \
                `keep_under_s`.
                """,
                0...86_400, unit: "s", default: Double(d.checkUnderNs) / nanosecondsPerSecond)
        case .restore_max_age_s:
            .number(
                "Restore max age, in seconds",
                "Persisted state older than this is ignored at relaunch, in seconds, 0…2,592,000 (30 days).",
                0...(86_400 * 30), unit: "s", default: Double(d.restoreMaxAgeNs) / nanosecondsPerSecond)
        case .cold_start_ms:
            .number(
                "Cold start, in ms",
                "Time from the reader's tap to the first frame of a relaunch, in milliseconds, 0…60,000.", 0...60_000,
                unit: "ms", default: Double(d.coldStartNs) / nanosecondsPerMillisecond)
        }
    }
}

extension NetworkSettings {
    /// The fields of a network, at the top level or in a variant.
    static let schema = ObjectSchema(
        definition: "network", description: "Fields of a network. Every override replaces the profile's own value.",
        keys: Keys.self
    ) { key in
        let d = NetworkSettings.defaults
        return switch key {
        case .profile:
            .choice(
                "Link profile",
                """
                The named link profile (Network Link Conditioner presets): `wifi`, `lte`, `3g`, `edge`, \
                `very_bad` (\"Very Bad Network\") or `offline` (\"100% Loss\": every attempt fails at once).
                """,
                profileNames, default: d.profile)
        case .latency:
            .object(
                "Latency",
                """
                Overrides the profile's round-trip latency distribution, in milliseconds: one draw per request \
                attempt.
                """,
                LatencyDistribution.schema)
        case .jitter_ms:
            .number(
                "Jitter, in ms",
                """
                Overrides the profile's jitter, in milliseconds, 0…60,000: extra latency drawn uniformly from \
                [−jitter, +jitter) and added to each sample (the sum is clamped at 0).
                """,
                0...60_000, unit: "ms")
        case .downlink_kbps:
            .integer(
                "Downlink, in kbps",
                """
                Overrides the server-to-device bandwidth, in kilobits (1,000 bits) per second: a whole number \
                1…10,000,000.
                """,
                1...10_000_000, unit: "kbps")
        case .uplink_kbps:
            .integer(
                "Uplink, in kbps",
                """
                Overrides the device-to-server bandwidth, in kilobits (1,000 bits) per second: a whole number \
                1…10,000,000.
                """,
                1...10_000_000, unit: "kbps")
        case .loss_rate:
            .number(
                "Loss rate",
                """
                Overrides the probability that one attempt fails outright (the client hears of the failure after \
                one round trip), 0…1.
                """,
                0...1)
        case .timeout_ms:
            .number(
                "Timeout, in ms",
                """
                Overrides how long the client waits for a whole attempt before it gives up, in milliseconds, \
                1…600,000 (the profiles use URLSession's 60,000).
                """,
                1...600_000, unit: "ms")
        case .max_retries:
            .integer(
                "Maximum retries", "Attempts after the first: a whole number 0…32; 0 means a failure is final.", 0...32,
                default: d.maxRetries)
        case .backoff_ms:
            .number(
                "Backoff, in ms",
                """
                The wait before the first retry, in milliseconds, 0…600,000; retry k waits `backoff_ms × \
                backoff_multiplier^(k−1)`.
                """,
                0...600_000, unit: "ms", default: d.backoffBaseMs)
        case .backoff_multiplier:
            .number(
                "Backoff multiplier", "The factor each further wait grows by, 1…10.", 1...10,
                default: d.backoffMultiplier)
        case .offline:
            .array(
                "Offline windows", "Times with no network at all, in seconds from launch.",
                of: .object(offlineWindowSchema))
        case .from:
            .text(
                "Imported network",
                """
                A NETWORK.json written by `feedsim import har`, relative to the scenario file: feed requests draw \
                latency, throughput, failures and timeouts from its `feed` class, image loads from its `image` \
                class; the profile's other fields (uplink, timeout) still apply.
                """,
                pattern: ".+", examples: ["NETWORK.json"])
        }
    }

    /// One offline window.
    static let offlineWindowSchema = ObjectSchema(
        definition: "offline_window", title: "Offline window",
        description: "A time with no network at all: from `from_s` until `to_s`, in seconds from launch.",
        keys: WindowKeys.self
    ) { key in
        switch key {
        case .from_s:
            .number(
                "From, in seconds", "Start of the window, in seconds from launch, 0…86,400.",
                0...maximumDurationSeconds, unit: "s", required: true)
        case .to_s:
            .number(
                "To, in seconds", "End of the window (not included), in seconds from launch, 0…86,400; after `from_s`.",
                0...maximumDurationSeconds, unit: "s", required: true)
        }
    }
}

extension LatencyDistribution {
    /// A latency distribution: `distribution` chooses the fields.
    static let schema = ObjectSchema(
        definition: "latency", title: "Latency distribution",
        description:
            """
            A latency distribution, in milliseconds, chosen by `distribution`; each distribution takes exactly \
            its own fields, all required.
            """,
        keys: Keys.self, branches: Branches(tag: Keys.distribution.stringValue, list: Kind.allCases.map(branch))
    ) { key in
        key == .distribution ? .tag("Distribution", "The distribution's kind") : nil
    }

    /// Every latency takes a number of milliseconds in this range.
    private static let milliseconds = 0.0...600_000.0

    /// The fields of one kind of distribution.
    private static func branch(_ kind: Kind) -> Branches.Branch {
        let (summary, fields): (String, KeyValuePairs<Keys, SchemaField>) =
            switch kind {
            case .constant:
                (
                    "Always `ms`",
                    [
                        .ms: .number(
                            "Latency, in ms", "The latency, in milliseconds, 0…600,000.", milliseconds, unit: "ms",
                            required: true)
                    ]
                )
            case .uniform:
                (
                    "Uniform on [`min_ms`, `max_ms`)",
                    [
                        .min_ms: .number(
                            "Minimum, in ms", "Lower bound, in milliseconds, 0…600,000.", milliseconds, unit: "ms",
                            required: true),
                        .max_ms: .number(
                            "Maximum, in ms", "Upper bound, in milliseconds, 0…600,000; at least `min_ms`.",
                            milliseconds, unit: "ms", required: true),
                    ]
                )
            case .normal:
                (
                    "A normal distribution truncated at 0 by resampling",
                    [
                        .mean_ms: .number(
                            "Mean, in ms", "Mean before truncation, in milliseconds, 0…600,000.", milliseconds,
                            unit: "ms", required: true),
                        .std_dev_ms: .number(
                            "Standard deviation, in ms", "Standard deviation, in milliseconds, 0…600,000.",
                            milliseconds, unit: "ms", required: true),
                    ]
                )
            case .lognormal:
                (
                    """
                    A lognormal distribution: ln X ~ N(ln median_ms, sigma²); `median_ms · e^(±sigma)` bounds the \
                    middle 68% of draws
                    """,
                    [
                        .median_ms: .number(
                            "Median, in ms", "Median, in milliseconds: more than 0 and at most 600,000.", above: 0,
                            upTo: milliseconds.upperBound, unit: "ms", required: true),
                        .sigma: .number("Sigma", "Standard deviation of ln X, 0…5.", 0...5, required: true),
                    ]
                )
            case .pareto:
                (
                    "A Pareto (type I) distribution: P(X > x) = (scale_ms / x)^shape for x ≥ scale_ms",
                    [
                        .scale_ms: .number(
                            "Scale, in ms",
                            "Scale x_m (the smallest draw), in milliseconds: more than 0 and at most 600,000.",
                            above: 0, upTo: milliseconds.upperBound, unit: "ms", required: true),
                        .shape: .number(
                            "Shape", "Shape α: more than 1 (a finite mean) and at most 100.", above: 1, upTo: 100,
                            required: true),
                    ]
                )
            }
        let object = ObjectSchema(
            definition: nil, description: "A \(kind.rawValue) latency: \(summary).", keys: Keys.self, isFragment: true,
            fields: fields)
        return Branches.Branch(value: kind.rawValue, summary: summary, object: object)
    }
}

/// A scenario or variant name: letters, digits, `-` and `_`. Python's `\w`
/// agrees with Swift's `isLetter`/`isNumber` on precomposed letters; the
/// schema's description lists where the two differ.
let namePattern = "^[\\w-]+$"

/// The most characters a scenario or variant name may hold: a trace's file
/// name, `<scenario>--<variant>--<hz>hz.json`, then stays well within the
/// 255 bytes a file name may have on common file systems (for names in
/// ASCII; a letter outside ASCII takes two to four bytes).
let nameMaxLength = 100
