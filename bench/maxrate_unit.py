#!/usr/bin/env python3
"""maxrate_unit.py COUNT [NODECOMM]: the same random table (max-rate or modified-model data) fitted in us and
in s (times x 1e-6, --time-unit s): prints the tables whose modified model (5) differs (objective first) and
the count (docs/method.md, "The modified model (5)"). Its tables go to a temporary directory."""
import random, sys, subprocess, json
import os, tempfile
drv = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "build-test/drivers/nodecomm")
os.chdir(tempfile.mkdtemp(prefix="mpilat-maxrate-"))
bad = 0
for seed in range(int(sys.argv[1])):
    rnd = random.Random(seed)
    K = rnd.choice([2, 3, 4, 8]); amp = rnd.choice([0.0, 0.01, 0.03])
    alpha = rnd.uniform(1, 30); rc = rnd.uniform(100, 5000); rn = rc * rnd.uniform(0.5, K + 1)
    sizes = sorted(set([0] + [int(2 ** (e / 2)) for e in range(0, 2 * rnd.choice([12, 16, 20]) + 1)]))
    rows = []
    for n in sizes:
        row = [max(alpha + n / rc, k * n / rn) if seed % 2 else alpha + k * n / min(rn, k * rc) for k in range(1, K + 1)]
        rows.append((n, [t * (1 + rnd.uniform(-amp, amp)) for t in row]))
    res = []
    for unit, f in (("us", 1.0), ("s", 1e-6)):
        with open("u.txt", "w") as fh:
            fh.write("len\t" + "\t".join(str(k) for k in range(1, K + 1)) + "\n")
            for n, row in rows: fh.write(f"{n}\t" + "\t".join(repr(t * f) for t in row) + "\n")
        subprocess.run([drv, "--fit", "u.txt", "--time-unit", unit, "--noplot", "--outdir", "o" + unit], capture_output=True, check=True)
        j = json.load(open(f"o{unit}/nodecomm.json"))
        res.append([(g["first_bytes"], g["models"]["modified (5)"]) for g in j["fit"]["regimes"]])
    a, b = res
    if [x[0] for x in a] != [x[0] for x in b]:
        print(seed, "regimes differ"); bad += 1; continue
    for (_, ma), (_, mb) in zip(a, b):
        for key in ("rel_err_sq", "alpha_us", "rc_mbs", "rn_mbs"):
            va, vb = ma[key], mb[key]
            if isinstance(va, float) and isinstance(vb, float) and abs(va - vb) > 1e-6 * max(abs(va), abs(vb), 1e-12) * 1e3:
                print(seed, key, va, vb, ma["verdict"], mb["verdict"]); bad += 1; break
print("differ:", bad, "of", sys.argv[1])
