import FeedSimTestSupport
import Foundation
import Testing

@Suite("feedsim explore")
struct ExploreCommandTests {
    static let devices = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/devices").path

    @Test("The same seed writes byte-identical files and output for any --jobs")
    func deterministicAcrossJobs() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        var outputs: [String] = []
        for jobs in ["1", "2"] {
            let outcome = try FeedSimProcess.run(
                [
                    "explore", "--sessions", "12", "--seed", "5", "--jobs", jobs, "--devices",
                    ExploreCommandTests.devices,
                    "--out", "out-\(jobs)", "--quiet",
                ], in: folder.url)
            #expect(outcome.status == 0 || outcome.status == 2, "\(outcome)")
            outputs.append(outcome.stdout.replacingOccurrences(of: "out-\(jobs)", with: "OUT"))
        }
        #expect(outputs[0] == outputs[1])
        for file in ["explore.csv", "violations.csv"] {
            let one = try Data(contentsOf: folder.appending("out-1/\(file)"))
            let two = try Data(contentsOf: folder.appending("out-2/\(file)"))
            #expect(one == two, "\(file) differs between --jobs 1 and 2")
        }
        let table = try String(contentsOf: folder.appending("out-1/explore.csv"), encoding: .utf8)
        let lines = table.split(separator: "\n")
        #expect(lines.first?.hasSuffix(",violations") == true)
        #expect(!lines[0].contains("allocations"))
        // 12 sessions × every built-in strategy.
        #expect(lines.count == 1 + 12 * 8)
        #expect(outputs[0].contains("population"))
        #expect(outputs[0].contains("paired differences"))

