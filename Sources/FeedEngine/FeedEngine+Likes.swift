extension FeedEngine {
    /// The reader tapped like on the item at `index`: applied at once, sent
    /// to the server, rolled back if the server refuses.
    package func toggleLike(at index: Int) {
        guard index >= 0, index < list.items.count else { return }
        let id = list.items[index].id
        guard let liked = store.isLiked(id).map({ !$0 }) else { return }
        store.setLike(liked, on: id)
        counters.likes += 1
        commitDisplayedChange(cause: .like)
        sendLike(QueuedLike(postID: id, liked: liked))
    }

    /// Sends a like; offline, it is queued (the optimistic state stays) and
    /// replayed on reconnect; any other failure rolls it back.
    func sendLike(_ like: QueuedLike) {
        transport.setLike(postID: like.postID, liked: like.liked) { result in
            switch result {
            case .success:
                self.offlineActions.networkWorked()
            case .failure(.offline):
                self.offlineActions.holdForNetwork(like)
                self.counters.actionsQueued += 1
            case .failure:
                guard self.store.isLiked(like.postID) != nil else { return }
                self.store.setLike(!like.liked, on: like.postID)
                self.counters.likeRollbacks += 1
                self.commitDisplayedChange(cause: .likeRollback)
            }
        }
    }

    /// The network is back: replay queued likes, oldest first.
    package func networkDidBecomeAvailable() {
        for like in offlineActions.takeAll() {
            counters.actionsReplayed += 1
            sendLike(like)
        }
    }
}
