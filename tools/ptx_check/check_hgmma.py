#!/usr/bin/env python3
"""Checks the SASS of wgmma kernels for register A operands that ptxas let other values take.

ptxas of CUDA 13.0 (the H200's driver 580 compiles the same way) gave the registers of a wgmma
A operand held in registers across a loop (Q's fragments in the first flash kernel for
Hopper) to other values inside the loop, so the next trip's HGMMA read garbage. Two checks per
HGMMA whose A operand is a register quad Ra..Ra+3:
  window: no instruction writes Ra..Ra+3 between the HGMMA and the next WARPGROUP.DEPBAR
          (the asynchronous read may still be going on);
  loop:   inside a loop (a backward branch's range), a register whose last write before the
          HGMMA lies outside the loop is written nowhere in the loop (else the next trip reads
          what the loop wrote, not the value from before it).
Usage: check_hgmma.py FILE.ptx|FILE.cubin|FILE.sass ...  (ptxas for .ptx; cuobjdump for .ptx
and .cubin, from PATH or $CUOBJDUMP). Exit status 1 when a check fails, 2 when nothing to check.
"""
import os
import re
import subprocess
import sys
import tempfile

INSN = re.compile(r'/\*([0-9a-f]{4,})\*/\s+(@!?U?P[0-9T]\s+)?([A-Z0-9_.]+)\s*([^;]*);')
FUNC = re.compile(r'Function : (\S+)')
REG = re.compile(r'^R(\d+)$')
# Instructions whose first operand is read, not written.
NO_DEST = re.compile(r'^(ST|STS|STG|STL|RED|BAR|BRA|BSSY|BSYNC|EXIT|LDGSTS|WARPGROUP|DEPBAR|'
                     r'MEMBAR|FENCE|NOP|CALL|RET|ERRBAR|SYNCS|UTMA|ARRIVES|LDGDEPBAR|CCTL)')


def sass_of(path):
    if path.endswith('.sass'):
        return open(path).read()
    cuobjdump = os.environ.get('CUOBJDUMP', 'cuobjdump')
    with tempfile.TemporaryDirectory() as tmp:
        cubin = path
        if path.endswith('.ptx'):
            cubin = os.path.join(tmp, 'k.cubin')
            subprocess.run(['ptxas', '-arch=sm_90a', path, '-o', cubin], check=True)
        return subprocess.run([cuobjdump, '-sass', cubin], check=True, capture_output=True,
                              text=True).stdout


def functions(text):
    """{name: [(addr, opcode, operands)]}"""
    funcs, cur = {}, None
    for line in text.splitlines():
        f = FUNC.search(line)
        if f:
            cur = funcs.setdefault(f.group(1), [])
            continue
        m = INSN.search(line)
        if m and cur is not None:
            cur.append((int(m.group(1), 16), m.group(3), [o.strip() for o in m.group(4).split(',')]))
    return funcs


def width(opcode):
    if opcode.startswith('HGMMA'):
        return int(re.match(r'HGMMA\.64x(\d+)x', opcode).group(1)) // 2
    if opcode.startswith('LDSM'):
        return int(opcode.rsplit('.', 1)[1])
    for tag, n in (('.128', 4), ('.64', 2), ('.WIDE', 2)):
        if tag in opcode:
            return n
    return 1


def written(opcode, ops):
    """Registers an instruction writes."""
    if NO_DEST.match(opcode) or not ops:
        return set()
    m = REG.match(ops[0].split('.')[0])
    if not m:
        return set()
    r = int(m.group(1))
    return set(range(r, r + width(opcode)))


def a_regs(opcode, ops):
    if not opcode.startswith('HGMMA') or len(ops) < 2:
        return None
    m = REG.match(ops[1])
    return set(range(int(m.group(1)), int(m.group(1)) + 4)) if m else None


def check(name, insns):
    problems = []
    writes = [written(op, ops) for _, op, ops in insns]
    loops = []
    for i, (addr, op, ops) in enumerate(insns):
        t = re.match(r'0x([0-9a-f]+)', ops[0]) if op == 'BRA' and ops else None
        if t and int(t.group(1), 16) <= addr:
            start = next(j for j, x in enumerate(insns) if x[0] >= int(t.group(1), 16))
            loops.append((start, i))
    count = 0
    for i, (addr, op, ops) in enumerate(insns):
        regs = a_regs(op, ops)
        if regs is None:
            continue
        count += 1
        for j in range(i + 1, len(insns)):
            if insns[j][1].startswith('WARPGROUP.DEPBAR'):
                break
            if writes[j] & regs:
                problems.append('%s /*%04x*/ HGMMA reads R%d.. while /*%04x*/ %s writes them'
                                % (name, addr, min(regs), insns[j][0], insns[j][1]))
        for start, end in loops:
            if not start <= i <= end:
                continue
            for r in sorted(regs):
                if any(r in writes[j] for j in range(start, i)):
                    continue # defined on this trip
                later = [j for j in range(i + 1, end + 1) if r in writes[j]]
                if later:
                    problems.append('%s /*%04x*/ HGMMA reads R%d from before the loop at /*%04x*/,'
                                    ' but /*%04x*/ %s inside it overwrites it'
                                    % (name, addr, r, insns[start][0], insns[later[0]][0],
                                       insns[later[0]][1]))
    return count, problems


def main():
    total, bad = 0, []
    for path in sys.argv[1:]:
        for name, insns in functions(sass_of(path)).items():
            n, problems = check(name, insns)
            total += n
            bad += problems
            print('%s: %d HGMMA with a register A operand, %s' % (name, n, 'FAILED' if problems else 'ok'))
    for p in bad:
        print(p)
    if total == 0 and not bad:
        print('no HGMMA with a register A operand found')
        return 2
    return 1 if bad else 0


if __name__ == '__main__':
    sys.exit(main())
