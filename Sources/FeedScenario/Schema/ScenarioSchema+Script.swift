// The script's fields: a step, its repeat, a drag's trajectory and the
// fields of each action. Each action's fields are a branch of `step`,
// chosen by `action`; the decoder allows a step exactly its action's fields.

extension ScriptStep {
    /// A script step: `at_ms`, `action` and `repeat`, and its action's fields.
    static let schema = ObjectSchema(
        definition: "step", title: "Script step",
        description:
            """
            A user action at a point in simulated time: `at_ms`, `action`, optionally `repeat`, and exactly the \
            fields of that action.
            """,
        keys: Keys.self, branches: Branches(tag: Keys.action.stringValue, list: ScriptAction.Kind.allCases.map(branch))
    ) { key in
        switch key {
        case .at_ms:
            .number(
                "At, in ms",
                """
                When the step happens, in milliseconds from launch, 0…86,400,000: before the end of the run, and \
                at least the `at_ms` of the step above.
                """,
                0...(maximumDurationSeconds * 1_000), unit: "ms", required: true)
        case .action: .tag("Action", "What happens")
        case .repeat:
            .object(
                "Repeat", "Makes the step happen `count` times, `every_ms` apart, starting at `at_ms`.", repeatSchema)
        default: nil
        }
    }

    /// The fields of `action`'s steps besides `at_ms`, `action` and `repeat`.
    static func fields(of action: ScriptAction.Kind) -> ObjectSchema {
        schema.branch(action.rawValue)
    }

    /// A step's `repeat`.
    static let repeatSchema = ObjectSchema(
        definition: "repeat", title: "Repeat",
        description:
            """
            Makes the step happen `count` times, `every_ms` apart, starting at `at_ms`; repetitions interleave \
            with later steps by time.
            """,
        keys: RepeatKeys.self
    ) { key in
        switch key {
        case .count:
            .integer(
                "Count", "How many times the step happens: a whole number 1…10,000.", 1...maximumRepeatCount,
                required: true)
        case .every_ms:
            .number(
                "Every, in ms",
                """
                Time between repetitions, in milliseconds: more than 0 and at most 86,400,000; for a drag at \
                least the drag's own length.
                """,
                above: 0, upTo: maximumDurationSeconds * 1_000, unit: "ms", required: true)
        }
    }

    /// One point of a drag's trajectory.
    static let trajectoryPointSchema = ObjectSchema(
        definition: "trajectory_point", title: "Trajectory point",
        description: "One point of a finger trajectory, relative to the touch-down.", keys: PointKeys.self
    ) { key in
        switch key {
        case .t_ms:
            .number(
                "Time, in ms", "Time since touch-down, in milliseconds, 0…86,400,000; increasing from point to point.",
                0...(maximumDurationSeconds * 1_000), unit: "ms", required: true)
        case .dy_pt:
            .number(
                "Displacement, in pt",
                """
                Content displacement so far, in points, −1,000,000…1,000,000; positive scrolls towards later \
                posts (the finger moves up).
                """,
                -1_000_000...1_000_000, unit: "pt", required: true)
        }
    }

    /// A trajectory's first point: the touch-down, at 0 and 0.
    static let touchDownSchema = ObjectSchema(
        definition: nil, keys: PointKeys.self, isFragment: true, extending: trajectoryPointSchema
    ) { key in
        switch key {
        case .t_ms: .constant("Touch-down time, in ms", "The first point is the touch-down: `t_ms` 0.", 0.0)
        case .dy_pt: .constant("Touch-down displacement, in pt", "The first point is the touch-down: `dy_pt` 0.", 0.0)
        }
    }

    private static let deceleration = SchemaField.choice(
        "Deceleration",
        "UIScrollView's deceleration rate: `normal` keeps 0.998 of the velocity per millisecond, `fast` 0.99.",
        DecelerationRate.self, default: .normal)

