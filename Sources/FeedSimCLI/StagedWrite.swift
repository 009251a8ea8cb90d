import ArgumentParser
import FeedReports
import FoundationEssentials
import Glibc
import SystemSupport

extension StagedFiles {
    /// Stages a command's files with `stage` and renames them into place
    /// together, unless a signal came first (then nothing changes and the
    /// command exits 128 + signal). On any failure the staged files are
    /// removed and the command exits 1 naming `out`.
    /// `staged` holds files staged before (a file written as it was made).
    static func write(
        to out: String, interruption: Interruption?, staged: StagedFiles = StagedFiles(),
        _ stage: (inout StagedFiles) throws -> Void
    ) throws {
        var output = staged
        do {
            try stage(&output)
            if let interruption, !interruption.beginCommit() {
                output.discard()
                let signal = interruption.signal ?? SIGINT
                throw CommandFailure.interrupted(signal: signal, out: out)
            }
            try output.commit()
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            output.discard()
            throw CommandFailure.internalFailure("cannot write results to \(out): \(error.readableDescription)")
        }
    }
}
