import FeedSimTestSupport
import Foundation
import Testing

/// Flags that add files or spread the work change no number: the same run
/// writes the same summary.csv and drift.csv with and without `--frames`
/// and `--trace`, and at `--jobs` 1 and 2.
@Suite("Flags change no number")
struct FlagsTests {
    /// Random sessions of `feedsim explore` (explore/wide.json, seed 1) in
    /// which a flag moved a one-time cost of the Swift runtime (generic
    /// metadata a recorder instantiated first) out of or into the first
    /// variant's measured run: session 11's `none` counted 357 allocations
    /// and 74,592 bytes without `--trace` and 359 and 75,632 with it;
    /// session 42's counted 847 and 201,920 without `--frames` and 845 and
    /// 200,880 with it. At `--jobs 2`, session 11's `index_restore`, then
    /// the first run of its worker, counted 329 allocations where it counted
    /// 326 after `none`, and session 42's 769 where 768: the runtime's
    /// metadata of the image pipeline's waiters and of diffs with moves,
    /// which the warm-up's tour did not use.
    static let sessions = ["session-000011", "session-000042"]

    @Test(
        "summary.csv and drift.csv are byte-identical with and without --frames and --trace, and at --jobs 1 and 2",
        arguments: sessions)
    func sameNumbers(_ session: String) throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        try folder.copyDeviceProfiles()
        try FileManager.default.copyItem(
            at: FeedSimProcess.packageRoot.appendingPathComponent(
                "Tests/FeedSimCLITests/Fixtures/flags/\(session).json"),
            to: folder.appending("\(session).json"))
        let variants: [(name: String, flags: [String])] = [
            ("plain", []), ("frames", ["--frames"]), ("trace", ["--trace"]), ("both", ["--frames", "--trace"]),
            ("jobs", ["--jobs", "2"]),
        ]
        for variant in variants {
            let run = try FeedSimProcess.run(
                ["run", "\(session).json", "--quiet", "--out", variant.name] + variant.flags, in: folder.url)
            #expect(run.status == 0, "\(run)")
        }
        for file in ["summary.csv", "drift.csv"] {
            let plain = try Data(contentsOf: folder.appending("plain/\(file)"))
            for variant in variants.dropFirst() {
                let other = try Data(contentsOf: folder.appending("\(variant.name)/\(file)"))
                #expect(other == plain, "\(session): \(file) differs with \(variant.flags.joined(separator: " "))")
            }
        }
    }
}
