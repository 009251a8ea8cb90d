/// The table written out as JSON Schema (Draft 2020-12).
///
/// A definition under `$defs` does not say it is an object: the field that
/// uses it does (`"type": "object"`, or `["object", "null"]` where null
/// stands for the field left out), so one definition serves both.
extension ObjectSchema {
    /// The object's members as JSON Schema keywords: its texts, the object it
    /// adds to, its fields, its alternatives and branches, and whether other
    /// fields are refused.
    var jsonSchemaMembers: [(String, OrderedJSON)] {
        var members: [(String, OrderedJSON)] = []
        if let title { members.append(("title", .string(title))) }
        if let description { members.append(("description", .string(description))) }
        if let base { members.append(("$ref", base.schema.reference)) }
        let required = fields.filter(\.isRequired).map { OrderedJSON.string($0.name) }
        if !required.isEmpty { members.append(("required", .array(required))) }
        if !fields.isEmpty {
            members.append(("properties", .object(fields.map { ($0.name, jsonSchema(of: $0)) })))
        }
        if !alternatives.isEmpty {
            members.append(("oneOf", .array(alternatives.map(\.jsonSchema))))
        }
        if let branches {
            members.append(
                (
                    "allOf",
                    .array(
                        branches.list.map { branch -> OrderedJSON in
                            let condition: OrderedJSON = [
                                "properties": .object([(branches.tag, .object([("const", .string(branch.value))]))]),
                                "required": [.string(branches.tag)],
                            ]
                            let then: OrderedJSON =
                                branch.object.definition == nil
                                ? .object(branch.object.jsonSchemaMembers) : ["$ref": branch.object.reference]
                            return ["if": condition, "then": then]
                        })
                ))
        }
        if !isFragment {
            // A keyword beside `$ref` or `allOf` sees only this object's own
            // `properties`; `unevaluatedProperties` sees every field any of
            // them allowed.
            members.append((base == nil && branches == nil ? "additionalProperties" : "unevaluatedProperties", false))
        }
        return members
    }

    /// `#/$defs/<definition>`.
    var reference: OrderedJSON {
        guard let definition else { preconditionFailure("an object written in place has no reference") }
        return .string("#/$defs/\(definition)")
    }

    /// `field` as a property's subschema.
    func jsonSchema(of field: SchemaField) -> OrderedJSON {
        var members: [(String, OrderedJSON)] = [("title", .string(field.title))]
        if case .tag = field.kind, let branches {
            let values = branches.list.map { "`\($0.value)`: \($0.summary)" }.joined(separator: "; ")
            members.append(("description", .string("\(field.description): \(values)")))
            members += [("type", "string"), ("enum", .array(branches.list.map { .string($0.value) }))]
        } else {
            members.append(("description", .string(field.description)))
            members += Self.jsonSchema(of: field.kind, nullable: field.isNullable)
        }
        if let value = field.defaultValue { members.append(("default", value)) }
        if !field.examples.isEmpty { members.append(("examples", .array(field.examples))) }
        return .object(members)
    }

    /// The keywords that say what a value of `kind` must be.
    static func jsonSchema(of kind: SchemaField.Kind, nullable: Bool) -> [(String, OrderedJSON)] {
        func type(_ name: String) -> (String, OrderedJSON) {
            ("type", nullable ? [.string(name), "null"] : .string(name))
        }
        switch kind {
        case let .integer(range):
            return [type("integer"), ("minimum", .int(range.lowerBound)), ("maximum", .int(range.upperBound))]
        case .unsignedInteger:
            return [type("integer"), ("minimum", 0), ("maximum", .unsigned(UInt64.max))]
        case let .number(bounds):
            var members = [
                type("number"), (bounds.lowerIsExclusive ? "exclusiveMinimum" : "minimum", .number(bounds.lower)),
                ("maximum", .number(bounds.upper)),
            ]
            if bounds.excludesZero { members.append(("not", ["const": 0])) }
            return members
        case let .constant(value):
            if case .int = value { return [type("integer"), ("const", value)] }
            return [("const", value)]
        case let .text(pattern, maxLength):
            return [type("string")] + (maxLength.map { [("maxLength", OrderedJSON.int($0))] } ?? []) + [
                ("pattern", .string(pattern))
            ]
        case let .choice(values):
            let isWhole = values.allSatisfy { if case .int = $0 { true } else { false } }
            return [type(isWhole ? "integer" : "string"), ("enum", .array(values))]
        case .boolean:
            return [type("boolean")]
        case let .object(schema):
            guard schema.definition != nil else { return [type("object")] + schema.jsonSchemaMembers }
            var members = [type("object"), ("$ref", schema.reference)]
            // Fields shared by two objects are closed where they are used.
            if schema.isFragment { members.append(("unevaluatedProperties", false)) }
            return members
        case let .array(array):
            var members = [type("array")]
            if let minItems = array.minItems { members.append(("minItems", .int(minItems))) }
            if let first = array.first { members.append(("prefixItems", [first.jsonSchema])) }
            members.append(("items", array.items.jsonSchema))
            if array.uniqueItems { members.append(("uniqueItems", true)) }
            return members
        case let .oneOf(shapes):
            return [("oneOf", .array(shapes.map { .object(jsonSchema(of: $0, nullable: false)) }))]
        case .tag:
            preconditionFailure("a tag field outside an object with branches")
        }
    }
}

extension SchemaField.Item {
    var jsonSchema: OrderedJSON {
        var members: [(String, OrderedJSON)] = []
        if let title { members.append(("title", .string(title))) }
        if let description { members.append(("description", .string(description))) }
        return .object(members + ObjectSchema.jsonSchema(of: kind, nullable: false))
    }
}

extension FieldAlternative {
    var jsonSchema: OrderedJSON {
        var members: [(String, OrderedJSON)] = []
        if let title { members.append(("title", .string(title))) }
        if let description { members.append(("description", .string(description))) }
        members.append(("required", .array(requires.map(OrderedJSON.string))))
        let ruledOut = forbids.map { name -> OrderedJSON in ["required": [.string(name)]] }
        members.append(("not", ruledOut.count == 1 ? ruledOut[0] : ["anyOf": .array(ruledOut)]))
        return .object(members)
    }
}
