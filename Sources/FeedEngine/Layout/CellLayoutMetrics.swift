/// The geometry of a post cell: what a self-sizing measurement computes.
///
/// The defaults follow UIKit's system metrics for a feed cell: 16 pt side
/// margins (the readable-content margin on phones), a 15 pt body font
/// (UIFont.preferredFont(.subheadline) at the default Dynamic Type size) with
/// a 1.3 line-height multiple, a 20 pt author line, a 32 pt action bar, and
/// media capped at 4:5 portrait as Instagram-style feeds do.
package struct CellLayoutMetrics: Hashable, Sendable {
    package var horizontalMargin: Double = 16
    package var verticalPadding: Double = 12
    package var headerHeight: Double = 20
    package var headerSpacing: Double = 4
    package var bodyFontSize: Double = 15
    package var lineHeightMultiple: Double = 1.3
    /// Average glyph advance as a fraction of the font size, for Latin text
    /// in the system font.
    package var averageGlyphWidthRatio: Double = 0.5
    package var mediaSpacing: Double = 8
    /// Tallest media shown, as height over width (4:5 portrait).
    package var maximumMediaAspect: Double = 1.25
    /// The shape assumed for media whose size is not known until it loads.
    package var placeholderMediaAspect: Double = 1
    package var actionBarHeight: Double = 32
    /// Extra height of a repost's "reposted by" line.
    package var repostLineHeight: Double = 18
    /// Height of the "show more replies" row under an incomplete thread.
    package var threadGapHeight: Double = 28
    /// Tighter bottom padding of a thread row connected to the row below.
    package var threadConnectorSaving: Double = 8

    package init() {}

    /// The measured height of `post`'s cell at `width` points and Dynamic
    /// Type scale `typeScale` (1 is the default size), snapped to the layout
    /// unit.
    /// - Complexity: O(1)
    package func height(of post: Post, width: Double, typeScale: Double) -> Double {
        if let fixed = post.fixedHeightPt { return HeightIndex.snap(fixed) }
        let contentWidth = max(1, width - 2 * horizontalMargin)
        let fontSize = bodyFontSize * typeScale
        let glyphsPerLine = max(1, Int(contentWidth / (fontSize * averageGlyphWidthRatio)))
        let lines = (post.textLength + glyphsPerLine - 1) / glyphsPerLine
        var height = 2 * verticalPadding + headerHeight * typeScale + headerSpacing
        height += Double(lines) * fontSize * lineHeightMultiple
        if let media = post.media {
            let aspect = media.sizeKnownAtLayout ? media.aspectRatio : placeholderMediaAspect
            height += mediaSpacing + contentWidth * min(aspect, maximumMediaAspect)
        }
        if post.repostedBy != nil { height += repostLineHeight * typeScale }
        height += actionBarHeight
        return HeightIndex.snap(height)
    }

    /// The measured height of a feed row: the post's cell, adjusted for its
    /// place in a thread.
    /// - Complexity: O(1)
    package func height(of item: FeedItem, width: Double, typeScale: Double) -> Double {
        if let fixed = item.post.fixedHeightPt { return HeightIndex.snap(fixed) }
        var height = self.height(of: item.post, width: width, typeScale: typeScale)
        if item.role == .root || item.role == .parent { height -= threadConnectorSaving }
        if item.isThreadIncomplete { height += threadGapHeight * typeScale }
        return HeightIndex.snap(height)
    }
}
