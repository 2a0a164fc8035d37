#!/usr/bin/env python3
"""maxrate_heldout.py COUNT [NODECOMM]: max-rate tables with parameters no test uses (3- and 4-parameter
model data, K 2..8, 1-3 % noise, straight: one regime), fitted by `nodecomm --fit` with the regimes detected.
Prints each model fit whose latency_growth is above LAT_VERDICT_LATENCY_GROWTH and the counts: flags (a
false "the latency grows with k" on a max-rate model's own data), misfits, and tables cut into regimes (all
spurious). NODECOMM defaults to build-test/drivers/nodecomm from the project root; the tables go to a temporary directory (issue 44 part 4)."""
import random, sys, subprocess, json, os
# Max-rate tables with parameters no test uses: 3- and 4-parameter, K 2..8, 1-3 % noise; count latency-growth flags.
import os, tempfile
drv = os.path.abspath(sys.argv[2] if len(sys.argv) > 2 else "build-test/drivers/nodecomm")
os.chdir(tempfile.mkdtemp(prefix="mpilat-maxrate-"))
flags = 0; total = 0; misfit = 0
for seed in range(int(sys.argv[1])):
    rnd = random.Random(seed)
    K = rnd.choice([2, 3, 4, 8]); amp = rnd.choice([0.01, 0.02, 0.03])
    alpha = rnd.uniform(1, 30); rc = rnd.uniform(100, 5000); rn = rc * rnd.uniform(1.2, K + 1)
    rci = rc * rnd.uniform(0.3, 1.0) if seed % 2 else rc
    sizes = sorted(set([0] + [int(2 ** (e / 2)) for e in range(0, 2 * rnd.choice([12, 16, 20]) + 1)]))
    if seed % 3 == 0: sizes = [0, 1024, 16384, 65536, 262144]
    with open("t.txt", "w") as f:
        f.write("len\t" + "\t".join(str(k) for k in range(1, K + 1)) + "\n")
        for n in sizes:
            row = [alpha + k * n / min(rn, rc + (k - 1) * rci) for k in range(1, K + 1)]
            f.write(f"{n}\t" + "\t".join(f"{t * (1 + rnd.uniform(-amp, amp)):.6g}" for t in row) + "\n")
    subprocess.run([drv, "--fit", "t.txt", "--noplot", "--outdir", "o"], capture_output=True)
    j = json.load(open("o/nodecomm.json"))
    regs = j["fit"]["regimes"]
    cuts = globals().get("cuts", 0) + (len(regs) > 1); globals()["cuts"] = cuts
    for reg in regs:
        for name in ("max-rate 3-parameter", "max-rate 4-parameter", "modified (5)"):
            m = reg["models"][name]; total += 1
            g = m.get("latency_growth")
            if isinstance(g, (int, float)) and g > 0.10: flags += 1; print(seed, K, amp, name, g, len(sizes))
            misfit += m["verdict"] == "misfit"
print(f"latency-growth flags {flags} of {total} model fits; misfits {misfit}; tables cut {cuts} of {sys.argv[1]}")
