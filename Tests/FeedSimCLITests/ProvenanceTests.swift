import FeedSimTestSupport
import FeedSimulator
import Foundation
import Testing

@testable import FeedReports

/// A release build of today's FeedSim and the same with one field changed.
private let release = Provenance(
    feedsimVersion: "1.0.0", buildConfiguration: "release", swiftVersion: "6.3", os: "linux", architecture: "x86_64")
private let debug = Provenance(
    feedsimVersion: "1.0.0", buildConfiguration: "debug", swiftVersion: "6.3", os: "linux", architecture: "x86_64")

@Suite("Provenance: which build wrote a results folder, and what check makes of two")
struct ProvenanceTests {
    @Test("The same build: nothing said, nothing refused")
    func sameBuild() {
        let comparison = ProvenanceComparison(baseline: release, current: release, allowBuildMismatch: false)
        #expect(comparison.notes.isEmpty)
        #expect(comparison.refusal == nil)
    }

    @Test("A debug build against a release baseline is refused, naming both and the way out; allowed, it is noted")
    func buildMismatch() throws {
        let refused = ProvenanceComparison(baseline: release, current: debug, allowBuildMismatch: false)
        let refusal = try #require(refused.refusal)
        #expect(refusal.contains("debug build") && refusal.contains("release build"))
        #expect(refusal.contains("allocations and allocated_bytes"))
        #expect(refusal.contains("--allow-build-mismatch"))
        #expect(refused.notes == ["provenance: baseline and current differ: build_configuration release -> debug"])

        let allowed = ProvenanceComparison(baseline: release, current: debug, allowBuildMismatch: true)
        #expect(allowed.refusal == nil)
        #expect(allowed.notes.count == 2)
        #expect(allowed.notes[1].contains("--allow-build-mismatch"))
    }

    @Test("Another version, Swift or machine of the same configuration is said, not refused")
    func otherDifferences() {
        var newer = release
        newer.feedsimVersion = "1.1.0"
        newer.swiftVersion = "6.4"
        let comparison = ProvenanceComparison(baseline: release, current: newer, allowBuildMismatch: false)
        #expect(comparison.refusal == nil)
        #expect(
            comparison.notes == [
                "provenance: baseline and current differ: feedsim_version 1.0.0 -> 1.1.0, swift_version 6.3 -> 6.4"
            ])
    }

    @Test("A side without provenance.json (written before FeedSim recorded it) is said, not refused")
    func missing() {
        let comparison = ProvenanceComparison(baseline: nil, current: debug, allowBuildMismatch: false)
        #expect(comparison.refusal == nil)
        #expect(
            comparison.notes == ["provenance: the baseline records no provenance.json; the builds cannot be compared"])
    }

    @Test("The file reads back as written, keys in a fixed order")
    func roundTrip() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.write(debug.json, to: Provenance.fileName)
        #expect(try Provenance.load(inFolder: folder.url) == debug)
        #expect(
            debug.json == """
                {
                  "allocation_counting" : "jemalloc",
                  "architecture" : "x86_64",
                  "build_configuration" : "debug",
                  "feedsim_version" : "1.0.0",
                  "os" : "linux",
                  "swift_version" : "6.3"
                }

                """)
        // A file written before FeedSim recorded how it counted: every
        // build then counted with jemalloc, or stopped.
        try folder.write(
            """
            {"architecture": "x86_64", "build_configuration": "debug", "feedsim_version": "1.0.0", "os": "linux", \
            "swift_version": "6.3"}
            """, to: Provenance.fileName)
        #expect(try Provenance.load(inFolder: folder.url) == debug)
        try folder.write("{\"feedsim_version\": 1}", to: Provenance.fileName)
        #expect(throws: ProvenanceError.self) { try Provenance.load(inFolder: folder.url) }
    }
}

