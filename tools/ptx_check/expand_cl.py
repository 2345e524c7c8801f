#!/usr/bin/env python3
"""Prints one of our .cl files with its #include lines expanded, as the library embeds it.
Usage: expand_cl.py SRC_GPU_DIR REL_PATH (e.g. src/gpu gemm/gemm_mma.cl)"""
import os
import sys

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..', 'scripts'))
from embed_cl import expand  # noqa: E402

print(expand(sys.argv[1], sys.argv[2], set()))
