/// A post's stable identity across pages, refreshes and relaunches.
///
/// A ``Post`` stores its ids in 32 bits: an id, parent or root must be below
/// ``Post/idLimit``.
public typealias PostID = UInt64

/// Media attached to a post. No pixels: only what layout and the image
/// pipeline need (kind, pixel size, encoded bytes).
///
/// A `Media` on its own holds any sizes; a ``Post`` stores them narrower
/// (see ``Post/media``).
public struct Media: Hashable, Sendable {
    /// The shape of the media attachment.
    public enum Kind: String, Hashable, Sendable, CaseIterable {
        case single, carousel, video
    }

    public var pixelWidth: Int
    public var pixelHeight: Int
    public var encodedBytes: Int
    public var kind: Kind
    /// Whether the feed's data gives the pixel size; if not, layout assumes
    /// a square until the image arrives.
    public var sizeKnownAtLayout: Bool

    public init(kind: Kind, pixelWidth: Int, pixelHeight: Int, encodedBytes: Int, sizeKnownAtLayout: Bool = true) {
        self.kind = kind
        self.pixelWidth = pixelWidth
        self.pixelHeight = pixelHeight
        self.encodedBytes = encodedBytes
        self.sizeKnownAtLayout = sizeKnownAtLayout
    }

    /// The width feed media are stored at: Instagram's 1,080 px.
    package static let storedPixelWidth = 1_080
    /// Encoded bytes per pixel of a feed image: a JPEG at quality ~80 is
    /// about 2 bits per pixel.
    package static let encodedBytesPerPixel = 0.25

    /// The encoded size of a `width` × `height` image at
    /// `encodedBytesPerPixel`.
    package static func encodedBytes(width: Int, height: Int) -> Int {
        Int(Double(width * height) * encodedBytesPerPixel)
    }

    /// An external card's thumbnail: 1.91:1 (1,200 × 628 px), the Open Graph
    /// image shape, which the card lays out at whatever the image, so its
    /// size is known at layout.
    package static let externalCardThumbnail = Media(
        kind: .single, pixelWidth: 1_200, pixelHeight: 628, encodedBytes: encodedBytes(width: 1_200, height: 628))

    /// Height over width; what decides the media's share of a cell's height.
    public var aspectRatio: Double {
        pixelWidth > 0 ? Double(pixelHeight) / Double(pixelWidth) : 1
    }
}

/// One post as the feed engine sees it: identity, threading and the content
/// that decides its cell's height.
///
/// A feed of a million posts is held by the server, by the engine's feed and
/// by its display rows, so a post is stored in 40 bytes (it took 112 with a
/// word for every field): its public properties read and write the usual
/// types, and each is stored in the narrowest field its range allows. The
/// ranges, each far above what a scenario can ask for (ids from 1,000,000
/// for at most 1,000,000 posts, text at most 10,000 characters, cells at
/// most 10,000 pt, media from the synthetic feed's shapes, likes in the
/// thousands), and a value outside one traps when it is stored:
///
/// | property | stored as | range |
/// |---|---|---|
/// | `id`, `parentID`, `rootID` | 32 bits | 0 ..< ``idLimit`` (2^32 − 1; the last value means none) |
/// | `authorID`, `repostedBy` | 32 bits | any `UInt32`; a reposter below `UInt32.max` |
/// | `likeCount` | 32 bits | `Int32` |
/// | `textLength` | 16 bits | 0 ... ``maximumTextLength`` (65,535) |
/// | `fixedHeightPt` | 32 bits of 1/64 pt | 0 ... ``maximumFixedHeightPt``, snapped as layout snaps every height |
/// | `quotedTextLength` | the same 32 bits | 0 ... ``maximumTextLength``; a fixed height or a quote, not both |
/// | `hasExternalCard` | 1 bit | |
/// | `media` pixel sizes | 16 bits each | 0 ... ``maximumMediaPixels`` (65,535) |
/// | `media` encoded bytes | 32 bits | 0 ... ``maximumMediaBytes`` (4 GiB − 1) |
public struct Post: Identifiable, Hashable, Sendable {
    /// Ids stored in a post are below this; the value itself stands for "no post".
    public static let idLimit = PostID(UInt32.max)
    /// The longest body text a post stores, in characters.
    public static let maximumTextLength = Int(UInt16.max)
    /// The tallest fixed cell height a post stores, in points.
    public static let maximumFixedHeightPt = Double(UInt32.max - 1) * HeightIndex.quantum
    /// The widest and tallest media a post stores, in pixels.
    public static let maximumMediaPixels = Int(UInt16.max)
    /// The largest encoded media a post stores, in bytes.
    public static let maximumMediaBytes = Int(UInt32.max)

