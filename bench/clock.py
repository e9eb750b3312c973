#!/usr/bin/env python3
"""Why the clock disagrees with the instruction count: one step of mjrs against MuJoCo 3.1.6 in
valgrind's cache and branch simulators, and optionally timed.

    bench/clock.py [--steps N] [--data] [--top K] [--rounds R] [--cpu C] [--f32] NAME|MODEL...

Both engines step the same MuJoCo-compiled MJB under the same control law inside callgrind
(`--cache-sim=yes --branch-sim=yes`, counting only the step function as bench/speed.py does),
with fixed caches so that the numbers do not depend on the host: L1 instruction and data caches
of 32 KiB, 8-way, 64-byte lines, and a 1 MiB 8-way last level (a core's L2 on the machines the
project is timed on). Per step, for each engine and their ratio:

  Ir     instructions
  Bc     conditional branches          Bm    mispredicted branches (conditional and indirect;
                                             valgrind's predictor, simpler than a CPU's)
  I1m    instruction fetches that miss L1      D1m   data reads and writes that miss L1
  code   KiB of distinct 64-byte code lines the step executes (when they exceed the L1
         instruction cache, every step fetches most of them again from L2)

With --data, the data side from valgrind's lackey over 7 steps (slow): distinct 64-byte data lines
one step touches, those on the thread's stack among them, and the lines beyond 8 per L1 set (64
sets), which an 8-way L1 cannot hold at once: each pass of the pipeline misses them again.
With --top K, the K functions of each engine with the most code lines executed (inlined callees
counted in their caller) and their misses per step. With --rounds R, steps per second as well:
best and median of R alternating runs of `mjrs speed` and MuJoCo's speed program pinned to CPU C
(`taskset`), with the load average before and after (timings on a shared machine vary; the
simulated counts do not).
With --f32, the f32 core (`mjrs speed --f32`, its step function `mjrs_core_f32::forward::step`)
takes mjrs's place and the exact build MuJoCo's: where the f32 core's clock trails its instruction
count against the f64 core's (issue 25: the f32 core at least as fast as the f64 core).
Needs ../shared/mjref/mjref and valgrind; builds mjrs in release first."""
import argparse
import collections
import pathlib
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import speed  # noqa: E402  (models(), run(), last_json(), the paths)

# One engine of the comparison: its label, the program and arguments before the model and after
# it (then the step count), its step function, the function `--data` finds the step's entry by,
# and the binary holding the step function (None: MuJoCo's shared library).
Engine = collections.namedtuple("Engine", "label program args step callee binary")

CACHES = ["--I1=32768,8,64", "--D1=32768,8,64", "--LL=1048576,8,64"]
COLUMNS = ["Ir", "Bc", "Bm", "I1m", "D1m", "code"]


def position(token, last):
    """An address or line of a callgrind cost line: absolute, relative (+n, -n) or repeated (*)."""
    if token == "*":
        return last
    if token[0] in "+-":
        return last + int(token)
    return int(token, 0)


def read_profile(path):
    """Per function: exclusive events (name -> value) and the executed instruction addresses,
    from a callgrind output written with --dump-instr=yes."""
    names, events, fn, last, skip = {}, [], None, 0, False
    costs = collections.defaultdict(collections.Counter)
    addrs = collections.defaultdict(set)

    def name(text):
        m = re.match(r"\((\d+)\)(?: (.*))?", text)
        if not m:
            return text
        if m.group(2):
            names[m.group(1)] = m.group(2)
        return names[m.group(1)]

    with open(path) as f:
        for line in f:
            if line.startswith("events:"):
                events = line.split()[1:]
            elif line.startswith("fn="):
                fn = name(line[3:].strip())
            elif line.startswith("cfn="):
                name(line[4:].strip())
            elif line.startswith("calls="):
                skip = True  # the next cost line is the call's inclusive cost
            elif line[:1].isdigit() or line[:1] in "+-*":
                fields = line.split()
                last = position(fields[0], last)
                if skip:
                    skip = False
                    continue
                addrs[fn].add(last)
                # fields: address, line, then one value per event
                for e, v in zip(events, fields[2:]):
                    costs[fn][e] += int(v)
    return costs, addrs


def summary(costs, addrs, steps):
    """The COLUMNS per step from one profile."""
    total = collections.Counter()
    for c in costs.values():
        total.update(c)
    lines = {a >> 6 for s in addrs.values() for a in s}
    return {
        "Ir": total["Ir"] / steps,
        "Bc": total["Bc"] / steps,
        "Bm": (total["Bcm"] + total["Bim"]) / steps,
        "I1m": total["I1mr"] / steps,
        "D1m": (total["D1mr"] + total["D1mw"]) / steps,
        "code": len(lines) * 64 / 1024,
    }


