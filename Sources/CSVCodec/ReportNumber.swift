import CFixedNumber
import FoundationEssentials

/// Number formatting for every file and report FeedSim writes (CSV,
/// HTML, calibration text): fixed decimals, `.` as the separator,
/// never locale-dependent, so files are byte-identical across machines.
package enum ReportNumber {
    /// `value` with exactly `decimals` digits after the point (0…17), as
    /// printf's `%.*f` writes it, rounding the exact binary value; a value
    /// that rounds to zero has no sign.
    ///
    /// Written by `snprintf` into a buffer on the stack: `String(format:)`
    /// cost a third of a run that writes frames.csv, in formatting its
    /// arguments and building the format string.
    package static func fixed(_ value: Double, _ decimals: Int) -> String {
        guard value.isFinite else { return value.isNaN ? "nan" : (value > 0 ? "inf" : "-inf") }
        let decimals = Int32(min(max(decimals, 0), 17))
        // A double below 1e32 in magnitude, with 17 decimals, fits in 64 bytes.
        let small = withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer -> String? in
            let length = Int(feedsim_format_fixed(buffer.baseAddress!, 64, value, decimals))
            guard length < 64 else { return nil }
            return text(UnsafeBufferPointer(rebasing: buffer[..<length]))
        }
        if let small { return small }
        let length = Int(feedsim_format_fixed(nil, 0, value, decimals))
        var buffer = [CChar](repeating: 0, count: length + 1)
        _ = feedsim_format_fixed(&buffer, length + 1, value, decimals)
        return buffer.withUnsafeBufferPointer { text(UnsafeBufferPointer(rebasing: $0[..<length])) }
    }

    /// `value` with `digits` significant digits (1…17), as printf's `%.*g`
    /// writes it: trailing zeros dropped, and an exponent when the value is
    /// below 1e-4 or has more integer digits than `digits`.
    package static func significant(_ value: Double, _ digits: Int) -> String {
        let digits = Int32(min(max(digits, 1), 17))
        // `%.17g` of any double, exponent and sign included, fits in 32 bytes.
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 32) { buffer in
            let length = Int(feedsim_format_significant(buffer.baseAddress!, 32, value, digits))
            return String(
                decoding: UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(buffer)[..<min(length, 31)]),
                as: UTF8.self)
        }
    }

    /// The characters of `%.*f`'s output, without the sign of a zero.
    private static func text(_ characters: UnsafeBufferPointer<CChar>) -> String {
        let bytes = UnsafeRawBufferPointer(characters)
        let isNegativeZero =
            bytes.first == UInt8(ascii: "-")
            && bytes.dropFirst().allSatisfy { $0 == UInt8(ascii: "0") || $0 == UInt8(ascii: ".") }
        return String(
            decoding: isNegativeZero ? UnsafeRawBufferPointer(rebasing: bytes.dropFirst()) : bytes, as: UTF8.self)
    }

    /// Nanoseconds as milliseconds with three decimals.
    package static func milliseconds(_ nanoseconds: Int64) -> String {
        fixed(Double(nanoseconds) / 1_000_000, 3)
    }
}
