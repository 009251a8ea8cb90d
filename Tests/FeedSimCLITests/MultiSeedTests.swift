import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedReports

/// The identity of a run in a multi-seed results folder.
private func runID(_ row: [String: String]) -> String {
    [row["scenario"], row["variant"], row["refresh_hz"], row["seed"]].map { $0 ?? "?" }.joined(separator: "/")
}

@Suite("Multi-seed runs: run --seeds, its shards, compare and check")
struct MultiSeedTests {
    @Test(
        """
        run --seeds 3 gives every run three rows, seeds S…S+2, every drift and frame row naming its seed; any \
        --jobs, same bytes
        """
    )
    func seedsExpandEveryRun() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let one = try FeedSimProcess.run(
            ["run", "suite", "--seeds", "3", "--frames", "--quiet", "--out", "one"], in: folder.url)
        try #require(one.status == 0, "\(one)")
        let two = try FeedSimProcess.run(
            ["run", "suite", "--seeds", "3", "--frames", "--jobs", "2", "--quiet", "--out", "two"], in: folder.url)
        try #require(two.status == 0, "\(two)")
        for file in ["summary.csv", "drift.csv", "frames.csv"] {
            #expect(
                try Data(contentsOf: folder.appending("one/\(file)"))
                    == Data(contentsOf: folder.appending("two/\(file)")), "\(file)")
        }
        let summary = try CSVFile(folder.appending("one/summary.csv"))
        #expect(
            summary.rows.map(runID) == [
                "shard-a/none/60/3", "shard-a/none/60/4", "shard-a/none/60/5",
                "shard-a/anchor/60/3", "shard-a/anchor/60/4", "shard-a/anchor/60/5",
                "shard-b/anchor/60/4", "shard-b/anchor/60/5", "shard-b/anchor/60/6",
            ])
        let runs = Set(summary.rows.map(runID))
        for file in ["drift.csv", "frames.csv"] {
            let table = try CSVFile(folder.appending("one/\(file)"))
            #expect(table.columns.last == "seed", "\(file)")
            #expect(!table.rows.isEmpty && table.rows.allSatisfy { runs.contains(runID($0)) }, "\(file)")
        }
        // The seeds differ, so a variant's runs do.
        for variant in Set(summary.rows.map { "\($0["scenario"]!)/\($0["variant"]!)" }) {
            let digests = summary.rows.filter { "\($0["scenario"]!)/\($0["variant"]!)" == variant }.map {
                $0["trace_digest"]!
            }
            #expect(Set(digests).count == 3, "\(variant): \(digests)")
        }

        // The first seed's run is the plain run's, row for row.
        let plain = try FeedSimProcess.run(["run", "suite", "--frames", "--quiet", "--out", "plain"], in: folder.url)
        try #require(plain.status == 0, "\(plain)")
        let plainSummary = try CSVFile(folder.appending("plain/summary.csv"))
        let firstSeeds = summary.rows.filter { row in plainSummary.rows.contains { runID($0) == runID(row) } }
        #expect(firstSeeds == plainSummary.rows)
        #expect(try CSVFile(folder.appending("plain/drift.csv")).columns == RunReports.driftColumns)
        #expect(try CSVFile(folder.appending("plain/frames.csv")).columns == RunReports.frameColumns)
    }

    @Test(
        """
        compare of a multi-scenario --seeds folder with no options gives paired verdicts in every scenario with \
        two variants or more
        """
    )
    func compareSuiteWithoutOptions() throws {
        let folder = try ScratchFolder(prefix: "feedsim-suite")
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        // Each scenario's first variant differs: the first scenario's is not a variant of the second.
        try folder.write(SmallSuite.scenario("first", seed: 3, variants: ["anchor", "none"]), to: "suite/a.json")
        try folder.write(
            SmallSuite.scenario("second", seed: 4, variants: ["none", "offset_adjust", "index_restore"]),
            to: "suite/b.json")
        try folder.write(SmallSuite.scenario("alone", seed: 5, variants: ["anchor"]), to: "suite/c.json")
        let run = try FeedSimProcess.run(["run", "suite", "--seeds", "4", "--quiet", "--out", "out"], in: folder.url)
        try #require(run.status == 0, "\(run)")
        let csv = try FeedSimProcess.run(
            ["compare", "out", "--format", "csv", "--output", "compare.csv"], in: folder.url)
        try #require(csv.status == 0, "\(csv)")
        let table = try CSVFile(folder.appending("compare.csv"))
        func pairs(_ table: CSVFile) -> Set<String> {
            Set(table.rows.map { "\($0["scenario"]!):\($0["variant_a"]!)-\($0["variant_b"]!)" })
        }
        #expect(
            pairs(table) == ["first:anchor-none", "second:none-offset_adjust", "second:none-index_restore"],
            "\(pairs(table))")
        #expect(table.rows.allSatisfy { $0["verdict"] != PairedVerdict.tooFewPairs.rawValue && $0["ci_low"] != "" })
        let text = try FeedSimProcess.run(["compare", "out"], in: folder.url)
        #expect(
            text.stdout.contains("== alone @ 60 Hz, 4 seeds ==")
                && text.stdout.contains("no paired differences: the runs have one variant"))

        // A named baseline applies where it exists and names the scenarios without it.
        let named = try FeedSimProcess.run(
            ["compare", "out", "--baseline", "none", "--format", "csv", "--output", "named.csv"], in: folder.url)
        try #require(named.status == 0, "\(named)")
        let namedTable = try CSVFile(folder.appending("named.csv"))
        #expect(pairs(namedTable) == ["first:none-anchor", "second:none-offset_adjust", "second:none-index_restore"])
        #expect(
            named.stderr.contains(
                "baseline \"none\" is not a variant of 1 of 3 scenario groups, which have no differences: alone @ 60 Hz"
            ), "\(named.stderr)")
    }

    @Test("compare on explore results pairs every session across the strategies, from the folder or the file")
    func compareExplore() throws {
        let folder = try populationFolder(seeds: 4, exploreFolder: "explore")
        defer { folder.remove() }
        let table = try FeedSimProcess.run(["compare", "explore"], in: folder.url)
        try #require(table.status == 0, "\(table)")
        // A folder without population.json (here, written by hand) says its population is not recorded.
        #expect(
            table.stdout.hasPrefix(
                "verdicts over the \(ExplorePopulation.unrecordedText)\n"
                    + "population (nearest-rank percentiles over each variant's runs)\n"),
            "\(table.stdout)")
        #expect(
            table.stdout.contains("runs with violations")
                && table.stdout.contains("drift_max_pt          none  anchor"), "\(table.stdout)")
        #expect(!table.stdout.contains("allocations"), "explore results have no allocation counts")
        let file = try FeedSimProcess.run(["compare", "explore/explore.csv"], in: folder.url)
        #expect(file.stdout == table.stdout)
        let csv = try FeedSimProcess.run(
            ["compare", "explore", "--format", "csv", "--baseline", "anchor"], in: folder.url)
        try #require(csv.status == 0, "\(csv)")
        let lines = csv.stdout.split(separator: "\n")
        #expect(
            lines.first.map(String.init)
                == (PairedComparison.differenceColumns + ExploreComparison.populationColumns).joined(separator: ","))
        #expect(
            lines.count == 1 + 3
                && lines.dropFirst().allSatisfy { $0.contains(",anchor,none,4,") && $0.hasSuffix(",,,") },
            "\(csv.stdout)")
    }

    @Test("A run's SummaryRow is the row summary.csv holds for it, extra fields after")
    func summaryRowOfAResult() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let worker = try FeedSimProcess.run(
            ["_run-one", "--file", "suite/a.json", "--refresh-hz", "60", "--seed", "11", "--variant", "anchor"],
            in: folder.url)
        try #require(worker.status == 0, "\(worker)")
        let result = try #require(RunRecord.decode(Data(worker.stdout.utf8)))
        let read = try SummaryFile(text: RunReports.summary([result]).text, file: "summary.csv").rows[0]
        let violations = SummaryField(name: PopulationTable.violationsColumn, value: "2")
        let row = SummaryRow(result, extra: [violations], line: read.line)
        #expect(row.key == read.key && row.seed == 11 && row.line == read.line)
        #expect(row.metrics == read.metrics + [violations])
    }

    @Test("--seed S --seeds 2 runs S and S+1; --seeds below 1 is a usage error")
    func seedOverride() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let run = try FeedSimProcess.run(
            ["run", "suite/b.json", "--seed", "100", "--seeds", "2", "--quiet", "--out", "out"], in: folder.url)
        try #require(run.status == 0, "\(run)")
        #expect(
            try CSVFile(folder.appending("out/summary.csv")).rows.map(runID) == [
                "shard-b/anchor/60/100", "shard-b/anchor/60/101",
            ])
        for bad in ["0", "-2"] {
            let outcome = try FeedSimProcess.run(["run", "suite", "--seeds", bad, "--out", "bad"], in: folder.url)
            #expect(outcome.status == 64, "\(outcome)")
            #expect(folder.entries(in: "bad") == nil)
        }
    }

    @Test("--seeds shards merge to the whole run, traces named by seed; a part without --seeds is refused")
    func shardsMerge() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let seeds = ["--seeds", "2", "--trace"]
        let whole = try FeedSimProcess.run(
            ["run", "suite", "--frames", "--quiet", "--out", "whole"] + seeds, in: folder.url)
        try #require(whole.status == 0, "\(whole)")
        for k in 1...4 { try SmallSuite.runPart(k, of: 4, in: folder, out: "part\(k)", extra: seeds) }
        let merge = try FeedSimProcess.run(
            ["merge", "part4", "part2", "part3", "part1", "--out", "merged"], in: folder.url)
        try #require(merge.status == 0, "\(merge)")
        for file in ["summary.csv", "drift.csv", "frames.csv"] {
            #expect(
                try Data(contentsOf: folder.appending("merged/\(file)"))
                    == Data(contentsOf: folder.appending("whole/\(file)")), "\(file)")
        }
        let traces = try #require(folder.entries(in: "whole/traces"))
        #expect(traces.contains("shard-a--none--60hz--seed4.json") && traces.count == 6, "\(traces)")
        #expect(folder.entries(in: "merged/traces") == traces)
        let manifest = try ShardManifest.decode(
            Data(contentsOf: folder.appending("part1/shard.json")), file: "part1/shard.json")
        #expect(manifest.inputs.seeds == 2 && manifest.requests.allSatisfy { $0.seed != nil })

        // --seeds 1 runs the same requests as no --seeds, but its files
        // have the seed column: the inputs hash tells the parts apart.
        try SmallSuite.runPart(1, of: 2, in: folder, out: "one-seed", extra: ["--seeds", "1"])
        try SmallSuite.runPart(2, of: 2, in: folder, out: "no-seeds")
        let mixed = try FeedSimProcess.run(["merge", "one-seed", "no-seeds", "--out", "mixed"], in: folder.url)
        #expect(mixed.status == 64, "\(mixed)")
        #expect(mixed.stderr.contains("inputs hash") && mixed.stderr.contains("--seeds"), "\(mixed.stderr)")
        #expect(folder.entries(in: "mixed") == nil)
    }

    @Test("compare pairs multi-seed results by seed in every format, the same bytes each time; check refuses them")
    func compareAndCheck() throws {
        let folder = try SmallSuite.folder()
        defer { folder.remove() }
        let run = try FeedSimProcess.run(
            ["run", "suite/a.json", "--seeds", "4", "--quiet", "--out", "out"], in: folder.url)
        try #require(run.status == 0, "\(run)")
        let table = try FeedSimProcess.run(["compare", "out"], in: folder.url)
        try #require(table.status == 0, "\(table)")
        #expect(table.stdout.hasPrefix("== shard-a @ 60 Hz, 4 seeds ==\npopulation"), "\(table.stdout)")
        #expect(table.stdout.contains("10000 resamples of the pairs, seed 1"))
        let again = try FeedSimProcess.run(["compare", "out"], in: folder.url)
        #expect(again.stdout == table.stdout)

        let csv = try FeedSimProcess.run(
            ["compare", "out", "--format", "csv", "--metric", "drift_max_pt", "--bootstrap-seed", "7"], in: folder.url)
        try #require(csv.status == 0, "\(csv)")
        let lines = csv.stdout.split(separator: "\n")
        #expect(lines.first == "scenario,refresh_hz,seeds," + PairedComparison.differenceColumns.joined(separator: ","))
        #expect(
            lines.count == 2 && lines[1].hasPrefix("shard-a,60,4,drift_max_pt,lower is better,none,anchor,4,"),
            "\(csv.stdout)")
        #expect(lines[1].contains(",0.95,10000,7,"))
        let verdict = String(lines[1].split(separator: ",").last ?? "")
        #expect(PairedVerdict(rawValue: verdict) != nil, "\(verdict)")

        let markdown = try FeedSimProcess.run(
            ["compare", "out", "--format", "markdown", "--baseline", "anchor"], in: folder.url)
        try #require(markdown.status == 0, "\(markdown)")
        #expect(markdown.stdout.hasPrefix("### shard-a @ 60 Hz, 4 seeds\n\n| variant | runs |"), "\(markdown.stdout)")
        #expect(markdown.stdout.contains("| drift_max_pt | anchor | none | 4 |"), "\(markdown.stdout)")

        let unknown = try FeedSimProcess.run(["compare", "out", "--baseline", "nope"], in: folder.url)
        #expect(unknown.status == 64 && unknown.stderr.contains("no variant \"nope\""), "\(unknown)")

        let check = try FeedSimProcess.run(["check", "--baseline", "out", "--current", "out"], in: folder.url)
        #expect(check.status == 64 && check.stderr.contains("several seeds per run"), "\(check)")

        let single = try FeedSimProcess.run(["run", "suite/a.json", "--quiet", "--out", "single"], in: folder.url)
        try #require(single.status == 0, "\(single)")
        let refused = try FeedSimProcess.run(["compare", "single", "--baseline", "none"], in: folder.url)
        #expect(refused.status == 64 && refused.stderr.contains("--baseline"), "\(refused)")
    }
}
