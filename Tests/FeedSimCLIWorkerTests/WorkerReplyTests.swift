import FeedReports
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedSimCLI

/// What `run` says when a worker answers with something that is not a reply.
@Suite("Worker replies")
struct WorkerReplyTests {
    /// A stand-in worker: a script that writes `reply` as its answer, then
    /// waits for its orders to close and exits 0, as a worker does.
    static func fakeWorker(replying reply: String, in folder: ScratchFolder) throws -> URL {
        try folder.write("#!/bin/sh\nread order\necho '\(reply)'\ncat > /dev/null\nexit 0\n", to: "worker.sh")
        let url = folder.appending("worker.sh")
        try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path)
        return url
    }

    @Test(
        """
        a reply that does not decode is reported as such, with what the worker wrote, not as a worker that exited \
        with status 0
        """
    )
    func undecodableReply() throws {
        let folder = try ScratchFolder(prefix: "feedsim-reply")
        defer { folder.remove() }
        let worker = try BatchWorker(
            executable: try WorkerReplyTests.fakeWorker(replying: "not a reply", in: folder), interruption: .shared)
        let order = RunOrder(
            file: "scenario.json", refreshHz: 60, seed: 1, variant: "default", frames: false, trace: false)
        #expect {
            _ = try worker.run(order)
        } throws: { error in
            guard let lost = error as? BatchWorker.Lost else { return false }
            return lost.message.contains("did not decode") && lost.message.contains("not a reply")
                && !lost.message.contains("exited with status 0")
        }
        worker.finish()
    }
}
