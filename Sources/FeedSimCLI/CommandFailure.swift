import ArgumentParser
import FeedReports
import FoundationEssentials
import Glibc

/// Why a command stopped short. Commands throw it; `FeedSim.exit(after:)`
/// alone turns it into what the user sees: its message on stderr and its
/// exit code, the contract scripts rely on (docs/commands.md, "Exit codes").
///
/// The message is the command's own sentence, written where the failure is
/// known; the exit code follows from the case, never from the words.
enum CommandFailure: Error, Equatable {
    /// The command was pointed at the wrong thing: a path, a flag's value,
    /// results that do not go together. Exit 64.
    case usage(String)
    /// A scenario, device profile, calibration trace or explore
    /// configuration cannot be used; one line for each. Exit 65.
    case invalidInput(String)
    /// `check` or `explore` found a regression, and its report has said so.
    /// Exit 2, with nothing more printed.
    case regression
    /// FeedSim failed, or a file it wrote cannot be read back. Exit 1.
    case internalFailure(String)
    /// A signal stopped the command before it wrote to `out`, which is as it
    /// was. Exit 128 + signal.
    case interrupted(signal: Int32, out: String)

    /// The exit code the user scripts against.
    var exitCode: ExitCode {
        switch self {
        case .usage: FeedSimExit.usage
        case .invalidInput: FeedSimExit.invalidScenario
        case .regression: FeedSimExit.regression
        case .internalFailure: FeedSimExit.internalFailure
        case let .interrupted(signal, _): ExitCode(128 + signal)
        }
    }

    /// What goes to stderr before the command exits, without the final
    /// newline; nil when the command has said everything already.
    var message: String? {
        switch self {
        case let .usage(message), let .invalidInput(message), let .internalFailure(message): message
        case .regression: nil
        case let .interrupted(signal, out): Interruption.message(signal: signal, out: out)
        }
    }

    /// The failure a worker's reply stands for, saying `message`: 65 for a
    /// scenario it could not use, 1 for anything else.
    static func of(_ failure: RunReply.FailureKind?, message: String) -> CommandFailure {
        switch failure {
        case .invalidScenario: .invalidInput(message)
        case .runFailed, nil: .internalFailure(message)
        }
    }
}

extension FeedSim {
    /// Parses the arguments, runs the command and exits: the one place an
    /// error becomes an exit code and a message. A `CommandFailure` prints
    /// its message on stderr and exits with its code; anything else (help,
    /// `--version`, a `ValidationError`, a parse error) is ArgumentParser's
    /// to print and map, as `ParsableCommand.main` does.
    static func runCommand(_ arguments: [String]? = nil) {
        do {
            var command = try parseAsRoot(arguments)
            try command.run()
        } catch {
            exit(after: error)
        }
    }

    /// What `body` returns, for a command's `validate()`: a `CommandFailure`
    /// there ends the process through `exit(after:)` as it would from
    /// `run()`, where ArgumentParser would print it as a validation error
    /// and exit 1. Other errors (a `ValidationError`) go to ArgumentParser.
    static func validating<T>(_ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let failure as CommandFailure {
            exit(after: failure)
        }
    }

    /// Prints what `error` says and exits with its code.
    static func exit(after error: any Error) -> Never {
        guard let failure = error as? CommandFailure else { exit(withError: error) }
        if let message = failure.message { printError(message) }
        exit(withError: failure.exitCode)
    }

    /// The exit code `error` ends the process with, whichever kind it is.
    static func exitCode(after error: any Error) -> ExitCode {
        (error as? CommandFailure)?.exitCode ?? exitCode(for: error)
    }
}
