"""A grid cell of an experiments/*.mk sweep: the tool's --json output NOISE_EPOCHS_BATCHES.json
and /usr/bin/time's "wall user sys maxrss" beside it in NOISE_EPOCHS_BATCHES.time (shuffle.mk,
balls_in_bins.mk)."""
import json


def cell(d, s, e, b):
    """The cell's JSON, its wall time, its CPU time (user + sys) and its peak memory (KiB)."""
    with open(f"{d}/{s}_{e}_{b}.json") as f:
        j = json.load(f)
    with open(f"{d}/{s}_{e}_{b}.time") as f:
        wall, user, sys_, rss = f.read().split()
    return j, float(wall), float(user) + float(sys_), int(rss)
