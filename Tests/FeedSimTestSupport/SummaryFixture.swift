import CSVCodec
import FeedReports

/// Hand-made `summary.csv` texts with the real column list: every column
/// gets a plausible default, and each row overrides what a test is about.
public enum SummaryFixture {
    public static let defaults: [String: String] = [
        "variant": "default", "refresh_hz": "60", "seed": "7", "duration_s": "30.000", "frames": "1000",
        "overrun_frames": "3", "dropped_frames": "3", "jank_frames": "0", "hitch_time_ms": "12.500",
        "hitch_ratio_ms_per_s": "0.417", "frame_work_p50_ms": "2.250", "frame_work_p90_ms": "3.000",
        "frame_work_p99_ms": "6.152", "frame_work_max_ms": "17.196", "drift_events": "2", "drift_max_pt": "0.50",
        "drift_total_pt": "0.75", "allocations": "100", "allocated_bytes": "16016", "peak_memory_mb": "120.5",
        "memory_warnings": "0", "jetsam_kills": "0", "network_requests": "4", "network_failures": "0",
        "viewmodel_hit_rate": "0.9000", "image_hit_rate": "0.7500", "trace_digest": "81fcec7f61c6cb0b",
    ]

    /// One row in `RunReports.summaryColumns` order.
    public static func row(
        _ scenario: String, variant: String = "default", hz: Int = 60, _ overrides: [String: String] = [:]
    ) -> [String] {
        RunReports.summaryColumns.map { column in
            switch column {
            case "scenario": return scenario
            case "variant": return variant
            case "refresh_hz": return String(hz)
            default: return overrides[column] ?? defaults[column] ?? "0"
            }
        }
    }

    /// The CSV text of `rows` under the real header.
    public static func text(_ rows: [[String]]) -> String {
        var table = CSVTable(columns: RunReports.summaryColumns)
        for row in rows { table.append(row) }
        return table.text
    }

    /// `rows` read back as a summary file named `name`.
    package static func file(_ rows: [[String]], name: String = "summary.csv") throws -> SummaryFile {
        try SummaryFile(text: text(rows), file: name)
    }
}
