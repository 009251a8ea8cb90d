import FoundationEssentials
import Glibc
import SystemSupport

/// Writes files so that a reader sees either the old file or the whole new
/// one, never a part: the text goes to a temporary file in the same folder,
/// which is then renamed over the destination.
package enum AtomicFile {
    /// The temporary file `url` is first written to: hidden, in the same
    /// folder (so the rename cannot cross file systems), named by process.
    package static func temporaryURL(for url: URL) -> URL {
        url.deletingLastPathComponent()
            .appendingPathComponent(".\(url.lastPathComponent).\(ProcessInfo.processInfo.processIdentifier).tmp")
    }

    /// Writes `data` to `url` (a temporary file), replacing what is there.
    ///
    /// Not `Data.write(to:)`, which makes the disk flush the file before it
    /// returns (`fsync`): 1 to 4 ms of a command's wall time for each file
    /// on a busy machine, for a guarantee across power loss that results a
    /// deterministic command can write again do not need. Readers are kept
    /// from partial files by the rename, not by the flush. When the plain
    /// write fails, `Data.write(to:)` is tried, so that the error is
    /// Foundation's, in its words.
    static func writeContents(_ data: Data, to url: URL) throws {
        let descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        if descriptor >= 0 {
            let written = (try? data.withUnsafeBytes { try WritableFile.writeAll($0, to: descriptor) }) != nil
            if close(descriptor) == 0, written { return }
        }
        try data.write(to: url)
    }

    package static func write(_ text: String, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = temporaryURL(for: url)
        do {
            try writeContents(Data(text.utf8), to: temporary)
            if rename(temporary.path, url.path) != 0 {
                throw SystemError("rename \(url.path)")
            }
        } catch {
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
    }
}

/// Several files replaced together: each is written in full to its
/// temporary file first (`stage`), and only then are all renamed into place
/// (`commit`), a few system calls with nothing left to compute. Until the
/// commit, `discard` leaves the destination folder exactly as it was: the
/// temporary files go, and so does a folder staging had to create.
package struct StagedFiles {
    private var staged: [(temporary: URL, destination: URL)] = []
    private var removals: [URL] = []
    private var createdFolders: [URL] = []

    /// Nothing staged yet.
    package init() {}

    /// Writes `text` to the temporary file of `url`.
    package mutating func stage(_ text: String, to url: URL) throws {
        // Copied from the string's contiguous bytes: `Data(text.utf8)`, a
        // generic sequence, is tried at run time for the protocols that
        // would copy it faster, a lookup of every conformance in the
        // binary the first time (0.2 M instructions of every `run`).
        var text = text
        try stage(text.withUTF8 { Data(buffer: $0) }, to: url)
    }

    /// Writes `data` to the temporary file of `url`.
    package mutating func stage(_ data: Data, to url: URL) throws {
        let folder = url.deletingLastPathComponent()
        var missing = folder.standardizedFileURL
        while !FileManager.default.fileExists(atPath: missing.path), missing.path != "/" {
            createdFolders.append(missing)
            missing = missing.deletingLastPathComponent()
        }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let temporary = AtomicFile.temporaryURL(for: url)
        staged.append((temporary, url))
        try AtomicFile.writeContents(data, to: temporary)
    }

    /// Stages `url` as a file written as it is made (explore.csv of a
    /// million sessions is gigabytes): returns its temporary file, which
    /// the caller opens with `StreamedFile`, appends to and closes before
    /// the commit.
    package mutating func stageStreamed(to url: URL) throws -> URL {
        try stage(Data(), to: url)
        return AtomicFile.temporaryURL(for: url)
    }

    /// Stages `text` as `url`, or, when `text` is `nil`, the removal of
    /// whatever an earlier run left there.
    package mutating func stage(_ text: String?, orRemove url: URL) throws {
        if let text { try stage(text, to: url) } else { stageRemoval(of: url) }
    }

    /// Stages `traces` as the files of `folder`'s `traces/`, and the removal
    /// of every trace an earlier run left there that is not among them; with
    /// `nil`, the removal of all of them (and of the folder, when nothing
    /// else is in it).
    package mutating func stageTraces(_ traces: [TraceFile]?, in folder: URL) throws {
        let tracesFolder = folder.appendingPathComponent(ChromeTrace.folder, isDirectory: true)
        let existing = ((try? FileManager.default.contentsOfDirectory(atPath: tracesFolder.path)) ?? []).sorted()
        let kept = Set((traces ?? []).map(\.name))
        let stale = existing.filter { $0.hasSuffix(".json") && !kept.contains($0) }
        if traces == nil, !existing.isEmpty, stale.count == existing.count {
            stageRemoval(of: tracesFolder)
            return
        }
        for name in stale { stageRemoval(of: tracesFolder.appendingPathComponent(name)) }
        for trace in traces ?? [] { try stage(trace.data, to: tracesFolder.appendingPathComponent(trace.name)) }
    }

    /// Removes `url`, if it exists, at the commit.
    package mutating func stageRemoval(of url: URL) {
        removals.append(url)
    }

    /// Renames every staged file over its destination and makes the removals.
    package mutating func commit() throws {
        for (temporary, destination) in staged where rename(temporary.path, destination.path) != 0 {
            throw SystemError("rename \(destination.path)")
        }
        staged.removeAll()
        createdFolders.removeAll()
        for url in removals where FileManager.default.fileExists(atPath: url.path) {
            try FileManager.default.removeItem(at: url)
        }
        removals.removeAll()
    }

    /// Removes the temporary files and the folders staging created.
    package mutating func discard() {
        for (temporary, _) in staged { try? FileManager.default.removeItem(at: temporary) }
        // Deepest first, across every staging (a later one may have made a
        // folder inside an earlier one's); rmdir refuses a folder that is not empty.
        for folder in createdFolders.sorted(by: { $0.path.count > $1.path.count }) { rmdir(folder.path) }
        staged.removeAll()
        removals.removeAll()
        createdFolders.removeAll()
    }
}

/// A file written as it is made, through a buffer: `append` costs no system
/// call until a buffer's worth has gathered.
package final class StreamedFile {
    /// Bytes gathered before they are written.
    static let bufferBytes = 1 << 16

    /// Where the bytes go.
    package let url: URL
    private var descriptor: Int32
    private var buffer: [UInt8] = []

    /// Opens `url` for writing, replacing what is there.
    package init(url: URL) throws {
        self.url = url
        descriptor = open(url.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o666)
        guard descriptor >= 0 else { throw SystemError("open \(url.path)") }
        buffer.reserveCapacity(StreamedFile.bufferBytes)
    }

    deinit {
        if descriptor >= 0 { Glibc.close(descriptor) }
    }

    /// Appends `text`.
    package func append(_ text: String) throws {
        buffer.append(contentsOf: text.utf8)
        if buffer.count >= StreamedFile.bufferBytes { try flush() }
    }

    /// Appends `bytes`.
    package func append(_ bytes: some Collection<UInt8>) throws {
        buffer.append(contentsOf: bytes)
        if buffer.count >= StreamedFile.bufferBytes { try flush() }
    }

    /// Writes what is gathered and closes the file.
    package func close() throws {
        try flush()
        guard descriptor >= 0 else { return }
        let result = Glibc.close(descriptor)
        descriptor = -1
        if result != 0 { throw SystemError("close \(url.path)") }
    }

    private func flush() throws {
        guard !buffer.isEmpty else { return }
        guard descriptor >= 0 else { throw SystemError("write \(url.path)", code: EBADF) }
        defer { buffer.removeAll(keepingCapacity: true) }
        let descriptor = descriptor
        try buffer.withUnsafeBytes { try WritableFile.writeAll($0, to: descriptor) }
    }
}
