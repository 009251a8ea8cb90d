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
    /// ten thousand frames (docs/calibration.md, limits).
    static let truth: [String: Double] = [
        "frames": 3_000_000, "cells_configured": 800_000, "configured_text_characters": 5_000,
        "configured_media_items": 800_000, "cells_measured": 2_500_000, "measured_text_characters": 8_000,
        "measured_media_items": 1_500_000, "measured_thread_rows": 1_500_000, "items_laid_out": 2_000,
        "height_updates": 100_000, "offset_queries": 1_000, "diff_elements": 2_000, "changes_applied": 100_000,
        "view_models_created": 800_000, "decoded_megapixels": 8_000_000, "background_results": 20_000,
        "configured_quotes": 400_000, "measured_quotes": 1_000_000, "configured_external_cards": 300_000,
        "measured_external_cards": 800_000,
    ]
    static let frameCount = 10_000
    static let seed: UInt64 = 11
    /// σ of the lognormal noise on each term of each frame, as the simulator
    /// jitters each operation's cost.
    static let noiseSigma = 0.1

    /// A scroll's frames: 0–3 cells configured and 0–2 measured, each with
    /// 0–300 characters and 0–3 media items, thread rows, occasional
    /// whole-layout passes, height batches, diffs with their changes, and
    /// main-thread decodes, and 0–3 quoted records and external cards
    /// configured and measured (drawn on their own stream). Each term's
    /// count varies on its own, so every term is identifiable.
    ///
    /// `preempted` of the frames, chosen by their own seeded stream, get
    /// 4–25 ms of extra time: a thread preempted or a page fault, as every
    /// real device trace holds.
    static func scrollTrace(preempted: Double = 0) -> CalibrationTrace {
        var random = Xoshiro256StarStar(seed: seed)
        var interruptions = Xoshiro256StarStar(seed: seed &+ 1)
        // Their own stream, so that the other counts are drawn as before there were any.
        var results = Xoshiro256StarStar(seed: seed &+ 2)
        var cards = Xoshiro256StarStar(seed: seed &+ 3)
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
            if results.chance(0.4) { add("background_results", results.next(in: 1...60)) }
            for column in [
                "configured_quotes", "measured_quotes", "configured_external_cards", "measured_external_cards",
            ] {
                add(column, cards.next(in: 0...3))
            }
            var ns = 0.0
            for (i, term) in CostTerm.all.enumerated() where counts[i] > 0 {
                let noise = CounterRandom.lognormalFactor(sigma: noiseSigma, seed, UInt64(frame), UInt64(i), 0)
                ns += truth[term.traceColumn]! * counts[i] * noise
            }
            if interruptions.chance(preempted) { ns += Double(interruptions.next(in: 4_000...25_000)) * 1_000 }
            // Traces record durations to the microsecond.
            frames.append(.init(line: frame + 2, durationNs: (ns / 1_000).rounded() * 1_000, counts: counts))
        }
        return CalibrationTrace(file: "scroll.csv", measured: CostTerm.all.map { _ in true }, frames: frames)
    }

    @Test(
        "a noisy 10,000-frame scroll gives back every cost within 5%, R² > 0.9, by either fit",
        arguments: Calibration.FitMethod.allCases)
    func roundTrip(_ method: Calibration.FitMethod) throws {
        let text = CalibrationTests.scrollTrace().csvText
        #expect(text.hasPrefix("frame_ms,cells_configured,"), "frames is 1 throughout, so left out")
        let trace = try CalibrationTrace(text: text, file: "scroll.csv")
        #expect(trace.frames.count == CalibrationTests.frameCount)
        let base = try CalibrationTests.bundledProfile()
        let calibration = try Calibration(trace: trace, base: base.costs, method: method)

        #expect(calibration.method == method)
        #expect(calibration.fitFrames == 8_000 && calibration.heldBackFrames == 2_000)
        #expect(calibration.rSquared > 0.9, "R² \(calibration.rSquared)")
        #expect(calibration.heldBackRSquared > 0.9, "held-back R² \(calibration.heldBackRSquared)")
        for fit in calibration.terms {
            let truth = try #require(CalibrationTests.truth[fit.term.traceColumn])
            #expect(fit.outcome == .fitted, "\(fit.term.key)")
            #expect(abs(fit.fitted / truth - 1) < 0.05, "\(fit.term.key): fitted \(fit.fitted), truth \(truth)")
            #expect(fit.term.cost(calibration.costs).value == fit.fitted)
            #expect(fit.unidentified == nil, "\(fit.term.key): \(fit.unidentified ?? "")")
        }
        #expect(calibration.heldBackMedianErrorMs < calibration.heldBackP90ErrorMs)
    }

    /// Each term's relative error against the truth, by `CostTerm.all`.
    static func errors(_ calibration: Calibration) -> [Double] {
        calibration.terms.map { $0.estimate / CalibrationTests.truth[$0.term.traceColumn]! - 1 }
    }

    @Test("with 1% of frames preempted by 4–25 ms, the robust fit keeps every cost within 5%; least squares does not")
    func preemptedRoundTrip() throws {
        let base = try CalibrationTests.bundledProfile()
        var table = ["term                           clean-huber clean-ls  1%-huber  1%-ls     1%-huber-±95%"]
        var results: [String: [Double]] = [:]
        var widths: [Double?] = []
        for share in [0.0, 0.01] {
            let trace = CalibrationTests.scrollTrace(preempted: share)
            for method in Calibration.FitMethod.allCases {
                let calibration = try Calibration(trace: trace, base: base.costs, method: method)
                results["\(share)-\(method)"] = CalibrationTests.errors(calibration)
                if share > 0, method == .huber {
                    widths = calibration.terms.map(\.relativeHalfWidth)
                    for fit in calibration.terms {
                        let truth = CalibrationTests.truth[fit.term.traceColumn]!
                        #expect(
                            fit.unidentified == nil,
                            "\(fit.term.key) is varied enough to identify: \(fit.unidentified ?? "")")
                        #expect(
                            abs(fit.estimate / truth - 1) < 0.05,
                            "\(fit.term.key): fitted \(fit.estimate), truth \(truth)")
                    }
                    let preempted = calibration.frames.filter { frame in
                        let index = frame.line - 2
                        return trace.frames[index].durationNs - frame.predictedMs * 1_000_000 > 3_000_000
                    }
                    #expect(preempted.count >= 80, "about 1% of 10,000 frames are preempted: \(preempted.count)")
                    let worst = calibration.downWeighted.prefix(Calibration.worstFramesListed)
                    #expect(worst.count == 5)
                    #expect(
                        worst.allSatisfy { $0.measuredMs - $0.predictedMs > 3 }, "the worst five are preempted frames")
                    #expect(
                        preempted.filter { !$0.heldBack }.allSatisfy { $0.weight < 0.5 },
                        "every preempted fitted frame is down-weighted")
                }
                if share > 0, method == .leastSquares {
                    let worst = CalibrationTests.errors(calibration).map(abs).max()!
                    #expect(worst > 0.05, "least squares is pulled off by the preempted frames (worst term \(worst))")
                }
            }
        }
        for (i, term) in CostTerm.all.enumerated() {
            let cells = ["0.0-huber", "0.0-leastSquares", "0.01-huber", "0.01-leastSquares"].map { key in
                String(format: "%+8.2f%%", results[key]![i] * 100)
            }
            let width = widths[i].map { String(format: "±%.1f%%", $0 * 100) } ?? "n/a"
            table.append(
                term.key.padding(toLength: 30, withPad: " ", startingAt: 0) + " " + cells.joined(separator: "  ") + "  "
                    + width)
        }
        print(table.joined(separator: "\n"))
    }

    @Test("a cost whose count barely varies, or moves with another count, is named as not identified")
    func unidentified() throws {
        var random = Xoshiro256StarStar(seed: 5)
        var lines = ["frame_ms,cells_configured,cells_measured,height_updates,offset_queries"]
        for frame in 0..<2_000 {
            let configured = random.next(in: 0...3)
            let measured = random.next(in: 0...2)
            // Equal to cells_measured but on one frame in a hundred.
            let heights = measured + (frame % 100 == 0 ? 1 : 0)
            // Lookups at 2 µs cost at most 40 µs a frame against 0.3 ms of noise.
            let queries = random.next(in: 0...20)
            let noise = (random.nextUnit() - 0.5) * 0.6
            let ms =
                3 + 0.8 * Double(configured) + 2.5 * Double(measured) + 0.05 * Double(heights) + 0.002 * Double(queries)
                + noise
            lines.append("\(ms),\(configured),\(measured),\(heights),\(queries)")
        }
        let trace = try CalibrationTrace(text: lines.joined(separator: "\n"), file: "t.csv")
        let base = try CalibrationTests.bundledProfile()
        let calibration = try Calibration(trace: trace, base: base.costs)
        func fit(_ key: String) -> Calibration.TermFit { calibration.terms.first { $0.term.key == key }! }
        #expect(fit("cell_configure").unidentified == nil)
        let heights = fit("height_update")
        #expect(
            heights.fitted > 0 && heights.unidentified?.contains("collinear with cells_measured") == true,
            "\(heights.fitted): \(heights.unidentified ?? "identified")")
        let queries = fit("offset_query")
        #expect(
            queries.fitted > 0 && queries.unidentified?.contains("varies too little") == true,
            "\(queries.fitted): \(queries.unidentified ?? "identified")")
        #expect(
            queries.interval.map { $0.contains(2_000) } == true,
            "the interval holds the truth: \(String(describing: queries.interval))")
    }

    @Test("the fitted profile reads back through the strict decoder, fitted costs and rationales in place")
    func fittedProfileLoads() throws {
        let base = try CalibrationTests.bundledProfile()
        let calibration = try Calibration(trace: CalibrationTests.scrollTrace(), base: base.costs)
        let fitted = calibration.profile(from: base, name: "fitted", traceName: "scroll.csv")
        let loaded = try ScenarioLoader.device(from: Data(fitted.jsonText.utf8), file: "fitted.json")
        #expect(loaded == fitted)
        #expect(loaded.name == "fitted")
        #expect(
            loaded.costs.frameBase.rationale.hasPrefix("Fitted by feedsim calibrate from scroll.csv over 8000 frames"))
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

    @Test("docs/calibration.md lists the trace columns exactly as CostTerm.all has them")
    func reference() throws {
        let root = CalibrationTests.devices.deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: root.appendingPathComponent("docs/calibration.md"), encoding: .utf8)
        #expect(
            text.contains(CalibrationTrace.markdownColumns + "\n"),
            "paste CalibrationTrace.markdownColumns into docs/calibration.md")
    }

    struct BadTrace: Sendable, CustomTestStringConvertible {
        var label: String
        var text: String
        var description: String
        var testDescription: String { label }
    }

    @Test(
        "a bad trace is refused naming the file, the line and the problem",
        arguments: [
            BadTrace(label: "empty", text: "", description: "t.csv:1: the file is empty"),
            BadTrace(
                label: "unknown column", text: "frame_ms,colour\n1,2\n",
                description: "t.csv:1: unknown column \"colour\""),
            BadTrace(
                label: "no duration", text: "cells_configured\n1\n",
                description: "t.csv:1: the header has no frame_ms column"),
            BadTrace(
                label: "repeated column", text: "frame_ms,frame_ms\n1,1\n",
                description: "t.csv:1: the header repeats the column \"frame_ms\""),
            BadTrace(
                label: "not a number", text: "frame_ms,cells_configured\n1,2\n3,many\n",
                description: "t.csv:3: cells_configured is \"many\""),
            BadTrace(
                label: "negative", text: "frame_ms,cells_configured\n-1,2\n", description: "t.csv:2: frame_ms is \"-1\""
            ),
            BadTrace(
                label: "short row", text: "frame_ms,cells_configured\n1\n",
                description: "t.csv:2: the row has 1 fields but the header has 2"),
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
        let trace = try CalibrationTrace(
            text: "frame_ms,cells_configured,cells_measured\n3,1,0\n4,0,1\n5,2,1\n", file: "t.csv")
        let base = try CalibrationTests.bundledProfile()
        #expect {
            _ = try Calibration(trace: trace, base: base.costs)
        } throws: { error in
            "\(error)"
                == "t.csv: the trace has 3 frames; fitting 3 terms with one frame in 5 held back needs at least 5"
        }
    }
}
