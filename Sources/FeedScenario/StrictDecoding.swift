/// A coding key for any field name, used to see every key an object has.
package struct AnyCodingKey: CodingKey {
    package var stringValue: String
    package var intValue: Int?
    package init(stringValue: String) { self.stringValue = stringValue }
    package init(intValue: Int) {
        self.stringValue = String(intValue)
        self.intValue = intValue
    }
    /// The same field as `key`.
    package init(_ key: some CodingKey) {
        stringValue = key.stringValue
        intValue = key.intValue
    }
}

/// An object's fields, named by `Key` and read through the one
/// `KeyedDecodingContainer<AnyCodingKey>` every object shares.
///
/// Not a `KeyedDecodingContainer<Key>` for each key type: the standard
/// library's container is resilient, so a key type's container has its
/// metadata built at run time from a mangled name, and checking that `Key`
/// is a `CodingKey` scans every protocol conformance in the binary, about
/// 0.2 M instructions a key type (a dozen of them for a scenario and its
/// device, callgrind). `Key` is unconstrained here, so building this type's
/// metadata checks nothing.
struct KeyedFields<Key> {
    let base: KeyedDecodingContainer<AnyCodingKey>
}

extension Decoder {
    /// The current object's fields, named by `Key`.
    func fields<Key: CodingKey>(_: Key.Type) throws -> KeyedFields<Key> {
        KeyedFields(base: try container(keyedBy: AnyCodingKey.self))
    }

    /// The current object's fields, named by `Key`, failing on any field
    /// `Key` does not name: a misspelt field must not be silently ignored.
    func knownFields<Key: CodingKey & CaseIterable>(_: Key.Type) throws -> KeyedFields<Key> {
        let fields = try fields(Key.self)
        let known = Key.allCases.map(\.stringValue)
        // Sorted so that the first unknown key reported does not depend on
        // the decoder's key order.
        for key in fields.base.allKeys.sorted(by: { $0.stringValue < $1.stringValue })
        where !known.contains(key.stringValue) {
            throw DecodingFailure(
                codingPath: fields.codingPath + [key],
                expected: "unknown field `\(key.stringValue)`; expected one of: \(known.joined(separator: ", "))")
        }
        return fields
    }
}

extension KeyedFields where Key: CodingKey {
    // What `KeyedDecodingContainer` offers, by `Key`.

    var codingPath: [any CodingKey] { base.codingPath }

    /// The object's fields that `Key` names, in the decoder's order.
    var allKeys: [Key] { base.allKeys.compactMap { Key(stringValue: $0.stringValue) } }

    func contains(_ key: Key) -> Bool { base.contains(AnyCodingKey(key)) }

    func decodeNil(forKey key: Key) throws -> Bool { try base.decodeNil(forKey: AnyCodingKey(key)) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try base.decode(type, forKey: AnyCodingKey(key))
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        try base.decodeIfPresent(type, forKey: AnyCodingKey(key))
    }

    func superDecoder(forKey key: Key) throws -> any Decoder { try base.superDecoder(forKey: AnyCodingKey(key)) }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try base.nestedUnkeyedContainer(forKey: AnyCodingKey(key))
    }
}

extension KeyedFields where Key: CodingKey {
    /// A failure at `key` saying what was expected.
    func failure(_ key: Key, _ expected: String) -> DecodingFailure {
        DecodingFailure(codingPath: codingPath + [key], expected: expected)
    }

