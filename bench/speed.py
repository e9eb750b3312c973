#!/usr/bin/env python3
"""mjrs against MuJoCo 3.1.6, steps per second and instructions per step, on the models of
bench/models.txt (or those named), with the same MJB (compiled by MuJoCo) and the same control
law, measured back to back in one run.

    bench/speed.py [--rounds R] [--cg-steps N] [--no-callgrind] [--f32] [NAME...]
    bench/speed.py --table [--note TEXT] [--steps-scale F] [--threads 1,2,4]
                   [--rollout-batch N] [--rollout-steps H] [--rounds R] [--cg-steps N] [NAME...]

--table prints one Markdown table with the machine and the date: per model the exact (f64)
build, the f32 core, the opt-in fast build (feature `fast`, RUSTFLAGS from MJRS_FAST_RUSTFLAGS,
default "-C target-cpu=x86-64-v3" on x86-64; built in the subdirectory `fast` of the target directory) and
MuJoCo, in steps per second and instructions per step, the bytes of one Data, and batch
rollouts (`mjrs rollout` against MuJoCo's `mujoco.rollout.rollout` on as many Python threads,
bench/rollout_mujoco.py) on 1, 2, 4, ... threads (default: powers of two up to the cores).
--steps-scale scales every model's step count (0.1 for a quick look).

Steps per second: best of R rounds (default 3) of `mjrs speed` and `mjref speed`, alternating.
In --table the rounds are interleaved (one run of exact, f32, fast and MuJoCo per round, so that
a slow spell of a shared machine falls on all four) and --median reports each build's median
round instead of its best; --cpu C pins the timed runs to CPU C (taskset).
Instructions per step: valgrind's callgrind over N steps (default 200), counting only the step
function (`mjrs_core::forward::step`, `mj_step`), which machine noise does not move.
With --f32 also the f32 core's steps per second, instructions per step
(`mjrs_core_f32::forward::step`), and the work counters of both cores (mean contacts and
solver iterations per step over the timed steps), where rounding below f32 resolution would
show as more work.
Memory: KiB of one Data of mjrs (the struct, its arrays and arena) and its difference in bytes
from MuJoCo's (sizeof(mjData) + nbuffer + narena, from bench/mjdata_bytes.c built against the
wheel's headers); negative is smaller.
Needs ../shared/mjref/mjref (MuJoCo from PyPI) and valgrind; builds mjrs in release first."""
import argparse
import datetime
import json
import os
import pathlib
import platform
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MJREF = pathlib.Path(os.environ.get("MJREF", ROOT.parent / "shared" / "mjref" / "mjref"))
MJREF_HOME = pathlib.Path(os.environ.get("MJREF_HOME", pathlib.Path.home() / ".cache" / "mjref"))
# the step function each build is counted in (callgrind's --toggle-collect)
# (step_skip: `step` may compile to a bare jump into it, which callgrind counts as one instruction)
STEP_EXACT, STEP_F32, STEP_MUJOCO = (
    "mjrs_core::forward::step_skip", "mjrs_core_f32::forward::step_skip", "mj_step")


def models():
    out = []
    for line in (ROOT / "bench" / "models.txt").read_text().splitlines():
        line = line.split("#")[0].split()
        if line:
            out.append((line[0], ROOT / line[1], int(line[2])))
    return out


def last_json(text):
    return json.loads(text.strip().splitlines()[-1])


def run(cmd, env=None):
    p = subprocess.run([str(c) for c in cmd], capture_output=True, text=True, env=env)
    if p.returncode:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: {p.stderr.strip() or p.stdout.strip()}")
    return p.stdout


def callgrind(cmd, toggle, steps, tmp):
    out = pathlib.Path(tmp) / "cg.out"
    p = subprocess.run(["valgrind", "--tool=callgrind", f"--toggle-collect={toggle}",
                        f"--callgrind-out-file={out}", *map(str, cmd)],
                       capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(valgrind_failure(p.stderr) or p.stderr.strip() or p.stdout.strip())
    total = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.M)
    out.unlink()
    return int(total.group(1)) / steps


