"""Reference fits for FeedSim's calibration, with SciPy, on fixed data.

Usage: python3 robust_fit_reference.py DATA.csv

DATA.csv has a header and one row per frame: the duration (b) first, then
one column per cost. Prints JSON:
  {"least_squares": {"x": [...], "se": [...], "scale": s},
   "huber": {"x": [...], "se": [...], "scale": s, "iterations": k},
   "huber_direct": {"x": [...]}}
- least_squares: scipy.optimize.nnls, classical standard errors
  sigma^2 (A'A)^-1 over the coefficients above 0.
- huber: iteratively reweighted scipy.optimize.nnls with Huber weights
  (threshold 1.345) and the MAD scale (median |r| / 0.6745) re-estimated
  each step; Huber's H1 standard errors (statsmodels RLM's cov='H1').
- huber_direct: scipy.optimize.least_squares minimising the Huber loss
  directly (loss='huber', f_scale = 1.345 * the final scale above,
  bounds x >= 0), an independent check that the reweighting found the
  constrained minimiser.
"""

import csv
import json
import sys

import numpy as np
from scipy.optimize import least_squares, nnls

C = 1.345
MAD_PER_SIGMA = 0.6744897501960817


def standard_errors(a, r, x, scale, threshold):
    free = [j for j in range(a.shape[1]) if x[j] > 0]
    n, p = a.shape[0], len(free)
    se = [None] * a.shape[1]
    if p == 0 or scale <= 0:
        return se
    u = r / scale
    psi = np.clip(u, -threshold, threshold)
    dpsi = (np.abs(u) <= threshold).astype(float)
    m = dpsi.mean()
    k = 1 + (p / n) * dpsi.var() / m ** 2
    factor = k ** 2 * (np.sum(psi ** 2) / (n - p)) / m ** 2 * scale ** 2
    inverse = np.linalg.inv(a[:, free].T @ a[:, free])
    for position, j in enumerate(free):
        se[j] = float(np.sqrt(factor * inverse[position, position]))
    return se


def main():
    with open(sys.argv[1], newline="") as handle:
        rows = [list(map(float, row)) for row in list(csv.reader(handle))[1:] if row]
    data = np.array(rows)
    b, a = data[:, 0], data[:, 1:]
    # Columns scaled to unit length, as FeedSim's solver does.
    lengths = np.linalg.norm(a, axis=0)

    def solve(weights):
        root = np.sqrt(weights)
        y, _ = nnls((a / lengths) * root[:, None], b * root, maxiter=50 * a.shape[1])
        return y / lengths

    x = solve(np.ones(len(b)))
    r = b - a @ x
    free = int(np.sum(x > 0))
    sigma = float(np.sqrt(np.sum(r ** 2) / (len(b) - free)))
    result = {"least_squares": {"x": x.tolist(), "se": standard_errors(a, r, x, sigma, np.inf), "scale": sigma}}

    iterations = 0
    for iterations in range(1, 201):
        r = b - a @ x
        scale = np.median(np.abs(r)) / MAD_PER_SIGMA
        weights = np.where(np.abs(r) <= C * scale, 1.0, C * scale / np.maximum(np.abs(r), 1e-300))
        new = solve(weights)
        settled = np.all(np.abs(new - x) <= 1e-10 * np.maximum(np.abs(x), np.abs(new)))
        x = new
        if settled:
            break
    r = b - a @ x
    scale = float(np.median(np.abs(r)) / MAD_PER_SIGMA)
    result["huber"] = {"x": x.tolist(), "se": standard_errors(a, r, x, scale, C), "scale": scale, "iterations": iterations}

    direct = least_squares(
        lambda z: (a / lengths) @ z - b, x * lengths, loss="huber", f_scale=C * scale,
        bounds=(0, np.inf), method="trf", x_scale="jac", ftol=1e-15, xtol=1e-15, gtol=1e-15, max_nfev=10000)
    result["huber_direct"] = {"x": (direct.x / lengths).tolist()}
    print(json.dumps(result))


if __name__ == "__main__":
    main()
