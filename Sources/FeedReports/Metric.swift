import CSVCodec
import FeedSimulator

/// One column of `summary.csv`: what it measures, in which unit, which way
/// is better, how it is written and how reports show it. `Metric.all` is the
/// only list of metrics: the summary's columns, the baseline check's
/// directions, `compare`'s defaults, the text and HTML tables and the
/// README's column table all come from it.
package struct Metric: Sendable, Identifiable {
    /// The column name.
    package let name: String
    /// The unit, as the README's table writes it.
    package let unit: String
    /// Which way the metric gets better.
    package let direction: MetricDirection
    /// A short heading for tables.
    package let heading: String
    /// What the column holds, as the README defines it.
    package let definition: String
    /// Where its definition comes from.
    package let source: String
    /// The smallest difference between two variants' means worth acting
    /// on, and why: below it a paired comparison calls no variant better
    /// or worse, and inside it both ways it can call them equivalent
    /// (`PairedVerdict`). `compare` and `explore` take others as
    /// tolerances (`--tolerance metric=value`).
    package let smallestDifference: SmallestDifference
    /// Whether it is compared and charted as text (`trace_digest`).
    package let isText: Bool
    /// Whether the HTML report's summary table shows it.
    package let inReportTable: Bool
    /// The chart title when the HTML report charts it per scenario.
    package let chartTitle: String?
    /// Whether `feedsim compare` shows it when no metric is named.
    package let comparedByDefault: Bool
    /// Whether the table `feedsim run` prints shows it.
    package let inRunTable: Bool
    /// The release that added the column, when it came after 2.0.0: a
    /// summary.csv written before then lacks it and is still read.
    package let addedIn: String?
    /// The run's value as the file writes it.
    let field: @Sendable (RunResult) -> String

    package var id: String { name }

    init(
        _ name: String, unit: String, _ direction: MetricDirection, heading: String, definition: String, source: String,
        matters smallestDifference: SmallestDifference, isText: Bool = false, inReportTable: Bool = false,
        chartTitle: String? = nil, comparedByDefault: Bool = false,
        inRunTable: Bool = false, addedIn: String? = nil, field: @escaping @Sendable (RunResult) -> String
    ) {
        self.name = name
        self.unit = unit
        self.direction = direction
        self.heading = heading
        self.definition = definition
        self.source = source
        self.smallestDifference = smallestDifference
        self.isText = isText
        self.inReportTable = inReportTable
        self.chartTitle = chartTitle
        self.comparedByDefault = comparedByDefault
        self.inRunTable = inRunTable
        self.addedIn = addedIn
        self.field = field
    }

    /// The run's value of this metric as `summary.csv` writes it.
    package func value(of run: RunResult) -> String { field(run) }

    /// The metric named `name`, if there is one.
    package static func named(_ name: String) -> Metric? { all.first { $0.name == name } }

    /// Every metric, in `summary.csv` column order.
    package static let all: [Metric] =
        [
            Metric(
                "duration_s", unit: "s", .neutral, heading: "s", definition: "simulated time covered",
                source: "the scenario",
                matters: SmallestDifference(.absolute(0.001), "one millisecond of simulated time"),
                field: { ReportNumber.fixed(Double($0.duration) / 1e9, 3) }),
            Metric(
                "frames", unit: "count", .neutral, heading: "frames",
                definition: "vsync intervals in which something rendered",
                source: "Flutter TimelineSummary, Macrobenchmark",
                matters: SmallestDifference(.absolute(1), "one frame a run"),
                inReportTable: true, inRunTable: true, field: { String($0.frameSummary.frames) }),
            Metric(
                "overrun_frames", unit: "count", .lowerIsBetter, heading: "overrun",
                definition: "frames whose work > budget (16.667 ms at 60 Hz, 8.333 ms at 120 Hz)",
                source: "Macrobenchmark frameOverrunMs",
                matters: SmallestDifference(.absolute(1), "one frame a run: the unit a reader sees"),
                inReportTable: true, chartTitle: "overrun frames (lower is better)", comparedByDefault: true,
                inRunTable: true, field: { String($0.frameSummary.overrunFrames) }),
            Metric(
                "dropped_frames", unit: "count", .lowerIsBetter, heading: "dropped",
                definition: "Σ `ceil(work/budget) − 1`: vsyncs missed", source: "Android FrameMetrics",
                matters: SmallestDifference(.absolute(1), "one missed vsync a run"),
                inReportTable: true, inRunTable: true, field: { String($0.frameSummary.droppedFrames) }),
            Metric(
                "jank_frames", unit: "count", .lowerIsBetter, heading: "jank",
                definition: "frames whose work > 2 × budget", source: "JankStats",
                matters: SmallestDifference(.absolute(1), "one frame a run: the unit a reader sees"),
                inReportTable: true, field: { String($0.frameSummary.jankFrames) }),
            Metric(
                "hitch_time_ms", unit: "ms", .lowerIsBetter, heading: "hitch ms",
                definition:
                    """
                    Σ how much later than expected frames reached the screen: expected two vsync intervals after \
                    their start (commit, then render; three while the render loop has fallen back to triple buffering)
                    """,
                source: "Apple, \"Explore UI animation hitches and the render loop\" (WWDC21)",
                matters: SmallestDifference(.absolute(8.333), "one 120 Hz frame budget a run"),
                field: { ReportNumber.milliseconds($0.frameSummary.hitchTime) }),
            Metric(
                "hitch_ratio_ms_per_s", unit: "ms/s", .lowerIsBetter, heading: "hitch ms/s",
                definition:
                    """
                    hitch time per second of rendering, rendering time being Σ `ceil(work/budget)` × budget (Apple: \
                    good < 5, warning 5–10, critical > 10)
                    """,
                source: "Apple, \"Explore UI animation hitches and the render loop\" (WWDC21)",
                matters: SmallestDifference(
                    .absolute(0.5), "a tenth of the 5 ms/s width of Apple's bands (good < 5, warning 5–10)"),
                inReportTable: true, chartTitle: "hitch ratio, ms/s (lower is better)", comparedByDefault: true,
                inRunTable: true, field: { ReportNumber.fixed($0.frameSummary.hitchRatioMsPerS, 3) }),
            Metric(
                "frame_work_p50_ms", unit: "ms", .lowerIsBetter, heading: "p50 ms",
                definition: "nearest-rank median of per-frame main-thread work", source: "Flutter TimelineSummary",
                matters: SmallestDifference(.absolute(0.5), "half a millisecond: 6% of a 120 Hz frame's budget"),
                inReportTable: true, field: { ReportNumber.milliseconds($0.frameSummary.workP50) }),
            Metric(
                "frame_work_p90_ms", unit: "ms", .lowerIsBetter, heading: "p90 ms",
                definition: "nearest-rank 90th percentile of per-frame main-thread work",
                source: "Flutter TimelineSummary",
                matters: SmallestDifference(.absolute(0.5), "half a millisecond: 6% of a 120 Hz frame's budget"),
                field: { ReportNumber.milliseconds($0.frameSummary.workP90) }),
            Metric(
                "frame_work_p99_ms", unit: "ms", .lowerIsBetter, heading: "p99 ms",
                definition: "nearest-rank 99th percentile of per-frame main-thread work",
                source: "Flutter TimelineSummary",
                matters: SmallestDifference(.absolute(0.5), "half a millisecond: 6% of a 120 Hz frame's budget"),
                inReportTable: true, inRunTable: true, field: { ReportNumber.milliseconds($0.frameSummary.workP99) }),
            Metric(
                "frame_work_max_ms", unit: "ms", .lowerIsBetter, heading: "max ms",
                definition: "largest per-frame main-thread work", source: "Flutter TimelineSummary",
                matters: SmallestDifference(.absolute(0.5), "half a millisecond: 6% of a 120 Hz frame's budget"),
                inReportTable: true, field: { ReportNumber.milliseconds($0.frameSummary.workMax) }),
            Metric(
                "drift_events", unit: "count", .lowerIsBetter, heading: "drift events",
                definition: "drift records that moved the anchor by ≥ 1 pt (Catbird's threshold) or lost it",
                source: "Catbird's scroll-position verification",
                matters: SmallestDifference(.absolute(1), "one drift event a run"),
                inReportTable: true, field: { String($0.driftEvents) }),
            Metric(
                "drift_max_pt", unit: "pt", .lowerIsBetter, heading: "drift max pt",
                definition: "largest \\|drift\\| of an anchor that survived", source: "this project (drift.csv)",
                matters: SmallestDifference(.absolute(1), "Catbird's 1 pt scroll-position verification threshold"),
                inReportTable: true, chartTitle: "largest drift, pt (lower is better)", comparedByDefault: true,
                inRunTable: true, field: { ReportNumber.fixed($0.driftMax, 2) }),
            Metric(
                "drift_total_pt", unit: "pt", .lowerIsBetter, heading: "drift total pt",
                definition: "Σ \\|drift\\|", source: "this project (drift.csv)",
                matters: SmallestDifference(.absolute(1), "Catbird's 1 pt scroll-position verification threshold"),
                field: { ReportNumber.fixed($0.driftTotal, 2) }),
            Metric(
                "allocations", unit: "count", .lowerIsBetter, heading: "allocations",
                definition:
                    """
                    engine allocation requests that returned memory (malloc, calloc, realloc, aligned), simulator \
                    excluded
                    """,
                source: "FeedSim's C allocation functions, in front of jemalloc",
                matters: SmallestDifference(
                    .relative(percent: 5),
                    "5% of A's mean, the allocation tolerance check's documentation gives as its example"),
                inReportTable: true, chartTitle: "engine allocations (lower is better)", comparedByDefault: true,
                inRunTable: true, field: { $0.allocations.map { String($0.requests) } ?? "" }),
            Metric(
                "allocated_bytes", unit: "bytes", .lowerIsBetter, heading: "allocated bytes",
                definition: "bytes the engine allocated", source: "jemalloc `thread.allocated`",
                matters: SmallestDifference(
                    .relative(percent: 5),
                    "5% of A's mean, the allocation tolerance check's documentation gives as its example"),
                field: { $0.allocations.map { String($0.bytes) } ?? "" }),
            Metric(
                "peak_memory_mb", unit: "MiB", .lowerIsBetter, heading: "peak MB",
                definition: "peak modelled footprint", source: "the memory model",
                matters: SmallestDifference(.absolute(1), "one MiB of modelled footprint"),
                inReportTable: true, field: { ReportNumber.fixed($0.peakMemoryMB, 1) }),
            Metric(
                "memory_warnings", unit: "count", .lowerIsBetter, heading: "warnings",
                definition: "memory warnings delivered (system and scripted)", source: "the memory model",
                matters: SmallestDifference(.absolute(1), "one warning a run"),
                field: { String($0.memoryWarnings) }),
            Metric(
                "jetsam_kills", unit: "count", .lowerIsBetter, heading: "kills",
                definition: "kills for exceeding the memory limit", source: "the memory model",
                matters: SmallestDifference(.absolute(1), "one kill a run"),
                field: { String($0.jetsamKills) }),
            Metric(
                "network_requests", unit: "count", .neutral, heading: "requests",
                definition: "API requests made (a retried request counts once; images not included)",
                source: "the network model",
                matters: SmallestDifference(.absolute(1), "one request a run"),
                field: { String($0.networkRequests) }),
            Metric(
                "network_failures", unit: "count", .lowerIsBetter, heading: "failures",
                definition: "API requests that failed after every retry", source: "the network model",
                matters: SmallestDifference(.absolute(1), "one failed request a run"),
                field: { String($0.networkFailures) }),
            Metric(
                "viewmodel_hit_rate", unit: "0…1", .higherIsBetter, heading: "VM hit rate",
                definition: "view-model cache hits / lookups", source: "the engine's LRU cache",
                matters: SmallestDifference(.absolute(0.01), "one percentage point"),
                field: { ReportNumber.fixed($0.viewModelHitRate, 4) }),
            Metric(
                "image_hit_rate", unit: "0…1", .higherIsBetter, heading: "image hit rate",
                definition: "image requests served from memory or disk / requests", source: "the image pipeline",
                matters: SmallestDifference(.absolute(0.01), "one percentage point"),
                field: { ReportNumber.fixed($0.imageHitRate, 4) }),
            Metric(
                "trace_digest", unit: "hex", .neutral, heading: "trace digest",
                definition: "64-bit FNV-1a hash of the run's event stream: equal digests, identical runs",
                source: "this project",
                matters: SmallestDifference(.absolute(0), "a text column: never averaged"),
                isText: true, inReportTable: true, field: { $0.traceDigest.hex }),
            // Added after the columns of the first contract, so that scripts
            // reading columns by position keep working.
            Metric(
                "commit_hitches", unit: "count", .lowerIsBetter, heading: "commit hitches",
                definition: "late frames whose commit (the app's main-thread work) overran its vsync interval",
                source: "Instruments, Hitches: commit hitch",
                matters: SmallestDifference(.absolute(1), "one frame a run: the unit a reader sees"),
                inReportTable: true,
                field: { String($0.frameSummary.commitHitches) }),
            Metric(
                "render_hitches", unit: "count", .lowerIsBetter, heading: "render hitches",
                definition: "late frames whose commit was in time but the render server's prepare and execute were not",
                source: "Instruments, Hitches: render hitch",
                matters: SmallestDifference(.absolute(1), "one frame a run: the unit a reader sees"),
                inReportTable: true,
                field: { String($0.frameSummary.renderHitches) }),
            Metric(
                "frame_latency_p50_ms", unit: "ms", .lowerIsBetter, heading: "latency p50 ms",
                definition:
                    """
                    nearest-rank median of frame latency, from the vsync a frame started at to the vsync it was \
                    presented at
                    """,
                source: "Android FrameTimeline (expected vs actual present time)",
                matters: SmallestDifference(.absolute(8.333), "one 120 Hz vsync interval"),
                field: { ReportNumber.milliseconds($0.frameSummary.latencyP50) }),
            Metric(
                "frame_latency_p99_ms", unit: "ms", .lowerIsBetter, heading: "latency p99 ms",
                definition: "nearest-rank 99th percentile of frame latency",
                source: "Android FrameTimeline (expected vs actual present time)",
                matters: SmallestDifference(.absolute(8.333), "one 120 Hz vsync interval"),
                field: { ReportNumber.milliseconds($0.frameSummary.latencyP99) }),
            Metric(
                "image_wait_p50_ms", unit: "ms", .lowerIsBetter, heading: "image wait p50 ms",
                definition:
                    """
                    nearest-rank median, over the posts with media a frame showed, of the time from the first frame \
                    showing the post to the first showing its image (0 when it was in memory); a wait still open when \
                    the app leaves the screen or the run ends counts as the time waited so far
                    """,
                source: "this project (time to first image on screen)",
                matters: SmallestDifference(.absolute(16.667), "one 60 Hz frame"),
                field: { ReportNumber.milliseconds($0.imageWait.p50) }),
            Metric(
                "image_wait_p95_ms", unit: "ms", .lowerIsBetter, heading: "image wait p95 ms",
                definition: "nearest-rank 95th percentile of the same waits",
                source: "this project (time to first image on screen)",
                matters: SmallestDifference(.absolute(16.667), "one 60 Hz frame"),
                field: { ReportNumber.milliseconds($0.imageWait.p95) }),
        ] + Metric.mainThreadBudget

    /// The columns of where layout work runs (docs/main-thread.md), added in 2.1.0.
    static let mainThreadBudget: [Metric] = [
        Metric(
            "blank_cell_frames", unit: "count", .lowerIsBetter, heading: "blank-cell frames",
            definition:
                "frames that showed at least one cell without its contents (a placeholder, under `async_display`)",
            source: "Texture's placeholders (docs/main-thread.md)",
            matters: SmallestDifference(.absolute(1), "one frame a run: the unit a reader sees"),
            addedIn: "2.1.0",
            field: { String($0.offMain.blankCellFrames) }),
        Metric(
            "main_thread_ms", unit: "ms", .lowerIsBetter, heading: "main ms",
            definition: "Σ of every frame's main-thread work (its commit)", source: "the device's cost model",
            matters: SmallestDifference(.absolute(16.667), "one 60 Hz frame budget a run"),
            addedIn: "2.1.0", field: { ReportNumber.milliseconds($0.frameSummary.mainThreadTime) }),
        Metric(
            "work_moved_ms", unit: "ms", .neutral, heading: "moved ms",
            definition:
                "Σ of the background jobs' cost on the main thread's core: the work the layout strategy moved off it",
            source: "the device's cost model",
            matters: SmallestDifference(.absolute(16.667), "one 60 Hz frame budget a run"),
            addedIn: "2.1.0", field: { ReportNumber.fixed($0.offMain.movedWork / 1e6, 3) }),
        Metric(
            "background_busy_ms", unit: "ms", .lowerIsBetter, heading: "background ms",
            definition: "Σ of the background jobs' run time on the device's background cores",
            source: "the device's background cores (`background` in its profile)",
            matters: SmallestDifference(.absolute(16.667), "one 60 Hz frame budget a run"),
            addedIn: "2.1.0", field: { ReportNumber.milliseconds($0.offMain.busy) }),
        Metric(
            "background_wait_p99_ms", unit: "ms", .lowerIsBetter, heading: "queue wait p99 ms",
            definition: "nearest-rank 99th percentile of a background job's wait for a core (0 without jobs)",
            source: "the device's background cores (`background` in its profile)",
            matters: SmallestDifference(.absolute(8.333), "one 120 Hz vsync interval"),
            addedIn: "2.1.0", field: { ReportNumber.milliseconds($0.offMain.waitP99) }),
        Metric(
            "cpu_ms", unit: "ms", .lowerIsBetter, heading: "CPU ms",
            definition:
                "`main_thread_ms` + `background_busy_ms`: the app's CPU time, the energy question's proxy "
                + "(the render server, another process, not included)",
            source: "the device's cost model and background cores",
            matters: SmallestDifference(.absolute(16.667), "one 60 Hz frame budget a run"),
            addedIn: "2.1.0",
            field: { ReportNumber.milliseconds($0.frameSummary.mainThreadTime + $0.offMain.busy) }),
    ]

    /// The README's table of these columns, one row per metric.
    package static var markdownTable: String {
        var lines = [
            "| column | unit | better | definition | source | smallest difference that matters |",
            "|---|---|---|---|---|---|",
        ]
        for metric in all {
            let better =
                switch metric.direction {
                case .lowerIsBetter: "lower"
                case .higherIsBetter: "higher"
                case .neutral: "—"
                }
            let matters =
                metric.isText ? "—" : "\(metric.smallestDifference.amount.text) (\(metric.smallestDifference.reason))"
            lines.append(
                """
                | `\(metric.name)` | \(metric.unit) | \(better) | \(metric.definition) | \(metric.source) | \
                \(matters) |
                """
            )
        }
        return lines.joined(separator: "\n")
    }
}

/// The smallest difference in a metric worth acting on, with the reason it
/// is that size.
package struct SmallestDifference: Sendable {
    /// The size: in the metric's unit, or a percentage of the compared-with
    /// variant's mean.
    package let amount: Tolerance.Amount
    /// Why that size: a unit a reader sees, a published threshold.
    package let reason: String

    init(_ amount: Tolerance.Amount, _ reason: String) {
        self.amount = amount
        self.reason = reason
    }

    /// The smallest difference of `metric`: its `Metric`'s, or one frame,
    /// event or point for a column no `Metric` names (explore's
    /// `violations`).
    package static func of(_ metric: String) -> Tolerance.Amount {
        Metric.named(metric)?.smallestDifference.amount ?? .absolute(1)
    }
}

extension Tolerance.Amount {
    /// As a tolerance file writes it: `0.5`, `5%`.
    package var text: String { Tolerance(amount: self).description }
}
