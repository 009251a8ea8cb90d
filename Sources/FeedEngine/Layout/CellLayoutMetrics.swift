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

    // The cards' metrics are constants, not fields: every list and engine
    // holds its metrics, and six more fields took each past its allocation
    // size class.

    /// Padding inside the bordered card of a quoted record or an external
    /// card, on every side.
    package static let cardInset = 10.0
    /// A quoted record's author line: avatar, name and handle, smaller than
    /// the post's own.
    package static let quoteHeaderHeight = 18.0
    /// An external card's text under its thumbnail: a title of up to two
    /// lines at the body size, then a description of up to two lines and
    /// the link's domain at the footnote size, every line counted (a
    /// capture's titles and descriptions are not imported, so the fullest
    /// card is assumed).
    package static let externalCardTitleLines = 2.0
    package static let externalCardDetailLines = 3.0
    package static let footnoteFontSize = 13.0

    package init() {}

    /// The measured height of `post`'s cell at `width` points and Dynamic
    /// Type scale `typeScale` (1 is the default size), snapped to the layout
    /// unit.
    /// - Complexity: O(1)
    package func height(of post: Post, width: Double, typeScale: Double) -> Double {
        if let fixed = post.fixedHeightPt { return HeightIndex.snap(fixed) }
        let contentWidth = max(1, width - 2 * horizontalMargin)
        let fontSize = bodyFontSize * typeScale
        let lines = self.lines(of: post.textLength, width: contentWidth, fontSize: fontSize)
        var height = 2 * verticalPadding + headerHeight * typeScale + headerSpacing
        height += Double(lines) * fontSize * lineHeightMultiple
        if let media = post.media {
            let aspect = media.sizeKnownAtLayout ? media.aspectRatio : placeholderMediaAspect
            height += mediaSpacing + contentWidth * min(aspect, maximumMediaAspect)
        }
        if let quoted = post.quotedTextLength {
            height += mediaSpacing + quoteHeight(textLength: quoted, contentWidth: contentWidth, typeScale: typeScale)
        }
        if post.hasExternalCard {
            // Under its thumbnail (the post's media) when it has one.
            if !post.hasMedia { height += mediaSpacing }
            height += externalCardTextHeight(typeScale: typeScale)
        }
        if post.repostedBy != nil { height += repostLineHeight * typeScale }
        height += actionBarHeight
        return HeightIndex.snap(height)
    }

    /// The height of a quoted record's card: its author line and its text,
    /// wrapped inside the card's insets.
    func quoteHeight(textLength: Int, contentWidth: Double, typeScale: Double) -> Double {
        let fontSize = bodyFontSize * typeScale
        let lines = self.lines(of: textLength, width: max(1, contentWidth - 2 * Self.cardInset), fontSize: fontSize)
        var height = 2 * Self.cardInset + Self.quoteHeaderHeight * typeScale
        if lines > 0 { height += headerSpacing + Double(lines) * fontSize * lineHeightMultiple }
        return height
    }

    /// The lines `characters` of text wrap to in `width` points at `fontSize`.
    private func lines(of characters: Int, width: Double, fontSize: Double) -> Int {
        let glyphsPerLine = max(1, Int(width / (fontSize * averageGlyphWidthRatio)))
        return (characters + glyphsPerLine - 1) / glyphsPerLine
    }

    /// The height of an external card's text block below its thumbnail.
    func externalCardTextHeight(typeScale: Double) -> Double {
        2 * Self.cardInset
            + (Self.externalCardTitleLines * bodyFontSize + Self.externalCardDetailLines * Self.footnoteFontSize)
            * typeScale * lineHeightMultiple
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
