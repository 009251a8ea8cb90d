/// Decides which images load before their cells ask for them: which rows,
/// in which direction, and how far ahead. One type per policy; the engine
/// asks it each time the rows on screen change and prefetches exactly the
/// rows it returns (a key already loading or in memory costs nothing more).
public protocol ImagePrefetchPolicy {
    /// The name scenarios use in `image_prefetch`.
    static var name: String { get }
    init()

    /// The rows whose images to prefetch at `moment`.
    func imagePrefetchRows(at moment: PrefetchMoment) -> Range<Int>
}

/// An image prefetch policy by name: what a scenario's `image_prefetch`
/// names. The built-ins are always known; a program registers others
/// (`ImagePrefetch.register(_:)`).
public struct ImagePrefetch: RegisteredPart {
    public let name: String
    private let makePolicy: @Sendable () -> any ImagePrefetchPolicy

    /// The policy `Policy` implements, named `Policy.name`.
    public init<Policy: ImagePrefetchPolicy & SendableMetatype>(_: Policy.Type) {
        name = Policy.name
        makePolicy = { Policy() }
    }

    /// A new policy for one engine.
    public func make() -> any ImagePrefetchPolicy { makePolicy() }

    /// A fixed window of rows past the screen in the direction of reading.
    public static let window = ImagePrefetch(WindowImagePrefetch.self)
    /// A window that grows with the reader's speed, in the direction they move.
    public static let velocity = ImagePrefetch(VelocityPrefetch.self)

    public static let builtIn: [ImagePrefetch] = [.window, .velocity]
    public static let registry = PartRegistry(builtIn: builtIn)
}
