import FeedSimTestSupport
import Foundation
import Testing

/// `scripts/check-docs` on pages of its own: what it holds a quoted output
/// to, and what `--update` rewrites. The commands are `printf`s, so the
/// pages say exactly what is printed.
@Suite("The docs' check of quoted outputs")
struct DocsCheckTests {
    /// Runs scripts/check-docs on `page` (written to a scratch folder), with
    /// `options` before it; the outcome and the page's text afterwards.
    static func check(_ page: String, _ options: [String] = []) throws -> (outcome: ProcessOutcome, page: String) {
        let folder = try ScratchFolder(prefix: "feedsim-docs-check")
        defer { folder.remove() }
        try folder.write(page, to: "page.md")
        let script = FeedSimProcess.packageRoot.appendingPathComponent("scripts/check-docs")
        let outcome = try ChildProcess.run(
            ChildProcess.env,
            ["FEEDSIM_EXECUTABLE=\(try FeedSimProcess.executableURL().path)", "python3", script.path] + options + [
                folder.appending("page.md").path
            ],
            timeout: 120)
        return (outcome, try String(contentsOf: folder.appending("page.md"), encoding: .utf8))
    }

    static let fence = "```"

    /// A page whose command prints a header and three rows, and whose
    /// quote, with `marker` above it, is `quote`.
    static func page(quote: String, marker: String = "") -> String {
        """
        A table:

        \(fence)sh
        printf 'metric  value\\nhitch  12.202\\ndrift  0.000\\nallocations  263\\n'
        \(fence)

        \(marker)
        \(fence)text
        \(quote)
        \(fence)

        """
    }

    /// The repository's pages share /tmp/feedsim-docs, and the check empties
    /// it before each of them. A page of a test's, checked while CI checks
    /// the repository's pages, must leave it alone: emptying it once took
    /// an explore configuration from under docs/main-thread.md's command.
    @Test("Checking a page outside the repository leaves /tmp/feedsim-docs alone")
    func scratchPageKeepsSharedFolder() throws {
        let shared = URL(fileURLWithPath: "/tmp/feedsim-docs")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let marker = shared.appendingPathComponent("kept-\(getpid())-\(UInt64.random(in: 0...UInt64.max))")
        try Data("kept".utf8).write(to: marker)
        defer { try? FileManager.default.removeItem(at: marker) }
        let result = try Self.check(Self.page(quote: "metric  value\nhitch  12.202\ndrift  0.000\nallocations  263"))
        #expect(result.outcome.status == 0, "\(result.outcome)")
        #expect(FileManager.default.fileExists(atPath: marker.path), "the check emptied /tmp/feedsim-docs")
    }

    @Test("A quote that is what its command prints passes; one that is stale fails with a diff and how to re-quote")
    func staleQuoteFails() throws {
        let fresh = try Self.check(Self.page(quote: "metric  value\nhitch  12.202\ndrift  0.000\nallocations  263"))
        #expect(fresh.outcome.status == 0, "\(fresh.outcome)")
        #expect(fresh.outcome.stdout.contains("1 quoted outputs compared"), "\(fresh.outcome)")

        let stale = try Self.check(Self.page(quote: "metric  value\nhitch  12.519\ndrift  0.000\nallocations  263"))
        #expect(stale.outcome.status == 1, "\(stale.outcome)")
        #expect(stale.outcome.stderr.contains("the quote differs from what the command printed"), "\(stale.outcome)")
        #expect(
            stale.outcome.stderr.contains("-hitch  12.519") && stale.outcome.stderr.contains("+hitch  12.202"),
            "\(stale.outcome)")
        #expect(stale.outcome.stderr.contains("scripts/check-docs --update"), "\(stale.outcome)")
    }

    @Test("An abridged quote is held to the lines it keeps, in order, and nothing else")
    func abridgedQuote() throws {
        let marker = "<!-- abridged: the header and one row -->"
        let kept = try Self.check(Self.page(quote: "metric  value\ndrift  0.000", marker: marker))
        #expect(kept.outcome.status == 0, "\(kept.outcome)")

        let reordered = try Self.check(Self.page(quote: "drift  0.000\nmetric  value", marker: marker))
        #expect(reordered.outcome.status == 1, "\(reordered.outcome)")

        let stale = try Self.check(Self.page(quote: "metric  value\nhitch  12.519", marker: marker))
        #expect(stale.outcome.status == 1, "\(stale.outcome)")
        #expect(
            stale.outcome.stderr.contains(
                "hitch  12.519\n  is not printed (in this order); the nearest line printed:\n    hitch  12.202"),
            "\(stale.outcome)")

        let whole = try Self.check(Self.page(quote: "metric  value\ndrift  0.000"))
        #expect(whole.outcome.status == 1, "without the marker, a quote with lines left out is stale: \(whole.outcome)")
    }

    @Test(
        "--update rewrites a stale quote with what was printed, an abridged one line for line, and the page then passes"
    )
    func updateRequotes() throws {
        let whole = try Self.check(Self.page(quote: "metric  value\nhitch  12.519"), ["--update"])
        #expect(whole.outcome.status == 0, "\(whole.outcome)")
        #expect(whole.page == Self.page(quote: "metric  value\nhitch  12.202\ndrift  0.000\nallocations  263"))
        #expect(try Self.check(whole.page).outcome.status == 0)

        let marker = "<!-- abridged: the header and one row -->"
        let abridged = try Self.check(Self.page(quote: "metric  value\nhitch  12.519", marker: marker), ["--update"])
        #expect(abridged.outcome.status == 0, "\(abridged.outcome)")
        #expect(abridged.page == Self.page(quote: "metric  value\nhitch  12.202", marker: marker))
        #expect(try Self.check(abridged.page).outcome.status == 0)
    }

    @Test("A quote with no command above it must name one or say it is not output; output of runs the command it names")
    func quoteNeedsACommand() throws {
        let orphan = try Self.check("\(Self.fence)text\nUSAGE: something\n\(Self.fence)\n")
        #expect(orphan.outcome.status == 1, "\(orphan.outcome)")
        #expect(orphan.outcome.stderr.contains("quoted output with no command run above it"), "\(orphan.outcome)")

        let shape = try Self.check("<!-- not output: a shape -->\n\(Self.fence)text\nUSAGE: something\n\(Self.fence)\n")
        #expect(shape.outcome.status == 0, "\(shape.outcome)")

        let named = try Self.check(
            "<!-- output of: printf 'USAGE: something\\n' -->\n\(Self.fence)text\nUSAGE: something\n\(Self.fence)\n")
        #expect(named.outcome.status == 0, "\(named.outcome)")
    }
}
