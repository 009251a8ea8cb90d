import FoundationEssentials
import Glibc
import Synchronization
import SystemSupport

/// How far a suite has got, on stderr; never on stdout, never in a result
/// file, so it may read the wall clock.
///
/// On a terminal a one-line bar is redrawn in place, every second and when a
/// run finishes: `[#####...............] 12/40 runs, 28 left, 00:41 elapsed`.
/// Elsewhere (a CI log, a file) a plain line is written when a run finishes
/// and either another tenth of the runs is done since the last line or
/// `lineInterval` has passed since it: `feedsim: 12/40 runs done, 00:41 elapsed`.
final class Progress: Sendable {
    /// How progress is shown.
    enum Mode: Sendable, Equatable {
        /// Nothing (`--quiet`).
        case off
        /// A bar redrawn in place.
        case terminal
        /// Plain lines.
        case lines
    }

    /// Cells in the terminal bar.
    static let barWidth = 20
    /// Longest wait between plain lines while runs keep finishing.
    static let lineInterval: Duration = .seconds(10)
    /// Share of the runs between plain lines.
    static let lineFraction = 10
    /// How often the terminal bar is redrawn so its clock keeps moving.
    static let redrawInterval: Duration = .seconds(1)

    private struct State {
        var done = 0
        var stopped = false
        /// Runs done when the last plain line was written.
        var doneAtLastLine = 0
        var lastLine: ContinuousClock.Instant
    }

    let total: Int
    let mode: Mode
    private let start: ContinuousClock.Instant
    private let state: Mutex<State>

    /// Progress over `total` runs: off when `quiet`, a bar when stderr is a
    /// terminal, plain lines otherwise. The bar is drawn at once.
    init(total: Int, quiet: Bool) {
        self.total = total
        self.mode = quiet ? .off : (isatty(STDERR_FILENO) == 1 ? .terminal : .lines)
        let now = ContinuousClock.now
        self.start = now
        self.state = Mutex(State(lastLine: now))
        guard mode == .terminal else { return }
        redraw()
        SystemThread.detached { [self] in
            while true {
                SystemThread.sleep(seconds: Progress.seconds(Progress.redrawInterval))
                if !redraw() { break }
            }
        }
    }

    /// Hears that `done` runs have finished.
    func finished(_ done: Int) {
        switch mode {
        case .off:
            return
        case .terminal:
            state.withLock { $0.done = max($0.done, done) }
            redraw()
        case .lines:
            let line = state.withLock { s -> String? in
                guard !s.stopped, done > s.done else { return nil }
                s.done = done
                let now = ContinuousClock.now
                let step =
                    done * Progress.lineFraction / max(1, total) > s.doneAtLastLine * Progress.lineFraction
                    / max(1, total)
                guard step || now - s.lastLine >= Progress.lineInterval else { return nil }
                s.doneAtLastLine = done
                s.lastLine = now
                return "feedsim: \(done)/\(total) runs done, \(Progress.clock(now - start)) elapsed\n"
            }
            if let line { write(line) }
        }
    }

    /// Clears the bar; nothing more is shown after this.
    func finish() {
        let clear = state.withLock { s -> Bool in
            defer { s.stopped = true }
            return !s.stopped && mode == .terminal
        }
        if clear { write("\r\u{1B}[2K") }
    }

    /// Draws the bar unless stopped; false once stopped. Drawing under the
    /// lock keeps a late redraw from landing after `finish` cleared the line.
    @discardableResult
    private func redraw() -> Bool {
        state.withLock { s -> Bool in
            guard !s.stopped else { return false }
            write("\r\u{1B}[2K" + Progress.bar(done: s.done, total: total, elapsed: ContinuousClock.now - start))
            return true
        }
    }

    /// The terminal bar's text.
    static func bar(done: Int, total: Int, elapsed: Duration) -> String {
        let filled = total == 0 ? barWidth : done * barWidth / total
        let cells = String(repeating: "#", count: filled) + String(repeating: ".", count: barWidth - filled)
        return "[\(cells)] \(done)/\(total) runs, \(total - done) left, \(clock(elapsed)) elapsed"
    }

    /// `mm:ss`, or `h:mm:ss` from an hour on.
    static func clock(_ elapsed: Duration) -> String {
        let seconds = Int(elapsed.components.seconds)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        if seconds >= 3600 { return "\(seconds / 3600):\(two(seconds / 60 % 60)):\(two(seconds % 60))" }
        return "\(two(seconds / 60)):\(two(seconds % 60))"
    }

    private static func seconds(_ duration: Duration) -> TimeInterval {
        Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
    }

    private func write(_ text: String) {
        try? WritableFile.standardError.write(Data(text.utf8))
    }
}
