import Determinism
import FeedImport
import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

/// Reading session logs: what a good log becomes, and what each kind of
/// malformed line is refused with.
@Suite("Session logs")
struct SessionLogTests {
    /// The issue's example log, one session.
    static let exampleLog = """
        {"session": "s1", "t_ms": 0, "type": "touch_down", "y_pt": 600.0}
        {"session": "s1", "t_ms": 16.7, "type": "touch_move", "y_pt": 571.5}
        {"session": "s1", "t_ms": 120.0, "type": "touch_up", "y_pt": 420.0}
        {"session": "s1", "t_ms": 5000, "type": "refresh"}
        {"session": "s1", "t_ms": 9000, "type": "background"}
        {"session": "s1", "t_ms": 21000, "type": "foreground"}
        {"session": "s1", "t_ms": 30000, "type": "rotate", "width_pt": 844, "height_pt": 390}
        {"session": "s1", "t_ms": 40000, "type": "text_size", "scale": 1.2}
        {"session": "s1", "t_ms": 41000, "type": "status_bar_tap"}
        {"session": "s1", "t_ms": 42000, "type": "like"}

        """

    /// The sessions of `text` written to a scratch file.
    static func read(_ text: String) throws -> [RecordedSession] {
        let folder = try ScratchFolder(prefix: "feedsim-sessions")
        defer { folder.remove() }
        try folder.write(text, to: "log.jsonl")
        return try SessionLogReader.read(path: folder.appending("log.jsonl").path)
    }

