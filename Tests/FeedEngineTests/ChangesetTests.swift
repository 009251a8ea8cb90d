import Determinism
import Testing

@testable import FeedEngine

/// A feed row for diff tests: an id, and a revision that changes when the
/// row's content changes.
struct DiffRow: Identifiable, Equatable, Sendable, CustomStringConvertible {
    let id: String
    var revision: Int

    var description: String { id + String(repeating: "'", count: revision) }
}

/// Rows written as space-separated ids, each `'` after an id marking one
/// content revision: `diffRows("A B' C")`.
func diffRows(_ text: String) -> [DiffRow] {
    text.split(separator: " ").map { token in
        let revision = token.count { $0 == "'" }
        return DiffRow(id: String(token.filter { $0 != "'" }), revision: revision)
    }
}

extension SplitMix64 {
    /// True with probability `percent` / 100.
    mutating func chance(percent: Int) -> Bool {
        nextIndex(below: 100) < percent
    }
}

/// A hand-written diff with the changeset Heckel's algorithm must give.
struct HandWrittenDiff: Sendable, CustomTestStringConvertible {
    let name: String
    let old: [DiffRow]
    let new: [DiffRow]
    let heckel: Changeset

    var testDescription: String { "\(name): [\(rows: old)] → [\(rows: new)]" }

    init(_ name: String, _ old: String, _ new: String, _ heckel: Changeset) {
        self.name = name
        self.old = diffRows(old)
        self.new = diffRows(new)
        self.heckel = heckel
    }

    static let all: [HandWrittenDiff] = [
        .init("both empty", "", "", Changeset()),
        .init("no change", "A B C", "A B C", Changeset()),
        .init("all inserted", "", "A B C", Changeset(inserts: [0, 1, 2])),
        .init("all deleted", "A B C", "", Changeset(deletes: [0, 1, 2])),
        .init("all replaced", "A B", "C D", Changeset(deletes: [0, 1], inserts: [0, 1])),
        .init("first moves to the end", "A B C D", "B C D A", Changeset(moves: [.init(from: 0, to: 3)])),
        .init("last moves to the front", "A B C D", "D A B C", Changeset(moves: [.init(from: 3, to: 0)])),
        .init("neighbours swap", "A B", "B A", Changeset(moves: [.init(from: 1, to: 0)])),
        .init(
            "distant swap", "A B C D E", "A D C B E",
            Changeset(moves: [.init(from: 3, to: 1), .init(from: 2, to: 2)])
        ),
        .init(
            "reversal", "A B C D", "D C B A",
            Changeset(moves: [.init(from: 3, to: 0), .init(from: 2, to: 1), .init(from: 1, to: 2)])
        ),
        .init("update in place", "A B C", "A B' C", Changeset(updates: [1])),
        .init("every row updated", "A B", "A' B''", Changeset(updates: [0, 1])),
        .init("move and update", "A B C", "C' A B", Changeset(moves: [.init(from: 2, to: 0)], updates: [2])),
        .init("insert at the top shifts, not moves", "A B C", "X A B C", Changeset(inserts: [0])),
        .init("delete at the top shifts, not moves", "X A B C", "A B C", Changeset(deletes: [0])),
        .init("window slides", "A B C D", "B C D E", Changeset(deletes: [0], inserts: [3])),
        .init("delete and insert inside", "A B C D E", "A C X D E", Changeset(deletes: [1], inserts: [2])),
        .init(
            "insert, delete, move and update", "A B C D E", "X E B' D A",
            Changeset(
                deletes: [2], inserts: [0],
                moves: [.init(from: 4, to: 1), .init(from: 0, to: 4)], updates: [1]
            )
        ),
        .init("duplicates paired in order", "A A B", "B A A", Changeset(moves: [.init(from: 2, to: 0)])),
        .init("surplus duplicate dropped", "A B A", "A B", Changeset(deletes: [2])),
        .init("surplus duplicate added", "A B", "A B A", Changeset(inserts: [2])),
    ]
}

extension String.StringInterpolation {
    mutating func appendInterpolation(rows: [DiffRow]) {
        appendLiteral(rows.map(\.description).joined(separator: " "))
    }
}

@Suite("Changeset and diff algorithms")
struct ChangesetTests {
    @Test("Heckel gives the expected changeset", arguments: HandWrittenDiff.all)
    func heckelHandWritten(_ diff: HandWrittenDiff) {
        let changeset = heckelDiff(from: diff.old, to: diff.new)
        #expect(changeset == diff.heckel)
        #expect(changeset.apply(to: diff.old, newElements: diff.new) == diff.new)
    }

    @Test("Every algorithm reproduces the new rows", arguments: HandWrittenDiff.all, DiffAlgorithm.allCases)
    func reproducesHandWritten(_ diff: HandWrittenDiff, algorithm: DiffAlgorithm) {
        let changeset = algorithm.diff(from: diff.old, to: diff.new)
        #expect(changeset.isConsistent(oldCount: diff.old.count, newCount: diff.new.count))
        #expect(changeset.apply(to: diff.old, newElements: diff.new) == diff.new)
    }

