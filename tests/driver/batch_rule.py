"""batch_rule.py: --precision's rule written out once for the driver tests (docs/method.md, "Precision";
the library's batch_median_half_pct): 8 batches of consecutive chunks, each the median of its chunk medians,
half-width t(0.975, 7) x sd x sqrt(1 + 1/8) in percent of the median; the interval between launches, that and
the lines' placement (1.96 x placement_sd_pct) in quadrature; and the npp a precision run holds."""
import csv
import math
import statistics

T_975_7 = 2.3646242510


def half_pct_of(chunk_medians, median):
    """The rule over chunk medians in time order; infinity with fewer than 8 chunks."""
    n = len(chunk_medians)
    if n < 8 or not median > 0:
        return math.inf
    batch = [statistics.median(chunk_medians[b * n // 8:(b + 1) * n // 8]) for b in range(8)]
    return T_975_7 * statistics.stdev(batch) * math.sqrt(9 / 8) / median * 100


def half_pct(j):
    """latency.json: the rule over its run over time's chunks, of its median."""
    cols, rows = j['run_over_time']['chunks']['columns'], j['run_over_time']['chunks']['rows']
    return half_pct_of([r[cols.index('median_us')] for r in rows], j['pingpong']['all']['median_us'])


def between_pct(batch_pct, placement_sd_pct):
    """between_launches_half_pct: the batch medians' half-width and the placement's, 1.96 x its sd, together."""
    return math.hypot(batch_pct, 1.96 * placement_sd_pct)


def held_npp(j):
    """latency.json: the power of two at or above the rule's unrounded value."""
    x = j['npp']['res_npp'] * j['timer']['res_timing_us'] / j['npp']['median_ppt_us']
    held = 1
    while held < x:
        held *= 2
    return held


def widest_half_pct(j, samples_csv):
    """mpilat-coll.json and its samples: the widest point's rule over its chunks of 0.25 s (chunks_of)."""
    rows = {}
    for r in csv.DictReader(open(samples_csv)):
        rows.setdefault(int(r['point']), []).append((float(r['at_s']), float(r['value_us'])))
    widest = 0.0
    for k in range(len(j['points'])):
        pts, chunks, begin = rows.get(k, []), [], 0
        while begin < len(pts):
            end = begin + 1
            while end < len(pts) and pts[end][0] - pts[begin][0] < 0.25:
                end += 1
            if end == len(pts) - 1 and begin > 0:
                end = len(pts)
            chunks.append(statistics.median([v for _, v in pts[begin:end]]))
            begin = end
        widest = max(widest, half_pct_of(chunks, statistics.median([v for _, v in pts]) if pts else 0.0))
    return widest