    @Test("the issue's example reads as one gesture and six app events, in time order")
    func example() throws {
        let sessions = try Self.read(Self.exampleLog)
        #expect(sessions.count == 1)
        let session = try #require(sessions.first)
        #expect(session.id == "s1" && session.endNs == 42_000_000_000)
        #expect(session.gestures.count == 1)
        #expect(session.gestures[0].displacementPt == 180)
        #expect(session.gestures[0].trajectory.map(\.timeNs) == [0, 16_700_000, 120_000_000])
        #expect(
            session.steps.dropFirst().map { step -> RecordedAppEvent? in
                if case let .app(_, event) = step { event } else { nil }
            } == [
                .refresh, .background(durationNs: 12_000_000_000), .rotate(widthPt: 844, heightPt: 390),
                .textSize(scale: 1.2),
                .statusBarTap, .like,
            ])
    }

    /// A malformed log, the line it fails on and a fragment of what it says.
    struct BadLog: CustomTestStringConvertible, Sendable {
        var name: String
        var text: String
        var line: Int?
        var says: String
        var testDescription: String { name }
    }

    static let down = #"{"session": "a", "t_ms": 0, "type": "touch_down", "y_pt": 500}"#

    static let badLogs: [BadLog] = [
        BadLog(name: "not JSON", text: "{\"session\": \"a\",\n", line: 1, says: "expected one JSON object on the line"),
        BadLog(name: "no session", text: #"{"t_ms": 0, "type": "like"}"#, line: 1, says: "expected `session`"),
        BadLog(
            name: "unknown type", text: #"{"session": "a", "t_ms": 0, "type": "swipe"}"#, line: 1, says: "found `swipe`"
        ),
        BadLog(
            name: "time as a string", text: #"{"session": "a", "t_ms": "0", "type": "like"}"#, line: 1,
            says: "`t_ms` a number"),
        BadLog(
            name: "y as a bool", text: #"{"session": "a", "t_ms": 0, "type": "touch_down", "y_pt": true}"#, line: 1,
            says: "`y_pt` a number"),
        BadLog(
            name: "missing y", text: #"{"session": "a", "t_ms": 0, "type": "touch_down"}"#, line: 1,
            says: "expected `y_pt`"),
        BadLog(
            name: "unknown field", text: #"{"session": "a", "t_ms": 0, "type": "like", "post": 3}"#, line: 1,
            says: "found `post`"),
        BadLog(
            name: "negative time", text: #"{"session": "a", "t_ms": -5, "type": "like"}"#, line: 1,
            says: "`t_ms` in 0.0…"),
        BadLog(
            name: "text size out of range", text: #"{"session": "a", "t_ms": 0, "type": "text_size", "scale": 9}"#,
            line: 1,
            says: "`scale` in 0.5…3.5"),
        BadLog(
            name: "time goes back",
            text: #"{"session": "a", "t_ms": 50, "type": "like"}"# + "\n"
                + #"{"session": "a", "t_ms": 10, "type": "like"}"#,
            line: 2, says: "expected t_ms at least 50.0"),
        BadLog(
            name: "move without a touch", text: #"{"session": "a", "t_ms": 0, "type": "touch_move", "y_pt": 1}"#,
            line: 1,
            says: "expected `touch_down` before `touch_move`"),
        BadLog(
            name: "two touch-downs",
            text: down + "\n" + down.replacingOccurrences(of: "\"t_ms\": 0", with: "\"t_ms\": 5"), line: 2,
            says: "while the finger from line 1 is down"),
        BadLog(
            name: "two touches at one time",
            text: down + "\n" + down.replacingOccurrences(of: "touch_down", with: "touch_up"), line: 2,
            says: "expected a touch later than the previous one"),
        BadLog(
            name: "never lifted", text: #"{"session": "z", "t_ms": 0, "type": "like"}"# + "\n" + down, line: 2,
            says: "expected a `touch_up` for this `touch_down`"),
        BadLog(
            name: "foreground first", text: #"{"session": "a", "t_ms": 0, "type": "foreground"}"#, line: 1,
            says: "expected `background` before `foreground`"),
        BadLog(
            name: "touch in the background",
            text: #"{"session": "a", "t_ms": 0, "type": "background"}"# + "\n" + down, line: 2,
            says: "expected `foreground` after the `background` on line 1"),
        BadLog(
            name: "a line too long", text: String(repeating: " ", count: 5000) + "{}", line: 1,
            says: "at most 4096 bytes"),
    ]

    @Test("a malformed log is refused with its file, line and what was expected", arguments: badLogs)
    func malformed(_ bad: BadLog) throws {
        let folder = try ScratchFolder(prefix: "feedsim-sessions")
        defer { folder.remove() }
        try folder.write(bad.text, to: "bad.jsonl")
        let path = folder.appending("bad.jsonl").path
        do {
            let sessions = try SessionLogReader.read(path: path)
            Issue.record("read \(sessions.count) sessions from a malformed log")
        } catch {
            #expect(error.file == path)
            #expect(error.line == bad.line, "\(error)")
            #expect(error.description.contains(bad.says), "\(error)")
        }
    }

    @Test("blank lines and a final line without a newline are read; a folder's .jsonl logs are read in name order")
    func folder() throws {
        let folder = try ScratchFolder(prefix: "feedsim-sessions")
        defer { folder.remove() }
        try folder.write(#"{"session": "b", "t_ms": 0, "type": "like"}"# + "\n\n", to: "logs/2.jsonl")
        try folder.write(#"{"session": "a", "t_ms": 0, "type": "like"}"#, to: "logs/1.jsonl")
        try folder.write("not a log", to: "logs/notes.txt")
        let sessions = try SessionLogReader.read(path: folder.appending("logs").path)
        #expect(sessions.map(\.id) == ["a", "b"])
    }
}

/// Mutated logs: whatever the bytes, the reader returns sessions or a
/// problem with a place, and never crashes or hangs.
@Suite("Session log mutations")
struct SessionLogMutationTests {
    @Test("2,000 seeded byte mutations of the example log each read or fail with a file problem")
    func mutations() throws {
        let folder = try ScratchFolder(prefix: "feedsim-sessions")
        defer { folder.remove() }
        let original = Array(SessionLogTests.exampleLog.utf8)
        let alphabet = Array(#"{}[]":,.-0123456789eE \#ntruefalsnul"#.utf8) + [0xFF, 0x00]
        var random = Xoshiro256StarStar(seed: 44)
        var read = 0, refused = 0
        for round in 0..<2_000 {
            var bytes = original
            for _ in 0...random.next(in: 0...3) {
                let index = random.nextIndex(below: bytes.count)
                switch random.nextIndex(below: 3) {
                case 0: bytes[index] = alphabet[random.nextIndex(below: alphabet.count)]
                case 1: bytes.remove(at: index)
                default: bytes.insert(alphabet[random.nextIndex(below: alphabet.count)], at: index)
                }
            }
            let path = folder.appending("m\(round % 10).jsonl")
            try Data(bytes).write(to: path)
            do {
                _ = try SessionLogReader.read(path: path.path)
                read += 1
            } catch {
                #expect(error.file == path.path)
                #expect(!error.problem.isEmpty)
                refused += 1
            }
        }
        #expect(read + refused == 2_000 && refused > 0 && read > 0, "read \(read), refused \(refused)")
    }
}
