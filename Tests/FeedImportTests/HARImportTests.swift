import Determinism
import FeedImport
import FeedScenario
import FeedSimTestSupport
import Foundation
import Testing

/// HAR text with `entries` (each a JSON object's text) in `log.entries`.
private func har(_ entries: [String]) -> String {
    #"{"log": {"version": "1.2", "creator": {"name": "test", "version": "1"}, "entries": ["#
        + entries.joined(separator: ",\n") + "]}}"
}

/// One entry's JSON text.
private func entry(
    url: String = "https://bsky.example/xrpc/app.bsky.feed.getTimeline", status: Int = 200,
    mime: String = "application/json",
    size: Int = 1000,
    timings: String? = #"{"blocked": -1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": 100, "receive": 8}"#,
    connection: String? = "1", extra: String = ""
) -> String {
    var members = [
        #""request": {"method": "GET", "url": "\#(url)"}"#,
        #""response": {"status": \#(status), "content": {"size": \#(size), "mimeType": "\#(mime)"}, "#
            + #""bodySize": \#(size)}"#,
        #""time": 120"#, #""cache": {}"#, #""serverIPAddress": "192.0.2.1""#,
    ]
    if let timings { members.append(#""timings": \#(timings)"#) }
    if let connection { members.append(#""connection": "\#(connection)""#) }
    if !extra.isEmpty { members.append(extra) }
    return "{" + members.joined(separator: ", ") + "}"
}

/// Imports `text` as a HAR file in a scratch folder.
private func importHAR(_ text: String, classifier: RequestClassifier = RequestClassifier()) throws -> HARImport {
    let folder = try ScratchFolder(prefix: "feedsim-har")
    defer { folder.remove() }
    try folder.write(text, to: "capture.har")
    return try HARImport.read(url: folder.appending("capture.har"), file: "capture.har", classifier: classifier)
}

/// The problem importing `text` reports.
private func problem(_ text: String) throws -> HARProblem? {
    do {
        _ = try importHAR(text)
        return nil
    } catch let problem as HARProblem {
        return problem
    }
}

@Suite("HAR import")
struct HARImportTests {
    @Test("waits drawn from a lognormal (median 80 ms, σ 0.5, n 4000) come back within 8% at p10, p50, p90")
    func lognormalWaits() throws {
        var generator = Xoshiro256StarStar(seed: 44)
        var entries: [String] = []
        for _ in 0..<4000 {
            // Box–Muller, as the simulator draws normals.
            let z = sqrt(-2 * log(1 - generator.nextUnit())) * cos(2 * Double.pi * generator.nextUnit())
            let wait = 80 * exp(0.5 * z)
            entries.append(
                entry(timings: #"{"blocked": -1, "dns": -1, "connect": -1, "send": 0, "wait": \#(wait), "receive": 5}"#)
            )
        }
        let imported = try importHAR(har(entries))
        let feed = try #require(imported.network.requestClass("feed"))
        let table = try #require(feed.latencyMs)
        let truth = LatencyDistribution.lognormal(medianMs: 80, sigma: 0.5)
        // The standard error of a sample p-quantile of ln X is σ·√(p(1−p)/n)/φ(z_p):
        // 1.4% of the value at p50, 1.9% at p10 and p90 for n = 4000; 8% is
        // more than four standard errors.
        for p in [10, 50, 90] {
            let expected = truth.quantile(Double(p) / 100)
            #expect(abs(table[p] / expected - 1) < 0.08, "p\(p): imported \(table[p]) ms, lognormal \(expected) ms")
        }
        #expect(feed.measured == 4000)
        #expect(table == table.sorted())
    }

    @Test(
        "dns, connect and blocked count on a connection's first request only; ssl (inside connect) and −1 never"
    )
    func connectionReuse() throws {
        let opening = #"{"blocked": 2, "dns": 10, "connect": 30, "ssl": 20, "send": 0, "wait": 100, "receive": 8}"#
        let reused = #"{"blocked": 1, "dns": -1, "connect": -1, "ssl": -1, "send": 0, "wait": 100, "receive": 8}"#
        let setupAgain = #"{"blocked": 3, "dns": 10, "connect": 30, "ssl": 20, "send": 0, "wait": 100, "receive": 8}"#
        let imported = try importHAR(
            har([
                entry(timings: opening), entry(timings: reused),
                entry(timings: setupAgain),  // same connection id: its setup is not counted again
                entry(timings: setupAgain, connection: nil),  // no connection id: taken as it says
            ]))
        #expect(imported.samples[0].latencyMs == [142, 100, 100, 143])
    }

    @Test("missing timings, redirects, 304s, cached responses and failures each follow their rule")
    func edgeCases() throws {
        let imported = try importHAR(
            har([
                entry(size: 2000),
                entry(timings: nil),
                entry(status: 301),
                entry(status: 304, size: 0),
                entry(extra: #""_fromCache": "disk""#),
                entry(
                    status: 0, timings: #"{"send": 0, "wait": -1, "receive": -1}"#,
                    extra: #""_error": "net::ERR_TIMED_OUT""#),
                entry(status: 503),
                entry(extra: #""_error": "net::ERR_CONNECTION_RESET""#),
            ]))
        let feed = try #require(imported.network.requestClass("feed"))
        #expect(feed.requests == 8)
        #expect(feed.cached == 1)
        #expect(feed.redirects == 1)
        #expect(feed.withoutTimings == 1)
        #expect(feed.notModified == 1)
        #expect(feed.failures == 3)
        #expect(feed.timeouts == 1)
        #expect(feed.measured == 2)  // the 200 and the 304
        #expect(feed.failureRate == 3.0 / 7.0)
        #expect(feed.timeoutRate == 1.0 / 7.0)
        // Bytes of the 200 and the untimed 200; throughput only where receive is known.
        #expect(imported.samples[0].bytes == [2000, 1000])
        #expect(imported.samples[0].throughputKbps == [2000.0 * 8 / 8])
    }

    @Test("requests are classed by URL, by an image MIME type, and by the patterns given")
    func classes() throws {
        let classifier = RequestClassifier()
        #expect(
            classifier.classify(url: "https://x.example/xrpc/app.bsky.feed.getTimeline?limit=30", mimeType: nil)
                == "feed")
        #expect(classifier.classify(url: "https://cdn.example/a/b@jpeg", mimeType: nil) == "image")
        #expect(classifier.classify(url: "https://cdn.example/blob", mimeType: "image/webp") == "image")
        #expect(classifier.classify(url: "https://x.example/page.png.html?x", mimeType: "text/html") == "other")
        #expect(classifier.classify(url: "https://x.example/photo.JPG?w=200", mimeType: nil) == "image")
        let custom = try RequestClassifier.parse(["feed=/api/home", "image=/media/"]).get()
        #expect(custom.classify(url: "https://x.example/api/home?p=2", mimeType: nil) == "feed")
        #expect(custom.classify(url: "https://x.example/xrpc/app.bsky.feed.getTimeline", mimeType: nil) == "other")
        #expect(custom.classify(url: "https://x.example/media/1", mimeType: nil) == "image")
        #expect((try? RequestClassifier.parse(["video=/v/"]).get()) == nil)
        #expect((try? RequestClassifier.parse(["feed="]).get()) == nil)
    }

    @Test("NETWORK.json reads back as what was written, and is the same text every time")
    func roundTrip() throws {
        let text = har([
            entry(), entry(url: "https://cdn.example/i.jpg", mime: "image/jpeg", size: 50_000),
            entry(url: "https://x.example/"),
        ])
        let first = try importHAR(text)
        let decoded = try JSONDecoder().decode(ImportedNetwork.self, from: Data(first.fileText.utf8))
        #expect(decoded == first.network)
        #expect(try importHAR(text).fileText == first.fileText)
        #expect(!first.fileText.contains("example"), "no URL or host is kept")
    }

    @Test("inverse CDF sampling interpolates between neighbouring quantiles")
    func inverseCDF() {
        let table = (0...100).map(Double.init)
        #expect(RequestClass.inverseCDF(table, at: 0) == 0)
        #expect(RequestClass.inverseCDF(table, at: 0.255) == 25.5)
        #expect(RequestClass.inverseCDF(table, at: 0.999_999) < 100)
    }

    @Test("malformed HAR files are refused with the entry index or JSON path and what was expected")
    func malformed() throws {
        let good = har([entry(), entry()])
        let truncated = String(good.prefix(good.count - 40))
        #expect(
            try problem(truncated)?.description.hasPrefix(
                "capture.har: $.log.entries[1]: expected the rest of the value") == true)
        #expect(try problem(#"{"log": {"version": "1.2"}}"#)?.path == "$.log.entries")
        #expect(try problem(#"{"nolog": 1}"#)?.path == "$.log.entries")
        #expect(try problem("[]")?.path == "$")
        #expect(try problem("")?.path == "$")
        #expect(try problem(#"{"log": {"entries": {}}}"#)?.problem == "expected an array of entries, found `{`")
        #expect(try problem(#"{"log": {"entries": [1]}}"#)?.path == "$.log.entries[0]")
        let wrongStatus = try problem(
            har([entry(), entry().replacingOccurrences(of: #""status": 200"#, with: #""status": "200""#)]))
        #expect(
            wrongStatus?.description
                == #"capture.har: $.log.entries[1].response.status: expected a number, found the string "200""#)
        let booleanWait = try problem(har([entry(timings: #"{"send": 0, "wait": true, "receive": 1}"#)]))
        #expect(
            booleanWait?.description == "capture.har: $.log.entries[0].timings.wait: expected a number, found a boolean"
        )
        let noResponse = try problem(har([#"{"request": {"url": "https://x.example/"}}"#]))
        #expect(noResponse?.path == "$.log.entries[0].response")
        let badEntry = try problem(har([#"{"request": {"url": "x"}, "response": {"status": 2 00}}"#]))
        #expect(badEntry?.path == "$.log.entries[0]")
        #expect(try problem(good + " trailing")?.path == "$")
    }
}

@Suite("HAR import, fuzzed")
struct HARImportFuzzTests {
    /// One seeded mutation of `bytes`: a cut, a changed byte, an inserted
    /// JSON-significant byte, or a deleted span.
    static func mutate(_ bytes: [UInt8], _ generator: inout Xoshiro256StarStar) -> [UInt8] {
        var mutated = bytes
        let at = generator.nextIndex(below: mutated.count)
        let significant = Array(#"{}[],:"\0-e. tfn"#.utf8)
        switch generator.nextIndex(below: 4) {
        case 0: mutated.removeSubrange(at...)
        case 1: mutated[at] = UInt8(truncatingIfNeeded: generator.next())
        case 2: mutated.insert(significant[generator.nextIndex(below: significant.count)], at: at)
        default: mutated.removeSubrange(at..<min(mutated.count, at + 1 + generator.nextIndex(below: 64)))
        }
        return mutated
    }

    @Test("1,500 seeded mutations of the sample HAR each import or are refused with a path; none crashes or hangs")
    func mutations() throws {
        let sample = PackageRoot.url.appendingPathComponent("docs/examples/your-app/sample.har")
        let bytes = [UInt8](try Data(contentsOf: sample))
        let folder = try ScratchFolder(prefix: "feedsim-har-fuzz")
        defer { folder.remove() }
        var generator = Xoshiro256StarStar(seed: 2026)
        var (imported, refused) = (0, 0)
        for _ in 0..<1_500 {
            var mutated = Self.mutate(bytes, &generator)
            if generator.nextIndex(below: 2) == 0 { mutated = Self.mutate(mutated, &generator) }
            try Data(mutated).write(to: folder.appending("m.har"))
            let url = folder.appending("m.har")
            switch Result(catching: { () throws(HARProblem) in
                try HARImport.read(url: url, file: "m.har", classifier: RequestClassifier())
            }) {
            case .success(let result):
                #expect(result.entries <= 30)
                imported += 1
            case .failure(let problem):
                #expect(problem.path?.hasPrefix("$") == true, "\(problem)")
                #expect(!problem.problem.isEmpty)
                refused += 1
            }
        }
        #expect(imported > 0 && refused > 0, "imported \(imported), refused \(refused)")
    }
}
