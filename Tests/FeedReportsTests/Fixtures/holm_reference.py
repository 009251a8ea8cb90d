#!/usr/bin/env python3
"""The reference for FeedSim's multiple-comparison correction: statsmodels.

Usage: python3 holm_reference.py PVALUES.json

PVALUES.json holds a list of families, each a list of p-values. Prints one
JSON list: per family, the Holm-adjusted p-values and the rejections at
alpha 0.05 of statsmodels.stats.multitest.multipletests(method="holm").
Exits 3 when statsmodels is missing.
"""
import json
import sys

try:
    from statsmodels.stats.multitest import multipletests
except ImportError as error:
    print(f"holm_reference.py: cannot import statsmodels ({error}); run scripts/bootstrap "
          "(python3 -m pip install statsmodels)", file=sys.stderr)
    sys.exit(3)

with open(sys.argv[1]) as handle:
    families = json.load(handle)
out = []
for pvalues in families:
    reject, corrected, _, _ = multipletests(pvalues, alpha=0.05, method="holm")
    out.append({"adjusted": [float(p) for p in corrected], "reject": [bool(r) for r in reject]})
print(json.dumps(out))
