#!/usr/bin/env python3
"""Writes sample-sessions.jsonl: SYNTHETIC session logs made by this project
from known distributions, not any real reader's data.

40 sessions. Each: 6-20 drags; a drag lasts lognormal(median 220 ms,
sigma 0.45), moves lognormal(median 350 pt, sigma 0.6) at a constant speed
sampled every 16.7 ms (a 60 Hz touch rate), towards later posts except for
a reversal with probability 0.2; gaps between drags lognormal(median 1500 ms,
sigma 0.8). Refreshes, backgrounds (5-60 s away) and rotations are Poisson at
0.4, 0.2 and 0.1 a minute; a like follows a drag with probability 0.05.
Text-size changes are Poisson at 0.5 a minute, a quarter of the way into
each gap before a drag, choosing a Dynamic Type size relative to the default
(Large, 17 pt): 0.88 (Small), 1.12 (xLarge), 1.24 (xxLarge) or 1.35
(xxxLarge) with weights 1, 4, 2 and 1. They draw from a stream of their own
and move no other event, so the other draws are what they were without them.
Run: python3 make-sample-sessions.py > sample-sessions.jsonl
"""
import json
import math
import random

rng = random.Random(44)
text_rng = random.Random(4401)
TEXT_SIZES = ((0.88, 1), (1.12, 4), (1.24, 2), (1.35, 1))


def line(session, t_ms, kind, **fields):
    print(json.dumps({"session": session, "t_ms": round(t_ms, 3), "type": kind, **fields}))


def drag(session, start, y0, direction):
    duration = 220 * math.exp(0.45 * rng.gauss(0, 1))
    distance = 350 * math.exp(0.6 * rng.gauss(0, 1))
    # Start low on the screen to move up, high to move down.
    y0 = 700 if direction > 0 else 150
    steps = max(1, int(duration / 16.667))
    for i in range(steps + 1):
        t = start + duration * i / steps
        y = y0 - direction * distance * i / steps
        kind = "touch_down" if i == 0 else ("touch_up" if i == steps else "touch_move")
        line(session, t, kind, y_pt=round(y, 2))
    return start + duration


def session(index):
    name = "sample-%02d" % index
    now = rng.uniform(200, 800)
    direction = 1
    events = []  # app events as (time, kind, fields), merged between drags
    drags = rng.randint(6, 20)
    for index in range(drags):
        if rng.random() < 0.2:
            direction = -direction
        now = drag(name, now, 0, direction)
        if rng.random() < 0.05:
            now += 300
            line(name, now, "like")
        gap = 1500 * math.exp(0.8 * rng.gauss(0, 1))
        # Only in a gap a drag follows, so no session ends later than it did.
        if index < drags - 1 and text_rng.random() < 1 - math.exp(-0.5 * gap / 60000):
            scales, weights = zip(*TEXT_SIZES)
            line(name, now + gap / 4, "text_size", scale=text_rng.choices(scales, weights)[0])
        for rate, kind in ((0.4, "refresh"), (0.2, "background"), (0.1, "rotate")):
            if rng.random() < 1 - math.exp(-rate * gap / 60000):
                now += gap / 2
                if kind == "background":
                    line(name, now, "background")
                    now += rng.uniform(5000, 60000)
                    line(name, now, "foreground")
                elif kind == "rotate":
                    line(name, now, "rotate", width_pt=844, height_pt=390)
                else:
                    line(name, now, "refresh")
        now += gap


for i in range(40):
    session(i)
