import ArgumentParser
import FeedReports
import FeedScenario
import FeedSimulator
import FoundationEssentials
import Glibc
import SystemSupport

extension FeedSim {
    /// `feedsim calibrate`: a device profile's main-thread costs fitted to a
    /// measured per-frame trace.
    struct Calibrate: ParsableCommand {
        /// The formats a trace may come in.
        enum TraceFormat: String, ExpressibleByArgument, CaseIterable {
            case csv
            case xctrace
        }

        static let configuration = CommandConfiguration(
            commandName: "calibrate",
            abstract: "Fit a device profile's main-thread costs to a measured per-frame trace.",
            discussion: """
                TRACE is a CSV file with a header and one row per frame: frame_ms (the \
                frame's main-thread duration) and one column per count (README, \
                "Calibration"); or, with --from xctrace, the os-signpost-interval table \
                `xctrace export` writes, one interval per frame (--signpost names them) \
                with the counts as key=value pairs in its end message. The costs of the \
                columns present are fitted with every cost ≥ 0 on all but every Kth \
                frame, by default robustly (Huber, so preempted frames are down-weighted \
                and listed); the rest are held back to measure the fit's error. Each \
                fitted cost gets a standard error and a 95% interval; costs the trace \
                cannot identify are named. Columns the trace leaves out, and columns that \
                are 0 on every frame, keep the base profile's cost.

                --report writes an HTML page of the fit; --check runs a scenario on the \
                fitted profile and on the base and compares their frame-time p50/p90/p99 \
                with the trace's.

                Exit codes: 0 success, 64 usage error (missing file, bad option), \
                65 invalid trace, base profile or check scenario (named with file and \
                line or JSON path), 1 output that cannot be written.
                """
        )

        @Argument(
            help: ArgumentHelp(
                "The measured trace (CSV, or an xctrace export with --from xctrace).", valueName: "trace"))
        var trace: String

        @Option(help: ArgumentHelp("The base device profile.", valueName: "base.json"))
        var device: String

        @Option(help: ArgumentHelp("Where to write the fitted profile.", valueName: "fitted.json"))
        var out: String

        @Option(
            help: ArgumentHelp(
                "The trace's format: csv, or xctrace (an os-signpost-interval table export).", valueName: "format"))
        var from: TraceFormat = .csv

        @Option(
            help: ArgumentHelp("With --from xctrace, the name of the per-frame signpost interval.", valueName: "name"))
        var signpost = XctraceExport.defaultSignpost

        @Option(
            help: ArgumentHelp("With --from xctrace, read only intervals of this os_log subsystem.", valueName: "id"))
        var subsystem: String?

        @Option(help: ArgumentHelp("The fit: huber (robust, the default) or least-squares.", valueName: "method"))
        var fit: Calibration.FitMethod = .huber

        @Option(
            help: ArgumentHelp(
                """
                Hold back every Kth frame (the Kth, 2Kth, …) to check the fit; at least \
                \(Calibration.minimumHoldOutEvery).
                """,
                valueName: "K"))
        var holdOutEvery = Calibration.defaultHoldOutEvery

        @Option(
            help: ArgumentHelp(
                "The fitted profile's name (default: the output file's name without .json).", valueName: "name"))
        var name: String?

        @Option(help: ArgumentHelp("Also write an HTML page of the fit.", valueName: "report.html"))
        var report: String?

        @Option(
            help: ArgumentHelp(
                """
                Run this scenario on the fitted and the base profile and compare frame-time percentiles with the \
                trace's.
                """,
                valueName: "scenario.json"))
        var check: String?

        func validate() throws {
            guard holdOutEvery >= Calibration.minimumHoldOutEvery else {
                throw ValidationError(
                    "--hold-out-every must be at least \(Calibration.minimumHoldOutEvery), found \(holdOutEvery)")
            }
            for path in [trace, device] + (check.map { [$0] } ?? []) {
                var isDirectory = false
                guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
                    throw ValidationError("No such file: \(path)")
                }
                guard !isDirectory else { throw ValidationError("\(path) is a folder, expected a file") }
            }
            if let name, name.isEmpty { throw ValidationError("--name must not be empty") }
            if from != .xctrace, signpost != XctraceExport.defaultSignpost || subsystem != nil {
                throw ValidationError("--signpost and --subsystem read an xctrace export: add --from xctrace")
            }
            if signpost.isEmpty { throw ValidationError("--signpost must not be empty") }
        }

