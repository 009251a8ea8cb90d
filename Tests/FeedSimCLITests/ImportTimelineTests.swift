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
            [
                "import", "timeline", Self.samples.appendingPathComponent("posts.jsonl").path, "--salt-file", "salt",
                "--out", "feed.json",
            ],
            in: folder.url)
        #expect(outcome.status == 65)
        #expect(outcome.stderr.contains("salt: expected a salt of at least 16 bytes, found 5"))
        #expect(folder.entries(in: ".") == ["salt"])
    }

    /// A scratch folder holding the sample imported to `feed.json`, the
    /// bundled device profiles, and the sample scenario with `feed` as given.
    static func importedSample(feeds: [String: String]) throws -> ScratchFolder {
        let folder = try ScratchFolder()
        try folder.copyDeviceProfiles()
        let outcome = try FeedSimProcess.run(
            [
                "import", "timeline", samples.appendingPathComponent("timeline").path, "--salt-file",
                samples.appendingPathComponent("sample.salt").path, "--out", "feed.json",
            ],
            in: folder.url)
        #expect(outcome.status == 0, "\(outcome)")
        let scenario = try String(contentsOf: samples.appendingPathComponent("scenario.json"), encoding: .utf8)
        for (name, feed) in feeds.sorted(by: { $0.key < $1.key }) {
            let text =
                scenario
                .replacingOccurrences(
                    of: #""feed": { "from": "feed.json", "post_count": 11 }"#, with: #""feed": \#(feed)"#
                )
                .replacingOccurrences(of: "your-feed-sample", with: name)
            try folder.write(text, to: "\(name).json")
        }
        return folder
    }

    @Test("runs from an imported feed are byte-identical across processes and --jobs")
    func importedRunsDeterministic() throws {
        let folder = try Self.importedSample(feeds: [
            "captured": #"{ "from": "feed.json", "post_count": 11 }"#,
            "paged": #"{ "from": "feed.json", "post_count": 11, "page_size": 3 }"#,
            "repeated": #"{ "from": "feed.json", "post_count": 40, "repeat": true }"#,
        ])
        defer { folder.remove() }
        var summaries: [Data] = []
        for (index, jobs) in ["1", "2", "2"].enumerated() {
            let outcome = try FeedSimProcess.run(
                [
                    "run", "captured.json", "paged.json", "repeated.json", "--quiet", "--jobs", jobs,
                    "--out", "out\(index)",
                ],
                in: folder.url)
            #expect(outcome.status == 0, "\(outcome)")
            summaries.append(try Data(contentsOf: folder.appending("out\(index)/summary.csv")))
            #expect(
                try Data(contentsOf: folder.appending("out\(index)/drift.csv"))
                    == Data(contentsOf: folder.appending("out0/drift.csv")))
        }
        #expect(summaries[1] == summaries[0] && summaries[2] == summaries[0])
        // Served as captured, the 11 posts take the capture's two pages; in pages of 3, four.
        let rows = try CSVFile(folder.appending("out0/summary.csv")).rows
        let requests = Dictionary(
            uniqueKeysWithValues: rows.map { ($0["scenario"] ?? "", $0["network_requests"] ?? "") })
        #expect(requests == ["captured": "2", "paged": "4", "repeated": "4"])
    }

    @Test("a scenario asking for more posts than the capture holds, or for a missing file, exits 65 with the JSON path")
    func importedFeedRefused() throws {
        let folder = try Self.importedSample(feeds: [
            "toomany": #"{ "from": "feed.json", "post_count": 12 }"#,
            "missing": #"{ "from": "nothere.json", "post_count": 1 }"#,
            "stray": #"{ "post_count": 1, "repeat": true }"#,
        ])
        defer { folder.remove() }
        let expected = [
            "toomany": #"toomany.json: $.feed.post_count: expected at most the 11 posts of ./feed.json, "#
                + #"or "repeat": true"#,
            "missing": "missing.json: $.feed.from: expected a FEED.json written by `feedsim import timeline`",
            "stray": "stray.json: $.feed.repeat: expected `repeat` only with `from`",
        ]
        for (name, message) in expected.sorted(by: { $0.key < $1.key }) {
            let outcome = try FeedSimProcess.run(["run", "\(name).json", "--out", "out-\(name)"], in: folder.url)
            #expect(outcome.status == 65, "\(outcome)")
            #expect(outcome.stderr.contains(message), "\(outcome.stderr)")
            #expect(folder.entries(in: "out-\(name)") == nil)
        }
    }
}