def valgrind_failure(stderr):
    """What stopped a run under valgrind when valgrind's own instruction decoder did (not the
    program): its version, the bytes it could not decode and the function they are in. Valgrind
    3.19's decoder lacks the register form of VEX `vmovq` (C5 79 D6 /r), which LLVM emits in
    x86-64-v3 builds where it saves a prefix byte: the fast build's run on the cloth stopped at
    its first sphere-triangle contact although the program runs (issue 25)."""
    bytes_ = re.search(r"unhandled instruction bytes: ((?:0x[0-9A-Fa-f]+ ?){1,4})", stderr)
    if not bytes_:
        return None
    where = re.search(r"Illegal opcode at address \S+\s+==\d+==\s+at \S+: (\S+)", stderr)
    version = subprocess.run(["valgrind", "--version"], capture_output=True, text=True).stdout.strip()
    return (f"{version} cannot decode the instruction at {bytes_.group(1).strip()} ..."
            f"{' in ' + where.group(1) if where else ''} (a limit of valgrind, not a failure of the program)")


def mjdata_bytes_bin(tmp, lib=None):
    """bench/mjdata_bytes.c built against the MuJoCo wheel in `lib` (default: the one mjref
    installed)."""
    if lib is None:
        lib = run([str(MJREF_HOME / "venv" / "bin" / "python"), "-c",
                   "import mujoco, os; print(os.path.dirname(mujoco.__file__))"]).strip()
    out = pathlib.Path(tmp) / "mjdata_bytes"
    run(["cc", "-O2", str(ROOT / "bench" / "mjdata_bytes.c"), f"-I{lib}/include", f"-L{lib}",
         "-l:libmujoco.so.3.1.6", f"-Wl,-rpath,{lib}", "-o", str(out)])
    return out


def fast_flags():
    """The RUSTFLAGS of the fast build: MJRS_FAST_RUSTFLAGS, by default on x86-64 the level
    x86-64-v3 (AVX2 and FMA, which the exact build's .cargo/config.toml leaves out: it asks for
    AVX only, as MuJoCo's build), else this machine's CPU. Not AVX-512: valgrind cannot count it."""
    default = "-C target-cpu=x86-64-v3" if platform.machine() in ("x86_64", "AMD64") else "-C target-cpu=native"
    return os.environ.get("MJRS_FAST_RUSTFLAGS", default)


def build_mjrs(fast=False):
    """The release `mjrs` binary, built first; with `fast`, the opt-in fast build (feature
    `fast`, `fast_flags()`), in the subdirectory `fast` of the target directory so that the
    two builds do not replace each other."""
    target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    if not target.is_absolute():
        target = ROOT / target
    cmd, env = ["cargo", "build", "--release", "-q", "--bin", "mjrs"], dict(os.environ)
    if fast:
        target = target / "fast"
        cmd += ["--features", "fast", "--target-dir", str(target)]
        env["RUSTFLAGS"] = fast_flags()
    subprocess.run(cmd, cwd=ROOT, check=True, env=env)
    return target / "release" / "mjrs"


def machine():
    """One line naming the machine: CPU model, cores, memory, OS."""
    cpu, mem = platform.processor() or platform.machine(), ""
    try:
        info = pathlib.Path("/proc/cpuinfo").read_text()
        cpu = re.search(r"^model name\s*:\s*(.*)$", info, re.M).group(1).strip()
        kib = int(re.search(r"^MemTotal:\s*(\d+)", pathlib.Path("/proc/meminfo").read_text(), re.M).group(1))
        mem = f", {kib / 1024 / 1024:.0f} GiB"
    except (OSError, AttributeError):
        pass
    return f"{cpu}, {os.cpu_count()} cores{mem}, {platform.system()} {platform.release()}"


def best(times, cmd):
    """Best steps per second of `times` runs of a command printing mjref's speed JSON."""
    return max(last_json(run(cmd))["steps_per_second"] for _ in range(times))


