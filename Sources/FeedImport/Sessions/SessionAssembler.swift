import FeedScenario

/// Turns one session's events, in log order, into a `RecordedSession`,
/// checking that they make a session a phone could record: time never goes
/// back, a finger lifts only after it touched down, the app returns from
/// the background only after it went there.
struct SessionAssembler {
    private let id: String
    private var file: String
    private let firstLine: Int
    private var steps: [RecordedSession.Step] = []
    private var lastNs: Int64 = 0
    private var lastLine = 0
    private var finger: [RecordedGesture.Sample] = []
    private var fingerLine = 0
    private var backgroundAt: (ns: Int64, line: Int)?

    init(id: String, file: String, firstLine: Int) {
        self.id = id
        self.file = file
        self.firstLine = firstLine
    }

    /// Adds `event`, the session's next in the log.
    mutating func add(_ event: SessionEvent, file: String) throws(FileProblem) {
        func fail(_ problem: String) -> FileProblem { FileProblem(file: file, line: event.line, problem: problem) }
        let ns = event.timeNs
        guard ns >= lastNs else {
            throw fail(
                """
                expected t_ms at least \(Double(lastNs) / 1e6) (this session's event on line \(lastLine)), found \
                \(event.timeMs)
                """
            )
        }
        if let away = backgroundAt, event.kind != .foreground {
            throw fail(
                "expected `foreground` after the `background` on line \(away.line), found `\(event.kind.typeName)`")
        }
        switch event.kind {
        case let .touchDown(y):
            guard finger.isEmpty else {
                throw fail(
                    """
                    expected `touch_move` or `touch_up` while the finger from line \(fingerLine) is down, found \
                    `touch_down`
                    """
                )
            }
            finger = [.init(timeNs: ns, yPt: y)]
            fingerLine = event.line
            self.file = file
        case let .touchMove(y), let .touchUp(y):
            guard let last = finger.last else { throw fail("expected `touch_down` before `\(event.kind.typeName)`") }
            guard ns > last.timeNs else {
                throw fail(
                    """
                    expected a touch later than the previous one at t_ms \(Double(last.timeNs) / 1e6), found \
                    \(event.timeMs)
                    """
                )
            }
            finger.append(.init(timeNs: ns, yPt: y))
            if case .touchUp = event.kind {
                steps.append(.gesture(RecordedGesture(samples: finger)))
                finger = []
            }
        case .foreground:
            guard let away = backgroundAt else { throw fail("expected `background` before `foreground`") }
            steps.append(.app(atNs: away.ns, .background(durationNs: max(ns - away.ns, 1))))
            backgroundAt = nil
        case .background:
            backgroundAt = (ns, event.line)
        default:
            steps.append(.app(atNs: ns, event.kind.appEvent!))
        }
        lastNs = ns
        lastLine = event.line
    }

    /// The session, once its last event is in.
    func finish() throws(FileProblem) -> RecordedSession {
        guard finger.isEmpty else {
            throw FileProblem(
                file: file, line: fingerLine,
                problem: "expected a `touch_up` for this `touch_down` before the session ends")
        }
        // A session that goes to the background for good ends there.
        return RecordedSession(id: id, steps: steps, endNs: backgroundAt?.ns ?? lastNs, firstLine: firstLine)
    }
}

extension SessionEvent.Kind {
    /// The event's `type` in a log.
    var typeName: String {
        switch self {
        case .touchDown: "touch_down"
        case .touchMove: "touch_move"
        case .touchUp: "touch_up"
        case .refresh: "refresh"
        case .background: "background"
        case .foreground: "foreground"
        case .rotate: "rotate"
        case .textSize: "text_size"
        case .statusBarTap: "status_bar_tap"
        case .like: "like"
        }
    }

    /// The app event this is, for the kinds that are one on their own.
    var appEvent: RecordedAppEvent? {
        switch self {
        case .refresh: .refresh
        case let .rotate(width, height): .rotate(widthPt: width, heightPt: height)
        case let .textSize(scale): .textSize(scale: scale)
        case .statusBarTap: .statusBarTap
        case .like: .like
        case .touchDown, .touchMove, .touchUp, .background, .foreground: nil
        }
    }
}
