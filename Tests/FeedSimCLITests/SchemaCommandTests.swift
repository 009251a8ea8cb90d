import FeedSimTestSupport
import Foundation
import Testing

@Suite("feedsim schema")
struct SchemaCommandTests {
    @Test("prints scenarios/schema.json exactly and exits 0")
    func printsTheCommittedSchema() throws {
        let folder = try ScratchFolder()
        defer { folder.remove() }
        let outcome = try FeedSimProcess.run(["schema"], in: folder.url)
        #expect(outcome.status == 0, "\(outcome.stderr)")
        let committed = try String(
            contentsOf: FeedSimProcess.packageRoot.appendingPathComponent("scenarios/schema.json"), encoding: .utf8)
        #expect(outcome.stdout == committed, "regenerate it: swift run feedsim schema > scenarios/schema.json")
        #expect(outcome.stderr.isEmpty)
    }
}
