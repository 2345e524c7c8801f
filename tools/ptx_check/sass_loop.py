#!/usr/bin/env python3
"""Prints the instructions of a kernel's main loop (one K slice) from cuobjdump -sass output:
the shortest range from a backward branch's target to that branch that holds a barrier
(BAR.SYNC). The pipelined kernels' prologue barrier lies outside it.
  sass_loop.py KERNEL.sass"""
import re
import sys

code = [] # (address, instruction)
for line in open(sys.argv[1]):
    m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', line)
    if m:
        code.append((int(m.group(1), 16), m.group(2)))
best = None
for i, (at, ins) in enumerate(code):
    b = re.search(r'\bBRA (?:\S+, )?0x([0-9a-f]+)', ins)
    if not b or int(b.group(1), 16) > at:
        continue
    body = [c for c in code[:i + 1] if c[0] >= int(b.group(1), 16)]
    if any('BAR.SYNC' in c[1] for c in body) and (best is None or len(body) < len(best)):
        best = body
for _, ins in best or []:
    print(ins)
