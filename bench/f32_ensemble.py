#!/usr/bin/env python3
"""The f32 core against the f64 core over an ensemble of nudged starts, so that one chaotic
trajectory does not decide f32÷exact; with --fast, the opt-in fast build (issue 25 item 3, f64)
against the exact build in the same way (fast÷exact).

    bench/f32_ensemble.py [-k K] [--steps-scale F] [--rounds R] [--cpu C] [--cg-steps N]
                          [--no-callgrind] [--fast [--fast-bin PATH --exact-bin PATH]] NAME

With --fast the starts are `qpos0` itself (not rounded to f32) with the entry moved by one f64 ulp
of max(|value|, 1) (2^-52), and the two columns are the exact and the fast build, both f64; the
fast build is built with bench/speed.py's flags unless given.

A model of bench/models.txt is stepped from K starts, in both precisions, under the control law
of bench/speed.py over the same number of steps (bench/models.txt x F). Start k is the model's
`qpos0` rounded to f32 (so that both cores start from the same state) with one entry, never a
quaternion's, moved by about one f32 ulp of 1 (2^-23 times max(|value|, 1), then rounded to
f32), up for even k and down for odd k, the entries spread over the joints; the starts are
keyframes appended to a copy of the model (`mjrs speed --key`). After the first few hundred
steps of a falling or walking model the members' trajectories no longer resemble each other:
their spread is the chaos of the dynamics, against which a difference between the precisions'
means is judged.

Per member and precision: mean contacts and constraint solver iterations per step over the
timed steps (`mjrs speed`'s work counters), instructions per step of the step function
(callgrind over the same steps, or the first N with --cg-steps), and steps per second (best of
R rounds; in each round every member runs in both precisions back to back, the order of the
precisions alternating, pinned to CPU C with taskset when given). Then per precision the mean,
standard deviation and range over the members, and f32÷exact of the means: instructions
(exact÷f32, above 1 when f32 executes fewer) and the clock (mean seconds per step, above 1 when
f32 is faster). The load average is printed before and after: timings on a shared machine vary,
the counts do not.
Needs ../shared/mjref/mjref and valgrind (unless --no-callgrind); builds mjrs in release first."""
import argparse
import json
import os
import pathlib
import statistics
import struct
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import speed  # noqa: E402  (models(), run(), last_json(), callgrind(), build_mjrs(), the paths)

PRECISIONS = ("f64", "f32")
NUDGE = 2.0 ** -23  # one f32 ulp of 1
NUDGE_F64 = 2.0 ** -52  # one f64 ulp of 1 (--fast)


def f32(x):
    """`x` rounded to the nearest f32, as a Python float (exact in f64)."""
    return struct.unpack("f", struct.pack("f", x))[0]


def free_entries(model):
    """The qpos entries that are not part of a quaternion (free joints' and ball joints'
    orientations), from mjref's model JSON."""
    quat = set()
    for kind, adr in zip(model["jnt_type"], model["jnt_qposadr"]):
        if kind == 0:  # free: position, then the quaternion
            quat.update(range(adr + 3, adr + 7))
        elif kind == 1:  # ball
            quat.update(range(adr, adr + 4))
    return [i for i in range(model["nq"]) if i not in quat]


