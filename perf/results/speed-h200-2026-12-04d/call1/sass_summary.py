#!/usr/bin/env python3
"""Summarises cuobjdump -sass / -res-usage output of ferry-perf's ferry files: per kernel
(ferry_B: the kernel launched by rep() / run_ferry_b, ferry_C: run_ferry_c's), the instruction
count, registers, and the opcodes whose counts differ between the B and C kernels of a file."""
import collections, glob, os, re, sys

d = sys.argv[1]
for sass in sorted(glob.glob(os.path.join(d, "*.sass"))):
    name = os.path.basename(sass)[:-5]
    text = open(sass).read()
    res = open(sass[:-5] + ".res.txt").read() if os.path.exists(sass[:-5] + ".res.txt") else ""
    regs = dict(re.findall(r"Function (\S+):\s*\n?\s*REG:(\d+)", res))
    funcs = re.split(r"\n\s*Function : ", text)[1:]
    kern = {}
    for f in funcs:
        fname = f.split("\n", 1)[0].strip()
        ins = re.findall(r"/\*[0-9a-f]{4}\*/\s+(?:@!?U?P\w+\s+)?([A-Z][A-Z0-9_.]*)", f)
        ins = [i for i in ins if i != "NOP"]
        who = "C" if "run_ferry_c" in fname else "B"
        kern.setdefault(who, []).append((fname, ins))
    print("==", name)
    for who in sorted(kern):
        for fname, ins in kern[who]:
            print("  %s  %4d instructions  %s registers  %s" % (who, len(ins), regs.get(fname, "?"), fname[:90]))
    if len(kern.get("B", [])) == 1 and len(kern.get("C", [])) == 1:
        b = collections.Counter(i.split(".")[0] for i in kern["B"][0][1])
        c = collections.Counter(i.split(".")[0] for i in kern["C"][0][1])
        diff = {k: b[k] - c[k] for k in set(b) | set(c) if b[k] != c[k]}
        print("  B - C by opcode:", " ".join("%s %+d" % kv for kv in sorted(diff.items(), key=lambda kv: -abs(kv[1]))))
