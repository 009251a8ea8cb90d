import FeedEngine

extension ExploreConfig {
    /// The fields of an explore configuration.
    static let schema = ObjectSchema(definition: nil, keys: Keys.self) { key in
        let d = ExploreConfig.defaults
        return switch key {
        case .device:
            .text(
                "Device",
                """
                The device profile every session runs on, `devices/<device>.json` beside the configuration or in \
                a folder above it (or in --devices).
                """,
                pattern: "^.+$")
        case .strategies:
            .array(
                "Strategies",
                """
                The position strategies every session runs under; each session is run once per strategy with the \
                same seed, so the runs are paired. Default: every built-in strategy. Each name once.
                """,
                of: SchemaField.Item(kind: .choice(PositionStrategy.known.map { .string($0.name) })), minItems: 1,
                uniqueItems: true)
        case .hosts:
            .array(
                "Hosts",
                """
                The hosts every session also runs in, paired like the strategies: each strategy is run in each \
                listed host it can exist in (`collection_view` for UIKit's strategies, `lazy_vstack` and `list` \
                for `swiftui_default`, `scroll_position_id` and `default_anchor_bottom`), as the variant \
                `<host>-<strategy>`. Every strategy must exist in one of them. Absent: each strategy in its own \
                host, and variants named by strategy alone. Each host once.
                """,
                of: SchemaField.Item(kind: .choice(FeedHost.allCases.map { .string($0.rawValue) })), minItems: 1,
                uniqueItems: true)
        case .prefetch_policies:
            .array(
                "Prefetch policies",
                """
                Prefetch policies every session also runs under, paired like the strategies: each session is run \
                once per strategy and policy, as the variant `<strategy>-<policy>`. A name sets the image and the \
                page prefetch policy of that name (`velocity_prefetch` sets both; `window` the image one, with \
                the default page policy; `threshold` the page one). Absent: each session's own, and variants \
                named by strategy alone. Each name once.
                """,
                of: SchemaField.Item(kind: .choice(ExploreConfig.prefetchPolicyNames.map { .string($0) })), minItems: 1,
                uniqueItems: true)
        case .layout_strategies:
            .array(
                "Layout strategies",
                """
                Layout strategies every session also runs under, paired like the strategies: each variant is run \
                once per layout strategy, as `<variant>-<layout strategy>` (docs/main-thread.md). Absent: each \
                session's own (`self_sizing` unless `engine` sets `layout_strategy`), and variants named without \
                one. Each name once.
                """,
                of: SchemaField.Item(kind: .choice(LayoutStrategy.known.map { .string($0.name) })), minItems: 1,
                uniqueItems: true)
        case .cards:
            .boolean(
                "Quoted records and external cards",
                """
                Whether sessions whose cells size to their content draw quoted records and external cards into \
                their feeds: each kind in half of them, in a fraction of 0.05…0.5 of the posts. Drawn from a \
                stream of their own, so a session is the same session with or without them but for its cards. \
                Default: false.
                """,
                default: d.cards)
        case .duration_s:
            .number(
                "Session length, in seconds", "Simulated time each session covers, in seconds, 1…600.", 1...600,
                unit: "s", default: d.durationS)
        case .post_count:
            .object(
                "Posts at launch",
                """
                The range the number of posts on the server at launch is drawn from, uniformly: `{min, max}`, \
                whole numbers 0…100,000.
                """,
                postCountSchema)
        case .steps:
            .object(
                "Script steps",
                """
                The range the number of script steps of a session is drawn from, uniformly: `{min, max}`, whole \
                numbers 0…200.
                """,
                stepsSchema)
        case .swarm_fraction:
            .number(
                "Swarm fraction",
                """
                The chance that each action with a weight above 0 is enabled in a session (swarm testing, Groce \
                et al., ISSTA 2012): each session draws its own subset of actions, and its own weight for each, \
                so that rare combinations are reached. 0…1; a session always has at least one action enabled.
                """,
                0...1, default: d.swarmFraction)
        case .weights:
            .object(
                "Action weights",
                """
                How often each script action is drawn, relative to the others: a number 0…1,000 per action name; \
                0 never draws it; actions left out keep their defaults.
                """,
                weightsSchema)
        case .network_profiles:
            .array(
                "Network profiles", "The link profiles sessions draw their network from, uniformly.",
                of: SchemaField.Item(kind: .choice(NetworkSettings.profileNames.map { .string($0) })), minItems: 1)
        case .offline_chance:
            .number(
                "Offline chance",
                "The chance that a session has one offline window, 1–8 s long, somewhere in its run. 0…1.", 0...1,
                default: d.offlineChance)
        case .determinism_every:
            .integer(
                "Determinism sample",
                """
                Every n-th session (by index) is run a second time and must replay identically; 0 checks none. A \
                whole number 0…100,000.
                """,
                0...100_000, default: d.determinismEvery)
        case .shrink_runs:
            .integer(
                "Shrink budget",
                """
                The most runs spent shrinking one failing session of few steps to a minimal scenario (a session \
                of n steps gets 8 × n when that is more): a whole number 0…100,000; 0 keeps failures as found.
                """,
                0...100_000, default: d.shrinkRuns)
        case .usage:
            .text(
                "Usage model",
                """
                A usage model written by `feedsim import sessions` (`DIR/usage.json`), relative to this file: \
                sessions are then drawn like the recorded readers (drags, flings, gaps, refreshes, backgrounds \
                and rotations from the model's fits, session length capped at `duration_s`) instead of by swarm \
                testing, and the summary says the verdicts are over the usage population. Absent: swarm sessions, \
                the default, for finding bugs.
                """,
                pattern: "^.+$")
        case .feed_from:
            .text(
                "Your feed",
                """
                A feed written by `feedsim import timeline` (FEED.json), relative to this file: every session is \
                served its posts,\u{20}
                """
                    + """
                    as captured and paged as captured, instead of a synthetic feed (`post_count` is then the \
                    capture's).\u{20}
                    """
                    + "Absent: synthetic feeds drawn from `post_count`.",
                pattern: "^.+$")
        case .network_from:
            .text(
                "Your network",
                """
                A network written by `feedsim import har` (NETWORK.json), relative to this file: every session's \
                feed requests\u{20}
                """
                    + """
                    and image loads draw latency, throughput and failures from it, with the session's offline \
                    windows on top.\u{20}
                    """
                    + "Absent: link profiles drawn from `network_profiles`.",
                pattern: "^.+$")
        case .engine:
            .object(
                "Engine settings",
                """
                Engine fields every session gets, over the options it draws (its estimated height, new-posts \
                policy, debounce, memory-warning policy, image decode and diff algorithm are drawn at random): \
                any field of a scenario's `engine` but `host` and `position_strategy`, which `strategies` and \
                `hosts` set. For example `{\"row_retention\": \"pinned\", \"spare_time_prefetch_rows\": 6}` \
                explores a lazy stack whose rows are pinned, with prefetch in spare time in every host. Absent: \
                the drawn options alone.
                """,
                EngineSettings.schema)
        }
    }

