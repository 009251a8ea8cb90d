#!/usr/bin/env python3
"""The reference for FeedSim's studentized bootstrap interval of a mean
(Tests/FeedSimCLITests/StudentizedBootstrapTests.swift): the Python `arch`
package's studentized interval on the same samples.

Run: python3 Tests/FeedReportsTests/Fixtures/studentized_reference.py
(arch 8.0.0, NumPy 2; `pip install arch`). For each sample it prints the
sample, then arch's 95% interval,
  IIDBootstrap(x, seed=s).conf_int(np.mean, reps=100000, method='studentized',
                                   std_err_func=analytic)
for seeds 1 to 5, with `analytic` the mean's standard error sd/sqrt(n), sd
with divisor n. arch scales the t* quantiles by the standard deviation of
its resampled means, which for the mean is sd/sqrt(n) with divisor n up to
resampling noise, so the divisor n makes the two scales the same. Without
`std_err_func` arch would studentize with a nested bootstrap. The spread of
the five seeds' ends is the resampling noise at 100,000 resamples.
"""
import numpy as np
from arch.bootstrap import IIDBootstrap


def analytic(params, x):
    return np.array([x.std() / np.sqrt(len(x))])


def samples():
    rng = np.random.default_rng(42)
    lognormal = np.round(np.exp(rng.standard_normal(20)), 2)
    pareto = np.round(np.where(rng.random(30) < 0.3, 100 / (1 - rng.random(30)) ** (1 / 2.5), 0.0), 2)
    exponential = np.round(np.where(rng.random(60) < 0.4, rng.exponential(4, 60), 0.0), 2)
    return [("20 lognormal", lognormal), ("30 zero-inflated Pareto", pareto), ("60 zero-inflated exponential", exponential)]


for name, x in samples():
    print(name, "[" + ", ".join(f"{v:g}" for v in x) + "]")
    ends = []
    for seed in range(1, 6):
        ci = IIDBootstrap(x, seed=seed).conf_int(np.mean, reps=100_000, method="studentized", std_err_func=analytic)
        ends.append((ci[0, 0], ci[1, 0]))
    ends = np.array(ends)
    width = np.mean(ends[:, 1] - ends[:, 0])
    print("  arch seed 1:", f"[{ends[0, 0]:.6f}, {ends[0, 1]:.6f}]",
          "width", f"{width:.4f}",
          "seeds 1-5 spread of lower, upper as share of width:",
          f"{np.ptp(ends[:, 0]) / width:.4f} {np.ptp(ends[:, 1]) / width:.4f}")