    /// The fields of one action.
    private static func branch(_ action: ScriptAction.Kind) -> Branches.Branch {
        switch action {
        case .drag:
            step(
                action,
                """
                A finger drag, then a release: either `distance_pt` over `duration_ms` at constant speed, or an \
                explicit `trajectory`, not both. Past an edge the content follows with rubber-band resistance
                """,
                alternatives: [
                    FieldAlternative(
                        title: "Trajectory",
                        description: "A drag along `trajectory`, without `distance_pt` or `duration_ms`.",
                        requires: [Keys.trajectory], forbids: [.distance_pt, .duration_ms]),
                    FieldAlternative(
                        title: "Distance over duration",
                        description: "A drag of `distance_pt` over `duration_ms`, without `trajectory`.",
                        requires: [Keys.distance_pt, .duration_ms], forbids: [.trajectory]),
                ],
                fields: [
                    .distance_pt: .number(
                        "Distance, in pt",
                        """
                        Distance dragged at constant speed, in points, −1,000,000…1,000,000; positive scrolls \
                        towards later posts. With `duration_ms`, instead of `trajectory`.
                        """,
                        -1_000_000...1_000_000, unit: "pt"),
                    .duration_ms: .number(
                        "Duration, in ms",
                        """
                        How long the drag takes, in milliseconds: more than 0 and at most 600,000. With \
                        `distance_pt`, instead of `trajectory`.
                        """,
                        above: 0, upTo: 600_000, unit: "ms"),
                    .trajectory: .array(
                        "Trajectory",
                        """
                        The finger's path: at least two `{t_ms, dy_pt}` points, the first the touch-down at `{0, \
                        0}`, times increasing. Instead of `distance_pt` and `duration_ms`.
                        """,
                        of: .object(trajectoryPointSchema),
                        first: .object(touchDownSchema, description: "The touch-down: `t_ms` 0 and `dy_pt` 0."),
                        minItems: 2),
                    .release: .choice(
                        "Release",
                        """
                        What happens when the finger lifts: `fling` decelerates from the finger's last velocity, \
                        `stop` stops before lifting (no deceleration).
                        """,
                        DragRelease.self, default: .fling),
                    .deceleration: deceleration,
                ])
        case .fling:
            step(
                action, "A flick that leaves the scroll view decelerating from `velocity_pt_s`",
                fields: [
                    .velocity_pt_s: .number(
                        "Velocity, in pt/s",
                        """
                        Release velocity, in points per second: non-zero, −100,000…100,000; positive scrolls \
                        towards later posts.
                        """,
                        -maximumFlingVelocity...maximumFlingVelocity, unit: "pt/s", required: true,
                        excludingZero: true),
                    .deceleration: deceleration,
                ])
        case .refresh:
            step(action, "The app refreshes the feed by itself (a tab re-tap, a timer)", fields: [:])
        case .new_posts:
            step(
                action,
                """
                `count` new posts appear on the server; with `delivery: push` they are also delivered to the app \
                as a live update
                """,
                fields: [
                    .count: .integer(
                        "Count, in posts", "New posts: a whole number 1…100,000.", 1...100_000, unit: "posts",
                        required: true),
                    .delivery: .choice(
                        "Delivery",
                        """
                        `push` delivers the posts to the app as a live update; `server` only puts them on the \
                        server, for the next refresh.
                        """,
                        Delivery.self, default: .push),
                ])
        case .tap_new_posts:
            step(action, "The reader taps the \"new posts\" indicator", fields: [:])
        case .scroll_to_top:
            step(action, "The reader taps the status bar: an animated scroll to the top", fields: [:])
        case .like:
            step(action, "The reader taps like on the first visible post", fields: [:])
        case .content_updates:
            step(
                action, "`count` posts on screen change on the server (like counts), pushed to the app",
                fields: [
                    .count: .integer(
                        "Count, in posts", "Posts that change: a whole number 1…100,000.", 1...100_000, unit: "posts",
                        required: true)
                ])
        case .rotate:
            step(
                action, "The device rotates or the window resizes to `width_pt` × `height_pt`",
                fields: [
                    .width_pt: .number(
                        "Width, in pt", "New width, in points, 100…5,000.", 100...5_000, unit: "pt", required: true),
                    .height_pt: .number(
                        "Height, in pt", "New height, in points, 100…5,000.", 100...5_000, unit: "pt", required: true),
                ])
        case .text_size:
            step(
                action, "The reader changes the Dynamic Type size to `scale`",
                fields: [
                    .scale: .number(
                        "Scale", "The text size relative to the default (1), 0.5…3.5.", 0.5...3.5, required: true)
                ])
        case .background:
            step(
                action, "The app goes to the background for `duration_s`, then returns",
                fields: [
                    .duration_s: .number(
                        "Duration, in seconds", "Time in the background, in seconds: more than 0 and at most 86,400.",
                        above: 0, upTo: maximumDurationSeconds, unit: "s", required: true)
                ])
        case .terminate:
            step(
                action, "The system terminates the app; the reader relaunches it after `relaunch_after_s`",
                fields: [
                    .relaunch_after_s: .number(
                        "Relaunch after, in seconds", "Time until the reader relaunches the app, in seconds, 0…86,400.",
                        0...maximumDurationSeconds, unit: "s", required: true)
                ])
        case .memory_warning:
            step(action, "The system sends a memory warning", fields: [:])
        case .scroll_to:
            step(
                action, "The content scrolls to an offset or a post, at once or animated",
                description:
                    """
                    The content scrolls to `offset_pt` points below the top of the content, or puts the post at \
                    `post_index` at the top of the readable area (or `into_post_pt` below its top), at once or \
                    `animated` (0.3 s), clamped to the content.
                    """,
                alternatives: [
                    FieldAlternative(requires: [Keys.offset_pt], forbids: [.post_index, .into_post_pt]),
                    FieldAlternative(requires: [Keys.post_index], forbids: [.offset_pt]),
                ],
                fields: [
                    .offset_pt: .number(
                        "Offset, in pt",
                        "Points below the top of the content, 0…100,000,000 (0 is the top). Instead of `post_index`.",
                        0...100_000_000, unit: "pt"),
                    .post_index: .integer(
                        "Post index",
                        """
                        The row to show at the top, 0 is the first: a whole number 0…1,000,000; past the last \
                        row, the last. Instead of `offset_pt`.
                        """,
                        0...maximumPostCount),
                    .into_post_pt: .number(
                        "Into the post, in pt",
                        """
                        With `post_index`: how far into the post the top of the readable area is, in points, \
                        −100,000…100,000 (negative: the post starts that far below it). Where a reader was within \
                        a post, to the point; explore's shrinker writes it.
                        """,
                        -100_000...100_000, unit: "pt", default: 0),
                    .animated: .boolean(
                        "Animated", "Whether the scroll animates over 0.3 s (`setContentOffset(_:animated:)`).",
                        default: false),
                ])
        case .pull:
            step(
                action, "The reader pulls past the top and holds, the refresh starting under the finger",
                description:
                    """
                    The reader pulls the content `distance_pt` past the top over `duration_ms` and holds it there \
                    for `hold_ms` before lifting the finger. A pull that reaches the engine's \
                    `refresh_trigger_pt` starts the refresh with the finger down, as UIRefreshControl does, so \
                    data can land under the held finger.
                    """,
                fields: [
                    .distance_pt: .number(
                        "Stretch, in pt",
                        """
                        How far past the top the content shows, after the rubber band, in points: more than 0 and \
                        at most 500.
                        """,
                        above: 0, upTo: maximumPullDistance, unit: "pt", required: true),
                    .duration_ms: .number(
                        "Pull time, in ms", "How long the pull takes, in milliseconds: more than 0 and at most 60,000.",
                        above: 0, upTo: 60_000, unit: "ms", required: true),
                    .hold_ms: .number(
                        "Hold, in ms",
                        "How long the finger then holds still before lifting, in milliseconds, 0…600,000.", 0...600_000,
                        unit: "ms", required: true),
                ])
        case .remove_posts:
            step(
                action, "Posts are deleted on the server, pushed to the app or found by its next refresh",
                description:
                    """
                    `count` posts the app shows are deleted on the server: at the `top` of the feed, \
                    `around_reader` (the reader's anchor among them) or at the `bottom` of what has loaded. With \
                    `delivery: push` the app is told at once; with `server` it finds out at its next refresh.
                    """,
                fields: [
                    .count: .integer(
                        "Count, in posts", "Posts deleted: a whole number 1…100,000; fewer if the app shows fewer.",
                        1...100_000, unit: "posts", required: true),
                    .where: .choice("Where", "`top`, `around_reader` or `bottom`.", RemovalPlace.self, required: true),
                    .delivery: .choice(
                        "Delivery",
                        "`push` tells the app at once; `server` only deletes them on the server, for the next refresh.",
                        Delivery.self, default: .push),
                ])
        }
    }

    /// An action's branch: `summary` says what it does in the list of
    /// actions, `description` (the summary when nil) in its own definition,
    /// which goes on to name its fields.
    private static func step(
        _ action: ScriptAction.Kind, _ summary: String, description: String? = nil,
        alternatives: [FieldAlternative] = [],
        fields: KeyValuePairs<Keys, SchemaField>
    ) -> Branches.Branch {
        var object = ObjectSchema(
            definition: "\(action.rawValue)_step", title: "`\(action.rawValue)` step", keys: Keys.self,
            isFragment: true,
            alternatives: alternatives, fields: fields)
        let names = object.fields.map { "`\($0.name)`" }
        let fieldList =
            names.isEmpty
            ? "No fields beyond `at_ms`, `action` and `repeat`." : "Fields: \(names.joined(separator: ", "))."
        object.description = "\(description ?? summary + ".") \(fieldList)"
        return Branches.Branch(value: action.rawValue, summary: summary, object: object)
    }
}