    @Test("Reload-all deletes every old row and inserts every new one")
    func reloadAllReplacesEverything() {
        let changeset = DiffAlgorithm.reloadAll.diff(from: diffRows("A B C"), to: diffRows("A B"))
        #expect(changeset == Changeset(deletes: [0, 1, 2], inserts: [0, 1]))
        #expect(changeset.elementsCompared == 0)
        #expect(DiffAlgorithm.reloadAll.diff(from: diffRows(""), to: diffRows("")).isEmpty)
    }

    @Test("Myers reports moves and updates for a moved, edited row")
    func collectionDifferenceMovesAndUpdates() {
        let changeset = DiffAlgorithm.collectionDifference.diff(from: diffRows("A B C"), to: diffRows("C' A B"))
        #expect(changeset.deletes.isEmpty)
        #expect(changeset.inserts.isEmpty)
        #expect(changeset.moves == [.init(from: 2, to: 0)])
        #expect(changeset.updates == [2])
    }

    @Test("Raw values are the scenario names")
    func rawValues() {
        #expect(DiffAlgorithm.allCases.map(\.rawValue) == ["heckel", "collection_difference", "reload_all"])
    }

    @Test("Heckel's work is linear in the rows")
    func heckelWork() {
        // 3 + 3 id lookups and 3 content comparisons; no neighbour is unlinked.
        #expect(heckelDiff(from: diffRows("A B C"), to: diffRows("A B C")).elementsCompared == 9)
        // 2 + 3 lookups, 2 content comparisons.
        #expect(heckelDiff(from: diffRows("A B"), to: diffRows("X A B")).elementsCompared == 7)
        #expect(heckelDiff(from: diffRows(""), to: diffRows("")).elementsCompared == 0)
    }

    @Test("Equality ignores the work measurement")
    func equalityIgnoresWork() {
        #expect(Changeset(deletes: [1], elementsCompared: 5) == Changeset(deletes: [1], elementsCompared: 9))
        #expect(Changeset(deletes: [1]) != Changeset(inserts: [1]))
        #expect(Changeset(deletes: [1], inserts: [0, 2]).changeCount == 3)
    }

    @Test("Inconsistent changesets are recognised")
    func inconsistentChangesets() {
        #expect(!Changeset(deletes: [3]).isConsistent(oldCount: 3, newCount: 2))
        #expect(!Changeset(deletes: [0, 0]).isConsistent(oldCount: 3, newCount: 1))
        #expect(!Changeset(deletes: [0], moves: [.init(from: 0, to: 1)]).isConsistent(oldCount: 3, newCount: 2))
        #expect(!Changeset(inserts: [1], moves: [.init(from: 0, to: 1)]).isConsistent(oldCount: 2, newCount: 3))
        #expect(!Changeset(deletes: [1], updates: [1]).isConsistent(oldCount: 2, newCount: 1))
        #expect(!Changeset(inserts: [0]).isConsistent(oldCount: 2, newCount: 2))
        #expect(Changeset(moves: [.init(from: 0, to: 1)], updates: [0]).isConsistent(oldCount: 2, newCount: 2))
    }

    /// Every arrangement of a subset of four rows, with and without a new row
    /// at each position and an edit of the first row.
    @Test("Exhaustive small cases: minimal moves and exact reproduction")
    func exhaustiveSmallCases() {
        let old = diffRows("A B C D")
        var cases = 0
        for arrangement in arrangements(of: old) {
            var variants = [arrangement]
            for position in 0...arrangement.count {
                var inserted = arrangement
                inserted.insert(DiffRow(id: "X", revision: 0), at: position)
                variants.append(inserted)
            }
            if !arrangement.isEmpty {
                var edited = arrangement
                edited[0].revision += 1
                variants.append(edited)
            }
            for new in variants {
                cases += 1
                checkDiff(from: old, to: new, context: "case [\(rows: old)] → [\(rows: new)]")
            }
        }
        #expect(cases == 65 + 261 + 64)
    }

    @Test("Random edits of unique rows: every algorithm reproduces the target")
    func randomEditsOfUniqueRows() {
        let baseSeed: UInt64 = 0xFEED_D1FF_0000_0000
        for caseNumber in 0..<3_000 {
            let seed = baseSeed + UInt64(caseNumber)
            var random = SplitMix64(seed: seed)
            let (old, new) = randomEdit(using: &random)
            checkDiff(from: old, to: new, context: "seed \(seed) (case \(caseNumber)): [\(rows: old)] → [\(rows: new)]")
        }
    }

