#!/usr/bin/env python3
"""rules-hitrate -- how often the kernel's cache of unwind rules
(kernel-patches/0017, one per CPU) would hit, over real stacks.

Usage: perf record -g --call-graph dwarf -o P.data PROGRAM ...
       perf script -i P.data -F tid,ip,dso | rules-hitrate.py [SETS WAYS]...

Replays every sample's stack, leaf first as the unwinder meets its
frames, through one cache per thread of SETS sets of WAYS addresses
(default 32 4, the series'), newest first, indexed as the kernel does
(hash_long(ip, log2(SETS))), and prints for each geometry the share of
the frames whose address was in the cache.  The kernel's cache is per
CPU: one per thread is what a thread gets that has its CPU to itself.  perf prints addresses
relative to their object: each object is given a made-up base, a
multiple of 2 MB from a hash of its name, in place of the one it was
loaded at.  Nothing is emptied, as in the kernel, where only the rules
of a removed or dropped section go unused.
Exit status 0, 1 if the input has no samples, 2 on a usage error."""

import collections
import sys
import zlib

GOLDEN_RATIO_64 = 0x61C8864680B583EB


def read_samples(f):
    samples, cur = [], None
    for line in f:
        s = line.strip()
        if not s:
            if cur and cur[1]:
                samples.append(cur)
            cur = None
            continue
        if not line[0].isspace():
            cur = (s.split()[0], [])
            continue
        ip, _, dso = s.partition(' ')
        if cur is not None and ip != 'ffffffffffffffff':
            base = (0x7f0000000000 +
                    (zlib.crc32(dso.encode()) << 21)) & (2**47 - 1)
            cur[1].append(base + int(ip, 16))
    if cur and cur[1]:
        samples.append(cur)
    return samples


def hit_rate(samples, sets, ways):
    bits = sets.bit_length() - 1
    caches = collections.defaultdict(lambda: [[] for _ in range(sets)])
    hits = frames = 0
    for tid, stack in samples:
        cache = caches[tid]
        for ip in stack:
            frames += 1
            s = cache[((ip * GOLDEN_RATIO_64) & (2**64 - 1)) >> (64 - bits)]
            if ip in s:
                hits += 1
                s.remove(ip)
            s.insert(0, ip)
            del s[ways:]
    return hits, frames


def main():
    args = sys.argv[1:]
    if len(args) % 2 or any(not a.isdigit() or int(a) == 0 for a in args):
        print("usage: rules-hitrate.py [SETS WAYS]... < perf-script-output",
              file=sys.stderr)
        return 2
    geometries = [(int(args[i]), int(args[i + 1]))
                  for i in range(0, len(args), 2)] or [(32, 4)]
    for sets, _ in geometries:
        if sets & (sets - 1):
            print("rules-hitrate.py: SETS must be a power of two",
                  file=sys.stderr)
            return 2
    samples = read_samples(sys.stdin)
    if not samples:
        print("rules-hitrate.py: no samples", file=sys.stderr)
        return 1
    nframes = sum(len(s) for _, s in samples)
    print(f"samples={len(samples)} frames={nframes} "
          f"frames_per_sample={nframes / len(samples):.1f}")
    for sets, ways in geometries:
        hits, frames = hit_rate(samples, sets, ways)
        print(f"sets={sets} ways={ways} rules={sets * ways} "
              f"hit={100 * hits / frames:.1f}%")
    return 0


if __name__ == '__main__':
    sys.exit(main())
