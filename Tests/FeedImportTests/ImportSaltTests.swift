import FeedImport
import FeedSimTestSupport
import Foundation
import Testing

@Suite("Import salt")
struct ImportSaltTests {
    @Test("an id's hash is its SipHash-2-4 under the salt, as 16 hex digits")
    func sipHash() {
        // The reference vector for the empty message under key 00 01 … 0f.
        let salt = ImportSalt(bytes: Array(0..<16))
        #expect(salt.hash("") == "726fdb47dd0e0e31")
        // A salt longer than the key is folded into it: byte 16 lands on byte 0.
        #expect(ImportSalt(bytes: Array(0..<16) + [0]).hash("x") == salt.hash("x"))
        #expect(ImportSalt(bytes: Array(0..<16) + [1]).hash("x") != salt.hash("x"))
    }

    @Test("the same id under the same salt hashes alike, under another salt differently")
    func keyed() {
        let a = ImportSalt(bytes: Array("a salt of sixteen bytes".utf8))
        let b = ImportSalt(bytes: Array("another salt of sixteen".utf8))
        let id = "at://did:plc:abc/app.bsky.feed.post/3k"
        #expect(a.hash(id) == a.hash(id))
        #expect(a.hash(id) != b.hash(id))
        #expect(a.hash(id).count == 16 && !a.hash(id).contains("did"))
        #expect(ImportSalt.random().hash(id) != ImportSalt.random().hash(id))
    }

    @Test("a salt file shorter than 16 bytes is refused, naming the file")
    func shortSaltFile() throws {
        let folder = try ScratchFolder(prefix: "feedsim-salt")
        defer { folder.remove() }
        try folder.write("short", to: "salt")
        #expect(throws: (any Error).self) {
            try ImportSalt.read(path: folder.appending("salt").path, file: "salt")
        }
        do {
            _ = try ImportSalt.read(path: folder.appending("salt").path, file: "salt")
        } catch {
            #expect(error.description == "salt: expected a salt of at least 16 bytes, found 5")
        }
        try folder.write("a salt of sixteen bytes or more", to: "long")
        let salt = try ImportSalt.read(path: folder.appending("long").path, file: "long")
        #expect(salt.hash("x") == ImportSalt(bytes: Array("a salt of sixteen bytes or more".utf8)).hash("x"))
    }
}
