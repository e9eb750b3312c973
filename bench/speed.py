#!/usr/bin/env python3
"""mjrs against MuJoCo 3.1.6, steps per second and instructions per step, on the models of
bench/models.txt (or those named), with the same MJB (compiled by MuJoCo) and the same control
law, measured back to back in one run.

    bench/speed.py [--rounds R] [--cg-steps N] [--no-callgrind] [--f32] [NAME...]

Steps per second: best of R rounds (default 3) of `mjrs speed` and `mjref speed`, alternating.
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
import json
import os
import pathlib
import re
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
MJREF = pathlib.Path(os.environ.get("MJREF", ROOT.parent / "shared" / "mjref" / "mjref"))
MJREF_HOME = pathlib.Path(os.environ.get("MJREF_HOME", pathlib.Path.home() / ".cache" / "mjref"))


def models():
    out = []
    for line in (ROOT / "bench" / "models.txt").read_text().splitlines():
        line = line.split("#")[0].split()
        if line:
            out.append((line[0], ROOT / line[1], int(line[2])))
    return out


def last_json(text):
    return json.loads(text.strip().splitlines()[-1])


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode:
        raise RuntimeError(f"{' '.join(map(str, cmd))}: {p.stderr.strip() or p.stdout.strip()}")
    return p.stdout


def callgrind(cmd, toggle, steps, tmp):
    out = pathlib.Path(tmp) / "cg.out"
    run(["valgrind", "--tool=callgrind", f"--toggle-collect={toggle}",
         f"--callgrind-out-file={out}", *cmd])
    total = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.M)
    out.unlink()
    return int(total.group(1)) / steps


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


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--cg-steps", type=int, default=200)
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--f32", action="store_true", help="also time mjrs's f32 build")
    a = ap.parse_args()
    subprocess.run(["cargo", "build", "--release", "-q"], cwd=ROOT, check=True)
    mjrs = ROOT / "target" / "release" / "mjrs"
    if os.environ.get("CARGO_TARGET_DIR"):
        mjrs = pathlib.Path(os.environ["CARGO_TARGET_DIR"]) / "release" / "mjrs"
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
