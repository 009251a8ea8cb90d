import FeedScenario
import FoundationEssentials

/// One line of a session log: what the reader or the app did, when, in
/// which recorded session.
package struct SessionEvent: Sendable, Equatable {
    /// What happened.
    package enum Kind: Sendable, Equatable {
        /// A finger touched the screen at `yPt` (points from the top of the screen).
        case touchDown(yPt: Double)
        /// The finger moved to `yPt`.
        case touchMove(yPt: Double)
        /// The finger lifted at `yPt`.
        case touchUp(yPt: Double)
        /// The app refreshed the feed other than by a pull (a tab re-tap, a timer).
        case refresh
        /// The app went to the background.
        case background
        /// The app came back to the foreground.
        case foreground
        /// The window became `widthPt` × `heightPt`.
        case rotate(widthPt: Double, heightPt: Double)
        /// The reader chose a Dynamic Type size, `scale` times the default.
        case textSize(scale: Double)
        /// The reader tapped the status bar.
        case statusBarTap
        /// The reader liked the first visible post.
        case like
    }

    /// The session's id as the log gives it (never written out: hashed).
    package var session: String
    /// Milliseconds since the session's start.
    package var timeMs: Double
    /// The same time in nanoseconds, rounded as a scenario rounds `t_ms`.
    package var timeNs: Int64 { Int64((timeMs * 1_000_000).rounded()) }
    package var kind: Kind
    /// The 1-based line of the log it came from.
    package var line: Int
}

extension SessionEvent {
    /// The event types a log line's `type` may name, with the fields each
    /// takes besides `session`, `t_ms` and `type`.
    package static let fieldsByType: [(type: String, fields: [String])] = [
        ("touch_down", ["y_pt"]), ("touch_move", ["y_pt"]), ("touch_up", ["y_pt"]),
        ("refresh", []), ("background", []), ("foreground", []),
        ("rotate", ["width_pt", "height_pt"]), ("text_size", ["scale"]),
        ("status_bar_tap", []), ("like", []),
    ]

    /// The longest log line read, in bytes: a line longer than this is not
    /// one event.
    package static let maximumLineBytes = 4096

    /// The longest session, in ms: a day, the scenario format's limit.
    package static let maximumTimeMs = 86_400_000.0

    /// Parses one line of `file`, the `line`th.
    package static func parse(_ text: Substring, file: String, line: Int) throws(FileProblem) -> SessionEvent {
        func fail(_ problem: String) -> FileProblem { FileProblem(file: file, line: line, problem: problem) }
        let object: LogLine
        do {
            object = try JSONDecoder().decode(LogLine.self, from: Data(text.utf8))
        } catch {
            throw fail("expected one JSON object on the line, found `\(text.prefix(60))`")
        }
        guard let session = object.strings["session"], !session.isEmpty else {
            throw fail("expected `session`, a non-empty string")
        }
        guard let type = object.strings["type"] else { throw fail("expected `type`, a string") }
        guard let fields = fieldsByType.first(where: { $0.type == type })?.fields else {
            let known = fieldsByType.map(\.type).joined(separator: ", ")
            throw fail("expected `type` one of \(known), found `\(type)`")
        }
        let allowed = ["session", "t_ms", "type"] + fields
        if let extra = object.keys.first(where: { !allowed.contains($0) }) {
            throw fail(
                "expected only the fields \(allowed.joined(separator: ", ")) in a `\(type)` event, found `\(extra)`")
        }
        let time = try number(object, "t_ms", in: 0...maximumTimeMs, fail)
        var values: [Double] = []
        for field in fields { values.append(try number(object, field, in: bounds(of: field), fail)) }
        return SessionEvent(session: session, timeMs: time, kind: kind(type, values), line: line)
    }

    /// The range a field's value must lie in.
    private static func bounds(of field: String) -> ClosedRange<Double> {
        switch field {
        case "scale": 0.5...3.5
        case "width_pt", "height_pt": 100...5_000
        default: -100_000...100_000
        }
    }

    /// `field` of `object` as a finite number in `range`.
    private static func number(
        _ object: LogLine, _ field: String, in range: ClosedRange<Double>, _ fail: (String) -> FileProblem
    ) throws(FileProblem) -> Double {
        guard object.keys.contains(field) else { throw fail("expected `\(field)`, a number") }
        guard let value = object.numbers[field] else { throw fail("expected `\(field)` a number") }
        guard value.isFinite, range.contains(value) else {
            throw fail("expected `\(field)` in \(range.lowerBound)…\(range.upperBound), found \(value)")
        }
        return value
    }

    /// The kind `type` names, with its fields' `values` in `fieldsByType` order.
    private static func kind(_ type: String, _ values: [Double]) -> Kind {
        switch type {
        case "touch_down": .touchDown(yPt: values[0])
        case "touch_move": .touchMove(yPt: values[0])
        case "touch_up": .touchUp(yPt: values[0])
        case "refresh": .refresh
        case "background": .background
        case "foreground": .foreground
        case "rotate": .rotate(widthPt: values[0], heightPt: values[1])
        case "text_size": .textSize(scale: values[0])
        case "status_bar_tap": .statusBarTap
        default: .like
        }
    }
}

/// A log line's JSON object: its keys in sorted order, and the values that
/// are strings or numbers (a value of another type is in neither).
struct LogLine: Decodable {
    var keys: [String] = []
    var strings: [String: String] = [:]
    var numbers: [String: Double] = [:]

    /// The fields whose values are strings; every other field's is a number.
    static let textFields: Set<String> = ["session", "type"]

    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Key.self)
        keys = container.allKeys.map(\.stringValue).sorted()
        // Each key is tried first as what its field is (a failed decode
        // throws, which costs more than the decode), then as the other.
        for key in container.allKeys {
            if LogLine.textFields.contains(key.stringValue) {
                if let string = try? container.decode(String.self, forKey: key) { strings[key.stringValue] = string }
            } else if let number = try? container.decode(Double.self, forKey: key) {
                numbers[key.stringValue] = number
            }
        }
    }
}
