import Determinism
import Foundation
import Testing

@testable import FeedImport

/// The importers' JSON parser gives the value `JSONDecoder` gives for every
/// text it accepts, and refuses the texts JSON does not allow without
/// crashing or recursing without end.
@Suite struct JSONParserTests {
    /// A random JSON value, nested at most `depth` deep.
    private static func randomValue(_ generator: inout Xoshiro256StarStar, depth: Int) -> Any {
        switch generator.next(below: depth > 0 ? 7 : 5) {
        case 0: return NSNull()
        case 1: return generator.chance(0.5)
        case 2:
            let magnitude = Double(generator.next(below: 1 << 40)) * pow(10, Double(generator.next(below: 30)) - 15)
            return generator.chance(0.3) ? -magnitude : magnitude
        case 3: return Int(generator.next(below: 1 << 50)) - (1 << 49)
        case 4:
            let scalars: [Unicode.Scalar] = [
                "a", "\"", "\\", "/", "\n", "\t", "\u{01}", "é", "\u{1F600}", "\u{7F}", " ",
            ]
            let picked = (0..<generator.next(below: 12)).map { _ in
                scalars[Int(generator.next(below: UInt64(scalars.count)))]
            }
            return String(String.UnicodeScalarView(picked))
        case 5:
            return (0..<generator.next(below: 5)).map { _ in randomValue(&generator, depth: depth - 1) }
        default:
            var object: [String: Any] = [:]
            for index in 0..<generator.next(below: 5) {
                object["k\(index)\(generator.next(below: 3))"] = randomValue(&generator, depth: depth - 1)
            }
            return object
        }
    }

    @Test("2,000 random documents parse to the value JSONDecoder gives")
    func agreesWithJSONDecoder() throws {
        var generator = Xoshiro256StarStar(seed: 42)
        for _ in 0..<2_000 {
            let document = Self.randomValue(&generator, depth: 4)
            let options: JSONSerialization.WritingOptions =
                generator.chance(0.5) ? [.fragmentsAllowed, .prettyPrinted] : [.fragmentsAllowed]
            let data = try JSONSerialization.data(withJSONObject: document, options: options)
            let expected = try JSONDecoder().decode(JSONValue.self, from: data)
            let parsed = try JSONParser.parse([UInt8](data))
            #expect(parsed == expected, "\(String(decoding: data, as: UTF8.self))")
        }
    }

    @Test("escapes, surrogate pairs, numbers and white space")
    func edgeCases() throws {
        #expect(try JSONParser.parse(Array(#" "a\u00e9\ud83d\ude00\n\/" "#.utf8)) == .string("aé😀\n/"))
        #expect(try JSONParser.parse(Array("-0.5e2".utf8)) == .number(-50))
        #expect(try JSONParser.parse(Array("12345678901234567890".utf8)) == .number(Double("12345678901234567890")!))
        #expect(try JSONParser.parse(Array(#"{"a":1,"a":2}"#.utf8)) == .object(["a": .number(2)]))
        #expect(try JSONParser.parse(Array("\t[ ]\r\n".utf8)) == .array([]))
    }

    @Test(
        "texts JSON does not allow are refused",
        arguments: [
            "", " ", "01", "-", "1.", "1e", "+1", ".5", "tru", "nul", "[1,]", "[1 2]", "{\"a\" 1}", "{\"a\":1,}",
            "{1:2}", "\"abc", "\"a\\x\"", "\"a\\u12\"", "\"tab\there\"", "[", "{", "[1] 2", "NaN", "Infinity",
            "\"\\ud800x\"", "\"\\udc00\"",
        ])
    func refused(text: String) {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(text.utf8)) }
    }

    @Test("a string that is not UTF-8 is refused, as JSONDecoder and the scenario reader refuse it")
    func invalidUTF8() {
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse([0x22, 0xFF, 0x22]) }
    }

    @Test("nesting past the limit is refused, not recursed into")
    func deepNesting() throws {
        let deep = [UInt8](repeating: UInt8(ascii: "["), count: 100_000)
        #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(deep) }
        let limit = JSONParser.depthLimit
        let allowed = String(repeating: "[", count: limit) + String(repeating: "]", count: limit)
        #expect(throws: Never.self) { try JSONParser.parse(Array(allowed.utf8)) }
    }
}

/// `JSONValue` as `JSONDecoder` reads it, each kind tried in turn: the
/// reference the parser is checked against (the importers read it with
/// `JSONParser` alone).
extension JSONValue: Decodable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .bool(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else if let value = try? container.decode(String.self) {
            self = .string(value)
        } else if let value = try? container.decode([JSONValue].self) {
            self = .array(value)
        } else {
            self = .object(try container.decode([String: JSONValue].self))
        }
    }
}
