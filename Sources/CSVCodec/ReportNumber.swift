import Foundation

/// Number formatting for every file and report FeedSim writes (CSV,
/// HTML, calibration text): fixed decimals, `.` as the separator,
/// never locale-dependent, so files are byte-identical across machines.
public enum ReportNumber {
    /// `value` with exactly `decimals` digits after the point.
    public static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let formatted = String(format: "%.\(decimals)f", value)
        return formatted == "-" + String(format: "%.\(decimals)f", 0.0) ? String(format: "%.\(decimals)f", 0.0) : formatted
    }

    /// Nanoseconds as milliseconds with three decimals.
    public static func milliseconds(_ nanoseconds: Int64) -> String {
        fixed(Double(nanoseconds) / 1_000_000, 3)
    }
}