    // Stored widest first and packed: 28 bytes of 32-bit fields, then the
    // media's, the text length and one byte of flags, 39 bytes in all, so
    // that a `FeedItem` fits its role in the 40th.
    @usableFromInline var _id: UInt32
    private var _parentID: UInt32
    private var _rootID: UInt32
    public var authorID: UInt32
    private var _repostedBy: UInt32
    private var _likeCount: Int32
    /// In units of `HeightIndex.quantum`; `UInt32.max` means content-sized.
    /// With the `quote` flag, the quoted record's text length instead: a
    /// fixed-size card's height does not depend on what it shows, so the
    /// two never need the field at once.
    private var _fixedHeight: UInt32
    private var _mediaBytes: UInt32
    private var _mediaWidth: UInt16
    private var _mediaHeight: UInt16
    private var _textLength: UInt16
    @usableFromInline var _flags: _PostFlags

    /// The value a 32-bit field holds for "none".
    private static let none = UInt32.max

    public init(
        id: PostID,
        authorID: UInt32,
        textLength: Int,
        media: Media? = nil,
        likeCount: Int = 0,
        isLikedByViewer: Bool = false,
        parentID: PostID? = nil,
        rootID: PostID? = nil,
        repostedBy: UInt32? = nil,
        fixedHeightPt: Double? = nil
    ) {
        _id = Post.storedID(id, "id")
        _parentID = Post.none
        _rootID = Post.none
        self.authorID = authorID
        _repostedBy = Post.none
        _likeCount = 0
        _fixedHeight = Post.none
        _mediaBytes = 0
        _mediaWidth = 0
        _mediaHeight = 0
        _textLength = 0
        _flags = []
        self.textLength = textLength
        self.media = media
        self.likeCount = likeCount
        self.isLikedByViewer = isLikedByViewer
        self.parentID = parentID
        self.rootID = rootID
        self.repostedBy = repostedBy
        self.fixedHeightPt = fixedHeightPt
    }

    public var id: PostID {
        // Inlinable, as `hasMedia`: the simulator's meters read both for
        // every row on screen, every frame.
        @inlinable get { PostID(_id) }
        set { _id = Post.storedID(newValue, "id") }
    }

    /// Characters of body text; with the width and type size it decides the
    /// number of text lines.
    public var textLength: Int {
        get { Int(_textLength) }
        set {
            precondition(
                newValue >= 0 && newValue <= Post.maximumTextLength,
                "a post's text length \(newValue) is outside 0…\(Post.maximumTextLength)")
            _textLength = UInt16(newValue)
        }
    }

    public var likeCount: Int {
        get { Int(_likeCount) }
        set {
            guard let stored = Int32(exactly: newValue) else {
                preconditionFailure("a post's like count \(newValue) does not fit in 32 bits")
            }
            _likeCount = stored
        }
    }

    public var isLikedByViewer: Bool {
        get { _flags.contains(.likedByViewer) }
        set { if newValue { _flags.insert(.likedByViewer) } else { _flags.remove(.likedByViewer) } }
    }

    /// The post this one replies to, if any.
    public var parentID: PostID? {
        get { _parentID == Post.none ? nil : PostID(_parentID) }
        set { _parentID = newValue.map { Post.storedID($0, "parent id") } ?? Post.none }
    }

    /// The first post of the thread this one belongs to, if it is a reply.
    public var rootID: PostID? {
        get { _rootID == Post.none ? nil : PostID(_rootID) }
        set { _rootID = newValue.map { Post.storedID($0, "root id") } ?? Post.none }
    }

    /// The author who reposted it into this feed, if it is a repost.
    public var repostedBy: UInt32? {
        get { _repostedBy == Post.none ? nil : _repostedBy }
        set {
            precondition(newValue != Post.none, "a reposting author must be below \(UInt32.max)")
            _repostedBy = newValue ?? Post.none
        }
    }

    /// A height the cell has whatever it shows (a fixed-size card), in
    /// points; `nil` sizes the cell from its content. Stored snapped to
    /// 1/64 pt (`HeightIndex.snap`), the unit layout snaps every height to,
    /// so layout sees the same height as from the value set.
    public var fixedHeightPt: Double? {
        get {
            _fixedHeight == Post.none || _flags.contains(.quote) ? nil : Double(_fixedHeight) * HeightIndex.quantum
        }
        set {
            guard let newValue else {
                if !_flags.contains(.quote) { _fixedHeight = Post.none }
                return
            }
            precondition(!_flags.contains(.quote), "a post with a quoted record has no fixed height")
            let snapped = HeightIndex.snap(newValue)
            precondition(
                snapped <= Post.maximumFixedHeightPt,
                "a post's fixed height \(newValue) pt is above \(Post.maximumFixedHeightPt) pt")
            _fixedHeight = UInt32(snapped / HeightIndex.quantum)
        }
    }

