import Foundation
import Glibc
import Synchronization
import SystemSupport
import Testing

@Suite struct FileStreamTests {
    private func temporaryFile(_ bytes: [UInt8]) throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent(
            "system-support-\(getpid())-\(UInt64.random(in: 0...UInt64.max)).bin"
        ).path
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func aFileReadsBackInChunksOfTheAskedSize() throws {
        let bytes = (0..<200_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
        let path = try temporaryFile(bytes)
        defer { unlink(path) }
        let file = try ReadableFile(path: path)
        var read: [UInt8] = []
        var chunks = 0
        while true {
            let chunk = try file.read(upToCount: 65_536)
            if chunk.isEmpty { break }
            #expect(chunk.count <= 65_536)
            read += chunk
            chunks += 1
        }
        #expect(read == bytes)
        #expect(chunks == 4)
        file.close()
        #expect(throws: SystemError("read", code: EBADF)) { try file.read(upToCount: 1) }
    }

    @Test func aMissingFileSaysWhy() {
        #expect(throws: SystemError("open", code: ENOENT)) { try ReadableFile(path: "/nonexistent/feedsim/file") }
        do {
            _ = try ReadableFile(path: "/nonexistent/feedsim/file")
        } catch {
            #expect(error.readableDescription == "No such file or directory")
        }
    }

    @Test func foundationsFileErrorsSayWhyToo() {
        do {
            _ = try Data(contentsOf: URL(fileURLWithPath: "/nonexistent/feedsim/file"))
            Issue.record("read a file that does not exist")
        } catch {
            #expect(error.readableDescription == "No such file or directory")
        }
    }

    @Test func aDecodingErrorNamesItsPlace() throws {
        struct Inner: Decodable { var count: Int }
        struct Outer: Decodable { var items: [Inner] }
        do {
            _ = try JSONDecoder().decode(Outer.self, from: Data(#"{"items": [{"count": 1}, {"count": "two"}]}"#.utf8))
            Issue.record("decoded a string as an Int")
        } catch {
            #expect(error.readableDescription.hasPrefix("$.items[1].count: "), "\(error.readableDescription)")
        }
    }
}

@Suite struct ChildProcessTests {
    @Test func aChildReadsItsInputAndItsOutputAndStatusComeBack() throws {
        let child = try ChildProcess(
            executable: "/bin/sh", arguments: ["-c", "cat; echo said >&2; exit 3"], environment: ["A": "1"])
        try child.input.write(Data("hello\n".utf8))
        child.input.close()
        let output = try child.output.readToEnd()
        let errors = try child.errors.readToEnd()
        #expect(String(decoding: output, as: UTF8.self) == "hello\n")
        #expect(String(decoding: errors, as: UTF8.self).trimmingWhitespace() == "said")
        #expect(child.waitForExit() == 3)
        #expect(child.waitForExit() == 3, "waiting again gives the same status")
    }

    @Test func aChildGetsOnlyTheEnvironmentItIsGiven() throws {
        let child = try ChildProcess(
            executable: "/usr/bin/env", arguments: [], environment: ["B": "2", "A": "1"])
        child.input.close()
        let output = try child.output.readToEnd()
        #expect(String(decoding: output, as: UTF8.self) == "A=1\nB=2\n")
        #expect(child.waitForExit() == 0)
    }

    /// A child holding another child's pipe would keep it open: the first
    /// child would never see the end of its input while the second lives.
    @Test func aChildInheritsNoOtherChildsPipes() throws {
        let first = try ChildProcess(executable: "/bin/cat", arguments: [], environment: [:])
        let second = try ChildProcess(executable: "/bin/cat", arguments: [], environment: [:])
        first.input.close()
        #expect(try first.output.readToEnd().isEmpty)
        #expect(first.waitForExit() == 0)
        second.input.close()
        #expect(second.waitForExit() == 0)
    }

    @Test func aKilledChildReportsItsSignal() throws {
        let child = try ChildProcess(executable: "/bin/sh", arguments: ["-c", "kill -9 $$"], environment: [:])
        child.input.close()
        #expect(child.waitForExit() == SIGKILL)
    }

    @Test func aMissingExecutableIsAnError() {
        #expect(throws: SystemError.self) {
            try ChildProcess(executable: "/nonexistent/feedsim", arguments: [], environment: [:])
        }
    }

    @Test func writingToAChildThatHasGoneFailsInsteadOfEndingThisProcess() throws {
        let child = try ChildProcess(executable: "/bin/true", arguments: [], environment: [:])
        #expect(child.waitForExit() == 0)
        #expect(throws: SystemError("write", code: EPIPE)) {
            try child.input.write(Data(repeating: 0, count: 1 << 20))
        }
    }
}

@Suite struct SystemThreadTests {
    @Test func joinWaitsForTheThreadsWork() {
        let box = Counter()
        let threads = (0..<4).map { _ in SystemThread { for _ in 0..<1000 { box.add() } } }
        for thread in threads { thread.join() }
        #expect(box.value == 4000)
    }

    private final class Counter: Sendable {
        private let count = Mutex(0)
        func add() { count.withLock { $0 += 1 } }
        var value: Int { count.withLock { $0 } }
    }
}

@Suite struct TextTests {
    @Test func trimming() {
        #expect("  a b \t".trimmingSpaces() == "a b")
        #expect(" a\n".trimmingSpaces() == "a\n")
        #expect("\n a b \r\n".trimmingWhitespace() == "a b")
        #expect("   ".trimmingWhitespace() == "")
        #expect(Substring("x").trimmingSpaces() == "x")
    }

    @Test func joiningPaths() {
        #expect(FilePath.join("out", "sessions") == "out/sessions")
        #expect(FilePath.join("out/", "usage.json") == "out/usage.json")
        #expect(FilePath.join("out//", "a") == "out/a")
        #expect(FilePath.join("/", "a") == "/a")
        #expect(FilePath.join("", "a") == "a")
    }
}
