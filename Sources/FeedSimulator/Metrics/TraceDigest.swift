import Determinism

/// A hash of a run's event stream: two runs with the same digest processed
/// the same events at the same times with the same results.
package typealias TraceDigest = FNV1a
