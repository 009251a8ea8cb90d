/// `window`: the images of the `image_prefetch_window` rows just past the
/// screen, looking forward (towards older posts) whatever the reader does:
/// UICollectionView's prefetching with a fixed distance.
public struct WindowImagePrefetch: ImagePrefetchPolicy {
    public static let name = "window"
    public init() {}

    public func imagePrefetchRows(at moment: PrefetchMoment) -> Range<Int> {
        moment.rows(moment.window, towardsEnd: true)
    }
}
