#!/usr/bin/env python3
"""campaign_coverage.py NAME CAMPAIGN.json...: how mpilat-campaign's intervals over launches hold (bench/campaign.sh).

For each figure every campaign has: the share of campaigns whose 95 % interval (ci95) holds the pooled median
of the other campaigns' launches (target >= 85 %); the median half-width against the smallest half-width that,
given to every campaign, would have held that median in 85 % of them (calibration: their ratio, target <= 2); and from all launches
pooled, the launches and the wall time a campaign needs for +-5 % and +-2 % (the campaign's own rule:
n = (1.96 x 1.2533 x sd% / P)^2, at least 6, times the median launch's wall clock)."""
import json
import math
import statistics
import sys


def main():
    name, files = sys.argv[1], sys.argv[2:]
    camps = [json.load(open(f)) for f in files]
    camps = [c for c in camps if c['figures']]
    if len(camps) < 2:
        sys.exit(f'{name}: fewer than 2 campaigns with figures')
    walls = [l['wall_s'] for c in camps for l in c['launches'] if l['status'] == 'done']
    names = [f['name'] for f in camps[0]['figures'] if all(any(g['name'] == f['name'] for g in c['figures']) for c in camps)]
    print(f'{name}: {len(camps)} campaigns of {len(camps[0]["launches"])} launches; median launch {statistics.median(walls):.2f} s')
    print(f'{"figure":44s} {"held":>9s} {"median half %":>14s} {"least that held %":>18s} {"ratio":>6s} '
          f'{"sd %":>7s} {"n(5%)":>6s} {"t(5%) s":>8s} {"n(2%)":>6s} {"t(2%) s":>8s}')
    for n in names:
        figs = [[g for g in c['figures'] if g['name'] == n][0] for c in camps]
        held, halves, least = 0, [], []
        for i, f in enumerate(figs):
            others = [v for j, g in enumerate(figs) if j != i for v in g['launch_values']]
            m = statistics.median(others)
            if f['ci95'] is None:
                continue
            lo, hi = f['ci95']
            held += lo <= m <= hi
            halves.append(f['half_width_pct'])
            least.append(100 * abs(m - f['median']) / f['median'])
        pooled = [v for f in figs for v in f['launch_values']]
        sd = 100 * statistics.stdev(pooled) / statistics.mean(pooled)
        need = {p: max(6, math.ceil((1.96 * 1.2533 * sd / p) ** 2)) for p in (5, 2)}
        # The smallest half-width that, given to every campaign, would have held the others' median in 85 % of
        # them (the target share): the 85th percentile of the campaigns' distances from it.
        least_common = sorted(least)[max(0, math.ceil(0.85 * len(least)) - 1)] if least else float('nan')
        ratio = statistics.median(halves) / max(least_common, 1e-9) if halves else float('nan')
        print(f'{n[:44]:44s} {held:4d}/{len(halves):<4d} {statistics.median(halves) if halves else float("nan"):14.1f} '
              f'{least_common:18.1f} {ratio:6.2f} {sd:7.1f} '
              f'{need[5]:6d} {need[5] * statistics.median(walls):8.0f} {need[2]:6d} {need[2] * statistics.median(walls):8.0f}')


main()
