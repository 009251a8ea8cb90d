import FeedScenario

/// The app's modelled memory footprint and the system's response to it:
/// memory warnings at the warning and critical levels, a jetsam kill over
/// the limit.
struct MemoryModel {
    /// What the model decided after a sample.
    enum Verdict: Equatable {
        case fine
        case warn
        case kill
    }

    let settings: MemorySettings
    private(set) var peakBytes: Int64 = 0
    private(set) var warnings = 0
    private(set) var kills = 0
    /// Whether crossing each level would warn; re-armed once below it.
    private var warningArmed = true
    private var criticalArmed = true

    init(settings: MemorySettings) {
        self.settings = settings
    }

    /// The footprint of an app holding `posts` feed posts and `cacheBytes`
    /// of caches (view models, decoded images) and of row views a lazy
    /// stack keeps off screen.
    func footprint(posts: Int, cacheBytes: Int64) -> Int64 {
        settings.baselineBytes + Int64(posts) * settings.bytesPerPost + cacheBytes
    }

    /// Records a footprint sample and says what the system does about it.
    mutating func sample(_ bytes: Int64) -> Verdict {
        peakBytes = max(peakBytes, bytes)
        let limit = Double(settings.limitBytes)
        if bytes > settings.limitBytes {
            kills += 1
            warningArmed = true
            criticalArmed = true
            return .kill
        }
        var verdict = Verdict.fine
        if Double(bytes) >= limit * settings.criticalFraction {
            if criticalArmed { verdict = .warn }
            criticalArmed = false
            warningArmed = false
        } else if Double(bytes) >= limit * settings.warningFraction {
            if warningArmed { verdict = .warn }
            warningArmed = false
            criticalArmed = true
        } else {
            warningArmed = true
            criticalArmed = true
        }
        if verdict == .warn { warnings += 1 }
        return verdict
    }

    /// Counts a warning the scenario sent by itself.
    mutating func recordScriptedWarning() {
        warnings += 1
    }
}
