import ArgumentParser
import FeedReports
import FeedScenario
import Testing

@testable import FeedSimCLI

/// The one mapping from a command's failure to its exit code and message:
/// the contract of docs/commands.md, "Exit codes", pinned case by case.
@Suite("Command failures")
struct CommandFailureTests {
    /// A failure, the exit code it must end the process with, and what it
    /// must print on stderr (nil: nothing).
    struct Case: Sendable, CustomTestStringConvertible {
        var failure: CommandFailure
        var code: Int32
        var message: String?
        var testDescription: String { "\(failure) exits \(code)" }
    }

    static let cases: [Case] = [
        Case(failure: .usage("cannot merge: no parts"), code: 64, message: "cannot merge: no parts"),
        Case(
            failure: .invalidInput("invalid scenario: a.json: $.name: expected a string"), code: 65,
            message: "invalid scenario: a.json: $.name: expected a string"),
        Case(failure: .regression, code: 2, message: nil),
        Case(failure: .internalFailure("cannot write out/x: denied"), code: 1, message: "cannot write out/x: denied"),
        Case(
            failure: .interrupted(signal: 2, out: "out"), code: 130,
            message: "feedsim: interrupted by SIGINT; stopped the workers, out is as it was"),
        Case(
            failure: .interrupted(signal: 15, out: "results"), code: 143,
            message: "feedsim: interrupted by SIGTERM; stopped the workers, results is as it was"),
    ]

    @Test("each kind of failure exits with its code and prints its message", arguments: cases)
    func mapping(_ pinned: Case) {
        #expect(pinned.failure.exitCode.rawValue == pinned.code)
        #expect(FeedSim.exitCode(after: pinned.failure).rawValue == pinned.code)
        #expect(pinned.failure.message == pinned.message)
    }

    @Test("the errors ArgumentParser maps keep its codes: a validation error 64, help and version 0")
    func argumentParserErrors() {
        #expect(FeedSim.exitCode(after: ValidationError("--jobs must be at least 1, got 0.")).rawValue == 64)
        #expect(FeedSim.exitCode(after: CleanExit.helpRequest()).rawValue == 0)
        #expect(FeedSim.exitCode(after: ExitCode(3)).rawValue == 3)
    }

    @Test("a worker's reply stands for 65 when it could not use the scenario, else 1, and says the worker's words")
    func workerReplies() {
        let invalid = "a.json: $: expected valid JSON"
        #expect(CommandFailure.of(.invalidScenario, message: invalid) == .invalidInput(invalid))
        #expect(CommandFailure.of(.runFailed, message: "limit") == .internalFailure("limit"))
        #expect(CommandFailure.of(nil, message: "the run failed") == .internalFailure("the run failed"))
    }

    @Test("every file diagnostic reads as it always has: file:line, file: $.path, or file alone")
    func fileDiagnostics() {
        #expect(
            "\(ScenarioError(file: "a.json", path: "$.feed", expected: "expected an object"))"
                == "a.json: $.feed: expected an object")
        #expect("\(ProvenanceError(file: "p.json", reason: "expected an object"))" == "p.json: expected an object")
        #expect("\(FileProblem(file: "t.csv", line: 3, problem: "expected 4 fields"))" == "t.csv:3: expected 4 fields")
        #expect("\(FileProblem(file: "t.csv", line: nil, problem: "empty"))" == "t.csv: empty")
        #expect(ScenarioError(file: "a.json", path: "$.feed", expected: "x").place == .jsonPath("$.feed"))
        #expect(
            "\(ShardMergeError.file("p1/summary.csv", line: 1, "the header is not the one `feedsim run` writes"))"
                == "p1/summary.csv:1: the header is not the one `feedsim run` writes")
        #expect("\(ShardMergeError("part 1/2 is given twice: a and a"))" == "part 1/2 is given twice: a and a")
    }
}