def interleaved(times, cmds, reduce, cpu=None):
    """Steps per second of each of `cmds` (name -> command) over `times` rounds of one run each,
    in turn, so that a slow spell of a shared machine falls on every command alike, each pinned
    to CPU `cpu` if given; `reduce` (max or statistics.median) of each command's runs, or the
    RuntimeError that stopped it."""
    pin = [] if cpu is None else ["taskset", "-c", str(cpu)]
    runs = {k: [] for k in cmds}
    failed = {}
    for _ in range(times):
        for k, cmd in cmds.items():
            if k in failed:
                continue
            try:
                runs[k].append(last_json(run(pin + cmd))["steps_per_second"])
            except RuntimeError as e:
                failed[k] = e
    return {k: failed[k] if k in failed else reduce(v) for k, v in runs.items()}


def value_or_raise(v):
    """A value of `interleaved`, raising the error it stands for."""
    if isinstance(v, RuntimeError):
        raise v
    return v


class Cell:
    """One measurement of the table, or why it is missing (kept for the notes under it)."""

    notes = []

    def __init__(self, fn):
        try:
            self.value, self.error = fn(), None
        except RuntimeError as e:
            self.value, self.error = None, str(e).splitlines()[-1][:200]
            Cell.notes.append(self.error)

    def fmt(self, spec):
        if self.value is None:
            return f"fails [{Cell.notes.index(self.error) + 1}]"
        return format(self.value, spec)


def rate(x):
    """Steps per second, short: 812, 12.3k, 1.25M."""
    if x >= 1e6:
        return f"{x / 1e6:.2f}M"
    return f"{x / 1e3:.1f}k" if x >= 1e4 else f"{x:.0f}"


def ratio(a, b):
    return f"{a.value / b.value:.2f}" if a.value and b.value else "—"


