import FoundationEssentials
import Glibc

/// A file or pipe open for reading, read in chunks of the caller's size.
///
/// Opened with `O_CLOEXEC`, as is every descriptor FeedSim opens, so that a
/// worker process inherits none of them. The descriptor is closed by
/// `close()` or when the reader goes, if the reader opened it.
///
/// A file may be handed to another thread (a pipe drained while this one
/// waits), but is used by one thread at a time: the caller orders its uses.
package final class ReadableFile: @unchecked Sendable {
    private var descriptor: Int32
    private let owned: Bool

    /// Opens the file at `path`.
    package init(path: String) throws(SystemError) {
        let opened = retryingInterrupts { open(path, O_RDONLY | O_CLOEXEC) }
        guard opened >= 0 else { throw SystemError("open", code: errno) }
        descriptor = opened
        owned = true
    }

    /// Reads `descriptor`, which the reader closes only if it `owns` it.
    package init(descriptor: Int32, owns: Bool) {
        self.descriptor = descriptor
        self.owned = owns
    }

    /// Standard input, never closed by the reader.
    package static var standardInput: ReadableFile { ReadableFile(descriptor: STDIN_FILENO, owns: false) }

    /// Up to `count` bytes, as soon as any are there (a pipe gives what it
    /// holds); empty at the end of the file.
    package func read(upToCount count: Int) throws(SystemError) -> Data {
        guard descriptor >= 0 else { throw SystemError("read", code: EBADF) }
        var data = Data(count: count)
        let length = data.withUnsafeMutableBytes { buffer in
            retryingInterrupts { Glibc.read(descriptor, buffer.baseAddress, count) }
        }
        guard length >= 0 else { throw SystemError("read", code: errno) }
        data.count = length
        return data
    }

    /// Everything left, up to the end of the file.
    package func readToEnd() throws(SystemError) -> Data {
        var data = Data()
        while true {
            let chunk = try read(upToCount: 1 << 16)
            if chunk.isEmpty { return data }
            data.append(chunk)
        }
    }

    /// Closes the file, if the reader opened it; reading after fails with
    /// `EBADF`.
    package func close() {
        if owned && descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

/// A file or pipe open for writing, used by one thread at a time as
/// `ReadableFile` is.
package final class WritableFile: @unchecked Sendable {
    private var descriptor: Int32
    private let owned: Bool

    /// Writes `descriptor`, which the writer closes only if it `owns` it.
    package init(descriptor: Int32, owns: Bool) {
        self.descriptor = descriptor
        self.owned = owns
    }

    /// Standard output, never closed by the writer.
    package static var standardOutput: WritableFile { WritableFile(descriptor: STDOUT_FILENO, owns: false) }

    /// Standard error, never closed by the writer.
    package static var standardError: WritableFile { WritableFile(descriptor: STDERR_FILENO, owns: false) }

    /// Writes all of `data`, however many calls the system takes.
    package func write(_ data: Data) throws(SystemError) {
        guard descriptor >= 0 else { throw SystemError("write", code: EBADF) }
        let descriptor = descriptor
        // `Data.withUnsafeBytes` rethrows untyped: the error comes out as a
        // `Result`.
        try data.withUnsafeBytes { bytes in
            Result { () throws(SystemError) in try WritableFile.writeAll(bytes, to: descriptor) }
        }.get()
    }

    /// Writes all of `bytes` to `descriptor`, however many calls the system
    /// takes.
    package static func writeAll(_ bytes: UnsafeRawBufferPointer, to descriptor: Int32) throws(SystemError) {
        var offset = 0
        while offset < bytes.count {
            let written = retryingInterrupts {
                Glibc.write(descriptor, bytes.baseAddress! + offset, bytes.count - offset)
            }
            guard written > 0 else { throw SystemError("write", code: written < 0 ? errno : EIO) }
            offset += written
        }
    }

    /// Closes the file, if the writer opened it; writing after fails with
    /// `EBADF`.
    package func close() {
        if owned && descriptor >= 0 { _ = Glibc.close(descriptor) }
        descriptor = -1
    }

    deinit { close() }
}

/// A pipe's two ends, each closed on `exec`.
///
/// `pipe2` is hidden from Swift, so the ends are made and then marked: a
/// process started between the two would inherit them, and only
/// `ChildProcess`, which makes its pipes and starts its child under one
/// lock, makes pipes.
struct PipeEnds {
    let read: Int32
    let write: Int32

    init() throws(SystemError) {
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw SystemError("pipe", code: errno) }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        (read, write) = (ends[0], ends[1])
    }
}

/// `call` again for as long as a signal interrupts it.
@inline(__always)
func retryingInterrupts<T: FixedWidthInteger>(_ call: () -> T) -> T {
    while true {
        let result = call()
        if result == -1 && errno == EINTR { continue }
        return result
    }
}
