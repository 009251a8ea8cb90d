#!/usr/bin/env python3
"""The reference for FeedSim's BCa bootstrap: SciPy's.

Usage: python3 bca_reference.py REQUEST.json

REQUEST.json holds {"resamples": B, "confidence": c, "samples": [...]}, each
sample {"values": [d, ...], "means": [m, ...]}: the paired differences of one
comparison and FeedSim's sorted resampled means of them. Prints one JSON list,
per sample:

  "given": SciPy's BCa (scipy.stats._resampling._bca_interval, the function
           scipy.stats.bootstrap(method='BCa') calls) applied to FeedSim's own
           resampled means: its quantile levels, acceleration, and the interval
           NumPy's percentile takes at those levels. Deterministic: FeedSim must
           agree to rounding.
  "scipy": scipy.stats.bootstrap(method='BCa') with its own resampling (B
           resamples, a fixed seed): agrees up to resampling noise.

Exits 3 when SciPy is missing.
"""
import json
import sys

try:
    import numpy as np
    from scipy import stats
    from scipy.stats import _resampling
except ImportError as error:
    print(f"bca_reference.py: cannot import scipy ({error}); run scripts/bootstrap "
          "(python3 -m pip install scipy)", file=sys.stderr)
    sys.exit(3)

with open(sys.argv[1]) as handle:
    request = json.load(handle)
confidence = request["confidence"]
alpha = (1 - confidence) / 2
out = []
for sample in request["samples"]:
    data = np.array(sample["values"], dtype=float)
    means = np.array(sample["means"], dtype=float)
    arguments = dict(data=(data,), statistic=np.mean, axis=-1, alpha=alpha, theta_hat_b=means, batch=None)
    try:
        low_level, high_level, acceleration = _resampling._bca_interval(xp=np, **arguments)
    except TypeError:  # SciPy before 1.15 has no xp argument
        low_level, high_level, acceleration = _resampling._bca_interval(**arguments)
    low = np.percentile(means, float(low_level) * 100)
    high = np.percentile(means, float(high_level) * 100)
    options = dict(method="BCa", n_resamples=request["resamples"], confidence_level=confidence, vectorized=True)
    try:
        result = stats.bootstrap((data,), np.mean, rng=np.random.default_rng(20261128), **options)
    except TypeError:
        result = stats.bootstrap((data,), np.mean, random_state=np.random.default_rng(20261128), **options)
    out.append({
        "given": [float(low_level), float(high_level), float(acceleration), float(low), float(high)],
        "scipy": [float(result.confidence_interval.low), float(result.confidence_interval.high)],
    })
print(json.dumps(out))
