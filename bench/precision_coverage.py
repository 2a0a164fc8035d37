#!/usr/bin/env python3
"""precision_coverage.py DIR: whether --precision's intervals hold between launches (issue 44; docs/method.md,
"Precision"; bench/precision.sh runs the launches into DIR/latency-N and DIR/coll-N).

For each launch of `latency` and each point of each launch of `mpilat-coll`:
  between launches: does the launch's interval (median +- median_ci_half_pct %) hold the pooled median of
    the other launches (every trial of theirs: the frequency tables of their JSON)?
  the next launch from the earlier ones: does mpilat-compare's next-launch interval of the launches before
    it (their [min, max] of launch medians: with n of them it holds one more with (n-1)/(n+1), distribution-
    free, for launches alike) hold this launch's median? Counted from the 5th launch on, against the
    coverage the rule promises on average (docs/compare.md, "One group").
  the launch after: does the launch's interval hold the median of the launch that followed it?
  drift: do the launch medians trend with launch order (Spearman's rho beyond its 5 % bound)? Then the
    machine was not quiet over the launches, and the counts above judge the machine, not the interval.
  (the interval counted between launches is the batch medians' and the lines' placement's bound together,
    precision.placement.bound_half_pct: no launch states it since the campaign driver, a launch claims its own
    interval only; within a launch only the batch medians' counts, the placement being fixed)
  within one launch: does the interval of its first half (the same rule over the first half's chunks) hold
    the median of its second half (trial-weighted over the second half's chunk medians)?
The rule is the library's batch_median_half_pct, written again here to apply it to a half; it is checked
against the library's own figure for the whole launch (latency's median_ci_half_pct, mpilat-coll's
median_ci_half_pct_max) before anything is counted."""
import csv
import json
import math
import os
import statistics
import sys

BATCHES = 8          # LAT_PRECISION_BATCHES
T_975_7 = 2.364624   # Student's t, 0.975 quantile, 7 degrees of freedom
CHUNK_S = 0.25       # the collective's chunks (kCollChunkS)
PLACEMENT_Z = 1.96   # placement_half_pct: the lines' placement term is 1.96 x their sd


