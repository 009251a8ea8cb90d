import Determinism
import FeedScenario
import Foundation
import Testing
@testable import FeedSimulator

/// A trace generated from known costs comes back as those costs.
@Suite("Calibration")
struct CalibrationTests {
    static let devices = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("scenarios/devices", isDirectory: true)

    static func bundledProfile() throws -> DeviceProfile {
        let url = devices.appendingPathComponent("iphone-60hz.json")
        return try ScenarioLoader.device(from: Data(contentsOf: url), file: "iphone-60hz.json")
    }

    /// The true costs (ns per unit) the trace is generated from, by
    /// `CostTerm.traceColumn`. The bundled 60 Hz profile's large costs are
    /// kept; its small ones (1 µs a character, 0.1 µs an offset query) are
    /// raised, because under 10% noise on a 15 ms frame a cost that moves
    /// frames by much less than a millisecond cannot be measured to 5% from
    /// ten thousand frames (README, "Calibration", limits).
    static let truth: [String: Double] = [
        "frames": 3_000_000, "cells_configured": 800_000, "configured_text_characters": 5_000,
        "configured_media_items": 800_000, "cells_measured": 2_500_000, "measured_text_characters": 8_000,
        "measured_media_items": 1_500_000, "measured_thread_rows": 1_500_000, "items_laid_out": 2_000,
        "height_updates": 100_000, "offset_queries": 1_000, "diff_elements": 2_000, "changes_applied": 100_000,
        "view_models_created": 800_000, "decoded_megapixels": 8_000_000,
    ]
    static let frameCount = 10_000
    static let seed: UInt64 = 11
    /// σ of the lognormal noise on each term of each frame, as the simulator
    /// jitters each operation's cost.
    static let noiseSigma = 0.1

    /// A scroll's frames: 0–3 cells configured and 0–2 measured, each with
    /// 0–300 characters and 0–3 media items, thread rows, occasional
    /// whole-layout passes, height batches, diffs with their changes, and
    /// main-thread decodes. Each term's count varies on its own, so every
    /// term is identifiable.
    static func scrollTrace() -> CalibrationTrace {
        var random = Xoshiro256StarStar(seed: seed)
        func index(_ column: String) -> Int { CostTerm.all.firstIndex { $0.traceColumn == column }! }
        var frames: [CalibrationTrace.Frame] = []
        for frame in 0..<frameCount {
            var counts = [Double](repeating: 0, count: CostTerm.all.count)
            func add(_ column: String, _ value: Int) { counts[index(column)] += Double(value) }
            add("frames", 1)
            let configured = random.next(in: 0...3)
            add("cells_configured", configured)
            for _ in 0..<configured {
                add("configured_text_characters", random.next(in: 0...300))
                add("configured_media_items", [0, 0, 1, 2, 3][random.nextIndex(below: 5)])
                if random.chance(0.5) { add("view_models_created", 1) }
            }
            let measured = random.next(in: 0...2)
            add("cells_measured", measured)
            add("height_updates", measured)
            for _ in 0..<measured {
                add("measured_text_characters", random.next(in: 0...300))
                add("measured_media_items", random.next(in: 0...2))
                if random.chance(0.3) { add("measured_thread_rows", 1) }
            }
            if random.chance(0.3) { add("height_updates", random.next(in: 0...40)) }
            if random.chance(0.2) { add("items_laid_out", random.next(in: 100...2_000)) }
            add("offset_queries", random.next(in: 0...3_000))
            if random.chance(0.25) {
                add("diff_elements", random.next(in: 0...2_000))
                add("changes_applied", random.next(in: 0...30))
            }
            if random.chance(0.2) { counts[index("decoded_megapixels")] = Double(random.next(in: 100...1_200)) / 1_000 }
            var ns = 0.0
            for (i, term) in CostTerm.all.enumerated() where counts[i] > 0 {
                let noise = CounterRandom.lognormalFactor(sigma: noiseSigma, seed, UInt64(frame), UInt64(i), 0)
                ns += truth[term.traceColumn]! * counts[i] * noise
            }
            // Traces record durations to the microsecond.
            frames.append(.init(line: frame + 2, durationNs: (ns / 1_000).rounded() * 1_000, counts: counts))
        }
        return CalibrationTrace(file: "scroll.csv", measured: CostTerm.all.map { _ in true }, frames: frames)
    }

    @Test("a noisy 10,000-frame scroll gives back every cost within 5%, R² > 0.9")
    func roundTrip() throws {
        let text = CalibrationTests.scrollTrace().csvText
        #expect(text.hasPrefix("frame_ms,cells_configured,"), "frames is 1 throughout, so left out")
        let trace = try CalibrationTrace(text: text, file: "scroll.csv")
        #expect(trace.frames.count == CalibrationTests.frameCount)
        let base = try CalibrationTests.bundledProfile()
        let calibration = try Calibration(trace: trace, base: base.costs)

        #expect(calibration.fitFrames == 8_000 && calibration.heldBackFrames == 2_000)
        #expect(calibration.rSquared > 0.9, "R² \(calibration.rSquared)")
        #expect(calibration.heldBackRSquared > 0.9, "held-back R² \(calibration.heldBackRSquared)")
        for fit in calibration.terms {
            let truth = try #require(CalibrationTests.truth[fit.term.traceColumn])
            #expect(fit.outcome == .fitted, "\(fit.term.key)")
            #expect(abs(fit.fitted / truth - 1) < 0.05, "\(fit.term.key): fitted \(fit.fitted), truth \(truth)")
            #expect(fit.term.cost(calibration.costs).value == fit.fitted)
        }
        #expect(calibration.heldBackMedianErrorMs < calibration.heldBackP90ErrorMs)
    }

