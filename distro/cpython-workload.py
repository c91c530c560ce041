"""A few seconds of what CPython programs spend their time on, for
`scripts/profile-app cpython`: each phase crosses a different set of objects.

  pure      the interpreter loop alone (libpython)
  json      the _json extension module
  zlib      zlib.so into libz
  sqlite3   _sqlite3.so into libsqlite3
  decimal   _decimal.so with its bundled libmpdec
  re        the _sre module
  ctypes    _ctypes.so into libffi and back: qsort from libc calling a
            Python comparison function through a libffi closure
  threads   a pool of 4 threads compressing and encoding at once
  late      xml.etree, imported only now: pyexpat.so dlopened mid-run

Usage: python3 cpython-workload.py [SCALE]
SCALE (default 1) multiplies the work of every phase.  Prints one line
per phase with its name and a checksum, so that a run that did not do
the work is seen.
"""

import ctypes
import importlib
import sys
import threading
from concurrent.futures import ThreadPoolExecutor

SCALE = float(sys.argv[1]) if len(sys.argv) > 1 else 1.0


def n(base):
    return max(1, int(base * SCALE))


def pure():
    def fib(k):
        return k if k < 2 else fib(k - 1) + fib(k - 2)

    total = 0
    for i in range(n(12)):
        total += fib(18)
        total += sum(x * x for x in range(2000) if x % 3)
    return total


def do_json():
    import json

    doc = {"items": [{"id": i, "name": "item%d" % i, "tags": ["a", "b", "c"],
                      "price": i * 1.25, "ok": i % 2 == 0} for i in range(300)]}
    total = 0
    for _ in range(n(25)):
        total += len(json.loads(json.dumps(doc))["items"])
    return total


def text(size):
    words = ["sframe", "unwind", "kernel", "perf", "stack", "frame", "pointer"]
    return " ".join(words[(i * 7) % len(words)] + str(i % 97)
                    for i in range(size)).encode()


def do_zlib():
    import zlib

    data = text(40000)
    total = 0
    for level in (1, 6, 9):
        for _ in range(n(3)):
            c = zlib.compress(data, level)
            total += len(zlib.decompress(c)) + len(c)
    return total


def do_sqlite3():
    import sqlite3

    con = sqlite3.connect(":memory:")
    con.execute("create table t (id integer primary key, k text, v real)")
    con.executemany("insert into t (k, v) values (?, ?)",
                    (("key%d" % (i % 200), i * 0.5) for i in range(n(15000))))
    con.execute("create index tk on t (k)")
    total = 0
    for _ in range(n(4)):
        for k, s in con.execute("select k, sum(v) from t group by k order by 2 desc"):
            total += int(s)
        total += con.execute("select count(*) from t where k like 'key1%'").fetchone()[0]
    con.close()
    return total


def do_decimal():
    import decimal

    ctx = decimal.getcontext()
    ctx.prec = 60
    total = decimal.Decimal(0)
    for i in range(1, n(6000)):
        total += decimal.Decimal(1) / decimal.Decimal(i) * decimal.Decimal(i).sqrt()
    return int(total)


def do_re():
    import re

    s = text(20000).decode()
    pat = re.compile(r"(s\w+|p\w+)(\d+)")
    total = 0
    for _ in range(n(6)):
        total += sum(int(m.group(2)) for m in pat.finditer(s))
        total += len(re.sub(r"\d+", "#", s))
    return total


def do_ctypes():
    libc = ctypes.CDLL(None)
    cmp_t = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.POINTER(ctypes.c_int),
                             ctypes.POINTER(ctypes.c_int))

    def cmp(a, b):
        return a[0] - b[0]

    total = 0
    for r in range(n(4)):
        arr = (ctypes.c_int * 3000)(*[(i * 7919 + r) % 3001 for i in range(3000)])
        libc.qsort(arr, len(arr), ctypes.sizeof(ctypes.c_int), cmp_t(cmp))
        total += arr[0] + arr[-1]
    return total


def do_threads():
    import json
    import zlib

    data = text(20000)

    def task(i):
        c = zlib.compress(data + str(i).encode(), 6)
        return len(c) + len(json.dumps([i] * 2000))

    with ThreadPoolExecutor(max_workers=4) as pool:
        return sum(pool.map(task, range(n(24))))


def do_late():
    # Imported here, long after startup: pyexpat.so is dlopened now.
    et = importlib.import_module("xml.etree.ElementTree")
    doc = "<r>" + "".join('<i n="%d">x%d</i>' % (i, i) for i in range(500)) + "</r>"
    total = 0
    for _ in range(n(12)):
        total += sum(int(e.get("n")) for e in et.fromstring(doc))
    return total


PHASES = [("pure", pure), ("json", do_json), ("zlib", do_zlib),
          ("sqlite3", do_sqlite3), ("decimal", do_decimal), ("re", do_re),
          ("ctypes", do_ctypes), ("threads", do_threads), ("late", do_late)]

if __name__ == "__main__":
    assert threading.active_count() == 1
    for name, fn in PHASES:
        print(name, fn(), flush=True)
