import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// Two small scenarios, three runs in all (one has two variants), so that
/// three parts each get one run and two parts get a different share.
enum SmallSuite {
    static func scenario(_ name: String, seed: Int, variants: [String]) -> String {
        let list = variants.map { "{ \"name\": \"\($0)\", \"position_strategy\": \"\($0)\" }" }.joined(separator: ", ")
        return """
            {
              "schema_version": 1,
              "name": "\(name)",
              "description": "A short session for the shard tests: a drag and a refresh above the reader.",
              "device": "iphone-60hz",
              "seed": \(seed),
              "duration_s": 6,
              "feed": { "post_count": 80 },
              "server": { "latency_ms": 200 },
              "variants": [\(list)],
              "script": [
                { "at_ms": 300, "action": "drag", "distance_pt": 800, "duration_ms": 400, "release": "fling" },
                { "at_ms": 3000, "action": "new_posts", "count": 4, "delivery": "server" },
                { "at_ms": 3500, "action": "refresh" }
              ]
            }
            """
    }

    /// A scratch folder holding `suite/` (the two scenarios) and `devices/`.
    static func folder() throws -> ScratchFolder {
        let folder = try ScratchFolder(prefix: "feedsim-shard")
        try folder.copyDeviceProfiles()
        try folder.write(scenario("shard-a", seed: 3, variants: ["none", "anchor"]), to: "suite/a.json")
        try folder.write(scenario("shard-b", seed: 4, variants: ["anchor"]), to: "suite/b.json")
        return folder
    }

    /// Runs part `k` of `n` of `suite/` into `out`, with `extra` arguments.
    static func runPart(_ k: Int, of n: Int, in folder: ScratchFolder, out: String, extra: [String] = []) throws {
        let outcome = try FeedSimProcess.run(
            ["run", "suite", "--frames", "--quiet", "--shard", "\(k)/\(n)", "--out", out] + extra, in: folder.url)
        #expect(outcome.status == 0, "\(outcome)")
    }
}

