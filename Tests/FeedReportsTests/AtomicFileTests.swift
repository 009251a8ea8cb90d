import FeedReports
import FeedSimTestSupport
import Foundation
import Testing

/// `AtomicFile` and `StagedFiles`, which write every results file.
@Suite("Atomic files")
struct AtomicFileTests {
    @Test(
        "a file written over a longer one holds the new text alone, and no temporary file is left",
        arguments: [0, 1, 100_000])
    func replacesWholly(length: Int) throws {
        let folder = try ScratchFolder(prefix: "feedsim-atomic")
        defer { folder.remove() }
        let url = folder.appending("summary.csv")
        try AtomicFile.write(String(repeating: "x", count: 200_000), to: url)
        let text = String(repeating: "a,b\n", count: length / 4)
        try AtomicFile.write(text, to: url)
        #expect(try String(contentsOf: url, encoding: .utf8) == text)
        var staged = StagedFiles()
        try staged.stage(text + "c\n", to: url)
        try staged.commit()
        #expect(try String(contentsOf: url, encoding: .utf8) == text + "c\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder.url.path) == ["summary.csv"])
    }
}
