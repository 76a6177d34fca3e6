#!/usr/bin/env python3
"""Summarises cuobjdump -sass / -res-usage output of ferry-perf's ferry files, per kernel: the
instruction count (NOPs left out), registers, global loads by kind (LDG with its modifiers:
.CONSTANT is the read-only, non-coherent path that restrict and const pointers allow), and, for
a file with exactly one ferry_B and one ferry_C kernel, the opcodes whose counts differ between
them. A kernel whose name contains run_ferry_c is ferry_C's ("C"); every other kernel of the
file is listed as "B" (in a ferry file's cubin: the kernel that ferry_A and ferry_B launch).

Usage: perf/scripts/sass_summary.py DIR
DIR holds NAME.sass (cuobjdump -sass of one cubin) and NAME.res.txt (cuobjdump -res-usage; when
missing, registers show "?"). Exits with status 1 if DIR holds no .sass file.
"""
import collections
import glob
import os
import re
import sys

# One SASS instruction: its address comment (4 or more hex digits), an optional predicate, the
# opcode with its modifiers.
INSTRUCTION = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)")


def main():
    if len(sys.argv) != 2:
        sys.exit("Usage: perf/scripts/sass_summary.py DIR")
    files = sorted(glob.glob(os.path.join(sys.argv[1], "*.sass")))
    if not files:
        sys.exit(f"no .sass files in {sys.argv[1]}")
    for sass in files:
        name = os.path.basename(sass)[:-5]
        text = open(sass).read()
        res_path = sass[:-5] + ".res.txt"
        res = open(res_path).read() if os.path.exists(res_path) else ""
        regs = dict(re.findall(r"Function (\S+):\s*\n?\s*REG:(\d+)", res))
        kern = {}
        for f in re.split(r"^\s*Function : ", text, flags=re.M)[1:]:
            fname = f.split("\n", 1)[0].strip()
            ins = [i for i in INSTRUCTION.findall(f) if i != "NOP"]
            kern.setdefault("C" if "run_ferry_c" in fname else "B", []).append((fname, ins))
        print("==", name)
        for who in sorted(kern):
            for fname, ins in kern[who]:
                loads = collections.Counter(i for i in ins if i == "LDG" or i.startswith("LDG."))
                print(f"  {who} {len(ins):5d} instructions  {regs.get(fname, '?'):>3s} registers  "
                      + " ".join(f"{k} {v}" for k, v in sorted(loads.items())) + f"  {fname[:80]}")
        if len(kern.get("B", [])) == 1 and len(kern.get("C", [])) == 1:
            b = collections.Counter(i.split(".")[0] for i in kern["B"][0][1])
            c = collections.Counter(i.split(".")[0] for i in kern["C"][0][1])
            diff = {k: b[k] - c[k] for k in set(b) | set(c) if b[k] != c[k]}
            order = sorted(diff.items(), key=lambda kv: (-abs(kv[1]), kv[0]))
            print("  B - C by opcode:", " ".join(f"{k} {v:+d}" for k, v in order))


if __name__ == "__main__":
    main()