        func run() throws {
            let base: DeviceProfile
            do {
                base = try ScenarioLoader.device(from: try read(device), file: device)
            } catch let error as ScenarioError {
                throw CommandFailure.invalidInput("invalid device profile: \(error)")
            }
            let calibration: Calibration
            let measured: CalibrationTrace
            do {
                switch from {
                case .csv: measured = try CalibrationTrace(data: try read(trace), file: trace)
                case .xctrace:
                    // Read as it streams: an export is tens of megabytes a
                    // minute of recording, and only its frames are kept.
                    try checkReadable(trace)
                    measured = try XctraceExport.trace(
                        url: URL(fileURLWithPath: trace), file: trace, signpost: signpost, subsystem: subsystem)
                }
                calibration = try Calibration(
                    trace: measured, base: base.costs, holdOutEvery: holdOutEvery, method: fit)
            } catch let error as CalibrationError {
                throw CommandFailure.invalidInput("invalid trace: \(error)")
            }
            let outURL = URL(fileURLWithPath: out)
            let traceName = URL(fileURLWithPath: trace).lastPathComponent
            let fittedName = name ?? outURL.deletingPathExtension().lastPathComponent
            let fitted = calibration.profile(from: base, name: fittedName, traceName: traceName)

            print(Calibrate.report(calibration, trace: trace, frames: measured.frames.count, baseName: base.name))
            do {
                try AtomicFile.write(fitted.jsonText, to: outURL)
            } catch {
                throw CommandFailure.internalFailure("cannot write \(out): \(error.readableDescription)")
            }
            print("wrote \(out)")

            var checked: CalibrationCheck?
            if let check {
                let loaded: LoadedScenario
                do {
                    loaded = try ScenarioLoader.load(url: URL(fileURLWithPath: check), file: check)
                } catch {
                    throw CommandFailure.invalidInput("invalid scenario: \(error)")
                }
                do {
                    checked = try CalibrationCheck(trace: measured, loaded: loaded, fitted: fitted, base: base)
                } catch {
                    throw CommandFailure.internalFailure("the check run failed: \(error)")
                }
                print("")
                print(Calibrate.checkReport(checked!, fittedName: fittedName, baseName: base.name))
            }
            if let report {
                let page = CalibrationReport(
                    calibration: calibration, trace: traceName, baseName: base.name, fittedName: fittedName,
                    check: checked)
                do {
                    try AtomicFile.write(page.html, to: URL(fileURLWithPath: report))
                } catch {
                    throw CommandFailure.internalFailure("cannot write \(report): \(error.readableDescription)")
                }
                print("wrote \(report)")
            }
        }

