#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether the engine checks its own invariants after every change to the
/// feed (O(*n*) each time).
///
/// Debug builds always check. Other builds check when the process starts
/// with `FEEDSIM_ENGINE_CHECKS=1` in its environment: the test command runs
/// the tests on a release build with it, so that every simulated change in
/// them is checked as a debug build would. Runs that measure (the bundled
/// suite, explorations, benchmarks) leave it unset.
enum EngineChecks {
    static let enabled: Bool = {
        #if DEBUG
        return true
        #else
        guard let value = getenv("FEEDSIM_ENGINE_CHECKS") else { return false }
        return String(cString: value) == "1"
        #endif
    }()
}
