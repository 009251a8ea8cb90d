import ArgumentParser
import FeedReports
import FeedScenario
import FeedSimulator
import Foundation

extension FeedSim {
    /// `feedsim calibrate`: a device profile's main-thread costs fitted to a
    /// measured per-frame trace.
    struct Calibrate: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Fit a device profile's main-thread costs to a measured per-frame trace.",
            discussion: """
                TRACE is a CSV file with a header and one row per frame: frame_ms (the \
                frame's main-thread duration) and one column per count (README, \
                "Calibration"). The costs of the columns present are fitted by \
                non-negative least squares on all but every Kth frame; the rest are \
                held back to measure the fit's error. Columns the trace leaves out, and \
                columns that are 0 on every frame, keep the base profile's cost.

                Exit codes: 0 success, 64 usage error (missing file, bad option), \
                65 invalid trace or base profile (named with file and line or JSON \
                path), 1 output that cannot be written.
                """
        )

        @Argument(help: ArgumentHelp("The measured trace (CSV).", valueName: "trace.csv"))
        var trace: String

        @Option(help: ArgumentHelp("The base device profile.", valueName: "base.json"))
        var device: String

        @Option(help: ArgumentHelp("Where to write the fitted profile.", valueName: "fitted.json"))
        var out: String

        @Option(help: ArgumentHelp(
            "Hold back every Kth frame (the Kth, 2Kth, …) to check the fit; at least \(Calibration.minimumHoldOutEvery).",
            valueName: "K"))
        var holdOutEvery = Calibration.defaultHoldOutEvery

        @Option(help: ArgumentHelp("The fitted profile's name (default: the output file's name without .json).", valueName: "name"))
        var name: String?

        func validate() throws {
            guard holdOutEvery >= Calibration.minimumHoldOutEvery else {
                throw ValidationError("--hold-out-every must be at least \(Calibration.minimumHoldOutEvery), found \(holdOutEvery)")
            }
            for path in [trace, device] {
                var isDirectory: ObjCBool = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw ValidationError("No such file: \(path)")
                }
                guard !isDirectory.boolValue else { throw ValidationError("\(path) is a folder, expected a file") }
            }
            if let name, name.isEmpty { throw ValidationError("--name must not be empty") }
        }

        func run() throws {
            let base: DeviceProfile
            do {
                base = try ScenarioLoader.device(from: try read(device), file: device)
            } catch let error as ScenarioError {
                printError("invalid device profile: \(error)")
                throw FeedSimExit.invalidScenario
            }
            let calibration: Calibration
            let measured: CalibrationTrace
            do {
                measured = try CalibrationTrace(data: try read(trace), file: trace)
                calibration = try Calibration(trace: measured, base: base.costs, holdOutEvery: holdOutEvery)
            } catch let error as CalibrationError {
                printError("invalid trace: \(error)")
                throw FeedSimExit.invalidScenario
            }
            let outURL = URL(fileURLWithPath: out)
            let traceName = URL(fileURLWithPath: trace).lastPathComponent
            let fittedName = name ?? outURL.deletingPathExtension().lastPathComponent
            let fitted = calibration.profile(from: base, name: fittedName, traceName: traceName)

            print(Calibrate.report(calibration, trace: trace, frames: measured.frames.count, baseName: base.name))
            do {
                try AtomicFile.write(fitted.jsonText, to: outURL)
            } catch {
                printError("cannot write \(out): \(error.localizedDescription)")
                throw FeedSimExit.internalFailure
            }
            print("wrote \(out)")
        }

        /// The file's bytes, or a message naming it and exit 64 when it cannot be read.
        private func read(_ path: String) throws -> Data {
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                printError("cannot read \(path): \(error.localizedDescription)")
                throw FeedSimExit.usage
            }
        }

        /// What the fit found, as people read it: the split, a table of
        /// terms, the terms left at their base value and the fit's quality.
        static func report(_ calibration: Calibration, trace: String, frames: Int, baseName: String) -> String {
            var lines = [
                "\(trace): \(frames) frames; fitted on \(calibration.fitFrames), "
                    + "held back \(calibration.heldBackFrames) (every \(ordinal(calibration.holdOutEvery)) frame)",
                "",
            ]
            let rows = calibration.terms.map { fit -> [String] in
                let change: String
                switch fit.outcome {
                case .fitted:
                    change = fit.base > 0 ? signed(Calibration.format((fit.fitted / fit.base - 1) * 100, 1)) + "%" : "new"
                case .notInTrace: change = "kept: not in trace"
                case .allZero: change = "kept: all zeros"
                case .dependent: change = "kept: not separable"
                }
                return [fit.term.key, fit.term.traceColumn, number(fit.base), number(fit.fitted), change]
            }
            lines.append(TextGrid.render(header: ["term", "column", "base_ns", "fitted_ns", "change"], rows: rows))
            lines.append("")
            let groups: [(Calibration.Outcome, String)] = [
                (.notInTrace, "not in the trace, kept from \(baseName)"),
                (.allZero, "0 on every fitted frame, so not identifiable; kept from \(baseName)"),
                (.dependent, "a linear combination of other columns, so not identifiable; kept from \(baseName)"),
            ]
            for (outcome, heading) in groups {
                let keys = calibration.terms.filter { $0.outcome == outcome }.map(\.term.key)
                if !keys.isEmpty { lines.append("\(heading): \(keys.joined(separator: ", "))") }
            }
            let clamped = calibration.terms.filter { $0.outcome == .fitted && $0.fitted == 0 }.map(\.term.key)
            if !clamped.isEmpty {
                lines.append("held at 0 by the non-negativity constraint: \(clamped.joined(separator: ", "))")
            }
            lines.append("R² \(Calibration.format(calibration.rSquared, 4)) on \(calibration.fitFrames) fitted frames")
            lines.append(
                "held back \(calibration.heldBackFrames) frames: R² \(Calibration.format(calibration.heldBackRSquared, 4)), "
                    + "absolute error median \(Calibration.format(calibration.heldBackMedianErrorMs, 3)) ms, "
                    + "p90 \(Calibration.format(calibration.heldBackP90ErrorMs, 3)) ms")
            return lines.joined(separator: "\n")
        }

        private static func number(_ value: Double) -> String {
            value == value.rounded() ? Calibration.format(value, 0) : Calibration.format(value, 3)
        }

        private static func signed(_ text: String) -> String {
            text.hasPrefix("-") ? text : "+" + text
        }

        private static func ordinal(_ k: Int) -> String {
            switch (k % 10, k % 100) {
            case (1, let t) where t != 11: "\(k)st"
            case (2, let t) where t != 12: "\(k)nd"
            case (3, let t) where t != 13: "\(k)rd"
            default: "\(k)th"
            }
        }
    }
}
