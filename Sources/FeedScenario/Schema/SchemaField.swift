/// One field of a scenario object: its JSON name, what it holds, whether it
/// must be there, and the texts an editor shows. The decoder takes its
/// bounds from here and `scenarios/schema.json` is generated from here, so
/// the two say the same thing.
struct SchemaField: Sendable {
    /// The JSON name; set from the decoder's coding key by `ObjectSchema`.
    var name = ""
    var title: String
    var description: String
    var kind: Kind
    var isRequired = false
    /// Null stands for the field left out.
    var isNullable = false
    /// The value a file that leaves the field out gets, in the file's units.
    var defaultValue: OrderedJSON?
    var examples: [OrderedJSON] = []
    /// The unit the decoder names after a number in its messages (`ms`, `posts`).
    var unit: String?

    /// What a JSON value must be.
    indirect enum Kind: Sendable {
        /// A whole number in the range.
        case integer(ClosedRange<Int>)
        /// Any whole number a UInt64 holds.
        case unsignedInteger
        case number(NumberBounds)
        /// Exactly this value.
        case constant(OrderedJSON)
        /// A string matching the pattern (ECMA-262, as JSON Schema reads it),
        /// of at most `maxLength` characters (Unicode code points, as JSON
        /// Schema counts them) when there is one.
        case text(pattern: String, maxLength: Int?)
        /// One of these values.
        case choice([OrderedJSON])
        case boolean
        /// An object: a definition by reference, or one written in place.
        case object(ObjectSchema)
        case array(ArrayItems)
        /// Exactly one of these shapes.
        case oneOf([Kind])
        /// The field that chooses among the object's branches: its values,
        /// and its description's list of them, come from `ObjectSchema.branches`.
        case tag
    }

    /// The range of a number. Some bounds leave out their lower end (`> 0`).
    struct NumberBounds: Sendable {
        var lower: Double
        var lowerIsExclusive: Bool
        var upper: Double
        /// 0 itself is refused (a fling needs a velocity).
        var excludesZero = false
    }

    /// An array's items: every item's shape, optionally a different shape for
    /// the first, and how many there must be.
    struct ArrayItems: Sendable {
        var items: Item
        var first: Item?
        var minItems: Int?
        var uniqueItems = false
    }

    /// The shape of an array's items, with its own texts when it has them.
    struct Item: Sendable {
        var title: String?
        var description: String?
        var kind: Kind
    }
}

// MARK: - Writing the table

