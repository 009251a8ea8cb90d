import Determinism
import FeedSimTestSupport
import Foundation
import Testing

@testable import FeedSimulator

/// The calibration fits against SciPy on fixed data: plain NNLS with its
/// classical standard errors, the Huber reweighting with its H1 standard
/// errors, and SciPy's direct minimiser of the Huber loss under `x ≥ 0`.
@Suite("Robust fit against SciPy")
struct RobustFitReferenceTests {
    /// 600 frames: an intercept, three counts with known costs and one with
    /// none (the constraint must hold it at 0), normal noise of about
    /// 0.3 ms, and 2% of frames 4–25 ms late.
    static func data() -> (rows: [[Double]], b: [Double]) {
        var random = Xoshiro256StarStar(seed: 29)
        let costs = [3_000_000.0, 800_000, 5_000, 2_000, 0]
        var rows: [[Double]] = []
        var b: [Double] = []
        for _ in 0..<600 {
            let row = [
                1, Double(random.next(in: 0...3)), Double(random.next(in: 0...300)),
                random.chance(0.3) ? Double(random.next(in: 100...2_000)) : 0, Double(random.next(in: 0...10)),
            ]
            // The sum of twelve uniforms less six: close to a standard normal.
            let normal = (0..<12).reduce(0.0) { sum, _ in sum + random.nextUnit() } - 6
            var ns = zip(row, costs).reduce(0) { $0 + $1.0 * $1.1 } + 300_000 * normal
            if random.chance(0.02) { ns += Double(random.next(in: 4_000...25_000)) * 1_000 }
            rows.append(row)
            b.append(ns.rounded())
        }
        return (rows, b)
    }

    @Test("coefficients, scales and standard errors agree with SciPy's to 1e-6")
    func agreesWithSciPy() throws {
        guard let python = Tool.find(["python3"]) else {
            Issue.record(
                """
                No python3 on PATH: the reference fit needs Python 3 with NumPy and SciPy (scripts/bootstrap \
                installs them).
                """
            )
            return
        }
        let folder = try ScratchFolder(prefix: "feedsim-robust")
        defer { folder.remove() }
        let (rows, b) = RobustFitReferenceTests.data()
        var text = "b,c0,c1,c2,c3,c4\n"
        for (row, value) in zip(rows, b) {
            text += ([value] + row).map { String(format: "%.1f", $0) }.joined(separator: ",") + "\n"
        }
        try folder.write(text, to: "data.csv")
        let script = PackageRoot.appending("Tests/FeedSimulatorTests/Fixtures/robust_fit_reference.py")
        let outcome = try Tool.run(
            python, [script.path, folder.appending("data.csv").path], in: folder.url, timeout: 300)
        try #require(outcome.status == 0, "\(outcome)")

        struct Fit: Decodable {
            var x: [Double]
            var se: [Double?]?
            var scale: Double?
        }
        let reference = try JSONDecoder().decode([String: Fit].self, from: Data(outcome.stdout.utf8))
        let leastSquares = try RobustFit.leastSquares(rows: rows, b: b)
        let huber = try RobustFit.huber(rows: rows, b: b)
        #expect(huber.converged)

        func close(_ a: Double, _ b: Double, _ what: String, tolerance: Double = 1e-6) {
            #expect(abs(a - b) <= tolerance * max(abs(b), 1), "\(what): FeedSim \(a), SciPy \(b)")
        }
        for (name, ours) in [("least_squares", leastSquares), ("huber", huber)] {
            let theirs = try #require(reference[name])
            for j in ours.x.indices {
                close(ours.x[j], theirs.x[j], "\(name) x[\(j)]")
                let se = theirs.se?[j] ?? nil
                #expect(
                    (ours.standardErrors[j] == nil) == (se == nil),
                    """
                    \(name) se[\(j)]: FeedSim \(String(describing: ours.standardErrors[j])), SciPy \
                    \(String(describing: se))
                    """
                )
                if let a = ours.standardErrors[j], let b = se { close(a, b, "\(name) se[\(j)]") }
            }
            close(ours.scale, try #require(theirs.scale), "\(name) scale")
        }
        #expect(huber.x[4] == 0 && huber.standardErrors[4] == nil, "the cost-free count is held at 0, with no interval")
        // The reweighting's fixed point is the constrained Huber minimiser.
        let direct = try #require(reference["huber_direct"])
        for j in huber.x.indices where huber.x[j] > 0 {
            close(huber.x[j], direct.x[j], "huber x[\(j)] against least_squares(loss='huber')", tolerance: 1e-5)
        }
        // And it is robust where least squares is not.
        #expect(
            abs(huber.x[0] / 3_000_000 - 1) < abs(leastSquares.x[0] / 3_000_000 - 1),
            "the intercept takes the late frames' time under least squares")
    }
}
