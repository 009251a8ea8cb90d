import FeedSimTestSupport
import Foundation
import Testing

/// The commands that read results folders, as the hostile-input table runs
/// them on a damaged folder `bad` beside an intact one, `good`.
enum ResultsCommand: String, Sendable, CaseIterable {
    case check, compare, report, merge

    var arguments: [String] {
        switch self {
        case .check: ["check", "--baseline", "good", "--current", "bad"]
        case .compare: ["compare", "bad"]
        case .report: ["report", "bad", "--out", "report.html"]
        case .merge: ["merge", "bad", "--out", "merged"]
        }
    }

    /// What the command writes on success, which a failure must not leave.
    var output: String? {
        switch self {
        case .check, .compare: nil
        case .report: "report.html"
        case .merge: "merged"
        }
    }
}

/// One way to damage a file.
enum Damage: String, Sendable {
    case empty, headerOnly, wrongHeader, truncated, extraColumn, missingFields, nonNumeric, nanAndInfinity,
        hugeNumbers, binary, byteOrderMark, enormousLine, crlf, nulInName, unterminatedQuote,
        directory, danglingLink,
        // shard.json only
        notJSON, deepNesting, duplicateKey, negativeRows, hugeTotal, indexBeyondInt

    /// A 16 MiB line: longer than any row `feedsim run` writes by far.
    static let enormousLineBytes = 16 << 20

    /// The damaged bytes of `data`, the file `file`; nil for the damages that are not bytes.
    func apply(to data: Data, file: String) -> Data? {
        let text = String(decoding: data, as: UTF8.self)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        func row(_ change: ([String]) -> [String]) -> Data {
            lines[1] = change(lines[1].split(separator: ",", omittingEmptySubsequences: false).map(String.init)).joined(
                separator: ",")
            return Data(lines.joined(separator: "\n").utf8)
        }
        // The numeric columns after the key (and a summary's seed), and
        // before a summary's trace_digest.
        let numbers = file == "summary.csv" ? 4..<(lines[0].split(separator: ",").count - 1) : 3..<Int.max
        func metrics(_ value: String) -> Data {
            row { fields in
                fields.enumerated().map { i, field in numbers.contains(i) && Double(field) != nil ? value : field }
            }
        }
        switch self {
        case .empty: return Data()
        case .headerOnly: return Data((lines[0] + "\n").utf8)
        case .wrongHeader: return Data("a,b,c\n1,2,3\n".utf8)
        case .truncated: return data.prefix(data.count / 2 + 7)
        case .extraColumn: return row { $0 + ["surplus"] }
        case .missingFields: return row { Array($0.prefix(4)) }
        case .nonNumeric: return row { $0.map { $0 == "60" ? "sixty" : $0 } }
        case .nanAndInfinity: return metrics("inf")
        case .hugeNumbers: return metrics(String(repeating: "9", count: 400))
        case .binary: return Data((0..<2048).map { UInt8(truncatingIfNeeded: $0) })
        case .byteOrderMark: return Data([0xEF, 0xBB, 0xBF]) + data
        case .enormousLine:
            return data + Data(repeating: UInt8(ascii: "x"), count: Self.enormousLineBytes) + Data("\n".utf8)
        case .crlf: return Data(text.replacingOccurrences(of: "\n", with: "\r\n").utf8)
        case .nulInName: return Data(text.replacingOccurrences(of: "\ntiny,", with: "\nti\u{0}ny,").utf8)
        case .unterminatedQuote: return data + Data("\"tiny,anchor,60\n".utf8)
        case .notJSON: return Data("{\"format\" : 1,".utf8)
        case .deepNesting:
            return Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8)
        case .duplicateKey:
            return Data(text.replacingOccurrences(of: "\"format\" : 1,", with: "\"format\" : 1, \"format\" : 1,").utf8)
        case .negativeRows:
            // -1 and 3 still add up to the two rows the drift file has.
            var changed = text
            changed.replace(#/"drift_rows" : 1/#, with: "\"drift_rows\" : -1", maxReplacements: 1)
            changed.replace(#/"drift_rows" : 1/#, with: "\"drift_rows\" : 3", maxReplacements: 1)
            return Data(changed.utf8)
        case .hugeTotal:
            return Data(
                text.replacingOccurrences(of: "\"total_requests\" : 2", with: "\"total_requests\" : 1000000000000000")
                    .utf8)
        case .indexBeyondInt:
            return Data(text.replacingOccurrences(of: "\"index\" : 1", with: "\"index\" : 99999999999999999999").utf8)
        case .directory, .danglingLink: return nil
        }
    }
}

/// A damaged file, a command that reads it, and what the command must do:
/// exit with `status`, and for a failure name the file and the line
/// (`where` follows the file's name in the message; `fragment` is said).
struct HostileInput: Sendable, CustomTestStringConvertible {
    var file: String
    var damage: Damage
    var command: ResultsCommand
    var status: Int32
    var location: String
    var fragment: String

