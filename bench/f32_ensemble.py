#!/usr/bin/env python3
"""The f32 core against the f64 core over an ensemble of nudged starts, so that one chaotic
trajectory does not decide f32÷exact.

    bench/f32_ensemble.py [-k K] [--steps-scale F] [--rounds R] [--cpu C] [--cg-steps N]
                          [--no-callgrind] NAME

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


def starts(model, k):
    """K start configurations: (entry, qpos) with the entry nudged (see the module's text)."""
    base = [f32(x) for x in model["qpos0"]]
    entries = free_entries(model)
    if not entries:
        raise SystemExit("the model has no qpos entry outside a quaternion to nudge")
    pairs = (k + 1) // 2
    out = []
    for j in range(k):
        entry = entries[(j // 2) * len(entries) // pairs]
        qpos = list(base)
        step = NUDGE * max(abs(qpos[entry]), 1.0)
        qpos[entry] = f32(qpos[entry] + (step if j % 2 == 0 else -step))
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


def compile_members(xml, k, tmp):
    """The MJB of the model with the K start keyframes (written beside the model, so that its
    relative asset paths still resolve, then removed), the starts and their key indices."""
    plain = pathlib.Path(tmp) / "plain.json"
    speed.run([speed.MJREF, "model", xml, "-o", plain])
    members = starts(json.loads(plain.read_text()), k)
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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("name")
    ap.add_argument("-k", type=int, default=8, help="members (starts) per precision")
    ap.add_argument("--steps-scale", type=float, default=1.0)
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cpu", type=int, help="pin the timed runs to this CPU (taskset)")
    ap.add_argument("--cg-steps", type=int, help="callgrind over the first N steps (default: all)")
    ap.add_argument("--no-callgrind", action="store_true")
    a = ap.parse_args()
    chosen = {n: (xml, steps) for n, xml, steps in speed.models()}
    if a.name not in chosen:
        ap.error(f"not in bench/models.txt: {a.name}")
    if a.k < 2 or a.rounds < 1 or a.steps_scale <= 0 or (a.cg_steps is not None and a.cg_steps < 1):
        ap.error("-k must be at least 2; --rounds, --steps-scale and --cg-steps positive")
    xml, steps = chosen[a.name]
    n = max(1, round(steps * a.steps_scale))
    mjrs = speed.build_mjrs()
    speed.run([speed.MJREF, "setup"])
    pin = ["taskset", "-c", str(a.cpu)] if a.cpu is not None else []
    with tempfile.TemporaryDirectory() as tmp:
        mjb, members, keys = compile_members(xml, a.k, tmp)
        print(f"{a.name}: {a.k} starts x 2 precisions, {n} steps each; best of {a.rounds} rounds"
              f"{f' on CPU {a.cpu}' if pin else ''}; load average before: {os.getloadavg()[0]:.2f}",
              flush=True)
        # run j < k starts from keyframe keys[j]; run k from the model's own qpos0 (the single
        # trajectory bench/speed.py times), shown for comparison and left out of the statistics
        starts_of = [["--key", key] for key in keys] + [[]]
        rate = {(p, j): 0.0 for p in PRECISIONS for j in range(a.k + 1)}
        work = {}
        for r in range(a.rounds):
            order = PRECISIONS if r % 2 == 0 else PRECISIONS[::-1]
            for j, start in enumerate(starts_of):
                for p in order:
                    cmd = pin + [mjrs, "speed", mjb, "--steps", n] + start
                    out = speed.last_json(speed.run(cmd + (["--f32"] if p == "f32" else [])))
                    rate[p, j] = max(rate[p, j], out["steps_per_second"])
                    work[p, j] = (out["mean_ncon"], out["mean_solver_niter"])
        instr = {}
        if not a.no_callgrind:
            k = min(a.cg_steps or n, n)
            for j, start in enumerate(starts_of):
                for p, toggle in zip(PRECISIONS, (speed.STEP_EXACT, speed.STEP_F32)):
                    cmd = [mjrs, "speed", mjb, "--steps", k] + start + (["--f32"] if p == "f32" else [])
                    instr[p, j] = speed.callgrind(cmd, toggle, k, tmp) / 1000
        print(f"load average after: {os.getloadavg()[0]:.2f}\n")
        print("| start | entry | ncon f64 / f32 | iter f64 / f32 | Ki/step f64 / f32 | steps/s f64 / f32 |")
        print("| ---: | ---: | ---: | ---: | ---: | ---: |")
        labels = [f"| {j} | qpos[{entry}] {'+' if j % 2 == 0 else '-'}" for j, (entry, _) in enumerate(members)]
        for j, label in enumerate(labels + ["| qpos0 (bench/speed.py) | —"]):
            ki = f"{instr['f64', j]:.1f} / {instr['f32', j]:.1f}" if instr else "—"
            print(f"{label} | {work['f64', j][0]:.2f} / {work['f32', j][0]:.2f}"
                  f" | {work['f64', j][1]:.2f} / {work['f32', j][1]:.2f} | {ki}"
                  f" | {rate['f64', j]:.0f} / {rate['f32', j]:.0f} |")
        print(f"\nper precision: mean ± standard deviation [min, max] over the {a.k} nudged starts")
        series = {p: {"ncon": [work[p, j][0] for j in range(a.k)],
                      "iter": [work[p, j][1] for j in range(a.k)],
                      "us/step": [1e6 / rate[p, j] for j in range(a.k)]} for p in PRECISIONS}
        if instr:
            for p in PRECISIONS:
                series[p]["Ki/step"] = [instr[p, j] for j in range(a.k)]
        for what in series["f64"]:
            spec = ".3f" if what == "us/step" else ".2f" if what != "Ki/step" else ".1f"
            for p in PRECISIONS:
                print(f"  {what:<8} {p}: {fmt(series[p][what], spec)}")
        mean = {p: {w: statistics.fmean(v) for w, v in s.items()} for p, s in series.items()}
        print(f"\nf32÷exact by the clock (ratio of mean seconds per step): "
              f"{mean['f64']['us/step'] / mean['f32']['us/step']:.3f}")
        if instr:
            print(f"exact÷f32 instructions per step (ratio of means): "
                  f"{mean['f64']['Ki/step'] / mean['f32']['Ki/step']:.3f}")
        print(f"f32÷exact solver iterations per step: {mean['f32']['iter'] / mean['f64']['iter']:.3f};"
              f" contacts per step: {mean['f32']['ncon'] / mean['f64']['ncon']:.3f}")


if __name__ == "__main__":
    sys.exit(main())
