import FoundationEssentials

extension PairedComparison {
    /// The comparison as JSON for other tools (`compare --format json`): the
    /// bootstrap's settings, the population table and every paired
    /// difference with its interval and verdict. A number that is not
    /// finite (no values to summarise) is null.
    package var json: String { JSONDocument.text(of: PairedDocument(self)) }
}

extension SeedComparison {
    /// Every (scenario, refresh rate)'s paired comparison as JSON.
    package var json: String {
        JSONDocument.text(
            of: groups.map { group in
                SeedGroupDocument(
                    scenario: group.scenario, refreshHz: group.refreshHz, seeds: group.seeds,
                    comparison: PairedDocument(group.comparison))
            })
    }
}

/// `feedsim compare --format json` of a population.
struct PairedDocument: Encodable {
    struct Bootstrap: Encodable {
        var resamples: Int
        var requestedResamples: Int
        var seed: UInt64
        var confidence: Double
        var smallestPValue: Double
        var smallestAdjustedPValue: Double
        var verdictUnreachable: Bool
        enum CodingKeys: String, CodingKey {
            case resamples, requestedResamples = "requested_resamples", seed, confidence, smallestPValue =
                "smallest_p_value"
            case smallestAdjustedPValue = "smallest_p_adjusted", verdictUnreachable = "verdict_unreachable"
        }
    }

    struct Correction: Encodable {
        var method: String
        var comparisons: Int
    }

    struct Population: Encodable {
        var variant: String
        var runs: Int
        var driftP50Pt, driftP95Pt, driftMaxPt, hitchMeanMsPerS, hitchP95MsPerS, overrunFrames: Double?
        var violations: Double?
        var runsWithViolations: Int?
        var driftP95Run, driftMaxRun, hitchP95Run: String
        enum CodingKeys: String, CodingKey {
            case variant, runs, driftP50Pt = "drift_p50_pt", driftP95Pt = "drift_p95_pt", driftMaxPt = "drift_max_pt"
            case hitchMeanMsPerS = "hitch_mean_ms_per_s", hitchP95MsPerS = "hitch_p95_ms_per_s", overrunFrames =
                "overrun_frames"
            case violations, runsWithViolations = "runs_with_violations"
            case driftP95Run = "drift_p95_run", driftMaxRun = "drift_max_run", hitchP95Run = "hitch_p95_run"
        }
    }

    struct Difference: Encodable {
        var metric: String
        var direction: String
        var a: String
        var b: String
        var pairs: Int
        var meanA, meanB, meanDifference, intervalLow, intervalHigh: Double?
        var smallestDifference: Double?
        var pValue, adjustedPValue, equivalencePValue, adjustedEquivalencePValue: Double?
        var mattersPValue, adjustedMattersPValue: Double?
        var intervalMethod: String?
        var verdict: String
        enum CodingKeys: String, CodingKey {
            case metric, direction, a, b, pairs, meanA = "mean_a", meanB = "mean_b", meanDifference = "mean_difference"
            case intervalLow = "ci_low", intervalHigh = "ci_high", smallestDifference = "smallest_difference"
            case pValue = "p_value", adjustedPValue = "p_adjusted", equivalencePValue = "equivalence_p_value"
            case adjustedEquivalencePValue = "equivalence_p_adjusted", mattersPValue = "matters_p_value"
            case adjustedMattersPValue = "matters_p_adjusted", intervalMethod = "interval_method", verdict
        }
    }

    var bootstrap: Bootstrap
    var correction: Correction
    var population: [Population]
    var differences: [Difference]
    var missingBaseline: String?
    /// Which sessions an exploration's verdicts are over; nil (left out)
    /// for multi-seed results.
    var sessionPopulation: SessionPopulation?
    enum CodingKeys: String, CodingKey {
        case bootstrap, correction, population, differences, missingBaseline = "missing_baseline"
        case sessionPopulation = "session_population"
    }

    /// `session_population`: the population's name (left out when the
    /// folder did not record it), its usage model and the model's sessions,
    /// and the population in words.
    struct SessionPopulation: Encodable {
        var population: String?
        var usageModel: String?
        var usageSessions: Int?
        var description: String
        enum CodingKeys: String, CodingKey {
            case population, usageModel = "usage_model", usageSessions = "usage_sessions", description
        }
    }

    init(_ comparison: PairedComparison) {
        func finite(_ value: Double?) -> Double? { value.flatMap { $0.isFinite ? $0 : nil } }
        bootstrap = Bootstrap(
            resamples: comparison.bootstrap.resamples, requestedResamples: comparison.requestedResamples,
            seed: comparison.bootstrap.seed, confidence: comparison.bootstrap.confidence,
            smallestPValue: comparison.bootstrap.smallestPValue,
            smallestAdjustedPValue: comparison.smallestAdjustedPValue,
            verdictUnreachable: comparison.verdictUnreachable)
        missingBaseline = comparison.missingBaseline
        correction = Correction(method: comparison.correction.description, comparisons: comparison.comparisons)
        population = comparison.population.rows.map { row in
            Population(
                variant: row.variant, runs: row.runs, driftP50Pt: finite(row.driftP50),
                driftP95Pt: finite(row.driftP95),
                driftMaxPt: finite(row.driftMax), hitchMeanMsPerS: finite(row.hitchMean),
                hitchP95MsPerS: finite(row.hitchP95),
                overrunFrames: finite(row.overrunFrames), violations: finite(row.violations),
                runsWithViolations: row.runsWithViolations,
                driftP95Run: row.driftP95Run, driftMaxRun: row.driftMaxRun, hitchP95Run: row.hitchP95Run)
        }
        differences = comparison.differences.map { d in
            Difference(
                metric: d.metric, direction: ComparisonDocument.name(of: d.direction), a: d.baseline, b: d.candidate,
                pairs: d.pairs,
                meanA: finite(d.baselineMean), meanB: finite(d.candidateMean), meanDifference: finite(d.meanDifference),
                intervalLow: finite(d.interval?.lower), intervalHigh: finite(d.interval?.upper),
                smallestDifference: finite(d.smallestDifference), pValue: finite(d.pValue),
                adjustedPValue: finite(d.adjustedPValue),
                equivalencePValue: finite(d.equivalencePValue),
                adjustedEquivalencePValue: finite(d.adjustedEquivalencePValue),
                mattersPValue: finite(d.mattersPValue), adjustedMattersPValue: finite(d.adjustedMattersPValue),
                intervalMethod: d.method?.rawValue, verdict: d.verdict.rawValue)
        }
    }
}

/// One (scenario, refresh rate) of multi-seed results.
struct SeedGroupDocument: Encodable {
    var scenario: String
    var refreshHz: Int
    var seeds: Int
    var comparison: PairedDocument
    enum CodingKeys: String, CodingKey {
        case scenario, refreshHz = "refresh_hz", seeds, comparison
    }
}