        // compare reads explore results, and says so as JSON too.
        let json = try FeedSimProcess.run(
            ["compare", "out-1", "--format", "json", "--baseline", "none"], in: folder.url)
        #expect(json.status == 0, "\(json)")
        let document = try #require(try JSONSerialization.jsonObject(with: Data(json.stdout.utf8)) as? [String: Any])
        let population = try #require(document["population"] as? [[String: Any]])
        #expect(
            population.map { $0["variant"] as? String } == [
                "none", "index_restore", "offset_adjust", "anchor", "virtual_space", "multi_anchor", "velocity_restore",
                "content_anchor",
            ])
        let differences = try #require(document["differences"] as? [[String: Any]])
        #expect(!differences.isEmpty)
        #expect(differences.allSatisfy { $0["a"] as? String == "none" && ($0["pairs"] as? Int) == 12 })
    }

    @Test(
        """
        Any session of an exploration is written as a scenario that feedsim run reproduces: explore.csv's numbers \
        for every strategy, with or without --frames
        """
    )
    func replaySession() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let common = [
            "--config", FeedSimProcess.packageRoot.appendingPathComponent("explore/wide.json").path, "--devices",
            ExploreCommandTests.devices,
            "--seed", "3", "--quiet",
        ]
        let explored = try FeedSimProcess.run(
            ["explore", "--sessions", "12"] + common + ["--out", "explored"], in: folder.url)
        #expect(explored.status == 0, "\(explored)")
        let written = try FeedSimProcess.run(
            ["explore", "--write-session", "9", "--write-session", "4"] + common + ["--out", "explored"], in: folder.url
        )
        #expect(written.status == 0, "\(written)")
        #expect(written.stdout.contains("explored/sessions/session-000009.json"))
        let explore = try CSVFile(folder.appending("explored/explore.csv"))
        for session in ["session-000009", "session-000004"] {
            for frames in [false, true] {
                let out = "replay-\(session)-\(frames)"
                let run = try FeedSimProcess.run(
                    ["run", "explored/sessions/\(session).json", "--out", out, "--quiet"]
                        + (frames ? ["--frames"] : []), in: folder.url)
                #expect(run.status == 0, "\(run)")
                let summary = try CSVFile(folder.appending("\(out)/summary.csv"))
                let expected = explore.rows.filter { $0["scenario"] == session }
                #expect(
                    summary.rows.count == expected.count && expected.count == 8, "one run per strategy, as explore ran")
                for (replayed, row) in zip(summary.rows, expected) {
                    for column in explore.columns where column != "violations" {
                        #expect(
                            replayed[column] == row[column],
                            """
                            \(session) \(row["variant"] ?? "") \(column): explore \(row[column] ?? "-"), run \
                            \(replayed[column] ?? "-")
                            """
                        )
                    }
                }
            }
        }
        // The extremes of the population name their sessions.
        #expect(explored.stdout.contains("drift max run"))
    }

    @Test(
        """
        A bad configuration is refused with its file, JSON path and what was expected (exit 65), and nothing is \
        written
        """
    )
    func badConfiguration() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let cases: [(String, String)] = [
            (#"{"weights": {"dragg": 1}}"#, "$.weights.dragg"),
            (#"{"strategies": ["anchor", "nope"]}"#, "$.strategies[1]"),
            (#"{"post_count": {"min": 9, "max": 3}}"#, "$.post_count.max"),
            (#"{"duration_s": 0.5}"#, "$.duration_s"),
            (#"{"device": "no-such-phone"}"#, "$.device"),
            (#"{"steps": {"min": 1, "max": 2}, "steps": {"min": 1, "max": 3}}"#, "$.steps"),
        ]
        for (json, path) in cases {
            try folder.write(json, to: "config.json")
            let outcome = try FeedSimProcess.run(
                [
                    "explore", "--config", "config.json", "--sessions", "2", "--devices", ExploreCommandTests.devices,
                    "--out", "out",
                ],
                in: folder.url)
            #expect(outcome.status == 65, "\(json): \(outcome)")
            #expect(outcome.stderr.contains("config.json"), "\(json): \(outcome.stderr)")
            #expect(outcome.stderr.contains(path), "\(json): \(outcome.stderr)")
            #expect(!FileManager.default.fileExists(atPath: folder.appending("out").path))
        }
    }

    @Test("schema --explore prints explore/schema.json exactly, and explore/ci.json is valid under it")
    func schema() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(["schema", "--explore"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let committed = try String(
            contentsOf: FeedSimProcess.packageRoot.appendingPathComponent("explore/schema.json"), encoding: .utf8)
        #expect(outcome.stdout == committed, "regenerate it: swift run feedsim schema --explore > explore/schema.json")
        let ci = try FeedSimProcess.run(
            [
                "explore", "--config", FeedSimProcess.packageRoot.appendingPathComponent("explore/ci.json").path,
                "--sessions", "1",
                "--devices", ExploreCommandTests.devices, "--out", "out", "--quiet",
            ], in: folder.url)
        #expect(ci.status == 0, "\(ci)")
    }
}

@Suite("feedsim explore --shard and merge")
struct ExploreShardTests {
    @Test("Parts merged are byte-identical to one whole exploration; parts of another exploration are refused")
    func shardsMergeToTheWhole() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let common = ["explore", "--sessions", "9", "--seed", "3", "--devices", ExploreCommandTests.devices, "--quiet"]
        let whole = try FeedSimProcess.run(common + ["--out", "whole"], in: folder.url)
        #expect(whole.status == 0 || whole.status == 2, "\(whole)")
        for k in 1...3 {
            let part = try FeedSimProcess.run(common + ["--shard", "\(k)/3", "--out", "part-\(k)"], in: folder.url)
            #expect(part.status == 0 || part.status == 2, "\(part)")
            #expect(FileManager.default.fileExists(atPath: folder.appending("part-\(k)/explore-part.json").path))
        }
        let merged = try FeedSimProcess.run(["merge", "part-1", "part-2", "part-3", "--out", "merged"], in: folder.url)
        #expect(merged.status == 0, "\(merged)")
        for file in ["explore.csv", "violations.csv", "population.json"] {
            #expect(
                try Data(contentsOf: folder.appending("whole/\(file)"))
                    == Data(contentsOf: folder.appending("merged/\(file)")), "\(file)")
        }
        let failures =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.appending("whole/failures").path))?.sorted()
            ?? []
        let mergedFailures =
            (try? FileManager.default.contentsOfDirectory(atPath: folder.appending("merged/failures").path))?.sorted()
            ?? []
        #expect(failures == mergedFailures)
        for name in failures where name.hasSuffix(".json") {
            #expect(
                try Data(contentsOf: folder.appending("whole/failures/\(name)"))
                    == Data(contentsOf: folder.appending("merged/failures/\(name)")))
        }
        #expect(!FileManager.default.fileExists(atPath: folder.appending("merged/explore-part.json").path))
        // The merge prints the whole exploration's summary, the counts summed from the parts.
        let wholeSummary = whole.stdout.replacingOccurrences(of: "whole/", with: "OUT/")
        let mergedSummary = merged.stdout.split(separator: "\n", maxSplits: 1).last.map(String.init)?
            .replacingOccurrences(of: "merged/", with: "OUT/")
        #expect(mergedSummary == wholeSummary, "\(merged.stdout)")

        // A part whose explore.csv lost a row is refused, and nothing is written.
        let cut = try ScratchFolder()
        defer { cut.remove() }
        for file in ["explore.csv", "violations.csv", "explore-part.json"] {
            try FileManager.default.createDirectory(at: cut.appending("part-2"), withIntermediateDirectories: true)
            try FileManager.default.copyItem(
                at: folder.appending("part-2/\(file)"), to: cut.appending("part-2/\(file)"))
        }
        let rows = try String(contentsOf: cut.appending("part-2/explore.csv"), encoding: .utf8).split(separator: "\n")
        try (rows.dropLast().joined(separator: "\n") + "\n").write(
            to: cut.appending("part-2/explore.csv"), atomically: true, encoding: .utf8)
        let short = try FeedSimProcess.run(
            [
                "merge", folder.appending("part-1").path, cut.appending("part-2").path, folder.appending("part-3").path,
                "--out", "bad",
            ], in: folder.url)
        #expect(short.status == 64, "\(short)")
        #expect(short.stderr.contains("rows in explore.csv"), "\(short.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appending("bad").path))

        // A part missing, and a part of another seed.
        let missing = try FeedSimProcess.run(["merge", "part-1", "part-2", "--out", "bad"], in: folder.url)
        #expect(missing.status == 64, "\(missing)")
        let other = try FeedSimProcess.run(
            [
                "explore", "--sessions", "9", "--seed", "4", "--devices", ExploreCommandTests.devices, "--quiet",
                "--shard", "3/3", "--out", "other-3",
            ],
            in: folder.url)
        #expect(other.status == 0 || other.status == 2)
        let mixed = try FeedSimProcess.run(["merge", "part-1", "part-2", "other-3", "--out", "bad"], in: folder.url)
        #expect(mixed.status == 64, "\(mixed)")
        #expect(mixed.stderr.contains("another exploration"), "\(mixed.stderr)")
        #expect(!FileManager.default.fileExists(atPath: folder.appending("bad").path))
    }
}
