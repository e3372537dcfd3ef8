"""How fast a Python loop steps a network one tick at a time (emu.Network.step(1)).

    python tools/step-rate.py [TOPOLOGY] [LOAD] [TICKS]

Every terminal sends 32-byte messages to uniformly random others as Bernoulli arrivals
at LOAD (a fraction of one link's data capacity, as `injection.load` is: one message
every 320 / LOAD ticks per terminal), drawn before the loop; the loop sends each at
its tick and calls net.step(1). Prints ticks per second for that loop and, to tell
where the time goes: the bare Python loop, a loop of the cheapest extension call
(reading net.tick), of step(0) (the engine entered, nothing run) and of step(1) with
nothing sent (an idle network).
"""

import random
import sys
import time

import emu

topology = sys.argv[1] if len(sys.argv) > 1 else "hypercube6"
load = float(sys.argv[2]) if len(sys.argv) > 2 else 0.01
ticks = int(sys.argv[3]) if len(sys.argv) > 3 else 500_000

net = emu.Network(topology, seed=1)
n = net.terminals
rng = random.Random(1)
p = load / (10 * 32)
sends = {}
for src in range(n):
    t = 0
    while True:
        t += 1 + int(rng.expovariate(1.0) / -__import__("math").log1p(-p))
        if t >= ticks:
            break
        dst = rng.randrange(n - 1)
        sends.setdefault(t, []).append((src, dst + (dst >= src)))


def rate(loop):
    start = time.perf_counter()
    loop()
    return ticks / (time.perf_counter() - start)


def loaded():
    step, send, get = net.step, net.send, sends.get
    for t in range(ticks):
        for src, dst in get(t, ()):
            send(src, dst, 32)
        step(1)


def bare():
    get = sends.get
    for t in range(ticks):
        for _ in get(t, ()):
            pass


def getter():
    raw = net._net
    for _ in range(ticks):
        raw.tick


def step0():
    step = net._net.step
    for _ in range(ticks):
        step(0)


def idle():
    other = emu.Network(topology, seed=1)
    step = other.step
    for _ in range(ticks):
        step(1)


rows = [
    ("step(1) with sends, load %g" % load, rate(loaded)),
    ("bare Python loop", rate(bare)),
    ("net._net.tick (FFI floor)", rate(getter)),
    ("net._net.step(0)", rate(step0)),
    ("step(1), nothing sent", rate(idle)),
]
a = net.activity()
print(f"{topology}, {ticks} ticks, {a['messages_delivered']} of {a['messages_created']} messages delivered")
for name, r in rows:
    print(f"{name:34} {r:>12,.0f} calls/s  {1e9 / r:8.0f} ns/call")
