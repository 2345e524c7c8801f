#!/usr/bin/env python3
"""Prints the instructions of a kernel's main loop from cuobjdump -sass output: from its first
barrier (BAR.SYNC) to the first branch whose target lies at or above that barrier.
  sass_loop.py KERNEL.sass"""
import re
import sys

bar = None
for line in open(sys.argv[1]):
    m = re.match(r'\s+/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;', line)
    if not m:
        continue
    at, ins = int(m.group(1), 16), m.group(2)
    if bar is None and 'BAR.SYNC' in ins:
        bar = at
    if bar is None:
        continue
    print(ins)
    b = re.search(r'\bBRA (?:\S+, )?0x([0-9a-f]+)', ins)
    if b and int(b.group(1), 16) <= bar:
        break
