import Synchronization

/// The parts of one kind an engine knows by name (position strategies,
/// prefetch policies): the built-ins, always first, then the ones whoever
/// embeds the engine registered, in the order they were registered.
public final class PartRegistry<Part: RegisteredPart>: Sendable {
    /// The parts every engine knows, in the order reports list them.
    public let builtIn: [Part]
    private let registered = Mutex<[Part]>([])

    public init(builtIn: [Part]) {
        self.builtIn = builtIn
    }

    /// Makes `part` known by its name. A later registration of the same name
    /// replaces an earlier one; a built-in name cannot be taken.
    func register(_ part: Part) {
        guard !builtIn.contains(part) else { return }
        registered.withLock { list in
            list.removeAll { $0 == part }
            list.append(part)
        }
    }

    /// Every part known now.
    var known: [Part] {
        let added = registered.withLock { $0 }
        // Most programs register nothing, and then nothing is joined: the
        // generic `+` (this class is not specialized) checks at run time
        // that an array of parts is a collection, a scan of every protocol
        // conformance in the binary, once for each kind of part.
        return added.isEmpty ? builtIn : builtIn + added
    }

    /// The part called `name`, if one is known.
    func named(_ name: String) -> Part? { known.first { $0.name == name } }
}

/// A part of the engine that a scenario chooses by name and a program can
/// register: two parts are the same part when they have the same name.
public protocol RegisteredPart: Hashable, Sendable, CustomStringConvertible {
    /// The name scenarios and reports use.
    var name: String { get }
    /// The parts of this kind known by name.
    static var registry: PartRegistry<Self> { get }
}

extension RegisteredPart {
    /// Makes `part` known by its name, so that `named(_:)` (and so a
    /// scenario) finds it. A later registration of the same name replaces
    /// an earlier one; a built-in name cannot be taken.
    public static func register(_ part: Self) { registry.register(part) }

    /// Every part of this kind known now: the built-ins, then registered
    /// ones in the order they were registered.
    public static var known: [Self] { registry.known }

    /// The part called `name`, if one is known.
    public static func named(_ name: String) -> Self? { registry.named(name) }

    public static func == (a: Self, b: Self) -> Bool { a.name == b.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
    public var description: String { name }
}
