import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// `feedsim check --junit`'s file, as a JUnit reader from PyPI reads it.
@Suite("JUnit report")
struct JUnitReportTests {
    @Test(
        "Names with XML's special characters reach a JUnit reader as written; characters XML cannot hold become U+FFFD")
    func junitEscaping() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let odd = "a<b>&\"c\"'d"
        let baseline = try SummaryFixture.file([SummaryFixture.row(odd, variant: "v&w"), SummaryFixture.row("plain")])
        let current = try SummaryFixture.file([
            SummaryFixture.row(odd, variant: "v&w", ["overrun_frames": "9"]), SummaryFixture.row("plain"),
        ])
        let xml = BaselineCheck.compare(baseline: baseline, current: current).junitXML
        try folder.write(xml, to: "check.xml")
        let junit = try JUnitReading.read(folder.appending("check.xml"))
        #expect(junit.cases.map(\.classname) == [odd, "plain"])
        #expect(junit.cases.first?.name == "v&w @ 60 Hz")
        #expect(junit.failed.count == 1)
        #expect(
            junit.failed.first?.results.first?.message?.hasPrefix("\(odd) / v&w / 60 Hz: overrun_frames regression")
                == true)
        // Summary files refuse control characters; the writer would not pass them on either.
        #expect(JUnitText.escaped("v\u{1}w\u{FFFE}\tx") == "v\u{FFFD}w\u{FFFD}\tx")
    }
}
