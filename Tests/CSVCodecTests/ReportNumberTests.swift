import CSVCodec
import Foundation
import Testing

/// Every number FeedSim writes goes through `ReportNumber.fixed`: its text
/// is part of the CSV contract, so it must stay what printf's `%.*f` gives
/// (`String(format:)`, which it used to call), byte for byte.
@Suite struct ReportNumberTests {
    /// printf's text, with a zero's sign dropped: what `fixed` promises.
    static func printf(_ value: Double, _ decimals: Int) -> String {
        let text = String(format: "%.\(decimals)f", value)
        return text == "-" + String(format: "%.\(decimals)f", 0.0) ? String(format: "%.\(decimals)f", 0.0) : text
    }

    @Test("the text is printf's for halves, negative zeros, tiny and huge values and every decimal count")
    func edgeCases() {
        let values: [Double] = [
            0, -0.0, 0.125, 0.375, 2.5, -2.5, 1.0005, -0.0004, -0.0005, 0.0005, 1e-300, -1e-300,
            123_456_789.987_654_321,
            1e15, 1e17, 1e22, 1.7976931348623157e308, -1.7976931348623157e308, .leastNonzeroMagnitude, 0.1 + 0.2,
            16.666_666_7,
        ]
        for value in values {
            for decimals in 0...17 {
                #expect(
                    ReportNumber.fixed(value, decimals) == Self.printf(value, decimals),
                    "\(value) with \(decimals) decimals")
            }
        }
        #expect(ReportNumber.fixed(.nan, 3) == "nan")
        #expect(ReportNumber.fixed(-.infinity, 3) == "-inf")
        #expect(ReportNumber.fixed(-0.0001, 3) == "0.000")
    }

    @Test("the text is printf's for 200,000 values drawn over every magnitude a report writes")
    func drawnValues() {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        for _ in 0..<200_000 {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let mantissa = Double(state >> 11) / Double(1 << 53)
            let exponent = Int((state >> 3) % 24) - 8
            let sign: Double = state & 1 == 0 ? 1 : -1
            let value = sign * mantissa * pow(10, Double(exponent))
            let decimals = Int(state >> 60) % 7
            #expect(
                ReportNumber.fixed(value, decimals) == Self.printf(value, decimals),
                "\(value) with \(decimals) decimals")
        }
    }

    @Test("significant digits are printf's %.*g, which String(format:) gave")
    func significantDigits() {
        let values: [Double] = [
            0, -0.0, 1, 1.5, 100, 0.1 + 0.2, 12_345.6, 1_234.5, 0.000_123_4, 0.000_012_34, -2.718_281_8, 1e22, 9_999.5,
            .leastNonzeroMagnitude, 1.797_693_134_862_315_7e308,
        ]
        for value in values {
            for digits in [1, 4, 6, 17] {
                #expect(
                    ReportNumber.significant(value, digits) == String(format: "%.\(digits)g", value),
                    "\(value) to \(digits) digits")
            }
        }
        #expect(ReportNumber.significant(12_345.6, 4) == "1.235e+04")
        #expect(ReportNumber.significant(0.5, 4) == "0.5")
    }
}