extension SchemaField {
    /// A whole number in `range`.
    static func integer(
        _ title: String, _ description: String, _ range: ClosedRange<Int>, unit: String? = nil,
        default defaultValue: Int? = nil, required: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description, kind: .integer(range), isRequired: required,
            defaultValue: defaultValue.map(OrderedJSON.int), unit: unit)
    }

    /// A number in `range`, both ends included.
    static func number(
        _ title: String, _ description: String, _ range: ClosedRange<Double>, unit: String? = nil,
        default defaultValue: Double? = nil, required: Bool = false, excludingZero: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description,
            kind: .number(
                NumberBounds(
                    lower: range.lowerBound, lowerIsExclusive: false, upper: range.upperBound,
                    excludesZero: excludingZero)),
            isRequired: required, defaultValue: defaultValue.map(OrderedJSON.number), unit: unit)
    }

    /// A number greater than `lower` and at most `upper`.
    static func number(
        _ title: String, _ description: String, above lower: Double, upTo upper: Double, unit: String? = nil,
        required: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description,
            kind: .number(NumberBounds(lower: lower, lowerIsExclusive: true, upper: upper)),
            isRequired: required, unit: unit)
    }

    /// A string matching `pattern`, of at most `maxLength` characters.
    static func text(
        _ title: String, _ description: String, pattern: String, maxLength: Int? = nil, examples: [String] = [],
        required: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description, kind: .text(pattern: pattern, maxLength: maxLength),
            isRequired: required,
            examples: examples.map(OrderedJSON.string))
    }

    /// One of `values`.
    static func choice(
        _ title: String, _ description: String, _ values: [String], default defaultValue: String? = nil,
        required: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description, kind: .choice(values.map(OrderedJSON.string)), isRequired: required,
            defaultValue: defaultValue.map(OrderedJSON.string))
    }

    /// One of the names of `Choice`, the decoder's own enumeration.
    static func choice<Choice: RawRepresentable & CaseIterable>(
        _ title: String, _ description: String, _: Choice.Type, default defaultValue: Choice? = nil,
        required: Bool = false
    ) -> SchemaField where Choice.RawValue == String {
        choice(title, description, Choice.allCases.map(\.rawValue), default: defaultValue?.rawValue, required: required)
    }

    /// `true` or `false`; null stands for the default.
    static func boolean(
        _ title: String, _ description: String, default defaultValue: Bool, nullable: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description, kind: .boolean, isNullable: nullable,
            defaultValue: .bool(defaultValue))
    }

    /// An object of `schema`'s fields.
    static func object(
        _ title: String, _ description: String, _ schema: ObjectSchema, default defaultValue: OrderedJSON? = nil,
        required: Bool = false, nullable: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description, kind: .object(schema), isRequired: required, isNullable: nullable,
            defaultValue: defaultValue)
    }

    /// An array of `items`.
    static func array(
        _ title: String, _ description: String, of items: Item, first: Item? = nil, minItems: Int? = nil,
        uniqueItems: Bool = false, nullable: Bool = false
    ) -> SchemaField {
        SchemaField(
            title: title, description: description,
            kind: .array(ArrayItems(items: items, first: first, minItems: minItems, uniqueItems: uniqueItems)),
            isNullable: nullable)
    }

    /// Exactly `value`.
    static func constant(
        _ title: String, _ description: String, _ value: OrderedJSON, required: Bool = false
    ) -> SchemaField {
        SchemaField(title: title, description: description, kind: .constant(value), isRequired: required)
    }

    /// Any whole number a UInt64 holds; null stands for the default.
    static func unsignedInteger(_ title: String, _ description: String, default defaultValue: UInt64) -> SchemaField {
        SchemaField(
            title: title, description: description, kind: .unsignedInteger, isNullable: true,
            defaultValue: defaultValue <= UInt64(Int.max) ? .int(Int(defaultValue)) : .unsigned(defaultValue))
    }

    /// The required field that chooses among the object's branches; its
    /// description goes on with each value and what it means.
    static func tag(_ title: String, _ description: String) -> SchemaField {
        SchemaField(title: title, description: description, kind: .tag, isRequired: true)
    }
}

extension SchemaField.Item {
    /// Each item an object of `schema`'s fields.
    static func object(_ schema: ObjectSchema, description: String? = nil) -> Self {
        Self(description: description, kind: .object(schema))
    }
}

// MARK: - Reading the table

extension SchemaField {
    /// The range of a whole-number field.
    var integerRange: ClosedRange<Int> {
        guard case let .integer(range) = kind else {
            preconditionFailure("`\(name)` is not a whole number in the schema")
        }
        return range
    }

    /// The bounds of a number field, or of the number among its shapes.
    var numberBounds: NumberBounds {
        switch kind {
        case let .number(bounds): return bounds
        case let .oneOf(shapes):
            for case let .number(bounds) in shapes { return bounds }
        default: break
        }
        preconditionFailure("`\(name)` is not a number in the schema")
    }

    /// The most characters a text field may hold.
    var maxLength: Int {
        guard case let .text(_, maxLength?) = kind else {
            preconditionFailure("`\(name)` is not a text of bounded length in the schema")
        }
        return maxLength
    }

    /// The unit as the decoder's messages write it after a number (` ms`).
    var messageUnit: String { unit.map { " " + $0 } ?? "" }

    /// Whether the field holds a number with bounds a file can cross.
    var isBounded: Bool {
        switch kind {
        case .integer, .number: true
        case let .text(_, maxLength): maxLength != nil
        case let .oneOf(shapes): shapes.contains { if case .number = $0 { true } else { false } }
        default: false
        }
    }
}