    var testDescription: String { "\(file) \(damage.rawValue) → \(command.rawValue) exits \(status)" }

    /// One damage of one file, with each command's (status, location) in
    /// check, compare, report, merge order; nil where the command does not
    /// read the file.
    static func row(
        _ file: String, _ damage: Damage, _ expectations: (Int32, String)?..., fragment: String = ""
    ) -> [HostileInput] {
        zip(ResultsCommand.allCases, expectations).compactMap { command, expected in
            expected.map {
                HostileInput(
                    file: file, damage: damage, command: command, status: $0.0, location: $0.1, fragment: fragment)
            }
        }
    }

    static let csvDamages: [(Damage, summary: [(Int32, String)], drift: [(Int32, String)], frames: [(Int32, String)])] =
        [
            // (damage, summary: check, compare, report, merge; drift: report, merge; frames: report, merge)
            (
                .empty, [(1, ":1:"), (1, ":1:"), (1, ":1:"), (64, ":1:")], [(1, ":1:"), (64, ":1:")],
                [(1, ":1:"), (64, ":1:")]
            ),
            (.headerOnly, [(2, ""), (0, ""), (0, ""), (64, ":2:")], [(0, ""), (64, ":2:")], [(0, ""), (64, ":2:")]),
            (
                .wrongHeader, [(1, ":1:"), (1, ":1:"), (1, ":1:"), (64, ":1:")], [(1, ":1:"), (64, ":1:")],
                [(1, ":1:"), (64, ":1:")]
            ),
            (
                .truncated, [(1, ":1:"), (1, ":1:"), (1, ":1:"), (64, ":1:")], [(1, ":2:"), (64, ":2:")],
                [(1, ":55:"), (64, ":55:")]
            ),
            (
                .extraColumn, [(1, ":2:"), (1, ":2:"), (1, ":2:"), (64, ":2:")], [(1, ":2:"), (64, ":2:")],
                [(1, ":2:"), (64, ":2:")]
            ),
            (
                .missingFields, [(1, ":2:"), (1, ":2:"), (1, ":2:"), (64, ":2:")], [(1, ":2:"), (64, ":2:")],
                [(1, ":2:"), (64, ":2:")]
            ),
            (
                .nonNumeric, [(1, ":2:"), (1, ":2:"), (1, ":2:"), (64, ":2:")], [(1, ":2:"), (64, ":2:")],
                [(1, ":2:"), (64, ":2:")]
            ),
            // `inf` and `nan` are numbers in a summary (reports write them for
            // non-finite values) and merge copies rows as they are; a report
            // plots drift and frames, which must be finite.
            (.nanAndInfinity, [(2, ""), (0, ""), (0, ""), (0, "")], [(1, ":2:"), (0, "")], [(1, ":2:"), (0, "")]),
            (.hugeNumbers, [(2, ""), (0, ""), (0, ""), (0, "")], [(1, ":2:"), (0, "")], [(1, ":2:"), (0, "")]),
            (
                .binary, [(1, ":2:"), (1, ":2:"), (1, ":2:"), (64, ":9:")], [(1, ":1:"), (64, ":9:")],
                [(1, ":1:"), (64, ":9:")]
            ),
            (
                .byteOrderMark, [(1, ":1:"), (1, ":1:"), (1, ":1:"), (64, ":1:")], [(1, ":1:"), (64, ":1:")],
                [(1, ":1:"), (64, ":1:")]
            ),
            (
                .enormousLine, [(1, ":4:"), (1, ":4:"), (1, ":4:"), (64, ":4:")], [(1, ":4:"), (64, ":4:")],
                [(1, ":112:"), (64, ":112:")]
            ),
            (.crlf, [(0, ""), (0, ""), (0, ""), (64, ":1:")], [(0, ""), (64, ":1:")], [(0, ""), (64, ":1:")]),
            (
                .nulInName, [(1, ":2:"), (1, ":2:"), (1, ":2:"), (64, ":2:")], [(1, ":2:"), (64, ":2:")],
                [(1, ":2:"), (64, ":2:")]
            ),
            (
                .unterminatedQuote, [(1, ":4:"), (1, ":4:"), (1, ":4:"), (64, ":4:")], [(1, ":4:"), (64, ":4:")],
                [(1, ":112:"), (64, ":112:")]
            ),
            (
                .directory, [(1, ": is a folder"), (1, ": is a folder"), (1, ": is a folder"), (64, " is a folder")],
                [(1, ": is a folder"), (64, " is a folder")], [(1, ": is a folder"), (64, " is a folder")]
            ),
        ]

