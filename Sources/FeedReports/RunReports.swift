import FeedSimulator

/// The CSV files of a set of runs, with the columns DESIGN.md fixes.
public enum RunReports {
    public static let summaryColumns = [
        "scenario", "variant", "refresh_hz", "seed", "duration_s", "frames",
        "overrun_frames", "dropped_frames", "jank_frames", "hitch_time_ms",
        "hitch_ratio_ms_per_s", "frame_work_p50_ms", "frame_work_p90_ms",
        "frame_work_p99_ms", "frame_work_max_ms", "drift_events", "drift_max_pt",
        "drift_total_pt", "allocations", "allocated_bytes", "peak_memory_mb",
        "memory_warnings", "jetsam_kills", "network_requests", "network_failures",
        "viewmodel_hit_rate", "image_hit_rate", "trace_digest",
    ]

    public static let frameColumns = [
        "scenario", "variant", "refresh_hz", "frame", "time_ms", "work_ms",
        "budget_ms", "overrun", "dropped", "content_offset_pt", "first_visible",
        "last_visible", "allocations",
    ]

    public static let driftColumns = [
        "scenario", "variant", "refresh_hz", "time_ms", "cause", "anchor_id",
        "before_y_pt", "after_y_pt", "drift_pt",
    ]

    /// One row per run.
    public static func summary(_ results: [RunResult]) -> CSVTable {
        var table = CSVTable(columns: summaryColumns)
        for r in results { table.append(summaryRow(r)) }
        return table
    }

    /// One row per rendered frame of every run that kept its frames.
    public static func frames(_ results: [RunResult]) -> CSVTable {
        var table = CSVTable(columns: frameColumns)
        for r in results {
            for row in frameRows(r) { table.append(row) }
        }
        return table
    }

    /// One row per drift event.
    public static func drift(_ results: [RunResult]) -> CSVTable {
        var table = CSVTable(columns: driftColumns)
        for r in results {
            for row in driftRows(r) { table.append(row) }
        }
        return table
    }

    /// The run's summary.csv row.
    public static func summaryRow(_ r: RunResult) -> [String] {
            let f = r.frameSummary
            return [
                r.scenario, r.variant, String(r.refreshHz), String(r.seed),
                ReportNumber.fixed(Double(r.duration) / 1e9, 3),
                String(f.frames), String(f.overrunFrames), String(f.droppedFrames), String(f.jankFrames),
                ReportNumber.milliseconds(f.hitchTime),
                ReportNumber.fixed(f.hitchRatioMsPerS, 3),
                ReportNumber.milliseconds(f.workP50), ReportNumber.milliseconds(f.workP90),
                ReportNumber.milliseconds(f.workP99), ReportNumber.milliseconds(f.workMax),
                String(r.driftEvents),
                ReportNumber.fixed(r.driftMax, 2),
                ReportNumber.fixed(r.driftTotal, 2),
                String(r.allocations.requests), String(r.allocations.bytes),
                ReportNumber.fixed(r.peakMemoryMB, 1),
                String(r.memoryWarnings), String(r.jetsamKills),
                String(r.networkRequests), String(r.networkFailures),
                ReportNumber.fixed(r.viewModelHitRate, 4), ReportNumber.fixed(r.imageHitRate, 4),
                r.traceDigest.hex,
            ]
    }

    /// The run's frames.csv rows.
    public static func frameRows(_ r: RunResult) -> [[String]] {
            r.frames.map { frame in [
                    r.scenario, r.variant, String(r.refreshHz), String(frame.frame),
                    ReportNumber.milliseconds(frame.time), ReportNumber.milliseconds(frame.work),
                    ReportNumber.milliseconds(frame.budget), frame.isOverrun ? "1" : "0", String(frame.dropped),
                    ReportNumber.fixed(frame.contentOffset, 2),
                    frame.visible.isEmpty ? "-1" : String(frame.visible.lowerBound),
                    frame.visible.isEmpty ? "-1" : String(frame.visible.upperBound - 1),
                    String(frame.allocations),
                ]
            }
    }

    /// The run's drift.csv rows.
    public static func driftRows(_ r: RunResult) -> [[String]] {
            r.drift.map { event in [
                    r.scenario, r.variant, String(r.refreshHz), ReportNumber.milliseconds(event.time), event.cause,
                    String(event.anchorID),
                    ReportNumber.fixed(event.beforeY, 2),
                    event.afterY.map { ReportNumber.fixed($0, 2) } ?? "",
                    event.drift.map { ReportNumber.fixed($0, 2) } ?? "lost",
                ]
            }
    }
}
