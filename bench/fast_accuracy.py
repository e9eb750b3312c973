#!/usr/bin/env python3
"""The fast build's distance from MuJoCo 3.1.6 against MuJoCo's own chaos (issue 25 item 3b).

    bench/fast_accuracy.py [--steps N] [--every K] [--single] [--fast-bin PATH --exact-bin PATH] [NAME...]

For each model of bench/models.txt (or those named), on the same MuJoCo-compiled MJB under the
control law, N steps (default 1000), the qpos of every K-th step (default 10) of:
  * MuJoCo from the model's initial state (the reference);
  * MuJoCo from that state with qpos moved by one ulp (every element up, every element down,
    and alternately): the chaos envelope is the largest distance of these three runs from the
    reference so far (a running maximum over the recorded steps). One ulp is taken at the scale
    of the arithmetic, not below that of 1: an element moves by the spacing of doubles at
    max(|qpos[i]|, 1), i.e. by one ulp of 1 (2.2e-16) where |qpos[i]| < 1. The literal next
    double of an element that is 0 (4.9e-324; half_cheetah's whole qpos) or tiny is absorbed by
    the first sum it enters (body positions and orientations of order 1), so such runs can equal
    the reference bit for bit and measure no chaos (half_cheetah's envelope was 0);
  * with --single, also 2 nq more samples of the same definition: one element of qpos moved by
    that ulp, up or down, the others unchanged; the wider envelope is the running maximum over
    all 3 + 2 nq runs. Each run is one draw of MuJoCo's sensitivity to a one-ulp change of its
    initial state: three draws are a small sample of it, the fast build's own rounding (a
    different few ulps in every step) is compared against the largest of more draws;
  * mjrs's fast build (`--features fast`, RUSTFLAGS of bench/speed.py's `fast_flags`: FMA and
    AVX2 on x86-64) and, as a check, its exact build.
Distance: the largest |qpos difference| over the elements. The table gives, per model, the
envelope and the fast build's distance at the last step, the largest ratio fast/envelope over
the recorded steps (where the envelope is non-zero), and the share of recorded steps where the
fast build is within the envelope (with --single: for both envelopes). Needs ../shared/mjref/mjref and its Python (mujoco 3.1.6),
under which this script re-runs itself."""
import argparse
import json
import os
import pathlib
import subprocess
import sys
import tempfile

sys.path.insert(0, str(pathlib.Path(__file__).resolve().parent))
import speed  # noqa: E402  (models(), run(), the paths, the builds)

try:
    import mujoco
    import numpy as np
except ImportError:
    if os.environ.get("MJRS_FAST_ACCURACY_REEXEC"):
        raise
    os.environ["MJRS_FAST_ACCURACY_REEXEC"] = "1"
    python = speed.MJREF_HOME / "venv" / "bin" / "python"
    os.execv(str(python), [str(python), *sys.argv])


def mujoco_qpos(mjb, steps, every, nudge=None):
    """qpos of every `every`-th step of MuJoCo under the control law; `nudge` moves the initial
    qpos by one ulp at the arithmetic's scale (see `ulp`): "up", "down", "alternate", or
    (i, +1 or -1) for element i alone."""
    m = mujoco.MjModel.from_binary_path(str(mjb))
    d = mujoco.MjData(m)
    if nudge:
        up, down = d.qpos + ulp(d.qpos), d.qpos - ulp(d.qpos)
        if nudge == "up":
            d.qpos[:] = up
        elif nudge == "down":
            d.qpos[:] = down
        elif nudge == "alternate":
            d.qpos[:] = np.where(np.arange(m.nq) % 2 == 0, up, down)
        else:
            i, sign = nudge
            d.qpos[i] = up[i] if sign > 0 else down[i]
    out = []
    for k in range(1, steps + 1):
        for i in range(m.nu):
            s = np.sin(2.0 * d.time * (1 + 0.1 * i) + i)
            if m.actuator_ctrllimited[i]:
                lo, hi = m.actuator_ctrlrange[i]
                d.ctrl[i] = lo + (hi - lo) * (0.5 + 0.5 * s)
            else:
                d.ctrl[i] = s
        mujoco.mj_step(m, d)
        if k % every == 0:
            out.append(d.qpos.copy())
    return np.array(out)