@Suite("Sharded runs and merge")
struct ShardTests {
    @Test("the bundled suite run as 3 shards and merged is byte-identical to the whole run")
    func bundledSuiteMergesToTheWholeRun() throws {
        let folder = try ScratchFolder(prefix: "feedsim-shard")
        defer { folder.remove() }
        let scenarios = FeedSimProcess.packageRoot.appendingPathComponent("scenarios").path
        let whole = try FeedSimProcess.run(
            ["run", scenarios, "--frames", "--jobs", "2", "--out", "whole"], in: folder.url, timeout: 600)
        try #require(whole.status == 0, "\(whole)")
        #expect(folder.entries(in: "whole")?.contains("shard.json") == false, "a whole run writes no manifest")
        for k in 1...3 {
            let part = try FeedSimProcess.run(
                ["run", scenarios, "--frames", "--jobs", "2", "--shard", "\(k)/3", "--out", "part\(k)"],
                in: folder.url, timeout: 600)
            try #require(part.status == 0, "\(part)")
        }
        let merge = try FeedSimProcess.run(["merge", "part3", "part1", "part2", "--out", "merged"], in: folder.url)
        try #require(merge.status == 0, "\(merge)")
        for file in ["summary.csv", "drift.csv", "frames.csv"] {
            let expected = try Data(contentsOf: folder.appending("whole/\(file)"))
            let merged = try Data(contentsOf: folder.appending("merged/\(file)"))
            #expect(expected.count > 100, "\(file) is empty")
            #expect(merged == expected, "merged \(file) differs from the whole run's")
        }

        let manifests = try (1...3).map { k in
            try ShardManifest.decode(Data(contentsOf: folder.appending("part\(k)/shard.json")), file: "part\(k)")
        }
        let total = manifests[0].totalRequests
        let summaryLines =
            try String(contentsOf: folder.appending("whole/summary.csv"), encoding: .utf8)
            .split(separator: "\n").count - 1
        #expect(total == summaryLines, "total_requests is the number of runs in the suite")
        for (k, manifest) in zip(1..., manifests) {
            #expect(manifest.shard == k && manifest.shardCount == 3)
            #expect(
                manifest.requests.map(\.index) == (0..<total).filter { $0 % 3 == k - 1 },
                "part \(k)/3 runs exactly the indices i with i % 3 == \(k - 1)")
            #expect(manifest.inputs.frames && manifest.inputs.seedOverride == nil)
            #expect(manifest.inputs.files.map(\.path) == manifests[0].inputs.files.map(\.path))
            #expect(manifest.inputsHash == manifests[0].inputsHash)
        }
    }

    @Test("merge rejects a missing part, a part given twice and parts of different suites (exit 64)")
    func mergeRejectsMismatchedParts() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        for k in 1...3 { try SmallSuite.runPart(k, of: 3, in: folder, out: "p\(k)") }
        try SmallSuite.runPart(2, of: 3, in: folder, out: "seeded2", extra: ["--seed", "99"])
        try SmallSuite.runPart(1, of: 2, in: folder, out: "half1")
        let good = try FeedSimProcess.run(["merge", "p1", "p2", "p3", "--out", "merged"], in: folder.url)
        #expect(good.status == 0, "\(good)")

        let cases: [(parts: [String], fragment: String)] = [
            (["p1", "p3"], "part 2/3 is missing"),
            (["p1", "p2", "p2", "p3"], "part 2/3 is given twice"),
            (["p1", "seeded2", "p3"], "not a part of the same suite"),
            (["p1", "half1", "p3"], "shard count"),
            (["p1", "p2", "nowhere"], "no such folder: nowhere"),
            (["merged", "p2", "p3"], "merged has no shard.json"),
        ]
        for (parts, fragment) in cases {
            let outcome = try FeedSimProcess.run(["merge"] + parts + ["--out", "bad"], in: folder.url)
            #expect(outcome.status == 64, "merge \(parts): \(outcome)")
            #expect(outcome.stderr.contains(fragment), "merge \(parts) should say \"\(fragment)\": \(outcome)")
            #expect(folder.entries(in: "bad") == nil, "a refused merge writes nothing")
        }

        // A suite whose scenario changed is another suite, though names and counts match.
        try folder.write(SmallSuite.scenario("shard-b", seed: 5, variants: ["anchor"]), to: "suite/b.json")
        try SmallSuite.runPart(3, of: 3, in: folder, out: "changed3")
        let changed = try FeedSimProcess.run(["merge", "p1", "p2", "changed3", "--out", "bad"], in: folder.url)
        #expect(changed.status == 64, "\(changed)")
        #expect(changed.stderr.contains("inputs hash"), "\(changed)")
    }

    @Test("merge rejects a part whose CSV no longer matches its manifest")
    func mergeRejectsEditedPart() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        for k in 1...2 { try SmallSuite.runPart(k, of: 2, in: folder, out: "p\(k)") }
        let frames = folder.appending("p1/frames.csv")
        var text = try String(contentsOf: frames, encoding: .utf8)
        text += text.split(separator: "\n").last.map { $0 + "\n" } ?? ""
        try Data(text.utf8).write(to: frames)
        let outcome = try FeedSimProcess.run(["merge", "p1", "p2", "--out", "bad"], in: folder.url)
        #expect(outcome.status == 64, "\(outcome)")
        #expect(outcome.stderr.contains("p1/frames.csv:"), "\(outcome)")
        #expect(outcome.stderr.contains("rows but its shard.json accounts for"), "\(outcome)")
    }

    @Test(
        "--shard must be K/N with 1 ≤ K ≤ N (exit 64)", arguments: ["0/3", "4/3", "1/0", "-1/2", "2", "a/b", "1/2/3"])
    func badShardIsAUsageError(_ value: String) throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(["run", "suite", "--shard", value, "--out", "out"], in: folder.url)
        #expect(outcome.status == 64, "\(outcome)")
        #expect(outcome.stderr.contains("--shard"), "\(outcome)")
        #expect(folder.entries(in: "out") == nil)
    }

    @Test("a shard with no requests writes headers only; a later whole run removes the stale manifest")
    func emptyShardAndStaleManifest() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        try SmallSuite.runPart(5, of: 5, in: folder, out: "out")
        let manifest = try ShardManifest.decode(
            Data(contentsOf: folder.appending("out/shard.json")), file: "out/shard.json")
        #expect(manifest.totalRequests == 3 && manifest.requests.isEmpty)
        let summary = try String(contentsOf: folder.appending("out/summary.csv"), encoding: .utf8)
        #expect(summary == RunReports.summaryColumns.joined(separator: ",") + "\n")

        let whole = try FeedSimProcess.run(["run", "suite", "--quiet", "--out", "out"], in: folder.url)
        #expect(whole.status == 0, "\(whole)")
        #expect(folder.entries(in: "out")?.contains("shard.json") == false)
    }

    @Test(
        """
        a run or a merge into a folder leaves nothing of an earlier one: frames.csv and traces go when not asked \
        for again
        """
    )
    func noStaleOutput() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let traced = try FeedSimProcess.run(
            ["run", "suite", "--frames", "--trace", "--quiet", "--out", "out"], in: folder.url)
        try #require(traced.status == 0, "\(traced)")
        #expect(folder.entries(in: "out/traces")?.count == 3)
        let plain = try FeedSimProcess.run(["run", "suite", "--quiet", "--out", "out"], in: folder.url)
        try #require(plain.status == 0, "\(plain)")
        #expect(folder.entries(in: "out") == ["drift.csv", "provenance.json", "summary.csv"])

        // Traced again, then one scenario alone: only its traces remain.
        _ = try FeedSimProcess.run(["run", "suite", "--trace", "--quiet", "--out", "out"], in: folder.url)
        let one = try FeedSimProcess.run(["run", "suite/b.json", "--trace", "--quiet", "--out", "out"], in: folder.url)
        try #require(one.status == 0, "\(one)")
        #expect(folder.entries(in: "out/traces") == ["shard-b--anchor--60hz.json"])

        // A merge of untraced parts into a folder that held a traced whole run.
        _ = try FeedSimProcess.run(
            ["run", "suite", "--frames", "--trace", "--quiet", "--out", "merged"], in: folder.url)
        for k in 1...2 { try SmallSuite.runPart(k, of: 2, in: folder, out: "part\(k)", extra: []) }
        let merge = try FeedSimProcess.run(["merge", "part1", "part2", "--out", "merged"], in: folder.url)
        try #require(merge.status == 0, "\(merge)")
        #expect(folder.entries(in: "merged") == ["drift.csv", "frames.csv", "provenance.json", "summary.csv"])
    }

    @Test("merge carries the parts' traces, byte for byte, and refuses parts of which only some were traced")
    func mergeCarriesTraces() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let whole = try FeedSimProcess.run(
            ["run", "suite", "--frames", "--trace", "--quiet", "--out", "whole"], in: folder.url)
        try #require(whole.status == 0, "\(whole)")
        for k in 1...3 { try SmallSuite.runPart(k, of: 3, in: folder, out: "part\(k)", extra: ["--trace"]) }
        let merge = try FeedSimProcess.run(["merge", "part2", "part3", "part1", "--out", "merged"], in: folder.url)
        try #require(merge.status == 0, "\(merge)")
        let names = try #require(folder.entries(in: "whole/traces"))
        #expect(names.count == 3)
        #expect(folder.entries(in: "merged/traces") == names)
        for name in names {
            #expect(
                try Data(contentsOf: folder.appending("merged/traces/\(name)"))
                    == Data(contentsOf: folder.appending("whole/traces/\(name)")), "\(name)")
        }

        try SmallSuite.runPart(2, of: 3, in: folder, out: "part2", extra: [])
        let mixed = try FeedSimProcess.run(["merge", "part1", "part2", "part3", "--out", "mixed"], in: folder.url)
        #expect(mixed.status == 64, "\(mixed)")
        #expect(mixed.stderr.contains("--trace"), "\(mixed.stderr)")
        #expect(folder.entries(in: "mixed") == nil, "a refused merge writes nothing")
    }

    @Test("progress: plain lines on a non-terminal stderr, none with --quiet, nothing on stdout")
    func progressLines() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let plain = try FeedSimProcess.run(["run", "suite", "--out", "a"], in: folder.url)
        #expect(plain.status == 0, "\(plain)")
        let lines = plain.stderrLines.filter { $0.hasPrefix("feedsim: ") }
        #expect(lines.count == 3, "3 runs: each is another tenth of the suite. \(plain)")
        #expect(
            lines.last?.hasPrefix("feedsim: 3/3 runs done, ") == true && lines.last?.hasSuffix(" elapsed") == true,
            "\(plain)")
        #expect(!plain.stdout.contains("runs done"))
        let quiet = try FeedSimProcess.run(["run", "suite", "--quiet", "--out", "b"], in: folder.url)
        #expect(quiet.status == 0, "\(quiet)")
        #expect(quiet.stderr.isEmpty, "\(quiet)")
    }
}
