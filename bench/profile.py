#!/usr/bin/env python3
"""Where the instructions of one step go, mjrs against MuJoCo 3.1.6, function by function.

    bench/profile.py NAME|MODEL [--steps N] [--top K] [--f32 | --fast]

NAME is a model of bench/models.txt (or a path to an MJCF/MJB file). Both engines step the same
MuJoCo-compiled MJB under the same control law inside valgrind's callgrind, counting only the
step function (`mjrs_core::forward::step`, `mj_step`); the table lists the K most expensive
functions of each (exclusive instructions per step, thousands) and the totals.
Needs ../shared/mjref/mjref and valgrind; builds mjrs in release first."""
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
        name = re.sub(r"^(?:[^:\s]*/[^:\s]*|\?\?\?):", "", m.group(2))
        name = re.sub(r"::h[0-9a-f]{16}$", "", name.split(" [")[0].strip())
        name = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", name))
        costs[name] = costs.get(name, 0) + int(m.group(1).replace(",", ""))
    return costs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--steps", type=int, default=300)
    ap.add_argument("--top", type=int, default=25)
    ap.add_argument("--f32", action="store_true", help="profile mjrs's f32 build")
    ap.add_argument("--fast", action="store_true", help="profile mjrs's opt-in fast build (bench/speed.py's flags)")
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
    per = lambda c: c / a.steps / 1000  # noqa: E731
    top = lambda c: sorted(c.items(), key=lambda kv: -kv[1])[: a.top]  # noqa: E731
    rows = list(zip(top(ours), top(ref)))
    print(f"{'mjrs function':<48} {'Ki/step':>8}   {'MuJoCo function':<36} {'Ki/step':>8}")
    for (n1, c1), (n2, c2) in rows:
        print(f"{n1[:48]:<48} {per(c1):>8.1f}   {n2[:36]:<36} {per(c2):>8.1f}")
    print(f"{'total':<48} {per(sum(ours.values())):>8.1f}   {'total':<36} {per(sum(ref.values())):>8.1f}")


if __name__ == "__main__":
    sys.exit(main())