    @Test("Random rows with repeated ids: every algorithm still reproduces the target")
    func randomRowsWithDuplicateIDs() {
        let baseSeed: UInt64 = 0xD0_D1FF_0000_0000
        let ids = ["A", "B", "C", "D", "E"]
        for caseNumber in 0..<2_000 {
            let seed = baseSeed + UInt64(caseNumber)
            var random = SplitMix64(seed: seed)
            func randomRows() -> [DiffRow] {
                (0..<random.nextIndex(below: 12)).map { _ in
                    DiffRow(id: ids[random.nextIndex(below: ids.count)], revision: random.nextIndex(below: 2))
                }
            }
            let old = randomRows()
            let new = randomRows()
            let context = "seed \(seed) (case \(caseNumber)): [\(rows: old)] → [\(rows: new)]"
            for algorithm in DiffAlgorithm.allCases {
                let changeset = algorithm.diff(from: old, to: new)
                let consistent = changeset.isConsistent(oldCount: old.count, newCount: new.count)
                #expect(consistent, "\(algorithm) inconsistent, \(context)")
                guard consistent else { continue }
                #expect(changeset.apply(to: old, newElements: new) == new, "\(algorithm), \(context)")
            }
        }
    }
}

/// Checks every algorithm on one pair of arrays with unique ids: the
/// changeset is consistent and reproduces `new`; for Heckel and Myers, every
/// common id is matched and exactly the edited rows are updates; for Heckel,
/// the moves are as few as possible and the work is linear.
private func checkDiff(from old: [DiffRow], to new: [DiffRow], context: String) {
    let newIDs = Set(new.map(\.id))
    let oldRevisions = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0.revision) })
    let editedIDs = Set(new.filter { row in oldRevisions[row.id].map { $0 != row.revision } ?? false }.map(\.id))

    for algorithm in DiffAlgorithm.allCases {
        let changeset = algorithm.diff(from: old, to: new)
        let consistent = changeset.isConsistent(oldCount: old.count, newCount: new.count)
        #expect(consistent, "\(algorithm) inconsistent, \(context)")
        guard consistent else { continue }
        #expect(changeset.apply(to: old, newElements: new) == new, "\(algorithm), \(context)")
        guard algorithm != .reloadAll else { continue }

        let deletedIDs = changeset.deletes.map { old[$0].id }
        #expect(deletedIDs.allSatisfy { !newIDs.contains($0) }, "\(algorithm) deleted a kept row, \(context)")
        let insertedIDs = changeset.inserts.map { new[$0].id }
        #expect(insertedIDs.allSatisfy { oldRevisions[$0] == nil }, "\(algorithm) inserted a kept row, \(context)")
        #expect(Set(changeset.updates.map { old[$0].id }) == editedIDs, "\(algorithm) updates, \(context)")
        #expect(changeset.updates == changeset.updates.sorted(), "\(algorithm) update order, \(context)")
    }

    let heckel = heckelDiff(from: old, to: new)
    let oldPosition = Dictionary(uniqueKeysWithValues: old.enumerated().map { ($0.element.id, $0.offset) })
    let matchedOldIndices = new.compactMap { oldPosition[$0.id] }
    let fewestMoves = matchedOldIndices.count - longestIncreasingRunLength(matchedOldIndices)
    #expect(heckel.moves.count == fewestMoves, "heckel moves \(heckel.moves), expected \(fewestMoves), \(context)")
    #expect(heckel.elementsCompared <= 4 * (old.count + new.count), "heckel work, \(context)")
}

/// The length of the longest strictly increasing subsequence, by the
/// quadratic textbook recurrence (independent of the engine's O(k log k)).
private func longestIncreasingRunLength(_ values: [Int]) -> Int {
    var endingAt = [Int](repeating: 1, count: values.count)
    for i in values.indices {
        for j in 0..<i where values[j] < values[i] {
            endingAt[i] = max(endingAt[i], endingAt[j] + 1)
        }
    }
    return endingAt.max() ?? 0
}

/// Every ordering of every subset of `elements`.
private func arrangements(of elements: [DiffRow]) -> [[DiffRow]] {
    var result: [[DiffRow]] = [[]]
    func extend(_ prefix: [DiffRow], remaining: [DiffRow]) {
        for index in remaining.indices {
            var next = prefix
            next.append(remaining[index])
            var rest = remaining
            rest.remove(at: index)
            result.append(next)
            extend(next, remaining: rest)
        }
    }
    extend([], remaining: elements)
    return result
}

/// Old rows with unique ids, and a new array made from them by random
/// deletes, content edits, moves and inserts.
private func randomEdit(using random: inout SplitMix64) -> (old: [DiffRow], new: [DiffRow]) {
    let old = (0..<random.nextIndex(below: 40)).map { DiffRow(id: "r\($0)", revision: 0) }
    var new = old.filter { _ in !random.chance(percent: 20) }
    for index in new.indices where random.chance(percent: 15) {
        new[index].revision += 1
    }
    if !new.isEmpty {
        for _ in 0..<random.nextIndex(below: 4) {
            let row = new.remove(at: random.nextIndex(below: new.count))
            new.insert(row, at: random.nextIndex(below: new.count + 1))
        }
    }
    for freshID in 0..<random.nextIndex(below: 8) {
        new.insert(DiffRow(id: "n\(freshID)", revision: 0), at: random.nextIndex(below: new.count + 1))
    }
    return (old, new)
}
