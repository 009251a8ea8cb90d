/// The fields of one scenario object, in the order of the decoder's coding
/// keys, with how the object is put together: another object it adds to,
/// ways of writing it that exclude each other, or branches chosen by one of
/// its fields.
struct ObjectSchema: Sendable {
    /// Its name under `$defs` in the schema; nil for an object written where
    /// it is used.
    var definition: String?
    var title: String?
    var description: String?
    var fields: [SchemaField]
    /// The names of the decoder's coding keys for this object, all of them:
    /// a branch or a base holds some of them.
    var keyNames: [String]
    /// Part of another object (a branch, or fields shared by two objects):
    /// the object it is part of closes it.
    var isFragment: Bool
    /// The object whose fields this one adds to.
    var base: Base?
    /// Ways of writing the object of which exactly one must hold.
    var alternatives: [FieldAlternative]
    var branches: Branches?

    /// An object whose fields `field` gives, key by key; nil leaves a key out
    /// (it belongs to a branch or to the object this one adds to).
    init<Keys: CodingKey & CaseIterable>(
        definition: String?, title: String? = nil, description: String? = nil, keys: Keys.Type,
        isFragment: Bool = false, extending base: ObjectSchema? = nil, alternatives: [FieldAlternative] = [],
        branches: Branches? = nil, field: (Keys) -> SchemaField?
    ) {
        self.definition = definition
        self.title = title
        self.description = description
        self.keyNames = Keys.allCases.map(\.stringValue)
        self.isFragment = isFragment
        self.base = base.map(Base.object)
        self.alternatives = alternatives
        self.branches = branches
        self.fields = Keys.allCases.compactMap { key in
            guard var entry = field(key) else { return nil }
            entry.name = key.stringValue
            return entry
        }
    }

    /// An object of `fields`, in the order written: a branch, whose fields
    /// are a few of the decoder's keys.
    init<Keys: CodingKey & CaseIterable>(
        definition: String?, title: String? = nil, description: String? = nil, keys: Keys.Type,
        isFragment: Bool = false, alternatives: [FieldAlternative] = [], fields: KeyValuePairs<Keys, SchemaField>
    ) {
        self.init(
            definition: definition, title: title, description: description, keys: keys, isFragment: isFragment,
            alternatives: alternatives
        ) { _ in nil }
        self.fields = fields.map { key, field in
            var entry = field
            entry.name = key.stringValue
            return entry
        }
    }

    /// A definition's object, held apart so that an object can name another.
    indirect enum Base: Sendable {
        case object(ObjectSchema)

        var schema: ObjectSchema {
            switch self {
            case let .object(schema): schema
            }
        }
    }

    /// The field named by `key`, here or in the object this one adds to.
    subscript(key: some CodingKey) -> SchemaField {
        if let field = fields.first(where: { $0.name == key.stringValue }) { return field }
        if let base { return base.schema[key] }
        preconditionFailure("`\(key.stringValue)` is not a field of \(definition ?? "this object") in the schema")
    }

    /// Every field name a file may use in this object: its own, its base's
    /// and every branch's, each once, in that order.
    var allFieldNames: [String] {
        var names = (base?.schema.allFieldNames ?? []) + fields.map(\.name)
        for branch in branches?.list ?? [] { names += branch.object.allFieldNames }
        var seen = Set<String>()
        return names.filter { seen.insert($0).inserted }
    }

    /// The branch for `value` of the tag.
    func branch(_ value: String) -> ObjectSchema {
        guard let branch = branches?.list.first(where: { $0.value == value }) else {
            preconditionFailure("no branch `\(value)` in \(definition ?? "this object")")
        }
        return branch.object
    }
}

/// One way of writing an object that has several: the fields it needs and
/// the fields it rules out.
struct FieldAlternative: Sendable {
    var title: String?
    var description: String?
    var requires: [String]
    var forbids: [String]

    init<Keys: CodingKey>(title: String? = nil, description: String? = nil, requires: [Keys], forbids: [Keys]) {
        self.title = title
        self.description = description
        self.requires = requires.map(\.stringValue)
        self.forbids = forbids.map(\.stringValue)
    }
}

/// An object whose fields depend on the value of one of them (a step's
/// `action`, a latency's `distribution`).
struct Branches: Sendable {
    /// The field whose value chooses the branch.
    var tag: String
    var list: [Branch]

    struct Branch: Sendable {
        var value: String
        /// What the value means, for the tag's description.
        var summary: String
        /// The fields the branch adds.
        var object: ObjectSchema
    }
}