def simulate(cmd, toggle, steps, out):
    """Runs `cmd` in callgrind's simulators, counting `toggle` only."""
    speed.run(["valgrind", "--tool=callgrind", "--cache-sim=yes", "--branch-sim=yes",
               "--dump-instr=yes", *CACHES, f"--toggle-collect={toggle}",
               f"--callgrind-out-file={out}", *cmd])
    costs, addrs = read_profile(out)
    out.unlink()
    return costs, addrs, summary(costs, addrs, steps)


def entry_offset(binary, symbol):
    """The address of `symbol` (demangled, without hash) in `binary`, relative to its load address."""
    for line in speed.run(["nm", "-C", "-D" if ".so" in binary.name else "--defined-only",
                           str(binary)]).splitlines():
        fields = line.split(maxsplit=2)
        if len(fields) == 3 and fields[2] == symbol:
            return int(fields[0], 16)
    raise RuntimeError(f"{symbol} not found in {binary}")


def trace(cmd):
    """The lines of valgrind's lackey trace of `cmd` (instructions and data accesses), streamed."""
    p = subprocess.Popen(["valgrind", "--tool=lackey", "--trace-mem=yes", "--log-fd=1", *cmd],
                         stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    yield from p.stdout
    p.stdout.close()
    if p.wait():
        raise RuntimeError(f"lackey failed on {' '.join(cmd)}")


DATA_STEPS = 7  # steps traced; a count that no other instruction at the step's offset runs


def prologue(binary, addr, count=4):
    """The addresses of the first `count` instructions at `addr` in `binary` (objdump)."""
    out = speed.run(["objdump", "-d", "--no-show-raw-insn", f"--start-address={addr:#x}",
                     f"--stop-address={addr + 64:#x}", str(binary)])
    found = [int(m.group(1), 16) for m in re.finditer(r"^\s*([0-9a-f]+):\s", out, re.M)]
    return found[:count]


def data_lines(cmd, binary, symbol, callee):
    """Distinct data lines of one steady step (the second), its stack lines and the lines beyond
    8 per L1 set, from two lackey traces of DATA_STEPS steps. The first finds where the step
    starts: the instruction at `symbol`'s offset (same low 12 bits: the load address is page
    aligned) that runs exactly DATA_STEPS times, with `callee`'s entry run too at the same load
    address."""
    entry, other = entry_offset(binary, symbol), entry_offset(binary, callee)
    # other code at the same page offsets can run as often: the step's first instructions and
    # the callee's, all at one load address, single it out
    anchors = prologue(binary, entry) + prologue(binary, other)
    offsets = {x & 0xFFF for x in anchors}
    counts = collections.Counter()
    for line in trace(cmd):
        if line.startswith("I"):
            a = int(line[3:line.index(",")], 16)
            if a & 0xFFF in offsets:
                counts[a] += 1
    marks = [a for a, n in counts.items()
             if n == DATA_STEPS and (a - entry) & 0xFFF == 0
             and all(counts[a - entry + x] for x in anchors)]
    if len(marks) != 1:
        raise RuntimeError(f"cannot find the entry of {symbol} in the trace "
                           f"({len(marks)} candidate load addresses)")
    mark = f"{marks[0]:08x}"
    step, lines = -1, set()
    for line in trace(cmd):
        if line.startswith("I"):
            if line[3:line.index(",")] == mark:
                step += 1
        elif step == 1 and line[:2] in (" S", " L", " M"):
            lines.add(int(line.split()[1].split(",")[0], 16) >> 6)
    per_set = collections.Counter(line & 63 for line in lines)
    # the client stack is at the top of the user address space (above 64 GiB) under valgrind
    stack = sum(1 for line in lines if line << 6 >= 1 << 36)
    return len(lines), stack, sum(max(0, n - 8) for n in per_set.values())


def short(fn):
    """A function name without paths, generic arguments and hashes."""
    fn = re.sub(r"::h[0-9a-f]{16}$", "", fn.split(" [")[0].strip())
    fn = re.sub(r"\.llvm\.\d+$", "", fn)
    return re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", fn))


def top_functions(costs, addrs, steps, k):
    """Rows of the k functions with the most executed code lines."""
    rows = []
    for fn, s in addrs.items():
        c = costs[fn]
        rows.append((len({a >> 6 for a in s}), short(fn), c["Ir"] / steps,
                     c["I1mr"] / steps, (c["D1mr"] + c["D1mw"]) / steps,
                     (c["Bcm"] + c["Bim"]) / steps))
    rows.sort(reverse=True)
    return [f"  {n:>5} lines {ir:>9.0f} Ir {i1:>7.1f} I1m {d1:>6.1f} D1m {bm:>6.1f} Bm  {fn[:70]}"
            for n, fn, ir, i1, d1, bm in rows[:k]]


def timed(cmds, rounds, cpu):
    """Steps per second of each command: R alternating runs pinned to `cpu`, best and median."""
    pin = ["taskset", "-c", str(cpu)] if shutil.which("taskset") else []
    rates = [[] for _ in cmds]
    for _ in range(rounds):
        for i, cmd in enumerate(cmds):
            rates[i].append(speed.last_json(speed.run(pin + cmd))["steps_per_second"])
    return [(max(r), statistics.median(r)) for r in rates]


def mujoco_lib():
    """MuJoCo's shared library in mjref's environment."""
    lib = speed.run([str(speed.MJREF_HOME / "venv" / "bin" / "python"), "-c",
                     "import mujoco, os; print(os.path.dirname(mujoco.__file__))"]).strip()
    return next(pathlib.Path(lib).glob("libmujoco.so.*"))


def load():
    return " ".join(pathlib.Path("/proc/loadavg").read_text().split()[:3]) \
        if pathlib.Path("/proc/loadavg").exists() else "?"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("models", nargs="+", metavar="NAME|MODEL")
    ap.add_argument("--steps", type=int, default=300, help="steps in the simulators (default 300)")
    ap.add_argument("--data", action="store_true", help="also the data lines of a step (lackey, slow)")
    ap.add_argument("--top", type=int, default=0, help="list the K functions with the most code lines")
    ap.add_argument("--rounds", type=int, default=0, help="also time R alternating rounds")
    ap.add_argument("--cpu", type=int, default=1, help="the CPU the timed runs are pinned to")
    ap.add_argument("--f32", action="store_true", help="the f32 core against the exact (f64) build")
    a = ap.parse_args()
    known = {name: (xml, steps) for name, xml, steps in speed.models()}
    mjrs = speed.build_mjrs()
    speed.run([str(speed.MJREF), "setup"])
    ref_bin = speed.MJREF_HOME / "speed"
    print(f"per step; L1 32 KiB 8-way, LL 1 MiB 8-way; {a.steps} steps simulated")
    # the engine measured, then the one it is measured against
    exact = Engine("exact", [str(mjrs), "speed"], ["--steps"], speed.STEP_EXACT,
                   "mjrs_core::forward::forward_stages", mjrs)
    if a.f32:
        engines = (Engine("f32", [str(mjrs), "speed"], ["--f32", "--steps"], speed.STEP_F32,
                          "mjrs_core_f32::forward::forward_stages", mjrs), exact)
    else:
        engines = (exact._replace(label="mjrs"),
                   Engine("MuJoCo", [str(ref_bin)], [], speed.STEP_MUJOCO, "mj_forwardSkip", None))
    print(f"{'model':<22} {'engine':<7}" + "".join(f"{c:>10}" for c in COLUMNS))
    with tempfile.TemporaryDirectory() as tmp:
        tmp = pathlib.Path(tmp)
        for model in a.models:
            xml, timed_steps = known.get(model, (pathlib.Path(model), 2000))
            mjb = tmp / "m.mjb"
            speed.run([str(speed.MJREF), "mjb", str(xml), "-o", str(mjb)])
            def command(engine, steps):
                return engine.program + [str(mjb)] + engine.args + [str(steps)]
            ours, ref = (simulate(command(e, a.steps), e.step, a.steps, tmp / f"cg.{e.label}")
                         for e in engines)
            for label, s in ((engines[0].label, ours[2]), (engines[1].label, ref[2])):
                print(f"{model:<22} {label:<7}" + "".join(f"{s[c]:>10.1f}" for c in COLUMNS))
            print(f"{model:<22} {'ratio':<7}" + "".join(
                f"{ours[2][c] / ref[2][c] if ref[2][c] else float('nan'):>10.2f}" for c in COLUMNS))
            if a.data:
                for e in engines:
                    binary = e.binary or mujoco_lib()
                    n, stack, over = data_lines(command(e, DATA_STEPS), binary, e.step, e.callee)
                    print(f"  {e.label}: {n} data lines per step ({n * 64 / 1024:.1f} KiB), {stack} on"
                          f" the stack, {over} beyond 8 ways of an L1 set")
            if a.top:
                for label, (costs, addrs, _) in ((engines[0].label, ours), (engines[1].label, ref)):
                    print(f"  {label}: functions with the most code lines executed per step")
                    print("\n".join(top_functions(costs, addrs, a.steps, a.top)))
            if a.rounds:
                before = load()
                (best, med), (rbest, rmed) = timed([command(e, timed_steps) for e in engines],
                                                   a.rounds, a.cpu)
                mine, theirs = (e.label for e in engines)
                print(f"{model:<22} steps/s {mine} {best:.0f} (median {med:.0f}), {theirs} {rbest:.0f}"
                      f" (median {rmed:.0f}): best {best / rbest:.3f}, median {med / rmed:.3f};"
                      f" load {before} -> {load()}")
            sys.stdout.flush()


if __name__ == "__main__":
    sys.exit(main())
