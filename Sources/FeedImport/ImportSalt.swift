import Determinism
import FeedScenario
import FoundationEssentials
import Glibc
import SystemSupport

/// The secret an import mixes into every id it keeps, so that an imported
/// file holds no id of the capture's (no DID, no URI, no post key) yet the
/// same id always maps to the same value within an import: threads and
/// reposts still point at their posts.
///
/// Each kept id is its SipHash-2-4 under the salt, as 16 hex digits: a keyed
/// hash made for short inputs (`SipHash24`). Without the salt nobody can
/// test a guess of an id against the file; a team that keeps its salt file
/// imports the same capture to the same bytes, and one that imports without
/// a salt file gets a fresh random salt each time.
///
/// SipHash rather than swift-crypto's HMAC-SHA256: both are keyed PRFs, and
/// a 64-bit id needs no more, but linking swift-crypto into `feedsim` cost
/// every start of the command 2.0 M instructions (callgrind, 108.7 M to
/// 110.8 M on the 10,000-post benchmark session) for 435 more protocol
/// conformances the Swift runtime scans.
package struct ImportSalt: Sendable {
    /// Bytes a salt file must hold at least: 128 bits.
    package static let minimumBytes = 16

    private let hasher: SipHash24

    /// A salt of `bytes`, folded into SipHash's 16-byte key: byte *i* is
    /// XORed into key byte *i* mod 16, so every byte of a long salt counts.
    package init(bytes: some Sequence<UInt8>) {
        var key = [UInt8](repeating: 0, count: 16)
        for (index, byte) in bytes.enumerated() { key[index % 16] ^= byte }
        hasher = SipHash24(key: key)
    }

    /// A fresh salt of 32 random bytes from the system's generator: an
    /// import that is not asked to be repeatable.
    package static func random() -> ImportSalt {
        var generator = SystemRandomNumberGenerator()
        return ImportSalt(bytes: (0..<32).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
    }

    /// The salt in the file at `path` (its bytes as they are), named
    /// `file` in a diagnostic.
    package static func read(path: String, file: String) throws(FileProblem) -> ImportSalt {
        let bytes: Data
        do {
            bytes = try Data(contentsOf: URL(fileURLWithPath: path))
        } catch {
            throw FileProblem(
                file: file, line: nil, problem: "expected a readable salt file (\(error.readableDescription))")
        }
        guard bytes.count >= minimumBytes else {
            throw FileProblem(
                file: file, line: nil,
                problem: "expected a salt of at least \(minimumBytes) bytes, found \(bytes.count)")
        }
        return ImportSalt(bytes: bytes)
    }

    /// `id`'s keyed hash: 16 lowercase hex digits.
    package func hash(_ id: String) -> String {
        let digits = String(hasher.hash(Array(id.utf8)), radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }
}
