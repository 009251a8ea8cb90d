import FeedScenario

/// A HAR file that cannot be imported: the file, the JSON path at fault
/// (`$.log.entries[12].response.status`, which carries the entry index), and
/// what was expected there.
package typealias HARProblem = FileProblem