@Suite("Provenance end to end: --version, run, check")
struct ProvenanceCommandTests {
    @Test("feedsim --version prints the one version FeedSim defines")
    func version() throws {
        let outcome = try FeedSimProcess.run(["--version"], in: FeedSimProcess.packageRoot)
        #expect(outcome.status == 0, "\(outcome)")
        #expect(outcome.stdout == Provenance.feedsimVersion + "\n")
        #expect(Provenance.feedsimVersion.split(separator: ".").count == 3)
    }

    @Test("CHANGELOG.md's newest release is the version feedsim --version prints")
    func changelogNamesTheVersion() throws {
        let outcome = try FeedSimProcess.run(["--version"], in: FeedSimProcess.packageRoot)
        #expect(outcome.status == 0, "\(outcome)")
        let changelog = try String(
            contentsOf: FeedSimProcess.packageRoot.appendingPathComponent("CHANGELOG.md"), encoding: .utf8)
        let newest = try #require(
            ProvenanceCommandTests.newestRelease(inChangelog: changelog), "no `## [X.Y.Z] - date` heading")
        #expect(
            newest == outcome.stdout.trimmingCharacters(in: .whitespacesAndNewlines), "CHANGELOG.md's newest release")
    }

    @Test("The newest release of a changelog is its first versioned heading, Unreleased skipped")
    func newestReleaseSkipsUnreleased() {
        let text = "# Changelog\n\n## [Unreleased]\n- x\n\n## [2.1.0] - 2026-12-01\n- y\n\n## [2.0.0] - 2026-11-28\n"
        #expect(ProvenanceCommandTests.newestRelease(inChangelog: text) == "2.1.0")
        #expect(ProvenanceCommandTests.newestRelease(inChangelog: "# Changelog\n\n## [Unreleased]\n") == nil)
    }

    /// The version of the first `## [X.Y.Z]` heading, Keep a Changelog's
    /// form of a release.
    static func newestRelease(inChangelog text: String) -> String? {
        for line in text.split(separator: "\n") where line.hasPrefix("## [") {
            let name = line.dropFirst(4).prefix { $0 != "]" }
            let parts = name.split(separator: ".", omittingEmptySubsequences: false)
            if parts.count == 3, parts.allSatisfy({ !$0.isEmpty && $0.allSatisfy(\.isNumber) }) { return String(name) }
        }
        return nil
    }

    @Test(
        """
        run records its build beside the CSV files; check refuses a debug run against the release baseline unless \
        asked
        """
    )
    func runAndCheck() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenario = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/refresh-while-reading.json").path
        let run = try FeedSimProcess.run(["run", scenario, "--out", "current", "--quiet"], in: folder.url)
        #expect(run.status == 0, "\(run)")
        let recorded = try #require(try Provenance.load(inFolder: folder.appending("current")))
        #expect(recorded.feedsimVersion == Provenance.feedsimVersion)
        #expect(["debug", "release"].contains(recorded.buildConfiguration))

        // A baseline of the other configuration, its CSV the run's own: only the build differs.
        var other = recorded
        other.buildConfiguration = recorded.buildConfiguration == "release" ? "debug" : "release"
        try FileManager.default.createDirectory(at: folder.appending("base"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(
            at: folder.appending("current/summary.csv"), to: folder.appending("base/summary.csv"))
        try folder.write(other.json, to: "base/\(Provenance.fileName)")

        let refused = try FeedSimProcess.run(["check", "--baseline", "base", "--current", "current"], in: folder.url)
        #expect(refused.status == 64, "\(refused)")
        #expect(
            refused.stderr.contains("build_configuration \(other.buildConfiguration) -> \(recorded.buildConfiguration)")
        )
        #expect(refused.stderr.contains("--allow-build-mismatch"))

        let allowed = try FeedSimProcess.run(
            ["check", "--baseline", "base", "--current", "current", "--allow-build-mismatch"], in: folder.url)
        #expect(allowed.status == 0, "\(allowed)")
        #expect(allowed.stdout.contains("PASS"))
    }
}