def half_pct(chunk_medians, median):
    """batch_median_half_pct: 8 batches of consecutive chunks, t x sd x sqrt(1 + 1/8), in % of median."""
    n = len(chunk_medians)
    if n < BATCHES or not median > 0:
        return math.inf
    batch = [statistics.median(chunk_medians[b * n // BATCHES:(b + 1) * n // BATCHES]) for b in range(BATCHES)]
    return T_975_7 * statistics.stdev(batch) * math.sqrt(1 + 1 / BATCHES) / median * 100


def pooled_median(tables):
    """The lower median of every value of the frequency tables ([[value, count], ...]) together."""
    counts = {}
    for t in tables:
        for v, c in t:
            counts[v] = counts.get(v, 0) + c
    total = sum(counts.values())
    seen = 0
    for v in sorted(counts):
        seen += counts[v]
        if 2 * seen >= total:
            return v
    return math.nan


def weighted_median(values, weights):
    pairs = sorted(zip(values, weights))
    total, seen = sum(weights), 0
    for v, w in pairs:
        seen += w
        if 2 * seen >= total:
            return v
    return math.nan


def collective_chunks(rows):
    """The collective's chunks of ~0.25 s (chunks_of): (median, count) of each, from (at_s, value) rows."""
    chunks, begin = [], 0
    while begin < len(rows):
        end = begin + 1
        while end < len(rows) and rows[end][0] - rows[begin][0] < CHUNK_S:
            end += 1
        if end == len(rows) - 1 and begin > 0:
            end = len(rows)
        v = [x for _, x in rows[begin:end]]
        chunks.append((statistics.median(v), len(v)))
        begin = end
    return chunks


def halves(chunks):
    """(first half's interval holds the second half's median, half-width %) over (median, count) chunks."""
    h = len(chunks) // 2
    first, second = chunks[:h], chunks[h:]
    centre = weighted_median([m for m, _ in first], [c for _, c in first])
    hp = half_pct([m for m, _ in first], centre)
    later = weighted_median([m for m, _ in second], [c for _, c in second])
    return abs(later - centre) <= hp / 100 * centre, hp


def ranks_of(values):
    """Average ranks (ties share theirs), 1-based."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    r = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return r


def drift(medians):
    """Spearman's rho of the launch medians against launch order, and its 5 % bound for launches alike
    (about 1.96 / sqrt(n - 1)): beyond it the machine drifted over the launches, and no one launch's interval
    can hold the others' pooled median however it is computed: the benchmark's premise (a quiet machine)
    did not hold."""
    n = len(medians)
    if n < 4:
        return math.nan, math.inf
    return statistics.correlation(ranks_of(medians), list(range(1, n + 1))), 1.96 / math.sqrt(n - 1)


def report(name, launches):
    """launches: [(median, half_pct, frequency table, chunks)] of one quantity over the launches."""
    held = within = within_n = same_held = same_n = next_held = next_n = 0
    next_promised = 0.0
    widths = []
    for i, (median, hp, _, chunks) in enumerate(launches):
        others = pooled_median([t for k, (_, _, t, _) in enumerate(launches) if k != i])
        held += abs(others - median) <= hp / 100 * median
        # The same count among the launches in this one's state of the host (a median within a factor 1.5:
        # this VM's host runs the same ping-pong at 0.17 or 0.65 us, for seconds to minutes at a time).
        same = [t for k, (m, _, t, _) in enumerate(launches) if k != i and max(m, median) < 1.5 * min(m, median)]
        if same:
            same_n += 1
            same_held += abs(pooled_median(same) - median) <= hp / 100 * median
        if i >= 4:
            earlier = [m for m, _, _, _ in launches[:i]]
            next_held += min(earlier) <= median <= max(earlier)
            next_n += 1
            next_promised += (i - 1) / (i + 1)
        widths.append(hp)
        if len(chunks) >= 2 * BATCHES:
            ok, _ = halves(chunks)
            within += ok
            within_n += 1
    medians = [m for m, _, _, _ in launches]
    after = sum(abs(launches[i + 1][0] - m) <= hp / 100 * m for i, (m, hp, _, _) in enumerate(launches[:-1]))
    rho, bound = drift(medians)
    print(f'{name}: {len(launches)} launches; the pooled median of the others inside the interval: {held} of '
          f'{len(launches)} ({100 * held / len(launches):.0f} %), of the others in the same state of the host (a median '
          f'within a factor 1.5): {same_held} of {same_n}; the earlier launches\' [min, max] of medians (mpilat-compare\'s '
          f'next launch) holding this one: {next_held} of {next_n} (promised for launches alike: {next_promised:.1f}); the first half\'s interval holding the second '
          f'half\'s median: {within} of {within_n}; half-widths {min(widths):.2f} .. {statistics.median(widths):.2f} .. '
          f'{max(widths):.2f} % (min, median, max); medians {min(medians):.4f} .. {max(medians):.4f} us; the launch after '
          f'inside the interval: {after} of {len(launches) - 1}; drift of the medians over the launches: Spearman\'s rho '
          f'{rho:+.2f} against launch order ({"beyond" if abs(rho) > bound else "within"} +-{bound:.2f}, the 5 % bound for '
          f'launches alike{": the machine drifted, not quiet" if abs(rho) > bound else ""})')
    return held, len(launches), same_held, same_n, next_held, next_n, next_promised


def main(root):
    # In launch order (latency-2 before latency-10): the next-launch count goes forward in time.
    runs = sorted(os.listdir(root), key=lambda r: (r.split('-')[0], int(r.split('-')[1]) if r.split('-')[-1].isdigit() else 0))
    lat, coll = [], {}
    for run in runs:
        d = os.path.join(root, run)
        if run.startswith('latency-'):
            j = json.load(open(os.path.join(d, 'latency.json')))
            cols = j['run_over_time']['chunks']['columns']
            rows = j['run_over_time']['chunks']['rows']
            chunks = [(r[cols.index('median_us')], r[cols.index('trials')]) for r in rows]
            median, hp = j['pingpong']['all']['median_us'], j['precision']['median_ci_half_pct']
            mine = half_pct([m for m, _ in chunks], median)
            if hp is None or not math.isclose(mine, hp, rel_tol=1e-6, abs_tol=1e-9):
                sys.exit(f'{run}: the rule here gives {mine}, the library {hp}: they must agree')
            # Between launches: the batch medians' term and the lines' placement (1.96 sd), in quadrature.
            between = j['precision']['placement']['bound_half_pct']
            mine = math.hypot(mine, PLACEMENT_Z * j['precision']['placement']['sd_pct'])
            if between is None or not math.isclose(mine, between, rel_tol=1e-6, abs_tol=1e-9):
                sys.exit(f'{run}: between launches the rule here gives {mine}, the library {between}: they must agree')
            lat.append((median, between, j['pingpong']['frequencies'], chunks))
        elif run.startswith('coll-'):
            j = json.load(open(os.path.join(d, 'mpilat-coll.json')))
            samples = {}
            with open(os.path.join(d, 'mpilat-coll.samples.csv')) as f:
                for r in csv.DictReader(f):
                    samples.setdefault(int(r['point']), []).append((float(r['at_s']), float(r['value_us'])))
            widest = 0.0
            placement = PLACEMENT_Z * j['run']['precision']['placement']['sd_pct']
            for k, p in enumerate(j['points']):
                if p.get('withheld'):
                    continue
                chunks = collective_chunks(samples.get(k, []))
                median = pooled_median([p['frequencies']])
                hp = half_pct([m for m, _ in chunks], median)
                widest = max(widest, hp)
                coll.setdefault(f"{p['operation']} {p['bytes']} B {p['mode']}", []).append(
                    (median, math.hypot(hp, placement), p['frequencies'], chunks))
            lib = j['run']['precision']['median_ci_half_pct_max']
            if lib is None or not math.isclose(widest, lib, rel_tol=1e-3, abs_tol=1e-9):
                sys.exit(f'{run}: the widest interval here is {widest}, the library says {lib}: they must agree')
            lib = j['run']['precision']['placement']['bound_half_pct_max']
            if lib is None or not math.isclose(math.hypot(widest, placement), lib, rel_tol=1e-3, abs_tol=1e-9):
                sys.exit(f'{run}: between launches the widest here is {math.hypot(widest, placement)}, the library says '
                         f'{lib}: they must agree')
    total_held = total = same_held = same_n = next_held = next_n = 0
    next_promised = 0.0
    if lat:
        report('latency', lat)
    for name, launches in sorted(coll.items()):
        h, n, sh, sn, nh, nn, npr = report(f'mpilat-coll {name}', launches)
        total_held, total, same_held, same_n = total_held + h, total + n, same_held + sh, same_n + sn
        next_held, next_n, next_promised = next_held + nh, next_n + nn, next_promised + npr
    if total:
        print(f'mpilat-coll, every point: {total_held} of {total} ({100 * total_held / total:.0f} %); in the same state '
              f'of the host: {same_held} of {same_n}; the earlier launches\' [min, max] holding the next: {next_held} of '
              f'{next_n} (promised for launches alike: {next_promised:.1f})')


if __name__ == '__main__':
    main(sys.argv[1])