def table(a):
    """The one table of issue 25: every build against MuJoCo on every chosen model."""
    mjrs, mjrs_fast = build_mjrs(), build_mjrs(fast=True)
    run([str(MJREF), "setup"])
    speed_bin, python = MJREF_HOME / "speed", MJREF_HOME / "venv" / "bin" / "python"
    cg = shutil.which("valgrind") and not a.no_callgrind
    cores = os.cpu_count() or 1
    threads = [int(t) for t in a.threads.split(",")] if a.threads else \
        [1 << k for k in range(cores.bit_length()) if 1 << k <= cores]
    chosen = [m for m in models() if not a.names or m[0] in a.names]
    commit = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h %cs"],
                            capture_output=True, text=True).stdout.strip()
    print(f"mjrs {commit} against MuJoCo 3.1.6; {datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC")
    print(f"machine: {machine()}")
    print(f"fast build: RUSTFLAGS=\"{fast_flags()}\" --features fast")
    if a.note:
        print(f"conditions: {a.note}")
    stat = "median" if a.median else "best"
    pinned = "" if a.cpu is None else f", pinned to CPU {a.cpu}"
    print(f"steps/s: {stat} of {a.rounds} interleaved rounds{pinned} (steps per model: bench/models.txt x {a.steps_scale:g});"
          f" Ki/step: callgrind, {a.cg_steps} steps, the step function only;"
          f" rollouts: {a.rollout_batch} rollouts x {a.rollout_steps} steps, total steps/s mjrs / MuJoCo\n")
    head = ["model", "exact/s", "f32/s", "fast/s", "MuJoCo/s", "exact÷MuJoCo", "f32÷exact", "fast÷MuJoCo",
            "exact Ki/step", "f32 Ki/step", "fast Ki/step", "MuJoCo Ki/step", "MuJoCo÷exact Ki",
            "MuJoCo÷fast Ki",
            "Data KiB", "vs mjData B"] + [f"rollout {t} thr" for t in threads]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join([" --- "] + [" ---: "] * (len(head) - 1)) + "|", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        mjdata_bytes = mjdata_bytes_bin(tmp)
        for name, xml, steps in chosen:
            mjb = pathlib.Path(tmp) / f"{name}.mjb"
            run([str(MJREF), "mjb", str(xml), "-o", str(mjb)])
            n = max(1, round(steps * a.steps_scale))
            ours = [str(mjrs), "speed", str(mjb), "--steps", str(n)]
            rates = interleaved(a.rounds, {
                "exact": ours,
                "f32": ours + ["--f32"],
                "fast": [str(mjrs_fast)] + ours[1:],
                "ref": [str(speed_bin), str(mjb), str(n)],
            }, statistics.median if a.median else max, a.cpu)
            exact = Cell(lambda: value_or_raise(rates["exact"]))
            narrow = Cell(lambda: value_or_raise(rates["f32"]))
            quick = Cell(lambda: value_or_raise(rates["fast"]))
            ref = Cell(lambda: value_or_raise(rates["ref"]))
            row = [name, exact.fmt(".0f"), narrow.fmt(".0f"), quick.fmt(".0f"), ref.fmt(".0f"),
                   ratio(exact, ref), ratio(narrow, exact), ratio(quick, ref)]
            if cg:
                k = min(a.cg_steps, n)
                few = [str(mjrs), "speed", str(mjb), "--steps", str(k)]
                ki = Cell(lambda: callgrind(few, STEP_EXACT, k, tmp) / 1000)
                ki32 = Cell(lambda: callgrind(few + ["--f32"], STEP_F32, k, tmp) / 1000)
                kfast = Cell(lambda: callgrind([str(mjrs_fast)] + few[1:], STEP_EXACT, k, tmp) / 1000)
                kref = Cell(lambda: callgrind([str(speed_bin), str(mjb), str(k)], STEP_MUJOCO, k, tmp) / 1000)
                row += [ki.fmt(".1f"), ki32.fmt(".1f"), kfast.fmt(".1f"), kref.fmt(".1f"),
                        ratio(kref, ki), ratio(kref, kfast)]
            else:
                row += ["(no valgrind)"] * 4 + ["—"] * 2
            data = Cell(lambda: last_json(run(ours[:-1] + ["1"]))["data_bytes"])
            theirs = Cell(lambda: last_json(run([str(mjdata_bytes), str(mjb)]))["data_bytes"])
            row += [f"{data.value / 1024:.1f}" if data.value else data.fmt(""),
                    f"{data.value - theirs.value:+d}" if data.value and theirs.value else theirs.fmt("")]
            for t in threads:
                batch = ["--batch", str(a.rollout_batch), "--steps", str(a.rollout_steps), "--threads", str(t)]
                mine = Cell(lambda: best(a.rounds, [str(mjrs), "rollout", str(mjb), *batch]))
                theirs = Cell(lambda: best(a.rounds, [str(python), str(ROOT / "bench" / "rollout_mujoco.py"), str(mjb), *batch]))
                row.append(f"{rate(mine.value) if mine.value else mine.fmt('')} / "
                           f"{rate(theirs.value) if theirs.value else theirs.fmt('')}")
            print("| " + " | ".join(row) + " |", flush=True)
    print("\nexact: the default build (bit for bit with MuJoCo); f32: mjrs-core-f32 (`mjrs speed --f32`);"
          " fast: the opt-in fast build of issue 25 (feature `fast`: fused multiply-adds, reordered"
          " reductions; its accuracy: bench/fast_accuracy.py). Callgrind counts the fast build's"
          " instructions on this CPU's instruction set (wider vectors: fewer instructions).")
    for i, note in enumerate(Cell.notes):
        print(f"[{i + 1}] {note}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cg-steps", type=int, default=200)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--f32", action="store_true", help="also time mjrs's f32 build")
    ap.add_argument("--table", action="store_true", help="the one table: every build, rollouts, machine")
    ap.add_argument("--note", help="--table: conditions to print with the table (load, power)")
    ap.add_argument("--steps-scale", type=float, default=1.0, help="--table: scale the step counts")
    ap.add_argument("--cpu", type=int,
                    help="--table: pin the timed runs to this CPU (taskset): unpinned runs on a "
                    "2-core VM moved 10-30%% from round to round")
    ap.add_argument("--median", action="store_true",
                    help="--table: the median of the interleaved rounds instead of the best")
    ap.add_argument("--threads", help="--table: rollout thread counts, e.g. 1,2,4")
    ap.add_argument("--rollout-batch", type=int, default=32)
    ap.add_argument("--rollout-steps", type=int, default=200)
    a = ap.parse_args()
    unknown = set(a.names) - {m[0] for m in models()}
    if unknown:
        ap.error(f"not in bench/models.txt: {', '.join(sorted(unknown))}")
    if a.rounds < 1 or a.cg_steps < 1 or a.steps_scale <= 0 or a.rollout_batch < 1 or a.rollout_steps < 1:
        ap.error("--rounds, --cg-steps, --steps-scale, --rollout-batch and --rollout-steps must be positive")
    if a.table:
        return table(a)
    mjrs = build_mjrs()
    run([str(MJREF), "setup"])
    speed_bin = MJREF_HOME / "speed"
    cg = not a.no_callgrind and shutil.which("valgrind")
    chosen = [m for m in models() if not a.names or m[0] in a.names]
    head = f"{'model':<22} {'mjrs/s':>9} {'MuJoCo/s':>9} {'ratio':>6} {'Data KiB':>9} {'vs mjData':>9}"
    if a.f32:
        head += f" {'f32/s':>9} {'ncon f64/f32':>13} {'iter f64/f32':>13}"
    if cg:
        head += f" {'mjrs Ki/step':>12} {'MuJoCo Ki/step':>14} {'ratio':>6}"
        if a.f32:
            head += f" {'f32 Ki/step':>11}"
    print(head, flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        mjdata_bytes = mjdata_bytes_bin(tmp)
        for name, xml, steps in chosen:
            mjb = pathlib.Path(tmp) / f"{name}.mjb"
            run([str(MJREF), "mjb", str(xml), "-o", str(mjb)])
            ours = ref = narrow = 0.0
            work = None
            for _ in range(a.rounds):
                mine = last_json(run([str(mjrs), "speed", str(mjb), "--steps", str(steps)]))
                ours = max(ours, mine["steps_per_second"])
                ref = max(ref, last_json(run([str(speed_bin), str(mjb), str(steps)]))["steps_per_second"])
                if a.f32:
                    f32run = last_json(run([str(mjrs), "speed", str(mjb), "--steps", str(steps), "--f32"]))
                    narrow = max(narrow, f32run["steps_per_second"])
                    work = (mine, f32run)
            theirs = last_json(run([str(mjdata_bytes), str(mjb)]))["data_bytes"]
            row = (f"{name:<22} {ours:>9.0f} {ref:>9.0f} {ours / ref:>6.2f}"
                   f" {mine['data_bytes'] / 1024:>9.1f} {mine['data_bytes'] - theirs:>+9d}")
            if a.f32:
                wide_run, narrow_run = work
                ncon = f"{wide_run['mean_ncon']:.1f}/{narrow_run['mean_ncon']:.1f}"
                niter = f"{wide_run['mean_solver_niter']:.1f}/{narrow_run['mean_solver_niter']:.1f}"
                row += f" {narrow:>9.0f} {ncon:>13} {niter:>13}"
            if cg:
                n = min(a.cg_steps, steps)
                ki = callgrind([str(mjrs), "speed", str(mjb), "--steps", str(n)],
                               "mjrs_core::forward::step", n, tmp) / 1000
                kref = callgrind([str(speed_bin), str(mjb), str(n)], "mj_step", n, tmp) / 1000
                row += f" {ki:>12.1f} {kref:>14.1f} {kref / ki:>6.2f}"
                if a.f32:
                    k32 = callgrind([str(mjrs), "speed", str(mjb), "--steps", str(n), "--f32"],
                                    "mjrs_core_f32::forward::step", n, tmp) / 1000
                    row += f" {k32:>11.1f}"
            print(row, flush=True)


if __name__ == "__main__":
    sys.exit(main())
