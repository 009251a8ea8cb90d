import CSVCodec
import FeedEngine
import FeedReports
import FeedSimulator

/// What every explored run must satisfy.
package enum ExploreProperty: String, Codable, Sendable, CaseIterable, Comparable {
    /// After every change its strategy claims (`PositionKeeper.heldCauses`),
    /// the anchor moved at most 1 pt beyond what the content's edges forced,
    /// unless it was removed; a refresh landing at the pull is not judged
    /// under a strategy that restores the pull's anchor there.
    case drift
    /// A post its strategy held through a claimed change stays where the
    /// change left it, on a screen at rest, until the reader moves it,
    /// another change comes or an edge forces it (`RunResult.holdSlips`).
    case held
    /// The engine's invariants (`FeedEngine.invariantViolations()`) and the
    /// scroll view's held at every commit and frame.
    case invariant
    /// Every precomputed height the layout strategy applied equals the main
    /// thread's measure of the same content at the same width and text size
    /// (`OffMainSummary.heightMismatches`).
    case precomputedHeight = "precomputed_height"
    /// The run finished inside its limits (events, simulated time, queue).
    case limit
    /// The run, made twice, gave the same result.
    case determinism

    package static func < (a: Self, b: Self) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// A property one run broke, and where.
package struct Violation: Codable, Sendable, Equatable {
    package var property: ExploreProperty
    /// The session (its scenario name).
    package var session: String
    /// The strategy the run used (its variant).
    package var strategy: String
    /// For drift, the change's cause; empty otherwise.
    package var cause: String
    /// The time of the frame where it broke, in simulated nanoseconds
    /// (frames.csv's `time_ms` names the same frame); for a limit, when the
    /// run stopped.
    package var timeNs: Int64
    package var detail: String
    /// How far past what the property allows the run went: for drift, the
    /// points the anchor moved beyond what the edges forced; 0 for the
    /// properties that hold or break without a size.
    package var excessPt: Double

    package init(
        property: ExploreProperty, session: String, strategy: String, cause: String = "", timeNs: Int64, detail: String,
        excessPt: Double = 0
    ) {
        self.property = property
        self.session = session
        self.strategy = strategy
        self.cause = cause
        self.timeNs = timeNs
        self.detail = detail
        self.excessPt = excessPt
    }

    /// What a shrunk session must still break to count as the same failure:
    /// the property, the strategy and, for drift, the cause.
    package var identity: Identity { Identity(property: property, strategy: strategy, cause: cause) }

    package struct Identity: Codable, Sendable, Hashable, Comparable {
        package var property: ExploreProperty
        package var strategy: String
        package var cause: String

        package init(property: ExploreProperty, strategy: String, cause: String) {
            self.property = property
            self.strategy = strategy
            self.cause = cause
        }

        package static func < (a: Self, b: Self) -> Bool {
            (a.property, a.strategy, a.cause) < (b.property, b.strategy, b.cause)
        }

        /// A file-name-safe label: `drift-anchor-image_size`.
        package var label: String {
            ([property.rawValue, strategy] + (cause.isEmpty ? [] : [cause])).joined(separator: "-")
        }
    }

    /// One line for a person: what broke, where and when.
    package var sentence: String {
        """
        \(session) under \(strategy): \(property.rawValue)\(cause.isEmpty ? "" : " (\(cause))") at \
        \(ReportNumber.milliseconds(timeNs)) ms: \(detail)
        """
    }
}

private func points(_ value: Double) -> String { ReportNumber.fixed(value, 2) }

extension Violation {
    /// The drift property on one run: every record of a cause the strategy
    /// holds, where the anchor survived and moved more than 1 pt beyond
    /// what the edges forced. A refresh that landed at the pull
    /// (`DriftRecord.atPull`) is left out under a strategy that restores
    /// the pull's anchor there, which moves the reader on purpose.
    /// A violation names the run's variant: the strategy's name, or
    /// `<strategy>-<policy>` when explore also varies prefetch policies.
    static func drift(in result: RunResult, strategy: PositionStrategy) -> [Violation] {
        result.drift.compactMap { record in
            guard let cause = ChangeCause(rawValue: record.cause), strategy.heldCauses.contains(cause),
                record.isMissedHold, !(record.atPull && strategy.usesPullAnchor),
                let drift = record.drift
            else { return nil }
            return Violation(
                property: .drift, session: result.scenario, strategy: result.variant, cause: record.cause,
                timeNs: record.time,
                detail:
                    """
                    post \(record.anchorID) moved \(points(drift)) pt (from y \(points(record.beforeY)) to \
                    \(points(record.afterY ?? 0)) pt)
                    """
                        + (record.clampedBy > 0 ? "; the edges forced \(points(record.clampedBy)) pt of it" : ""),
                excessPt: abs(drift) - record.clampedBy)
        }
    }

    /// The held property: every post left in place by a change its
    /// strategy holds that later moved on a resting screen with nothing to
    /// move it.
    static func held(in result: RunResult, strategy: PositionStrategy) -> [Violation] {
        result.holdSlips.compactMap { slip in
            guard let cause = ChangeCause(rawValue: slip.cause), strategy.heldCauses.contains(cause) else { return nil }
            return Violation(
                property: .held, session: result.scenario, strategy: result.variant, cause: slip.cause,
                timeNs: slip.time,
                detail: "post \(slip.anchorID), held at y \(points(slip.heldY)) pt through the change at "
                    + """
                    \(ReportNumber.milliseconds(slip.heldSince)) ms, moved to y \(points(slip.y)) pt with the \
                    screen at rest
                    """,
                excessPt: abs(slip.y - slip.heldY))
        }
    }

    /// The precomputed-height property: heights computed off the main
    /// thread that differ from the main thread's measure, as one violation
    /// naming the first and how many.
    static func precomputedHeights(in result: RunResult) -> [Violation] {
        let summary = result.offMain
        guard summary.heightMismatches > 0 else { return [] }
        return [
            Violation(
                property: .precomputedHeight, session: result.scenario, strategy: result.variant, timeNs: 0,
                detail: (summary.firstMismatch ?? "a precomputed height differs from measuring the row")
                    + " (\(summary.heightMismatches) of \(summary.heightsApplied) precomputed heights applied)")
        ]
    }

    /// The invariant property: what the run found broken.
    static func invariants(in result: RunResult, strategy: PositionStrategy) -> [Violation] {
        result.invariantFailures.map {
            Violation(
                property: .invariant, session: result.scenario, strategy: result.variant, timeNs: $0.time,
                detail: "\($0.message) (frame \($0.frame))")
        }
    }
}
