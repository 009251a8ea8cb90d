#!/usr/bin/env python3
"""The reference for FeedSim's paired bootstrap: SciPy's percentile bootstrap.

Usage: python3 bootstrap_ci.py SAMPLES.json

SAMPLES.json holds {"resamples": B, "confidence": c, "samples": [[d, ...], ...]},
each sample the paired differences of one comparison. Prints one JSON list,
per sample [mean, low, high]: numpy's mean and the interval of
scipy.stats.bootstrap(method='percentile') with B resamples and a fixed seed.
Exits 3 when SciPy is missing.
"""
import json
import sys

try:
    import numpy as np
    from scipy import stats
except ImportError as error:
    print(f"bootstrap_ci.py: cannot import scipy ({error}); run scripts/bootstrap "
          "(python3 -m pip install scipy)", file=sys.stderr)
    sys.exit(3)

with open(sys.argv[1]) as handle:
    request = json.load(handle)
out = []
for sample in request["samples"]:
    data = np.array(sample, dtype=float)
    options = dict(method="percentile", n_resamples=request["resamples"],
                   confidence_level=request["confidence"], vectorized=True)
    try:
        result = stats.bootstrap((data,), np.mean, rng=np.random.default_rng(20261123), **options)
    except TypeError:
        result = stats.bootstrap((data,), np.mean, random_state=np.random.default_rng(20261123), **options)
    interval = result.confidence_interval
    out.append([float(np.mean(data)), float(interval.low), float(interval.high)])
print(json.dumps(out))
