import FeedSimTestSupport
import Foundation
import Testing

/// `feedsim import timeline` run as a user runs it, on the bundled samples.
@Suite("feedsim import timeline")
struct ImportTimelineTests {
    static let samples = FeedSimProcess.packageRoot.appendingPathComponent("docs/examples/your-app")

    @Test("the sample timeline imports to the same bytes twice with the same salt file, keeping no input string")
    func sampleRepeatable() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var outputs: [Data] = []
        for name in ["a.json", "b.json"] {
            let outcome = try FeedSimProcess.run(
                ["import", "timeline", "timeline", "--salt-file", "sample.salt", "--out", folder.appending(name).path],
                in: Self.samples)
            #expect(outcome.status == 0, "\(outcome)")
            #expect(outcome.stdout.contains("posts: 11 in 2 pages (6, 5)"))
            #expect(outcome.stdout.contains("unknown embed type app.sample.embed.poll#view: 1"))
            outputs.append(try Data(contentsOf: folder.appending(name)))
        }
        #expect(outputs[0] == outputs[1])
        let text = String(decoding: outputs[0], as: UTF8.self)
        for leak in ["did:plc:", "sample.test", "at://", "sample-cursor", "Sample Alice", "sample thread", "https://"] {
            #expect(!text.contains(leak), "\(leak) leaked")
        }
    }

    @Test("a malformed page exits 65 naming the file and JSON path, and leaves no output")
    func malformed() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(#"{"feed": [{"post": {"uri": "at://x", "author": {"did": 7}}}]}"#, to: "bad.json")
        let outcome = try FeedSimProcess.run(["import", "timeline", "bad.json", "--out", "feed.json"], in: folder.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("bad.json: $.feed[0].post.author.did: expected a string, found a number"))
        #expect(folder.entries(in: ".") == ["bad.json"])
    }

    @Test("a salt file too short exits 65 naming it")
    func shortSalt() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write("short", to: "salt")
        let outcome = try FeedSimProcess.run(
            ["import", "timeline", Self.samples.appendingPathComponent("posts.jsonl").path, "--salt-file", "salt",
             "--out", "feed.json"],
            in: folder.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("salt: expected a salt of at least 16 bytes, found 5"))
        #expect(folder.entries(in: ".") == ["salt"])
    }
}