    static let postCountSchema = ObjectSchema(definition: nil, keys: RangeKeys.self) { key in
        switch key {
        case .min:
            .integer(
                "Fewest posts", "Fewest posts at launch: a whole number 0…100,000, at most `max`.", 0...100_000,
                required: true)
        case .max:
            .integer(
                "Most posts", "Most posts at launch: a whole number 0…100,000, at least `min`.", 0...100_000,
                required: true)
        }
    }

    static let stepsSchema = ObjectSchema(definition: nil, keys: RangeKeys.self) { key in
        switch key {
        case .min:
            .integer(
                "Fewest steps", "Fewest script steps: a whole number 0…200, at most `max`.", 0...200, required: true)
        case .max:
            .integer("Most steps", "Most script steps: a whole number 0…200, at least `min`.", 0...200, required: true)
        }
    }

    static let weightsSchema = ObjectSchema(definition: nil, keys: ScriptAction.Kind.self) { action in
        .number(
            "Weight of \(action.rawValue)",
            """
            How often `\(action.rawValue)` is drawn, relative to the other actions: 0…1,000 (default \
            \(OrderedJSON.numberText(defaultWeights[action] ?? 1))).
            """,
            0...1_000, default: defaultWeights[action] ?? 1)
    }
}

/// The explore configuration format as JSON Schema (Draft 2020-12),
/// generated from the table its decoder reads: `feedsim schema --explore`
/// prints it, and `explore/schema.json` is its output.
package enum ExploreConfigSchema {
    package static var text: String {
        OrderedJSON.object(
            [
                ("$schema", "https://json-schema.org/draft/2020-12/schema"),
                ("title", "FeedSim explore configuration"),
                (
                    "description",
                    """
                    What `feedsim explore` searches: the space its random sessions are drawn from and the \
                    strategies each runs under. Every field is optional. Unknown fields are errors at every \
                    level, and so is a key given twice. Also checked by feedsim: `min` ≤ `max` in every range; at \
                    least one action with a weight above 0 when sessions have steps; the device profile must \
                    exist.
                    """
                ),
                ("type", "object"),
            ]
                + ExploreConfig.schema.jsonSchemaMembers
        ).text + "\n"
    }
}