    static let all: [HostileInput] = {
        var cases: [HostileInput] = []
        for (damage, summary, drift, frames) in csvDamages {
            cases += row("summary.csv", damage, summary[0], summary[1], summary[2], summary[3])
            cases += row("drift.csv", damage, nil, nil, drift[0], drift[1])
            cases += row("frames.csv", damage, nil, nil, frames[0], frames[1])
        }
        // A link to nothing is a missing file: a usage error where the file
        // is required, no plot where it is optional.
        cases += row("summary.csv", .danglingLink, (64, ""), (64, ""), (64, ""), (64, ""), fragment: "no summary.csv")
        cases += row("drift.csv", .danglingLink, nil, nil, (0, ""), (64, ""), fragment: "no drift.csv")
        cases += row("frames.csv", .danglingLink, nil, nil, (0, ""), (64, ""), fragment: "no frames.csv")
        let merge: [(Damage, String, String)] = [
            (.empty, ": $:", "expected valid JSON"), (.notJSON, ": $:", "expected valid JSON"),
            (.binary, ": $:", "expected valid JSON"), (.deepNesting, ": $:", "expected valid JSON"),
            (.duplicateKey, ":2: $.format:", "found `format` twice"),
            (.indexBeyondInt, ": $", "expected"), (.truncated, ": $:", "expected valid JSON"),
            (.directory, " is a folder", ""),
        ]
        for (damage, location, fragment) in merge {
            cases += row("shard.json", damage, nil, nil, (0, ""), (64, location), fragment: fragment)
        }
        cases += row(
            "shard.json", .negativeRows, nil, nil, nil, (64, ""),
            fragment: "drift.csv: its shard.json gives tiny / anchor @ 60 Hz -1 rows")
        cases += row(
            "shard.json", .hugeTotal, nil, nil, nil, (64, ""), fragment: "the parts list 2 requests of 1000000000000000"
        )
        return cases
    }()
}

@Suite("Hostile results files", .serialized)
struct HostileInputTests {
    /// A results folder `feedsim run --shard 1/1 --frames` wrote: the fuzz seeds.
    static let seeds = ["summary.csv", "drift.csv", "frames.csv", "shard.json"]

    static func folder(damaging file: String? = nil, with damage: Damage? = nil) throws -> ScratchFolder {
        let folder = try ScratchFolder(prefix: "feedsim-hostile")
        for name in ["good", "bad"] {
            try FileManager.default.createDirectory(at: folder.appending(name), withIntermediateDirectories: true)
            for seed in seeds {
                try FileManager.default.copyItem(
                    at: FeedSimProcess.packageRoot.appendingPathComponent("Fuzz/seeds/\(seed)"),
                    to: folder.appending("\(name)/\(seed)"))
            }
        }
        guard let file, let damage else { return folder }
        let target = folder.appending("bad/\(file)")
        let original = try Data(contentsOf: target)
        try FileManager.default.removeItem(at: target)
        switch damage {
        case .directory: try FileManager.default.createDirectory(at: target, withIntermediateDirectories: false)
        case .danglingLink:
            try FileManager.default.createSymbolicLink(atPath: target.path, withDestinationPath: "no/such/file")
        default: try damage.apply(to: original, file: file)!.write(to: target)
        }
        return folder
    }

    @Test("The intact folder passes every command", arguments: ResultsCommand.allCases)
    func intact(_ command: ResultsCommand) throws {
        let folder = try Self.folder()
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(command.arguments, in: folder.url)
        #expect(outcome.status == 0 && !outcome.exitedBySignal, "\(outcome)")
    }

    @Test(
        "A damaged file gets its exit code and a message naming the file and line, never a crash",
        arguments: HostileInput.all)
    func hostile(_ example: HostileInput) throws {
        let folder = try Self.folder(damaging: example.file, with: example.damage)
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(example.command.arguments, in: folder.url)
        #expect(!outcome.exitedBySignal && !outcome.timedOut, "\(outcome)")
        #expect(!outcome.stderr.contains("Fatal error"), "\(outcome)")
        #expect(outcome.status == example.status, "\(outcome)")
        guard example.status != 0 else { return }
        if !example.location.isEmpty {
            #expect(outcome.stderr.contains("bad/\(example.file)\(example.location)"), "\(outcome)")
        }
        if !example.fragment.isEmpty {
            #expect(outcome.stderr.contains(example.fragment), "\(outcome)")
        }
        if example.status != 2, let output = example.command.output {
            #expect(!FileManager.default.fileExists(atPath: folder.appending(output).path), "\(outcome)")
        }
    }

    @Test("The table covers every command and many damages")
    func tableShape() {
        let all = HostileInput.all
        for command in ResultsCommand.allCases {
            #expect(all.filter { $0.command == command && $0.status != 0 }.count >= 8, "\(command)")
        }
        #expect(Set(all.map(\.damage)).count >= 20)
    }
}
