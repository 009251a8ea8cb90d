extension FeedEngine {
    /// The image pipeline's owner id for a post's cell.
    static func imageOwner(_ id: PostID) -> Int { Int(truncatingIfNeeded: id) }

    /// Prefetches the images of the rows the image prefetch policy names;
    /// only when the visible range changed.
    func updatePrefetching(visible: Range<Int>) {
        guard visible != lastPrefetchVisible, configuration.images.prefetchWindow > 0 else { return }
        lastPrefetchVisible = visible
        prefetchTargets.removeAll(keepingCapacity: true)
        let range = imagePrefetchPolicy.imagePrefetchRows(at: prefetchMoment(visible: visible))
        var index = range.lowerBound
        while index < range.upperBound {
            let post = list.items[index].post
            if let media = post.media {
                prefetchTargets.append(ImageRequest(postID: post.id, media: media, priority: .prefetch))
            }
            index += 1
        }
        images.setPrefetchTargets(prefetchTargets)
    }

    /// An image arrived. If its size was not known at layout, its cell is
    /// measured again; above the reader that moves the content, which the
    /// strategy corrects like any height change.
    func imageArrived(_ outcome: ImageLoadOutcome) {
        guard outcome.isDelivered else { return }
        // A cell showing a new image is a change on screen: the next frame renders.
        if outcome.source != .memory { list.setNeedsLayout() }
        guard let index = list.index(of: outcome.key.postID, near: list.displayedRange.lowerBound) else { return }
        var item = list.items[index]
        guard var media = item.post.media, !media.sizeKnownAtLayout else { return }
        media.sizeKnownAtLayout = true
        item.post.media = media
        store.setMedia(media, of: item.id)
        viewport.feedWillCommit(.imageSize)
        // Inside a layout pass, the reader's post is the one they saw as the
        // pass began, or the one a commit settles around: the pass may have
        // measured another one taller since.
        let anchorIndex =
            (settlingAnchorID ?? layoutPassAnchor?.itemID).flatMap(list.index(of:)) ?? captureAnchor()?.index
        let delta = list.replaceItem(at: index, with: item)
        let flightIndex = flightAnchorID.flatMap(list.index(of:))
        if let anchorIndex, index < anchorIndex, delta != 0 {
            // Between the post a retargeted fling carries up to and the
            // reader's, that post did not move, the rows on screen did: its
            // resting point stays. Otherwise, or once the fling can no
            // longer be retargeted, the strategy corrects it.
            let belowFlight = flightIndex.map { $0 <= index } ?? false
            if !belowFlight || !keepFlightTarget(whileAdjustingBy: delta) {
                if belowFlight { flightAnchorID = nil }
                // An image the memory cache delivers as its cell is
                // configured is part of the row's first layout, not a
                // resize of a row already laid out: a lazy stack lays the
                // row out with the image it reads from the cache.
                let correction =
                    configuringCell
                    ? keeper.heightsChangedAbove(by: delta)
                    : keeper.loadedRowResizedAbove(by: delta, inUpdate: settlingAnchorID != nil)
                apply(correction, from: viewport.contentOffset)
            }
        } else if delta != 0, let flightIndex, index < flightIndex {
            // Between the screen and the post a retargeted fling carries:
            // the post lands where it is held only if the fling goes as
            // much further. A fling already over carries nothing.
            if !viewport.retargetDeceleration(by: delta) { flightAnchorID = nil }
        }
        list.setNeedsLayout()
        viewport.feedDidCommit(.imageSize)
    }

    func configureCell(at index: Int) {
        let item = list.items[index]
        rowViews.appeared(item.id)
        configuringCell = true
        requestImage(for: item)
        configuringCell = false
        if let cached = viewModels.value(forKey: PostKey(item.id)),
            cached.contentVersion == PostViewModel.contentVersion(of: item.post)
        {
            return
        }
        let model = PostViewModel(item: item)
        viewModels.insert(model, forKey: PostKey(item.id), cost: model.cost)
        var work = WorkCounters()
        work.viewModelsCreated = 1
        list.addWork(work)
    }

    func requestImage(for item: FeedItem) {
        guard let media = item.post.media else { return }
        images.request(
            ImageRequest(postID: item.id, media: media, priority: .visible),
            for: FeedEngine.imageOwner(item.id), completion: imageCompletion)
    }
}
