"""Small CPython benchmarks in the manner of pyperformance, for
scripts/bench-cpython, which runs them on the frame-pointer and the
FP-less CPython of scripts/rebuild-packages.  They are written here, not
taken from pyperformance (which is not packaged for Debian 12); each
exercises what its pyperformance namesake does:

  richards     a simplified operating-system task scheduler (method
               calls, attribute access, small objects)
  nbody        floating-point arithmetic on lists, no allocation
  float        many small float objects and method calls
  json_dumps   the _json encoder
  json_loads   the _json decoder
  regex        the _sre engine on varied patterns
  sqlite       _sqlite3 and libsqlite3: inserts, an index, aggregates
  generators   generator frames and yield
  unpickle     the _pickle extension module

Usage: python3 cpython-bench.py NAME [LOOPS]
Runs NAME LOOPS times (default 1) and prints a checksum, which must be
the same in both builds.
"""

import sys


# --- richards: tasks pass packets round a scheduler ---------------------

class Packet:
    __slots__ = ("link", "dest", "kind", "count", "data")

    def __init__(self, link, dest, kind):
        self.link, self.dest, self.kind, self.count = link, dest, kind, 0
        self.data = [0] * 4


class Task:
    def __init__(self, sched, ident, prio, queue):
        self.sched, self.ident, self.prio, self.queue = sched, ident, prio, queue
        self.waiting = queue is None
        self.held = False
        self.value = 0

    def runnable(self):
        return not self.held and not self.waiting

    def take(self):
        p = self.queue
        if p is None:
            return None
        self.queue = p.link
        p.link = None
        if self.queue is None:
            self.waiting = True
        return p

    def give(self, p):
        p.link = None
        if self.queue is None:
            self.queue = p
        else:
            q = self.queue
            while q.link is not None:
                q = q.link
            q.link = p
        self.waiting = False


class Worker(Task):
    def step(self):
        p = self.take()
        if p is None:
            return
        self.value = 3 - self.value if self.value else 1
        p.dest = self.value
        for i in range(4):
            p.data[i] = (p.count + i) % 26
        p.count += 1
        self.sched.send(p, 2 + self.value % 2)


class Handler(Task):
    def step(self):
        p = self.take()
        if p is None:
            return
        self.value += sum(p.data)
        self.sched.send(p, 4 if p.count % 3 else 1)


class Device(Task):
    def step(self):
        p = self.take()
        if p is None:
            return
        self.sched.count += 1
        self.sched.send(p, 1)


class Scheduler:
    def __init__(self):
        self.tasks = {}
        self.count = 0

    def send(self, p, ident):
        self.tasks[ident].give(p)

    def run(self, steps):
        order = sorted(self.tasks.values(), key=lambda t: -t.prio)
        for _ in range(steps):
            for t in order:
                if t.runnable():
                    t.step()


def richards():
    s = Scheduler()
    s.tasks[1] = Worker(s, 1, 1, None)
    s.tasks[2] = Handler(s, 2, 2, None)
    s.tasks[3] = Handler(s, 3, 3, None)
    s.tasks[4] = Device(s, 4, 4, None)
    for i in range(6):
        s.send(Packet(None, 1, i % 2), 1)
    s.run(6000)
    return s.count + sum(t.value for t in s.tasks.values())


# --- nbody ----------------------------------------------------------------

def nbody():
    bodies = [[0.0, 0.0, 0.0, 0.0, 0.0, 0.0, 39.47],
              [4.84, -1.16, -0.10, 0.606, 2.81, -0.02, 0.037],
              [8.34, 4.12, -0.40, -1.01, 1.82, 0.008, 0.011],
              [12.89, -15.11, -0.22, 1.08, 0.868, -0.01, 0.0017],
              [15.37, -25.91, 0.179, 0.979, 0.594, -0.034, 0.002]]
    pairs = [(bodies[i], bodies[j]) for i in range(5) for j in range(i + 1, 5)]
    dt = 0.01
    for _ in range(8000):
        for (a, b) in pairs:
            dx, dy, dz = a[0] - b[0], a[1] - b[1], a[2] - b[2]
            mag = dt * ((dx * dx + dy * dy + dz * dz) ** -1.5)
            bm, am = b[6] * mag, a[6] * mag
            a[3] -= dx * bm
            a[4] -= dy * bm
            a[5] -= dz * bm
            b[3] += dx * am
            b[4] += dy * am
            b[5] += dz * am
        for b in bodies:
            b[0] += dt * b[3]
            b[1] += dt * b[4]
            b[2] += dt * b[5]
    return int(sum(abs(b[0]) + abs(b[1]) for b in bodies) * 1000)


