import CSVCodec
import FeedExplore
import FeedReports
import FoundationEssentials
import Synchronization

/// What an exploration's summary counts of its sessions: sessions, runs,
/// rows, violations by identity and the sessions with one. Every count adds
/// up over the parts of a sharded exploration, so a part's manifest carries
/// its tally and `feedsim merge` sums them; nothing here grows with the
/// sessions.
struct ExploreTally: Codable, Equatable {
    /// How many runs broke one identity.
    struct IdentityCount: Codable, Equatable {
        var identity: Violation.Identity
        var runs: Int
    }

    /// Sessions run.
    var sessions = 0
    /// Runs (session × strategy), with or without a row in explore.csv.
    var runs = 0
    /// Rows of explore.csv (a run that could not finish has none).
    var rows = 0
    /// Violations, the rows of violations.csv.
    var violations = 0
    /// Sessions with at least one violation.
    var failingSessions = 0
    /// Violations by identity, in identity order.
    var byIdentity: [IdentityCount] = []

    /// Counts `result`, one session's runs.
    mutating func add(_ result: ExploreJob.SessionResult) {
        sessions += 1
        runs += result.runs.count
        rows += result.runs.count { $0.row != nil }
        var found = false
        for run in result.runs {
            for violation in run.violations {
                found = true
                violations += 1
                count(violation.identity, 1)
            }
        }
        if found { failingSessions += 1 }
    }

    /// The tally of `self` and `other`, sessions of the same exploration.
    func adding(_ other: ExploreTally) -> ExploreTally {
        var sum = self
        sum.sessions += other.sessions
        sum.runs += other.runs
        sum.rows += other.rows
        sum.violations += other.violations
        sum.failingSessions += other.failingSessions
        for entry in other.byIdentity { sum.count(entry.identity, entry.runs) }
        return sum
    }

    /// Runs that broke `identity`.
    func runs(breaking identity: Violation.Identity) -> Int {
        byIdentity.first { $0.identity == identity }?.runs ?? 0
    }

    private mutating func count(_ identity: Violation.Identity, _ runs: Int) {
        if let i = byIdentity.firstIndex(where: { $0.identity == identity }) {
            byIdentity[i].runs += runs
        } else {
            byIdentity.append(IdentityCount(identity: identity, runs: runs))
            byIdentity.sort { $0.identity < $1.identity }
        }
    }
}

/// Where an exploration's sessions go as their results arrive, in session
/// order: their rows to explore.csv and violations.csv (staged files,
/// written as they come), their counts to a tally, and the first failure of
/// each identity kept for shrinking. Nothing else of a session is kept.
///
/// Results arrive on the worker threads one at a time, in order, under
/// `WorkerThreads.runInOrder`'s lock; the mutex only makes that explicit.
final class ExploreSink: Sendable {
    private struct State {
        var explore: StreamedFile
        var violations: StreamedFile
        var tally = ExploreTally()
        var firsts: [Violation.Identity: Violation.Located] = [:]
    }

    private let state: Mutex<State>
    /// The staged explore.csv, to read the population back from.
    let exploreURL: URL

    /// Stages explore.csv and violations.csv in `folder` and writes their headers.
    init(folder: URL, output: inout StagedFiles) throws {
        let explore = try StreamedFile(url: output.stageStreamed(to: folder.appendingPathComponent("explore.csv")))
        let violations = try StreamedFile(
            url: output.stageStreamed(to: folder.appendingPathComponent("violations.csv")))
        try explore.append(CSVTable.line(ExploreReport.columns))
        try violations.append(CSVTable.line(ExploreReport.violationColumns))
        exploreURL = explore.url
        state = Mutex(State(explore: explore, violations: violations))
    }

    /// Writes and counts the sessions of `result`.
    func add(_ result: ExploreJob.Result) throws {
        try state.withLock { state in
            for session in result.sessions {
                state.tally.add(session)
                for run in session.runs {
                    if let row = run.row { try state.explore.append(CSVTable.line(row)) }
                }
                for run in session.runs {
                    for violation in run.violations {
                        try state.violations.append(CSVTable.line(ExploreReport.violationRow(violation)))
                        if state.firsts[violation.identity] == nil {
                            state.firsts[violation.identity] = Violation.Located(
                                session: session.index, violation: violation)
                        }
                    }
                }
            }
        }
    }

    /// Closes the files; returns the tally and the first failure of each
    /// identity, in identity order (the ones an exploration shrinks).
    func finish() throws -> (tally: ExploreTally, firsts: [Violation.Located]) {
        try state.withLock { state in
            try state.explore.close()
            try state.violations.close()
            return (state.tally, state.firsts.keys.sorted().map { state.firsts[$0]! })
        }
    }
}