@Suite("A build that cannot count allocations leaves their columns empty, says so, and checks the rest")
struct AllocationsNotCountedTests {
    @Test(
        """
        Counting off (as on a system other than Linux): empty allocation cells in summary.csv and frames.csv, \
        every other number the same, a note, provenance, and check passing on the rest
        """
    )
    func columnsEmpty() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let scenario = FeedSimProcess.packageRoot.appendingPathComponent("scenarios/refresh-while-reading.json").path
        let counted = try FeedSimProcess.run(
            ["run", scenario, "--frames", "--jobs", "2", "--out", "counted", "--quiet"], in: folder.url)
        #expect(counted.status == 0, "\(counted)")
        let notCounted = try ChildProcess.run(
            ChildProcess.env,
            [
                "\(AllocationMeter.switchVariable)=off", try FeedSimProcess.executableURL().path,
                "run", scenario, "--frames", "--jobs", "2", "--out", "uncounted", "--quiet",
            ],
            in: folder.url, timeout: FeedSimProcess.defaultTimeout)
        #expect(notCounted.status == 0, "\(notCounted)")
        #expect(
            notCounted.stderr.contains("allocations not counted (turned off by \(AllocationMeter.switchVariable)=off)"))
        #expect(notCounted.stderr.contains("columns are empty"))

        let allocationColumns = ["allocations", "allocated_bytes"]
        let summaryCounted = try CSVFile(folder.appending("counted/summary.csv"))
        let summaryEmpty = try CSVFile(folder.appending("uncounted/summary.csv"))
        #expect(summaryEmpty.columns == summaryCounted.columns)
        #expect(summaryEmpty.rows.count == summaryCounted.rows.count && summaryEmpty.rows.count > 1)
        for (empty, full) in zip(summaryEmpty.rows, summaryCounted.rows) {
            for column in allocationColumns {
                #expect(empty[column] == "", "\(column) of \(empty["variant"] ?? "?")")
                #expect(Int(full[column] ?? "") ?? 0 > 0)
            }
            #expect(
                empty.filter { !allocationColumns.contains($0.key) }
                    == full.filter { !allocationColumns.contains($0.key) })
        }
        let framesCounted = try CSVFile(folder.appending("counted/frames.csv"))
        let framesEmpty = try CSVFile(folder.appending("uncounted/frames.csv"))
        #expect(framesEmpty.rows.count == framesCounted.rows.count)
        #expect(framesEmpty.rows.allSatisfy { $0["allocations"] == "" })
        #expect(
            zip(framesEmpty.rows, framesCounted.rows).allSatisfy { empty, full in
                empty.filter { $0.key != "allocations" } == full.filter { $0.key != "allocations" }
            })
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: folder.appending("counted").path).sorted()
                == FileManager.default.contentsOfDirectory(atPath: folder.appending("uncounted").path).sorted())

        let provenance = try #require(try Provenance.load(inFolder: folder.appending("uncounted")))
        #expect(provenance.allocationCounting == "none (turned off by \(AllocationMeter.switchVariable)=off)")
        #expect(provenance.summary.hasSuffix(", allocations not counted"))
        #expect(
            try Provenance.load(inFolder: folder.appending("counted"))?.allocationCounting
                == Provenance.countedByJemalloc)

        // Checked against the counted run: everything else is compared, the
        // allocation columns are named as not counted, and it passes.
        let check = try FeedSimProcess.run(
            ["check", "--baseline", "counted", "--current", "uncounted"], in: folder.url)
        #expect(check.status == 0, "\(check)")
        #expect(check.stdout.contains("PASS"))
        #expect(check.stdout.contains("not counted: allocations, allocated_bytes"), "\(check)")
        #expect(check.stderr.contains("allocation_counting jemalloc -> none"), "\(check)")
    }
}