def ulp(q):
    """The spacing of doubles at max(|q|, 1) per element: a change of an element of order 1 or
    less that the sums it enters (positions and rotations of order 1) do not round away."""
    return np.spacing(np.maximum(np.abs(q), 1.0))


def mjrs_qpos(binary, mjb, steps, every, tmp):
    out = pathlib.Path(tmp) / "traj.json"
    speed.run([str(binary), "traj", str(mjb), "--steps", str(steps), "--every", str(every), "-o", str(out)])
    return np.array(json.loads(out.read_text())["qpos"])


def distance(a, b):
    """Per recorded step, the largest |difference| over the elements."""
    return np.max(np.abs(a - b), axis=1) if a.shape[1] else np.zeros(len(a))


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--every", type=int, default=10)
    ap.add_argument("--fast-bin", help="an mjrs fast build to use instead of building one")
    ap.add_argument("--single", action="store_true",
                    help="widen the envelope with every element of qpos moved alone, up and down")
    ap.add_argument("--exact-bin", help="an mjrs exact build to use instead of building one")
    a = ap.parse_args()
    if a.steps < 1 or a.every < 1 or a.every > a.steps:
        ap.error("--steps and --every must be positive, --every at most --steps")
    exact_bin = a.exact_bin or speed.build_mjrs()
    fast_bin = a.fast_bin or speed.build_mjrs(fast=True)
    speed.run([str(speed.MJREF), "setup"])
    chosen = [m for m in speed.models() if not a.names or m[0] in a.names]
    print(f"fast build: {a.fast_bin or speed.fast_flags()}; {a.steps} steps, qpos every {a.every}th; distance: max |qpos - MuJoCo's|\n")
    head = ["model", "envelope (last)", "fast (last)", "exact (last)", "max fast÷envelope", "steps within"]
    if a.single:
        head += ["runs", "wide envelope (last)", "max fast÷wide", "steps within wide"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join([" --- "] + [" ---: "] * (len(head) - 1)) + "|", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        for name, xml, _ in chosen:
            mjb = pathlib.Path(tmp) / f"{name}.mjb"
            speed.run([str(speed.MJREF), "mjb", str(xml), "-o", str(mjb)])
            ref = mujoco_qpos(mjb, a.steps, a.every)
            envelope = running_envelope(mjb, a, ref, ("up", "down", "alternate"))
            fast = distance(mjrs_qpos(fast_bin, mjb, a.steps, a.every, tmp), ref)
            exact = distance(mjrs_qpos(exact_bin, mjb, a.steps, a.every, tmp), ref)
            row = [name, f"{envelope[-1]:.1e}", f"{fast[-1]:.1e}", f"{exact[-1]:.1e}", *within(fast, envelope)]
            if a.single:
                nq = ref.shape[1]
                singles = [(i, s) for i in range(nq) for s in (1, -1)]
                wide = np.maximum(envelope, running_envelope(mjb, a, ref, singles))
                row += [str(3 + len(singles)), f"{wide[-1]:.1e}", *within(fast, wide)]
            print("| " + " | ".join(row) + " |", flush=True)


def running_envelope(mjb, a, ref, nudges):
    """Running maximum over the recorded steps of the largest distance from `ref` of MuJoCo's
    runs from the nudged initial states."""
    chaos = np.max([distance(mujoco_qpos(mjb, a.steps, a.every, n), ref) for n in nudges], axis=0)
    return np.maximum.accumulate(chaos)


def within(fast, envelope):
    """The largest ratio fast/envelope where the envelope is non-zero, and the share of recorded
    steps where the fast build is within the envelope, as table cells."""
    positive = envelope > 0
    worst = np.max(fast[positive] / envelope[positive]) if positive.any() else float("inf")
    return [f"{worst:.3g}", f"{np.mean(fast <= envelope):.0%}"]


if __name__ == "__main__":
    sys.exit(main())
