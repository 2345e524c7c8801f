#!/usr/bin/env python3
"""Fails when an #include under src/ crosses the layers the wrong way (docs/internals.md):

  engine -> engine     src/cpu and src/gpu never include each other
  core -> anything     src/core (core/ops and core/compute included) sees only core/
  api -> engine        src/api reaches src/cpu and src/gpu only through the implementation
                       lists and the engine-neutral entries declared in core
  runtime -> operation src/runtime includes no src/cpu, src/gpu, core/ops or src/graph
  graph -> device      src/graph includes no engine and no runtime

Usage: check_layering.py [repository root]. Prints each crossing and exits 1 if any.
"""
import pathlib
import re
import sys

# Top directories under src/ that each layer may not include.
FORBIDDEN = {
    'cpu': ['gpu/', 'graph/', 'api/'],
    'gpu': ['cpu/', 'graph/', 'api/'],
    'core': ['cpu/', 'gpu/', 'runtime/', 'graph/', 'api/'],
    'api': ['cpu/', 'gpu/'],
    'runtime': ['cpu/', 'gpu/', 'core/ops/', 'graph/', 'api/'],
    'graph': ['cpu/', 'gpu/', 'runtime/', 'api/'],
}

# Crossings still present, each with the reason it stays for now. Remove an entry when its
# file no longer needs it; an entry that matches nothing fails the check too. Empty since the
# graph layer reaches devices through streams and the compute interface (issue 17).
KNOWN = set()

INCLUDE = re.compile(r'^\s*#\s*include\s+"([^"]+)"', re.M)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else '.').resolve()
    src = root / 'src'
    bad, seen = [], set()
    for path in sorted(src.rglob('*')):
        if path.suffix not in ('.cpp', '.hpp', '.h', '.c'):
            continue
        rel = path.relative_to(src).as_posix()
        layer = rel.split('/', 1)[0]
        for inc in INCLUDE.findall(path.read_text(errors='replace')):
            hit = [f for f in FORBIDDEN.get(layer, []) if inc.startswith(f)]
            if not hit:
                continue
            if (rel, inc) in KNOWN:
                seen.add((rel, inc))
                continue
            bad.append(f'src/{rel}: includes "{inc}" ({layer}/ may not include {hit[0]})')
    for rel, inc in sorted(KNOWN - seen):
        bad.append(f'src/{rel}: no longer includes "{inc}"; drop it from KNOWN')
    for line in bad:
        print(line)
    if bad:
        print(f'{len(bad)} layering violation(s)')
        return 1
    print(f'layering ok ({len(KNOWN)} known crossings)')
    return 0


if __name__ == '__main__':
    sys.exit(main())