        /// Nothing when the file at `path` can be read; otherwise the message
        /// and exit 64 that reading it whole gives.
        private func checkReadable(_ path: String) throws {
            var isDirectory = false
            if FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory), !isDirectory,
                let handle = try? ReadableFile(path: path)
            {
                handle.close()
                return
            }
            _ = try read(path)
        }

        /// The file's bytes, or a message naming it and exit 64 when it cannot be read.
        private func read(_ path: String) throws -> Data {
            do {
                return try Data(contentsOf: URL(fileURLWithPath: path))
            } catch {
                throw CommandFailure.usage("cannot read \(path): \(error.readableDescription)")
            }
        }

        /// What the fit found, as people read it: the split, a table of
        /// terms with their intervals, the terms left at their base value or
        /// not identified, the down-weighted frames and the fit's quality.
        static func report(_ calibration: Calibration, trace: String, frames: Int, baseName: String) -> String {
            var lines = [
                "\(trace): \(frames) frames; fitted on \(calibration.fitFrames), "
                    + "held back \(calibration.heldBackFrames) (every \(ordinal(calibration.holdOutEvery)) frame)",
                "fit: \(calibration.method.title)"
                    + (calibration.method == .huber
                        ? """
                        , residual scale \(Calibration.format(calibration.scaleMs, 3)) ms (MAD), \
                        \(calibration.iterations) reweighting steps
                        """
                            + (calibration.converged ? "" : " (did not settle: the costs may be off)")
                        : ", residual σ \(Calibration.format(calibration.scaleMs, 3)) ms"),
                "",
            ]
            let rows = calibration.terms.map { fit -> [String] in
                let change: String
                switch fit.outcome {
                case .fitted:
                    change =
                        fit.base > 0 ? signed(Calibration.format((fit.fitted / fit.base - 1) * 100, 1)) + "%" : "new"
                case .notInTrace: change = "kept: not in trace"
                case .allZero: change = "kept: all zeros"
                case .dependent: change = "kept: not separable"
                }
                let interval =
                    fit.interval.map {
                        "\(number(Calibration.rounded($0.lowerBound)))–\(number(Calibration.rounded($0.upperBound)))"
                    } ?? ""
                let width = fit.relativeHalfWidth.map { "±" + Calibration.format($0 * 100, 1) + "%" } ?? ""
                return [
                    fit.term.key, fit.term.traceColumn, number(fit.base), number(fit.fitted), change, interval, width,
                ]
            }
            lines.append(
                TextGrid.render(
                    header: ["term", "column", "base_ns", "fitted_ns", "change", "95%_interval_ns", "±"], rows: rows))
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
            let weak = calibration.terms.filter { $0.unidentified != nil }
            if !weak.isEmpty {
                lines.append(
                    """
                    not identified by this trace (fitted, but wider than \
                    ±\(Calibration.format(Calibration.identificationLimit * 100, 0))% at 95%):
                    """
                )
                for fit in weak { lines.append("  \(fit.term.key): \(fit.unidentified!)") }
            }
            lines.append("R² \(Calibration.format(calibration.rSquared, 4)) on \(calibration.fitFrames) fitted frames")
            lines.append(
                """
                held back \(calibration.heldBackFrames) frames: R² \
                \(Calibration.format(calibration.heldBackRSquared, 4)),\u{20}
                """
                    + "absolute error median \(Calibration.format(calibration.heldBackMedianErrorMs, 3)) ms, "
                    + "p90 \(Calibration.format(calibration.heldBackP90ErrorMs, 3)) ms")
            if calibration.method == .huber {
                let down = calibration.downWeighted
                let share = Double(down.count) / Double(max(calibration.fitFrames, 1)) * 100
                lines.append(
                    """
                    down-weighted \(down.count) of \(calibration.fitFrames) fitted frames \
                    (\(Calibration.format(share, 1))%):\u{20}
                    """
                        + """
                        residual beyond \(Calibration.format(RobustFit.huberThreshold, 3)) × \
                        \(Calibration.format(calibration.scaleMs, 3)) ms
                        """
                )
                if !down.isEmpty {
                    lines.append("most down-weighted:")
                    let worst = down.prefix(Calibration.worstFramesListed).map { frame -> [String] in
                        [
                            "\(frame.line)", Calibration.format(frame.measuredMs, 3),
                            Calibration.format(frame.predictedMs, 3),
                            signed(Calibration.format(frame.measuredMs - frame.predictedMs, 3)),
                            Calibration.format(frame.weight, 3),
                        ]
                    }
                    lines.append(
                        TextGrid.render(
                            header: ["line", "measured_ms", "predicted_ms", "residual_ms", "weight"], rows: worst))
                }
            }
            return lines.joined(separator: "\n")
        }

        /// The check's table: the trace's frame-time percentiles beside the
        /// scenario's on the fitted and the base profile.
        static func checkReport(_ check: CalibrationCheck, fittedName: String, baseName: String) -> String {
            func row(_ label: String, _ values: CalibrationCheck.Percentiles, frames: Int) -> [String] {
                [label, "\(frames)"]
                    + values.all.enumerated().map { i, value in
                        let reference = check.trace.all[i]
                        let change =
                            reference > 0
                            ? " (" + signed(Calibration.format((value / reference - 1) * 100, 1)) + "%)" : ""
                        return Calibration.format(value, 3) + (label == "trace" ? "" : change)
                    }
            }
            let rows = [
                row("trace", check.trace, frames: check.traceFrames),
                row("\(fittedName) (fitted)", check.fitted, frames: check.fittedFrames),
                row("\(baseName) (base)", check.base, frames: check.baseFrames),
            ]
            return
                """
                check: \(check.scenario), \(check.runs) run\(check.runs == 1 ? "" : "s") per profile; frame time \
                ms (change against the trace)\n
                """
                    + TextGrid.render(header: ["", "frames", "p50", "p90", "p99"], rows: rows)
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

extension Calibration.FitMethod: ExpressibleByArgument {}
