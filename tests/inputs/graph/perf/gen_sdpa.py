#!/usr/bin/env python3
"""Writes the sdpa perf cases of this folder (benchdnn --graph JSON): oneDNN's SDPA pattern with
no mask or a causal mask computed in the graph (GenIndex / GreaterEqual / Select), and GQA as
5D tensors whose MatMuls broadcast K and V over the query heads of a group (or, _reshape, 4D
tensors with StaticReshapes to 5D and back); _train: the training forward, the SoftMax's f32
statistics (id 24, the scores' shape with one key) a second output port.
Usage: gen_sdpa.py [OUT_DIR]   (the small CHECK variants: gen_sdpa.py DIR --small)"""
import json
import os
import sys


def strides(shape):
    s, acc = [], 1
    for d in reversed(shape):
        s.insert(0, acc)
        acc *= d
    return s


def lt(i, dt, shape):
    return {'id': i, 'dtype': dt, 'shape': shape, 'stride': strides(shape),
            'layout_type': 'strided', 'property_type': 'variable'}


def sdpa(dt, b, hq, hkv, s, d, causal, reshaped=False, train=False):
    if hq == hkv:
        q_shape, kv_shape = [b, hq, s, d], [b, hkv, s, d]
        scores = [b, hq, s, s]
    else:  # GQA: [b, hkv, group, s, d] against [b, hkv, 1, s, d]
        q_shape, kv_shape = [b, hkv, hq // hkv, s, d], [b, hkv, 1, s, d]
        scores = [b, hkv, hq // hkv, s, s]
    ops = []
    # reshaped (GQA): Q, K, V and dst are 4D (ids 20..23), reshaped to and from the 5D ones.
    q4, kv4 = [b, hq, s, d], [b, hkv, s, d]

    def op(name, kind, ins, outs, attrs=None):
        ops.append({'id': len(ops), 'name': name, 'kind': kind, 'attrs': attrs or {},
                    'inputs': ins, 'outputs': outs})

    boolean = lambda v: {'type': 'bool', 'value': v}
    if reshaped:
        for name, i, src, dst in (('q4to5', 20, q4, q_shape), ('k4to5', 21, kv4, kv_shape),
                                  ('v4to5', 22, kv4, kv_shape)):
            op(name, 'StaticReshape', [lt(i, dt, src)], [lt(i - 20, dt, dst)],
               {'shape': {'type': 's64[]', 'value': dst}, 'special_zero': boolean(0)})
    op('qk', 'MatMul', [lt(0, dt, q_shape), lt(1, dt, kv_shape)], [lt(5, dt, scores)],
       {'transpose_a': boolean(0), 'transpose_b': boolean(1)})
    op('scale', 'Multiply', [lt(5, dt, scores), lt(3, dt, [1])], [lt(6, dt, scores)],
       {'auto_broadcast': {'type': 'string', 'value': 'numpy'}})
    probs_in = 6
    inputs = [0, 1, 3, 2]
    if causal:
        op('row', 'GenIndex', [lt(6, dt, scores)], [lt(10, 's32', scores)],
           {'axis': {'type': 's64', 'value': -2}})
        op('col', 'GenIndex', [lt(6, dt, scores)], [lt(11, 's32', scores)],
           {'axis': {'type': 's64', 'value': -1}})
        op('causal', 'GreaterEqual', [lt(10, 's32', scores), lt(11, 's32', scores)],
           [lt(12, 'boolean', scores)], {'auto_broadcast': {'type': 'string', 'value': 'numpy'}})
        op('mask', 'Select', [lt(12, 'boolean', scores), lt(6, dt, scores), lt(4, dt, [1])],
           [lt(7, dt, scores)], {'auto_broadcast': {'type': 'string', 'value': 'numpy'}})
        probs_in = 7
        inputs.append(4)
    stats = [lt(24, 'f32', scores[:-1] + [1])] if train else []
    op('softmax', 'SoftMax', [lt(probs_in, dt, scores)], [lt(8, dt, scores)] + stats,
       {'axis': {'type': 's64', 'value': -1}})
    op('pv', 'MatMul', [lt(8, dt, scores), lt(2, dt, kv_shape)], [lt(9, dt, q_shape)],
       {'transpose_a': boolean(0), 'transpose_b': boolean(0)})
    outputs = [9]
    if reshaped:
        op('out5to4', 'StaticReshape', [lt(9, dt, q_shape)], [lt(23, dt, q4)],
           {'shape': {'type': 's64[]', 'value': q4}, 'special_zero': boolean(0)})
        inputs = [20 + i if i < 3 else i for i in inputs]
        outputs = [23]
    if train:
        outputs.append(24)
    return {'version': '3.13.0', 'engine_kind': 'gpu', 'fpmath_mode': 'strict',
            'fpmath_mode_apply_to_int': 'false', 'input_ports': inputs, 'output_ports': outputs,
            'graph': ops}


CASES = {  # name: (dt, b, hq, hkv, s, d, causal)
    'sdpa_f32_b1h16s1024d64_nomask': ('f32', 1, 16, 16, 1024, 64, False),
    'sdpa_bf16_b1h16s1024d64_nomask': ('bf16', 1, 16, 16, 1024, 64, False),
    'sdpa_f32_b1h16s1024d80_nomask': ('f32', 1, 16, 16, 1024, 80, False),
    'sdpa_f32_b1h16s1024d256_nomask': ('f32', 1, 16, 16, 1024, 256, False),
    'sdpa_bf16_b8h32s4096d128_causal': ('bf16', 8, 32, 32, 4096, 128, True),
    'gqa_bf16_b8h32kv8s4096d128_causal': ('bf16', 8, 32, 8, 4096, 128, True),
    'gqa_bf16_b8h32kv8s4096d128_causal_reshape': ('bf16', 8, 32, 8, 4096, 128, True, True),
    'sdpa_bf16_b8h32s4096d128_causal_train': ('bf16', 8, 32, 32, 4096, 128, True, False, True),
}
SMALL = {  # the same patterns small enough for benchdnn's correctness mode
    'sdpa_bf16_b1h2s203d128_causal_small': ('bf16', 1, 2, 2, 203, 128, True),
    'gqa_bf16_b1h8kv2s150d64_causal_small': ('bf16', 1, 8, 2, 150, 64, True),
    'gqa_bf16_b1h8kv2s150d64_causal_reshape_small': ('bf16', 1, 8, 2, 150, 64, True, True),
    'sdpa_bf16_b1h2s203d128_causal_train_small': ('bf16', 1, 2, 2, 203, 128, True, False, True),
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else os.path.dirname(os.path.abspath(__file__))
    cases = SMALL if '--small' in sys.argv else CASES
    for name, args in cases.items():
        with open(os.path.join(out, name + '.json'), 'w') as f:
            json.dump(sdpa(*args), f, indent=1)
            f.write('\n')


if __name__ == '__main__':
    main()