    /// The length of the text of the record this post quotes, in
    /// characters, shown in a card below the post's own text and media;
    /// `nil` when it quotes nothing. A quote of something other than a post
    /// (a feed, a list, a record that is gone) is a card with no text: 0.
    public var quotedTextLength: Int? {
        get { _flags.contains(.quote) ? Int(_fixedHeight) : nil }
        set {
            guard let newValue else {
                if _flags.contains(.quote) {
                    _flags.remove(.quote)
                    _fixedHeight = Post.none
                }
                return
            }
            precondition(
                newValue >= 0 && newValue <= Post.maximumTextLength,
                "a quoted record's text length \(newValue) is outside 0…\(Post.maximumTextLength)")
            precondition(
                _flags.contains(.quote) || _fixedHeight == Post.none, "a post with a fixed height quotes no record")
            _flags.insert(.quote)
            _fixedHeight = UInt32(newValue)
        }
    }

    /// Whether the post shows an external card: a link's title, description
    /// and domain under its thumbnail, which is the post's ``media`` when
    /// the link has one.
    public var hasExternalCard: Bool {
        get { _flags.contains(.externalCard) }
        set { if newValue { _flags.insert(.externalCard) } else { _flags.remove(.externalCard) } }
    }

    /// Whether the post has media: `media != nil` without building it.
    @inlinable
    public var hasMedia: Bool { _flags.rawValue & _PostFlags.hasMedia.rawValue != 0 }

    /// The post's media, if it has any. Stored with 16-bit pixel sizes and
    /// 32-bit encoded bytes.
    public var media: Media? {
        get {
            guard _flags.contains(.hasMedia) else { return nil }
            return Media(
                kind: _flags.mediaKind, pixelWidth: Int(_mediaWidth), pixelHeight: Int(_mediaHeight),
                encodedBytes: Int(_mediaBytes), sizeKnownAtLayout: _flags.contains(.mediaSizeKnown))
        }
        set {
            _flags.subtract([.hasMedia, .mediaSizeKnown, .carousel, .video])
            guard let media = newValue else {
                _mediaBytes = 0
                _mediaWidth = 0
                _mediaHeight = 0
                return
            }
            precondition(
                (0...Post.maximumMediaPixels).contains(media.pixelWidth)
                    && (0...Post.maximumMediaPixels).contains(media.pixelHeight),
                """
                a post's media of \(media.pixelWidth) × \(media.pixelHeight) px is outside \
                0…\(Post.maximumMediaPixels) px a side
                """
            )
            precondition(
                (0...Post.maximumMediaBytes).contains(media.encodedBytes),
                "a post's media of \(media.encodedBytes) bytes is outside 0…\(Post.maximumMediaBytes)")
            _mediaWidth = UInt16(media.pixelWidth)
            _mediaHeight = UInt16(media.pixelHeight)
            _mediaBytes = UInt32(media.encodedBytes)
            _flags.insert(.hasMedia)
            _flags.mediaKind = media.kind
            if media.sizeKnownAtLayout { _flags.insert(.mediaSizeKnown) }
        }
    }

    private static func storedID(_ id: PostID, _ what: String) -> UInt32 {
        precondition(id < Post.idLimit, "a post's \(what) \(id) is not below \(Post.idLimit)")
        return UInt32(id)
    }
}

/// A post's one-bit fields and its media kind, in one byte.
@usableFromInline
struct _PostFlags: OptionSet, Hashable, Sendable {
    @usableFromInline let rawValue: UInt8

    @usableFromInline init(rawValue: UInt8) { self.rawValue = rawValue }

    // Computed, not stored: inlined into `Post.hasMedia` elsewhere, a stored
    // constant was reached through its lazy initialiser's check on each read.
    @inlinable static var hasMedia: _PostFlags { _PostFlags(rawValue: 1 << 0) }
    static let mediaSizeKnown = _PostFlags(rawValue: 1 << 1)
    static let carousel = _PostFlags(rawValue: 1 << 2)
    static let video = _PostFlags(rawValue: 1 << 3)
    static let likedByViewer = _PostFlags(rawValue: 1 << 4)
    /// `_fixedHeight` holds a quoted record's text length.
    static let quote = _PostFlags(rawValue: 1 << 5)
    static let externalCard = _PostFlags(rawValue: 1 << 6)

    /// The media's kind: single unless the carousel or video bit is set.
    var mediaKind: Media.Kind {
        get { contains(.carousel) ? .carousel : contains(.video) ? .video : .single }
        set {
            subtract([.carousel, .video])
            switch newValue {
            case .single: break
            case .carousel: insert(.carousel)
            case .video: insert(.video)
            }
        }
    }
}