def starts(model, k, fast=False):
    """K start configurations: (entry, qpos) with the entry nudged (see the module's text)."""
    rounding, nudge = ((lambda x: x), NUDGE_F64) if fast else (f32, NUDGE)
    base = [rounding(x) for x in model["qpos0"]]
    entries = free_entries(model)
    if not entries:
        raise SystemExit("the model has no qpos entry outside a quaternion to nudge")
    pairs = (k + 1) // 2
    out = []
    for j in range(k):
        entry = entries[(j // 2) * len(entries) // pairs]
        qpos = list(base)
        step = nudge * max(abs(qpos[entry]), 1.0)
        qpos[entry] = rounding(qpos[entry] + (step if j % 2 == 0 else -step))
        out.append((entry, qpos))
    return out


def with_keys(xml, members):
    """The model's XML text with one keyframe per member appended (named f32e0, f32e1, ...)."""
    text = xml.read_text()
    keys = "".join(f'<key name="f32e{j}" qpos="{" ".join(repr(x) for x in qpos)}"/>'
                   for j, (_, qpos) in enumerate(members))
    head, sep, tail = text.rpartition("</mujoco>")
    if not sep:
        raise SystemExit(f"{xml}: no </mujoco> to append keyframes before")
    return f"{head}<keyframe>{keys}</keyframe>{sep}{tail}"


def key_indices(model, k):
    """The indices of the keyframes f32e0..f32e{k-1} in the compiled model."""
    names = model["names"]
    index = {names[a:names.index("\0", a)]: i for i, a in enumerate(model["name_keyadr"])}
    return [index[f"f32e{j}"] for j in range(k)]


def compile_members(xml, k, tmp, fast=False):
    """The MJB of the model with the K start keyframes (written beside the model, so that its
    relative asset paths still resolve, then removed), the starts and their key indices."""
    plain = pathlib.Path(tmp) / "plain.json"
    speed.run([speed.MJREF, "model", xml, "-o", plain])
    members = starts(json.loads(plain.read_text()), k, fast)
    copy = xml.with_name(f".f32_ensemble_{os.getpid()}.xml")
    mjb, keyed = pathlib.Path(tmp) / "ensemble.mjb", pathlib.Path(tmp) / "keyed.json"
    try:
        copy.write_text(with_keys(xml, members))
        speed.run([speed.MJREF, "mjb", copy, "-o", mjb])
        speed.run([speed.MJREF, "model", copy, "-o", keyed])
    finally:
        copy.unlink(missing_ok=True)
    return mjb, members, key_indices(json.loads(keyed.read_text()), k)


def spread(values):
    """mean ± standard deviation [min, max] of a list."""
    sd = statistics.stdev(values) if len(values) > 1 else 0.0
    return statistics.fmean(values), sd, min(values), max(values)


def fmt(values, spec):
    mean, sd, lo, hi = spread(values)
    return f"{mean:{spec}} ± {sd:{spec}} [{lo:{spec}}, {hi:{spec}}]"


def columns(a):
    """The two builds compared, as (name, command prefix, extra arguments, callgrind toggle):
    the f64 and f32 cores of one binary, or with --fast the exact and the fast build."""
    if not a.fast:
        mjrs = a.exact_bin or speed.build_mjrs()
        return [("f64", [mjrs], [], speed.STEP_EXACT), ("f32", [mjrs], ["--f32"], speed.STEP_F32)]
    exact = a.exact_bin or speed.build_mjrs()
    fast = a.fast_bin or speed.build_mjrs(fast=True)
    return [("exact", [exact], [], speed.STEP_EXACT), ("fast", [fast], [], speed.STEP_EXACT)]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("-k", type=int, default=8, help="members (starts) per build")
    ap.add_argument("--steps-scale", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", type=int, help="pin the timed runs to this CPU (taskset)")
    ap.add_argument("--cg-steps", type=int, help="callgrind over the first N steps (default: all)")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--fast", action="store_true", help="the fast build against the exact build")
    ap.add_argument("--fast-bin", help="with --fast: a fast build to use instead of building one")
    ap.add_argument("--exact-bin", help="an exact build to use instead of building one")
    a = ap.parse_args()
    chosen = {n: (xml, steps) for n, xml, steps in speed.models()}
    if a.name not in chosen:
        ap.error(f"not in bench/models.txt: {a.name}")
    if a.k < 2 or a.rounds < 1 or a.steps_scale <= 0 or (a.cg_steps is not None and a.cg_steps < 1):
        ap.error("-k must be at least 2; --rounds, --steps-scale and --cg-steps positive")
    if a.fast_bin and not a.fast:
        ap.error("--fast-bin needs --fast")
    xml, steps = chosen[a.name]
    n = max(1, round(steps * a.steps_scale))
    cols = columns(a)
    (base, _, _, _), (other, _, _, _) = cols
    speed.run([speed.MJREF, "setup"])
    pin = ["taskset", "-c", str(a.cpu)] if a.cpu is not None else []
    with tempfile.TemporaryDirectory() as tmp:
        mjb, members, keys = compile_members(xml, a.k, tmp, a.fast)
        print(f"{a.name}: {a.k} starts x 2 builds ({base}, {other}), {n} steps each; best of "
              f"{a.rounds} rounds{f' on CPU {a.cpu}' if pin else ''}; load average before: "
              f"{os.getloadavg()[0]:.2f}", flush=True)
        # run j < k starts from keyframe keys[j]; run k from the model's own qpos0 (the single
        # trajectory bench/speed.py times), shown for comparison and left out of the statistics
        starts_of = [["--key", key] for key in keys] + [[]]
        names = [c[0] for c in cols]
        rate = {(p, j): 0.0 for p in names for j in range(a.k + 1)}
        work = {}
        for r in range(a.rounds):
            order = cols if r % 2 == 0 else cols[::-1]
            for j, start in enumerate(starts_of):
                for p, prefix, extra, _ in order:
                    cmd = pin + prefix + ["speed", mjb, "--steps", n] + start + extra
                    out = speed.last_json(speed.run(cmd))
                    rate[p, j] = max(rate[p, j], out["steps_per_second"])
                    work[p, j] = (out["mean_ncon"], out["mean_solver_niter"])
        instr = {}
        if not a.no_callgrind:
            k = min(a.cg_steps or n, n)
            for j, start in enumerate(starts_of):
                for p, prefix, extra, toggle in cols:
                    cmd = prefix + ["speed", mjb, "--steps", k] + start + extra
                    instr[p, j] = speed.callgrind(cmd, toggle, k, tmp) / 1000
        print(f"load average after: {os.getloadavg()[0]:.2f}\n")
        pair = f"{base} / {other}"
        print(f"| start | entry | ncon {pair} | iter {pair} | Ki/step {pair} | steps/s {pair} |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        labels = [f"| {j} | qpos[{entry}] {'+' if j % 2 == 0 else '-'}" for j, (entry, _) in enumerate(members)]
        for j, label in enumerate(labels + ["| qpos0 (bench/speed.py) | —"]):
            ki = f"{instr[base, j]:.1f} / {instr[other, j]:.1f}" if instr else "—"
            print(f"{label} | {work[base, j][0]:.2f} / {work[other, j][0]:.2f}"
                  f" | {work[base, j][1]:.2f} / {work[other, j][1]:.2f} | {ki}"
                  f" | {rate[base, j]:.0f} / {rate[other, j]:.0f} |")
        print(f"\nper build: mean ± standard deviation [min, max] over the {a.k} nudged starts")
        series = {p: {"ncon": [work[p, j][0] for j in range(a.k)],
                      "iter": [work[p, j][1] for j in range(a.k)],
                      "us/step": [1e6 / rate[p, j] for j in range(a.k)]} for p in names}
        if instr:
            for p in names:
                series[p]["Ki/step"] = [instr[p, j] for j in range(a.k)]
        for what in series[base]:
            spec = ".3f" if what == "us/step" else ".2f" if what != "Ki/step" else ".1f"
            for p in names:
                print(f"  {what:<8} {p}: {fmt(series[p][what], spec)}")
        mean = {p: {w: statistics.fmean(v) for w, v in s.items()} for p, s in series.items()}
        shown = "exact" if base == "f64" else base
        print(f"\n{other}÷{shown} by the clock (ratio of mean seconds per step): "
              f"{mean[base]['us/step'] / mean[other]['us/step']:.3f}")
        if instr:
            print(f"{shown}÷{other} instructions per step (ratio of means): "
                  f"{mean[base]['Ki/step'] / mean[other]['Ki/step']:.3f}")
        print(f"{other}÷{shown} solver iterations per step: {mean[other]['iter'] / mean[base]['iter']:.3f};"
              f" contacts per step: {mean[other]['ncon'] / mean[base]['ncon']:.3f}")


if __name__ == "__main__":
    sys.exit(main())