    /// Decodes a number at `key`. Foundation reports a number that does not
    /// fit the type (1.5 for an integer, −1 for an unsigned one) as corrupt
    /// data with no path; this names the field instead.
    func decodeNumber<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        do {
            return try decode(type, forKey: key)
        } catch let error as DecodingError {
            guard case .dataCorrupted = error else { throw error }
            throw failure(key, "expected \(Self.numberKind(T.self)) that fits, found another number")
        } catch {
            // Foundation's own "number is not representable" error.
            throw failure(key, "expected \(Self.numberKind(T.self)) that fits, found another number")
        }
    }

    static func numberKind(_ type: Any.Type) -> String {
        type is any BinaryInteger.Type
            ? (type is any UnsignedInteger.Type ? "a whole number ≥ 0" : "a whole number")
            : "a number"
    }

    /// Decodes an optional number at `key` (see `decodeNumber`).
    func decodeNumberIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        guard contains(key), try !decodeNil(forKey: key) else { return nil }
        return try decodeNumber(type, forKey: key)
    }

    /// Decodes a number at `key` and checks it lies in `range`.
    func decode<T: Decodable & Comparable>(
        _ type: T.Type, forKey key: Key, in range: ClosedRange<T>, unit: String = ""
    ) throws -> T {
        let value = try decodeNumber(type, forKey: key)
        guard range.contains(value) else {
            throw failure(key, "expected a value in \(range.lowerBound)...\(range.upperBound)\(unit), found \(value)")
        }
        return value
    }

    /// Decodes an optional number at `key`, checks its range, or returns `defaultValue`.
    func decode<T: Decodable & Comparable>(
        _ type: T.Type, forKey key: Key, in range: ClosedRange<T>, default defaultValue: T, unit: String = ""
    ) throws -> T {
        guard contains(key) else { return defaultValue }
        return try decode(type, forKey: key, in: range, unit: unit)
    }

    /// Decodes a number at `key` that must be greater than `lowerBound` and at most `upperBound`.
    func decode<T: Decodable & Comparable>(
        _ type: T.Type, forKey key: Key, above lowerBound: T, upTo upperBound: T, unit: String = ""
    ) throws -> T {
        let value = try decodeNumber(type, forKey: key)
        guard value > lowerBound, value <= upperBound else {
            throw failure(key, "expected a value > \(lowerBound) and <= \(upperBound)\(unit), found \(value)")
        }
        return value
    }

    /// Decodes a whole number at `key` and checks it against the range the
    /// schema's table gives the field.
    func decode(_ type: Int.Type, forKey key: Key, per object: ObjectSchema) throws -> Int {
        let field = object[key]
        return try decode(Int.self, forKey: key, in: field.integerRange, unit: field.messageUnit)
    }

    /// Decodes an optional whole number at `key` per the schema's table, or returns `defaultValue`.
    func decode(_ type: Int.Type, forKey key: Key, per object: ObjectSchema, default defaultValue: Int) throws -> Int {
        guard contains(key) else { return defaultValue }
        return try decode(Int.self, forKey: key, per: object)
    }

    /// Decodes a number at `key` and checks it against the bounds the
    /// schema's table gives the field.
    func decode(_ type: Double.Type, forKey key: Key, per object: ObjectSchema) throws -> Double {
        let field = object[key]
        let bounds = field.numberBounds
        return bounds.lowerIsExclusive
            ? try decode(Double.self, forKey: key, above: bounds.lower, upTo: bounds.upper, unit: field.messageUnit)
            : try decode(Double.self, forKey: key, in: bounds.lower...bounds.upper, unit: field.messageUnit)
    }

    /// Decodes an optional number at `key` per the schema's table, or returns `defaultValue`.
    func decode(
        _ type: Double.Type, forKey key: Key, per object: ObjectSchema, default defaultValue: Double
    ) throws -> Double {
        guard contains(key) else { return defaultValue }
        return try decode(Double.self, forKey: key, per: object)
    }

    /// Decodes a string at `key` that must be one of `allowed`.
    func decode<T: RawRepresentable & CaseIterable>(
        _ type: T.Type, forKey key: Key, default defaultValue: T? = nil
    ) throws -> T where T.RawValue == String {
        guard contains(key) || defaultValue == nil else { return defaultValue! }
        let raw = try decode(String.self, forKey: key)
        guard let value = T(rawValue: raw) else {
            let allowed = T.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")
            throw failure(key, "expected one of \(allowed), found \"\(raw)\"")
        }
        return value
    }

    /// Decodes a scenario's or variant's name at `key`: no longer than the
    /// schema's table allows, and of letters, digits, `-` and `_` only.
    func decodeName(forKey key: Key, per object: ObjectSchema) throws -> String {
        let value = try decodeNonEmptyString(forKey: key)
        // Code points, as JSON Schema's maxLength counts them.
        let length = value.unicodeScalars.count
        let maxLength = object[key].maxLength
        guard length <= maxLength else {
            throw failure(key, "expected at most \(maxLength) characters, found \(length)")
        }
        guard value.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }) else {
            throw failure(key, "expected letters, digits, `-` and `_` only, found \"\(value)\"")
        }
        return value
    }

    /// Decodes a non-empty string at `key`.
    func decodeNonEmptyString(forKey key: Key) throws -> String {
        let value = try decode(String.self, forKey: key)
        guard !value.allSatisfy(\.isWhitespace) else {
            throw failure(key, "expected a non-empty string")
        }
        return value
    }
}
