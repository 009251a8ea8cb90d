import FeedScenario
import FoundationEssentials
import Glibc
import SystemSupport

/// Reads session logs (JSON Lines, one `SessionEvent` a line) a line at a
/// time, so a log of any length needs memory for its sessions' touches, not
/// for its text.
package enum SessionLogReader {
    /// Bytes read from a log at a time.
    static let chunkBytes = 1 << 16

    /// The sessions in the log at `path`, or in every `.jsonl` file of the
    /// folder at `path` in name order, in the order each first appears;
    /// `path` is named as given in every diagnostic.
    /// - Complexity: O(lines), one pass over the text.
    package static func read(path: String) throws(FileProblem) -> [RecordedSession] {
        var sessions = SessionTable()
        for file in try logFiles(at: path) {
            try forEachLine(of: file) { (text: Substring, line: Int) throws(FileProblem) in
                let trimmed = text.drop { $0 == " " || $0 == "\t" }
                guard !trimmed.isEmpty else { return }
                let event = try SessionEvent.parse(text, file: file, line: line)
                try sessions.add(event, file: file)
            }
        }
        return try sessions.finish()
    }

    /// The log files `path` names: itself, or a folder's `.jsonl` files.
    static func logFiles(at path: String) throws(FileProblem) -> [String] {
        var isFolder = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder) else {
            throw FileProblem(
                file: path, line: nil, problem: "expected a session log or a folder of them, found nothing there")
        }
        guard isFolder else { return [path] }
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
            $0.hasSuffix(".jsonl")
        }.sorted()
        guard !names.isEmpty else {
            throw FileProblem(
                file: path, line: nil, problem: "expected at least one `.jsonl` session log in the folder, found none")
        }
        return names.map { FilePath.join(path, $0) }
    }

    /// Calls `body` with each line of `file` (without its newline) and its
    /// 1-based number.
    static func forEachLine(
        of file: String, _ body: (Substring, Int) throws(FileProblem) -> Void
    ) throws(FileProblem) {
        guard let handle = try? ReadableFile(path: file) else {
            throw FileProblem(file: file, line: nil, problem: "expected a readable session log")
        }
        defer { handle.close() }
        var pending = Data()
        var line = 0
        while true {
            let chunk: Data
            do {
                chunk = try handle.read(upToCount: chunkBytes)
            } catch {
                throw FileProblem(file: file, line: nil, problem: "cannot read the file (\(error.readableDescription))")
            }
            pending.append(chunk)
            // Lines are cut from the front by index, and the consumed bytes
            // dropped once per chunk: dropping each line would move the
            // rest of the chunk every time.
            var start = pending.startIndex
            while let newline = pending[start...].firstIndex(of: 0x0A) {
                line += 1
                try emit(pending[start..<newline], file: file, line: line, body)
                start = newline + 1
            }
            pending.removeSubrange(pending.startIndex..<start)
            if pending.count > SessionEvent.maximumLineBytes {
                throw FileProblem(
                    file: file, line: line + 1,
                    problem:
                        """
                        expected a line of at most \(SessionEvent.maximumLineBytes) bytes (one event), found a \
                        longer one
                        """
                )
            }
            if chunk.isEmpty { break }
        }
        if !pending.isEmpty { try emit(pending, file: file, line: line + 1, body) }
    }

    /// Checks one line's bytes and hands them to `body` as text.
    private static func emit(
        _ bytes: Data, file: String, line: Int, _ body: (Substring, Int) throws(FileProblem) -> Void
    ) throws(FileProblem) {
        guard bytes.count <= SessionEvent.maximumLineBytes else {
            throw FileProblem(
                file: file, line: line,
                problem:
                    """
                    expected a line of at most \(SessionEvent.maximumLineBytes) bytes (one event), found \
                    \(bytes.count)
                    """
            )
        }
        guard let text = String(data: bytes, encoding: .utf8) else {
            throw FileProblem(file: file, line: line, problem: "expected UTF-8 text")
        }
        let trimmed = text.hasSuffix("\r") ? text.dropLast() : Substring(text)
        try body(trimmed, line)
    }
}

/// The sessions being assembled, in the order each first appeared.
private struct SessionTable {
    /// The most sessions one import reads.
    static let maximumSessions = 100_000

    private var order: [String] = []
    private var assemblers: [String: SessionAssembler] = [:]

    mutating func add(_ event: SessionEvent, file: String) throws(FileProblem) {
        if assemblers[event.session] == nil {
            guard order.count < SessionTable.maximumSessions else {
                throw FileProblem(
                    file: file, line: event.line,
                    problem: "expected at most \(SessionTable.maximumSessions) sessions in one import, found more")
            }
            order.append(event.session)
            assemblers[event.session] = SessionAssembler(id: event.session, file: file, firstLine: event.line)
        }
        try assemblers[event.session]!.add(event, file: file)
    }

    func finish() throws(FileProblem) -> [RecordedSession] {
        var sessions: [RecordedSession] = []
        for id in order { sessions.append(try assemblers[id]!.finish()) }
        return sessions
    }
}