    @Test("the fitted profile reads back through the strict decoder, fitted costs and rationales in place")
    func fittedProfileLoads() throws {
        let base = try CalibrationTests.bundledProfile()
        let calibration = try Calibration(trace: CalibrationTests.scrollTrace(), base: base.costs)
        let fitted = calibration.profile(from: base, name: "fitted", traceName: "scroll.csv")
        let loaded = try ScenarioLoader.device(from: Data(fitted.jsonText.utf8), file: "fitted.json")
        #expect(loaded == fitted)
        #expect(loaded.name == "fitted")
        #expect(loaded.costs.frameBase.rationale.hasPrefix("Fitted by feedsim calibrate from scroll.csv over 8000 frames"))
        #expect(loaded.costs.renderBase == base.costs.renderBase, "render-server costs are not main-thread terms")
    }

    @Test("columns left out, all zero, or equal to another keep the base value")
    func unfittedTerms() throws {
        var lines = ["frame_ms,cells_configured,cells_measured,height_updates,decoded_megapixels"]
        for frame in 0..<60 {
            let configured = frame % 4
            let measured = (frame / 4) % 3
            let ms = 3 + 0.8 * Double(configured) + 2.5 * Double(measured)
            lines.append("\(ms),\(configured),\(measured),\(measured),0")
        }
        let trace = try CalibrationTrace(text: lines.joined(separator: "\n"), file: "t.csv")
        let base = try CalibrationTests.bundledProfile()
        let calibration = try Calibration(trace: trace, base: base.costs)
        func outcome(_ key: String) -> Calibration.Outcome? { calibration.terms.first { $0.term.key == key }?.outcome }
        #expect(outcome("frame_base") == .fitted)
        #expect(outcome("cell_configure") == .fitted)
        #expect(outcome("cell_measure") == .fitted)
        #expect(outcome("height_update") == .dependent)
        #expect(outcome("decode_per_megapixel") == .allZero)
        #expect(outcome("item_layout") == .notInTrace)
        #expect(calibration.costs.heightUpdate == base.costs.heightUpdate)
        #expect(calibration.costs.cellMeasure.value == 2_500_000)
        #expect(abs(calibration.rSquared - 1) < 1e-12)
    }

    @Test("the README lists the trace columns exactly as CostTerm.all has them")
    func readme() throws {
        let readme = CalibrationTests.devices.deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("README.md")
        let text = try String(contentsOf: readme, encoding: .utf8)
        #expect(text.contains(CalibrationTrace.markdownColumns + "\n"), "paste CalibrationTrace.markdownColumns into the README")
    }

    struct BadTrace: Sendable, CustomTestStringConvertible {
        var label: String
        var text: String
        var description: String
        var testDescription: String { label }
    }

    @Test("a bad trace is refused naming the file, the line and the problem", arguments: [
        BadTrace(label: "empty", text: "", description: "t.csv:1: the file is empty"),
        BadTrace(label: "unknown column", text: "frame_ms,colour\n1,2\n", description: "t.csv:1: unknown column \"colour\""),
        BadTrace(label: "no duration", text: "cells_configured\n1\n", description: "t.csv:1: the header has no frame_ms column"),
        BadTrace(label: "repeated column", text: "frame_ms,frame_ms\n1,1\n", description: "t.csv:1: the header repeats the column \"frame_ms\""),
        BadTrace(label: "not a number", text: "frame_ms,cells_configured\n1,2\n3,many\n", description: "t.csv:3: cells_configured is \"many\""),
        BadTrace(label: "negative", text: "frame_ms,cells_configured\n-1,2\n", description: "t.csv:2: frame_ms is \"-1\""),
        BadTrace(label: "short row", text: "frame_ms,cells_configured\n1\n", description: "t.csv:2: the row has 1 fields but the header has 2"),
    ])
    func badTrace(_ example: BadTrace) {
        do {
            _ = try CalibrationTrace(text: example.text, file: "t.csv")
            Issue.record("no error")
        } catch {
            #expect(error.description.hasPrefix(example.description), "\(error)")
        }
    }

    @Test("too few frames for the terms is refused with the number needed")
    func tooFewFrames() throws {
        let trace = try CalibrationTrace(text: "frame_ms,cells_configured,cells_measured\n3,1,0\n4,0,1\n5,2,1\n", file: "t.csv")
        let base = try CalibrationTests.bundledProfile()
        #expect {
            _ = try Calibration(trace: trace, base: base.costs)
        } throws: { error in
            "\(error)" == "t.csv: the trace has 3 frames; fitting 3 terms with one frame in 5 held back needs at least 5"
        }
    }
}
