#!/usr/bin/env python3
"""Summarises cuobjdump -sass / -res-usage output of ferry-perf's ferry files: per kernel
(ferry_B: the kernel launched by rep() / run_ferry_b; ferry_C: run_ferry_c's), the instruction
count, registers, global loads by kind (LDG with its modifiers: .CONSTANT is the read-only,
non-coherent path that restrict and const pointers allow), and the opcodes whose counts differ
between the B and C kernels of a file.

Usage: perf/scripts/sass_summary.py DIR
DIR holds NAME.sass (cuobjdump -sass of one cubin) and NAME.res.txt (cuobjdump -res-usage).
"""
import collections
import glob
import os
import re
import sys


def main():
    d = sys.argv[1]
    for sass in sorted(glob.glob(os.path.join(d, "*.sass"))):
        name = os.path.basename(sass)[:-5]
        text = open(sass).read()
        res_path = sass[:-5] + ".res.txt"
        res = open(res_path).read() if os.path.exists(res_path) else ""
        regs = dict(re.findall(r"Function (\S+):\s*\n?\s*REG:(\d+)", res))
        kern = {}
        for f in re.split(r"\n\s*Function : ", text)[1:]:
            fname = f.split("\n", 1)[0].strip()
            ins = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", f)
            ins = [i for i in ins if i != "NOP"]
            kern.setdefault("C" if "run_ferry_c" in fname else "B", []).append((fname, ins))
        print("==", name)
        for who in sorted(kern):
            for fname, ins in kern[who]:
                loads = collections.Counter(i for i in ins if i.startswith("LDG"))
                print(f"  {who} {len(ins):5d} instructions  {regs.get(fname, '?'):>3s} registers  "
                      + " ".join(f"{k} {v}" for k, v in sorted(loads.items())) + f"  {fname[:80]}")
        if len(kern.get("B", [])) == 1 and len(kern.get("C", [])) == 1:
            b = collections.Counter(i.split(".")[0] for i in kern["B"][0][1])
            c = collections.Counter(i.split(".")[0] for i in kern["C"][0][1])
            diff = {k: b[k] - c[k] for k in set(b) | set(c) if b[k] != c[k]}
            print("  B - C by opcode:",
                  " ".join(f"{k} {v:+d}" for k, v in sorted(diff.items(), key=lambda kv: -abs(kv[1]))))


if __name__ == "__main__":
    main()