# --- float ----------------------------------------------------------------

class Point:
    __slots__ = ("x", "y", "z")

    def __init__(self, i):
        import math
        self.x = x = math.sin(i)
        self.y = math.cos(i) * 3
        self.z = (x * x) / 2

    def normalize(self):
        n = (self.x * self.x + self.y * self.y + self.z * self.z) ** 0.5
        self.x /= n
        self.y /= n
        self.z /= n

    def maximize(self, other):
        self.x = max(self.x, other.x)
        self.y = max(self.y, other.y)
        self.z = max(self.z, other.z)
        return self


def float_():
    pts = [Point(i) for i in range(40000)]
    for p in pts:
        p.normalize()
    m = pts[0]
    for p in pts[1:]:
        m = m.maximize(p)
    return int((m.x + m.y + m.z) * 1e6)


# --- json -----------------------------------------------------------------

def json_doc():
    return {"users": [{"id": i, "name": "user %d" % i, "email": "u%d@example.org" % i,
                       "active": i % 3 == 0, "score": i * 0.75,
                       "tags": ["t%d" % (i % 7), "x" * (i % 5)],
                       "nested": {"a": [1, 2, 3], "b": None, "c": "\u00e9t\u00e9"}}
                      for i in range(400)]}


def json_dumps():
    import json
    doc = json_doc()
    return sum(len(json.dumps(doc)) for _ in range(30))


def json_loads():
    import json
    s = json.dumps(json_doc())
    return sum(len(json.loads(s)["users"]) for _ in range(30))


# --- regex ----------------------------------------------------------------

def regex():
    import re
    text = " ".join("user%d@host%d.example.org 2026-%02d-%02d ERROR code=%d"
                    % (i, i % 13, i % 12 + 1, i % 28 + 1, i * 7 % 1000) for i in range(3000))
    pats = [re.compile(p) for p in (r"[\w.]+@[\w.]+\.org", r"\d{4}-\d{2}-\d{2}",
                                    r"code=(\d+)", r"(ERROR|WARN)\s+code=9\d\d",
                                    r"host(1[0-2]|[3-5])\.")]
    total = 0
    for _ in range(3):
        for p in pats:
            total += len(p.findall(text))
        total += len(re.sub(r"\d", "#", text))
    return total


# --- sqlite ---------------------------------------------------------------

def sqlite():
    import sqlite3
    con = sqlite3.connect(":memory:")
    con.execute("create table t (id integer primary key, k text, v real, w text)")
    con.executemany("insert into t (k, v, w) values (?, ?, ?)",
                    (("k%d" % (i % 300), i * 1.5, "w%d" % (i * 31 % 1000)) for i in range(20000)))
    con.execute("create index tk on t (k)")
    total = 0
    for _ in range(5):
        total += int(sum(r[1] for r in con.execute(
            "select k, avg(v) from t group by k order by k")))
        total += con.execute("select count(*) from t where w like 'w1%' and v > 100").fetchone()[0]
    con.close()
    return total


# --- generators -----------------------------------------------------------

def generators():
    def tree(n):
        if n:
            yield from tree(n - 1)
            yield n
            yield from tree(n - 1)

    def pipeline(it):
        for x in it:
            if x % 2:
                yield x * 3

    return sum(pipeline(tree(17)))


# --- unpickle -------------------------------------------------------------

def unpickle():
    import pickle
    data = pickle.dumps([{"a": i, "b": [str(i)] * 3, "c": (i, i * 2.5, None)}
                         for i in range(3000)], protocol=5)
    return sum(len(pickle.loads(data)) for _ in range(40))


BENCHES = {"richards": richards, "nbody": nbody, "float": float_,
           "json_dumps": json_dumps, "json_loads": json_loads, "regex": regex,
           "sqlite": sqlite, "generators": generators, "unpickle": unpickle}

if __name__ == "__main__":
    if len(sys.argv) not in (2, 3) or sys.argv[1] not in BENCHES:
        sys.exit("usage: cpython-bench.py {%s} [LOOPS]" % ",".join(BENCHES))
    loops = int(sys.argv[2]) if len(sys.argv) == 3 else 1
    fn = BENCHES[sys.argv[1]]
    r = 0
    for _ in range(loops):
        r = fn()
    print(sys.argv[1], r)
