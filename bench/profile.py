#!/usr/bin/env python3
"""Where the instructions of one step go, mjrs against MuJoCo 3.1.6, function by function.

    bench/profile.py NAME|MODEL [--steps N] [--top K] [--f32 | --fast] [--time R [--time-steps N] [--cpu C]]

NAME is a model of bench/models.txt (or a path to an MJCF/MJB file). Both engines step the same
MuJoCo-compiled MJB under the same control law inside valgrind's callgrind, counting only the
step function (`mjrs_core::forward::step`, `mj_step`); the table lists the K most expensive
functions of each (exclusive instructions per step, thousands) and the totals.

With --time R, where the clock goes as well: R alternating runs of each engine (N steps, pinned to
CPU C) under `perf record -e cpu-clock` (sampling by timer: it needs no hardware counters, which
virtual machines often lack), and per function its share of the run's samples (time %) beside
its share of the step's instructions (instr %), averaged over the rounds. A function whose time
share is well above its instruction share runs slowly per instruction: stalls that callgrind
does not see (store forwarding, divisions, mispredicted or indirect jumps, cache misses). The
shares, not the microseconds, are comparable between runs: a shared machine's speed drifts.
Needs ../shared/mjref/mjref and valgrind (and perf for --time); builds mjrs in release first."""
import argparse
import pathlib
import re
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import speed  # noqa: E402  (models(), run(), the paths)


def exclusive(cmd, toggle, out):
    """Exclusive instruction count per function name (generic arguments and hashes dropped)."""
    speed.run(["valgrind", "--tool=callgrind", f"--toggle-collect={toggle}",
               f"--callgrind-out-file={out}", *cmd])
    text = speed.run(["callgrind_annotate", "--inclusive=no", "--auto=no", "--threshold=100", str(out)])
    costs = {}
    for line in text.splitlines():
        m = re.match(r"\s*([\d,]+)\s+\(\s*[\d.]+%\)\s+(\S.*)$", line) or re.match(r"\s*([\d,]+)\s+(\S.*)$", line)
        if not m or "PROGRAM TOTALS" in m.group(2):
            continue
        name = clean(re.sub(r"^(?:[^:\s]*/[^:\s]*|\?\?\?):", "", m.group(2)))
        costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def clean(name):
    """A function's name without hash, generic arguments, LLVM suffixes or libc's CPU variant, so
    that callgrind's and perf's names of one function agree."""
    name = re.sub(r"::h[0-9a-f]{16}$", "", name.split(" [")[0].strip())
    name = re.sub(r"\.llvm\.\d+|\.part\.\d+|\.cold$", "", name)
    # glibc's memcpy and memmove are one routine, with a variant per CPU; valgrind's CPU is not
    # the host's
    name = re.sub(r"^__(mem\w+?)_(avx|evex|sse)\w*$", r"\1", name).replace("memcpy", "memmove")
    return re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", name))


def sampled(cmd, cpu, freq, out):
    """Per function: the share of `cmd`'s cpu-clock samples (perf, pinned to `cpu`)."""
    speed.run(["taskset", "-c", str(cpu), "perf", "record", "-q", "-e", "cpu-clock", "-F",
               str(freq), "-o", str(out), "--", *cmd])
    text = speed.run(["perf", "report", "-i", str(out), "--no-children", "--stdio", "-n",
                      "--sort", "sym"])
    counts = {}
    for line in text.splitlines():
        m = re.match(r"\s+[\d.]+%\s+(\d+)\s+\[.\]\s+(.*?)\s*$", line)
        if m:
            counts[clean(m.group(2))] = counts.get(clean(m.group(2)), 0) + int(m.group(1))
    total = sum(counts.values()) or 1
    return {k: v / total for k, v in counts.items()}


def time_table(engines, a, tmp):
    """--time: per engine, the top functions by share of time beside their share of instructions."""
    shares = {label: {} for label, _, _ in engines}
    for r in range(a.time):
        for label, cmd, _ in engines:
            for k, v in sampled(cmd, a.cpu, 20000, pathlib.Path(tmp) / f"perf.{label}").items():
                shares[label][k] = shares[label].get(k, 0) + v / a.time
    for label, _, instr in engines:
        total = sum(instr.values()) or 1
        print(f"\n{label}: time % (perf, {a.time} rounds of {a.time_steps} steps, load included)"
              f" against instr % (callgrind, the step only)")
        print(f"{'function':<60} {'time %':>7} {'instr %':>8} {'ratio':>6}")
        for name, t in sorted(shares[label].items(), key=lambda kv: -kv[1])[: a.top]:
            i = instr.get(name, 0) / total
            print(f"{name[:60]:<60} {100 * t:>7.2f} {100 * i:>8.2f} {t / i if i else 0:>6.2f}")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--f32", action="store_true", help="profile mjrs's f32 build")
    ap.add_argument("--fast", action="store_true", help="profile mjrs's opt-in fast build (bench/speed.py's flags)")
    ap.add_argument("--time", type=int, default=0, metavar="R", help="also sample the clock with perf, R rounds")
    ap.add_argument("--time-steps", type=int, default=10000)
    ap.add_argument("--cpu", type=int, default=1)
    a = ap.parse_args()
    known = {name: xml for name, xml, _ in speed.models()}
    xml = known.get(a.model, pathlib.Path(a.model))
    if a.f32 and a.fast:
        ap.error("--f32 and --fast: one build at a time")
    mjrs = speed.build_mjrs(fast=a.fast)
    speed.run([str(speed.MJREF), "setup"])
    with tempfile.TemporaryDirectory() as tmp:
        mjb = pathlib.Path(tmp) / "m.mjb"
        speed.run([str(speed.MJREF), "mjb", str(xml), "-o", str(mjb)])
        extra = ["--f32"] if a.f32 else []
        # the f32 core's step has its own symbol: counting the f64 one would count nothing
        toggle = speed.STEP_F32 if a.f32 else speed.STEP_EXACT
        ours = exclusive([str(mjrs), "speed", str(mjb), "--steps", str(a.steps), *extra],
                         toggle, pathlib.Path(tmp) / "cg.mjrs")
        ref = exclusive([str(speed.MJREF_HOME / "speed"), str(mjb), str(a.steps)], "mj_step",
                        pathlib.Path(tmp) / "cg.mj")
        if a.time:
            n = str(a.time_steps)
            time_table([("mjrs", [str(mjrs), "speed", str(mjb), "--steps", n, *extra], ours),
                        ("MuJoCo", [str(speed.MJREF_HOME / "speed"), str(mjb), n], ref)], a, tmp)
        print()
    per = lambda c: c / a.steps / 1000  # noqa: E731
    top = lambda c: sorted(c.items(), key=lambda kv: -kv[1])[: a.top]  # noqa: E731
    rows = list(zip(top(ours), top(ref)))
    print(f"{'mjrs function':<48} {'Ki/step':>8}   {'MuJoCo function':<36} {'Ki/step':>8}")
    for (n1, c1), (n2, c2) in rows:
        print(f"{n1[:48]:<48} {per(c1):>8.1f}   {n2[:36]:<36} {per(c2):>8.1f}")
    print(f"{'total':<48} {per(sum(ours.values())):>8.1f}   {'total':<36} {per(sum(ref.values())):>8.1f}")


if __name__ == "__main__":
    sys.exit(main())
