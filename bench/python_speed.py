#!/usr/bin/env python3
"""mjrs's Python package against MuJoCo 3.1.6's (`mujoco`), both driven from Python, on the same
MJB files (compiled by MuJoCo: `mjref mjb`) and the same controls, in alternating rounds.

    bench/python_speed.py [--rounds R] [--median] [--cpu C] [--steps-scale F] [--no-callgrind] [--no-core]
                          [--threads 1,2] [--rollout-batch N] [--rollout-steps H] [--nstep K]
                          [--cg-scale F] [--cg-nroll N] [--only overhead,counts,loop,rollout]
                          [NAME...]

Four tables:
1. Per-call overhead, on a pendulum with one motor (a step of almost no work): ns per
   `mj_step(m, d)` in a Python loop, per step of one `mj_step(m, d, nstep=N)` call, their
   difference (the cost of one call from Python), and per `d.ctrl[:] = u; mj_step(m, d)`.
   The same in instructions, counted by valgrind's callgrind on the whole interpreter: two runs
   of different call counts, the difference divided by the difference in calls (so start-up and
   imports cancel out), which the load of the machine does not move.
2. Counts (callgrind, load-independent), per model of bench/models.txt (or those named): the
   instructions per step of the whole interpreter in three sections of one run per package
   (zeroed before and dumped after each section through bench/cg_marks.c's client requests, so
   nothing is subtracted and start-up is not counted): `d.ctrl[:] = u; mj_step(m, d)` in a
   Python loop, `mj_step(m, d, nstep=K)`, and `rollout.rollout`; with u the sine law of
   `mjref speed`. Beside them the step function's own count in the same runs (mjrs_core's
   step, MuJoCo's mj_step, inclusive), which splits each model's gap into the core's and the
   rest's (bindings, interpreter, rollout's copies). "same": the three final states agree bit
   for bit.
3. Wall clock per model: steps/s of the Python loop `d.ctrl[:] = u[k]; mj_step(m, d)` and of
   `mj_step(m, d, nstep=K)` calls, and the core's own steps/s (`mjrs speed` against MuJoCo's
   `speed` binary of mjref, same MJB and law), to tell the core's share from the bindings'.
   "same" says whether both packages ended in the same qpos, bit for bit.
4. `rollout.rollout(model, data, initial_state, control, state=, sensordata=)` against MuJoCo's
   `mujoco.rollout.rollout` on the same reset state and controls (rollout r: the sine law with its
   clock shifted by 0.1 r s); on T > 1 threads mjrs's `nthread=T` against MuJoCo 3.1.6 on T
   Python threads with one MjData each (its rollout releases the GIL; it has no nthread).

Wall clock: best of R rounds (each round runs mjrs and MuJoCo back to back, the first of the two
alternating), each round the best of a few repeats in one process; --median takes the rounds'
median instead, --cpu C pins every timed run on one thread to CPU C (taskset; on a shared or
small machine unpinned runs swing 10-30%). Ratios are mjrs / MuJoCo (above 1: mjrs faster).

Interpreters: mjrs from the venv of python/test.sh ($CARGO_TARGET_DIR/python-venv, or
--mjrs-python), MuJoCo from mjref's venv (~/.cache/mjref/venv, or --mujoco-python). Needs
../shared/mjref/mjref, valgrind and a C compiler for the instruction counts, and for the core
column the release `mjrs` binary (built first with cargo). Every worker runs with one OpenBLAS
thread (see main())."""
import argparse
import datetime
import hashlib
import json
import math
import os
import pathlib
import re
import statistics
import subprocess
import sys
import tempfile
import time

from speed import (MJREF, MJREF_HOME, ROOT, STEP_EXACT, STEP_MUJOCO,  # shared with bench/speed.py
                   last_json, models, run)

PACKAGES = ("mjrs", "mujoco")
# each package's step function (the core's step, counted inclusively in the counts table)
STEP = {"mjrs": STEP_EXACT, "mujoco": STEP_MUJOCO}
CLOCK_SHIFT = 0.1  # the clock shift between rollouts, as bench/rollout_mujoco.py

# a step of almost no work: one hinge, one motor, no contacts
PENDULUM = """<mujoco model="pendulum">
  <worldbody>
    <body>
      <joint name="hinge" type="hinge" axis="0 1 0" damping="0.1"/>
      <geom type="capsule" fromto="0 0 0 0 0 -0.5" size="0.05"/>
    </body>
  </worldbody>
  <actuator><motor joint="hinge" gear="1" ctrlrange="-1 1" ctrllimited="true"/></actuator>
</mujoco>
"""


# ---------------------------------------------------------------------------------------------
# worker: runs inside the interpreter of one package and prints one JSON line


def sine_controls(m, nstep, shift=0.0):
    """`mjref speed`'s law at each step's time, (nstep, nu). math.sin (the C library's), not
    NumPy's: the two venvs have different NumPy versions, and the controls must be equal."""
    dt, nu = m.opt.timestep, m.nu
    rows = []
    t = 0.0
    for _ in range(nstep):
        row = []
        for i in range(nu):
            s = math.sin(2.0 * (t + shift) * (1 + 0.1 * i) + i)
            if m.actuator_ctrllimited[i]:
                lo, hi = m.actuator_ctrlrange[i]
                row.append(lo + (hi - lo) * (0.5 + 0.5 * s))
            else:
                row.append(s)
        rows.append(row)
        t += dt
    return rows


def worker(package, job):
    import numpy as np
    mj = __import__(package)
    rollout_module = __import__(f"{package}.rollout", fromlist=["rollout"])
    m = mj.MjModel.from_binary_path(job["mjb"])
    d = mj.MjData(m)
    step, reset = mj.mj_step, mj.mj_resetData
    case, repeat = job["case"], job.get("repeat", 1)

    def best(run):
        """Seconds of the fastest of `repeat` runs (after one warm-up run)."""
        reset(m, d)
        run()
        times = []
        for _ in range(repeat):
            reset(m, d)
            t0 = time.perf_counter()
            run()
            times.append(time.perf_counter() - t0)
        return min(times)

    def checksum():
        return hashlib.sha256(d.qpos.tobytes()).hexdigest()

    if case == "overhead":
        n = job["calls"]
        u = np.array(sine_controls(m, 1)[0])

        def loop():
            for _ in range(n):
                step(m, d)

        def nstep():
            step(m, d, nstep=n)

        def ctrl_loop():
            for _ in range(n):
                d.ctrl[:] = u
                step(m, d)

        out = {"loop": best(loop) / n * 1e9}
        q_loop = checksum()
        out["nstep"] = best(nstep) / n * 1e9
        out["same_nstep"] = q_loop == checksum()
        out["ctrl_loop"] = best(ctrl_loop) / n * 1e9
    elif case == "count":
        # a fixed amount of work for callgrind: only the difference of two counts is used
        n, mode = job["calls"], job["mode"]
        u = np.array(sine_controls(m, 1)[0])
        reset(m, d)
        if mode == "loop":
            for _ in range(n):
                step(m, d)
        elif mode == "nstep":
            step(m, d, nstep=n)
        elif mode == "ctrl_loop":
            for _ in range(n):
                d.ctrl[:] = u
                step(m, d)
        out = {}
    elif case == "sections":
        out = sections(mj, rollout_module.rollout, m, d, job)
    elif case == "loop":
        n, k = job["steps"], job["nstep"]
        u = np.array(sine_controls(m, n)).reshape(n, m.nu)
        rows = list(u)

        def loop():
            for row in rows:
                d.ctrl[:] = row
                step(m, d)

        def chunks():
            for row in rows[::k]:
                d.ctrl[:] = row
                step(m, d, nstep=k)

        out = {"steps_per_second": n / best(loop), "qpos": checksum(),
               "nstep_per_second": (n - n % k) / best(chunks)}
    elif case == "rollout":
        nroll, nstep, threads = job["nroll"], job["nstep"], job["threads"]
        spec = int(mj.mjtState.mjSTATE_FULLPHYSICS)
        state0 = np.zeros(mj.mj_stateSize(m, spec))
        reset(m, d)
        mj.mj_getState(m, d, state0, spec)
        state0 = np.tile(state0, (nroll, 1))
        ctrl = np.array([sine_controls(m, nstep, CLOCK_SHIFT * r) for r in range(nroll)])
        ctrl = ctrl.reshape(nroll, nstep, m.nu)
        state = np.empty((nroll, nstep, state0.shape[1]))
        sensordata = np.empty((nroll, nstep, m.nsensordata))
        run = rollout_runner(mj, rollout_module.rollout, m, d, state0, ctrl, state, sensordata,
                             threads)
        out = {"steps_per_second": nroll * nstep / best(run),
               "state": hashlib.sha256(state.tobytes()).hexdigest()}
    else:
        raise SystemExit(f"unknown case {case}")
    print(json.dumps(out))


def sections(mj, rollout, m, d, job):
    """The three ways of stepping of the counts table, each a section counted by callgrind
    (bench/cg_marks.c through ctypes: the counts are zeroed before and dumped after it):
    "loop", `d.ctrl[:] = u; mj_step(m, d)` for `steps` steps; "nstep", `d.ctrl[:] = u;
    mj_step(m, d, nstep=k)` over the same steps (the controls of each call's first step); both
    after `warmup` steps of the loop from the reset state; "rollout", `rollout.rollout` of
    `nroll` rollouts of steps / nroll steps from the reset state (rollout r: the law's clock
    shifted by 0.1 r s). Returns checksums of the final states."""
    import ctypes
    import numpy as np
    marks = ctypes.CDLL(job["marks"])
    n, k, warm, nroll = job["steps"], job["nstep"], job["warmup"], job["nroll"]
    rows = list(np.array(sine_controls(m, warm + n)).reshape(warm + n, m.nu))

    def warmup():
        mj.mj_resetData(m, d)
        for row in rows[:warm]:
            d.ctrl[:] = row
            mj.mj_step(m, d)

    def checksum(a):
        return hashlib.sha256(a.tobytes()).hexdigest()

    warmup()
    marks.cg_zero()
    for row in rows[warm:]:
        d.ctrl[:] = row
        mj.mj_step(m, d)
    marks.cg_dump(b"loop")
    out = {"loop": checksum(d.qpos)}
    warmup()
    marks.cg_zero()
    for row in rows[warm::k]:
        d.ctrl[:] = row
        mj.mj_step(m, d, nstep=k)
    marks.cg_dump(b"nstep")
    out["nstep"] = checksum(d.qpos)
    spec = int(mj.mjtState.mjSTATE_FULLPHYSICS)
    state0 = np.zeros((nroll, mj.mj_stateSize(m, spec)))
    mj.mj_resetData(m, d)
    mj.mj_getState(m, d, state0[0], spec)
    state0[1:] = state0[0]
    h = n // nroll
    ctrl = np.array([sine_controls(m, h, CLOCK_SHIFT * r) for r in range(nroll)])
    ctrl = ctrl.reshape(nroll, h, m.nu)
    state = np.empty((nroll, h, state0.shape[1]))
    sensordata = np.empty((nroll, h, m.nsensordata))
    marks.cg_zero()
    rollout(m, d, state0, ctrl, state=state, sensordata=sensordata)
    marks.cg_dump(b"rollout")
    out["rollout"] = checksum(state)
    return out


def rollout_runner(mj, rollout, m, d, state0, ctrl, state, sensordata, threads):
    """The batch on `threads` threads: mjrs's nthread, MuJoCo 3.1.6 on as many Python threads
    (contiguous shares, one MjData each)."""
    if threads == 1:
        return lambda: rollout(m, d, state0, ctrl, state=state, sensordata=sensordata)
    if mj.__name__ == "mjrs":
        return lambda: rollout(m, d, state0, ctrl, state=state, sensordata=sensordata,
                               nthread=threads)
    import threading
    import numpy as np
    shares = np.array_split(np.arange(state0.shape[0]), threads)
    datas = [mj.MjData(m) for _ in shares]

    def run():
        jobs = [threading.Thread(target=rollout, args=(m, dd, state0[s[0]:s[-1] + 1],
                                                       ctrl[s[0]:s[-1] + 1]),
                                 kwargs={"state": state[s[0]:s[-1] + 1],
                                         "sensordata": sensordata[s[0]:s[-1] + 1]})
                for s, dd in zip(shares, datas)]
        for j in jobs:
            j.start()
        for j in jobs:
            j.join()
    return run


# ---------------------------------------------------------------------------------------------
# driver


class Bench:
    def __init__(self, a, tmp):
        self.a, self.tmp = a, pathlib.Path(tmp)
        target = pathlib.Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        self.target = target if target.is_absolute() else ROOT / target
        self.python = {
            "mjrs": a.mjrs_python or self.target / "python-venv" / "bin" / "python",
            "mujoco": a.mujoco_python or MJREF_HOME / "venv" / "bin" / "python",
        }
        for package, python in self.python.items():
            try:
                run([python, "-c", f"import {package}"])
            except (RuntimeError, OSError) as e:
                sys.exit(f"{python} cannot import {package} ({e}); for mjrs run python/test.sh "
                         "once (or pass --mjrs-python), for mujoco `mjref setup`")
        self.round = 0
        pinned = "" if a.cpu is None else f" (pinned to CPU {a.cpu})"
        self.stat = ("median" if a.median else "best") + pinned

    def mjb(self, name, xml):
        out = self.tmp / f"{name}.mjb"
        if not out.exists():
            run([MJREF, "mjb", xml, "-o", out])
        return out

    def pin(self, threads=1):
        """The taskset prefix of --cpu for a run on one thread (runs on more stay unpinned)."""
        return [] if self.a.cpu is None or threads > 1 else ["taskset", "-c", str(self.a.cpu)]

    def job(self, package, job):
        return last_json(run(self.pin(job.get("threads", 1)) + [
            self.python[package], __file__, "--worker", package, json.dumps(job, default=str)]))

    def reduce(self, values, better=max):
        """The rounds' best (`better`), or their median with --median."""
        return statistics.median(values) if self.a.median else better(values)

    def rounds(self, job, keys, better=max):
        """`job` in both packages for --rounds rounds, alternating which goes first; per key of
        `keys` the best (or median) value per package, and the last results."""
        seen, last = {key: {p: [] for p in PACKAGES} for key in keys}, {}
        for _ in range(self.a.rounds):
            order = PACKAGES if self.round % 2 == 0 else PACKAGES[::-1]
            self.round += 1
            for package in order:
                r = self.job(package, job)
                last[package] = r
                for key in keys:
                    seen[key][package].append(r[key])
        best = {key: {p: self.reduce(v, better) for p, v in runs.items()}
                for key, runs in seen.items()}
        return best, last

    def count(self, package, mjb, mode, calls):
        """Instructions of the whole interpreter running `calls` calls in `mode`."""
        out = self.tmp / "cg.out"
        job = {"case": "count", "mjb": str(mjb), "mode": mode, "calls": calls}
        run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", self.python[package],
             __file__, "--worker", package, json.dumps(job)])
        total = re.search(r"^(?:summary|totals):\s*(\d+)", out.read_text(), re.M)
        out.unlink()
        return int(total.group(1))

    def per_call(self, package, mjb, mode):
        n1, n2 = self.a.cg_calls
        return (self.count(package, mjb, mode, n2) - self.count(package, mjb, mode, n1)) / (n2 - n1)

    def marks(self):
        """bench/cg_marks.c built once: the section marks of the worker's counts."""
        out = self.tmp / "cg_marks.so"
        if not out.exists():
            run(["cc", "-O2", "-shared", "-fPIC", ROOT / "bench" / "cg_marks.c", "-o", out])
        return out

    def sections(self, package, mjb, job):
        """The worker's sections (`sections()`) under callgrind: per section the instructions per
        step of the whole interpreter and of the step function alone (`STEP[package]`, its
        inclusive count), and the checksums of the final states."""
        out = self.tmp / f"cg-{package}"
        job = dict(job, case="sections", mjb=str(mjb), marks=str(self.marks()))
        sums = last_json(run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}",
                              self.python[package], __file__, "--worker", package,
                              json.dumps(job)]))
        counts = {}
        for dump in self.tmp.glob(f"cg-{package}*"):
            name, total, step = read_dump(dump.read_text(), STEP[package])
            dump.unlink()
            if name in sums:
                counts[name] = {"total": total / job["steps"], "step": step / job["steps"]}
        return counts, sums


def read_dump(text, function):
    """A callgrind dump's section (its client-request trigger's name), total instructions, and
    the inclusive instructions of `function`: the sum of the costs of the calls into it from
    other functions (callgrind's compressed names: `(id) name` at first use, `(id)` after)."""
    trigger = re.search(r"^desc: Trigger: Client Request: (\S+)", text, re.M)
    total = int(re.search(r"^(?:summary|totals):\s*(\d+)", text, re.M).group(1))
    names, caller, callee, inclusive, after_calls = {}, None, None, 0, False
    for line in text.splitlines():
        if after_calls:
            if callee == function and caller != function:
                inclusive += int(line.split()[-1])
            after_calls = False
        elif line.startswith(("fn=", "cfn=")):
            key, _, rest = line.partition("=")
            ref = re.match(r"\((\d+)\)(?: (.*))?", rest)
            name = rest if ref is None else names.setdefault(ref.group(1), ref.group(2))
            if key == "fn":
                caller = name
            else:
                callee = name
        elif line.startswith("calls="):
            after_calls = True
    return (trigger.group(1) if trigger else None), total, inclusive


def overhead_table(b):
    xml = b.tmp / "pendulum.xml"
    xml.write_text(PENDULUM)
    mjb = b.mjb("pendulum", xml)
    job = {"case": "overhead", "mjb": str(mjb), "calls": 100_000, "repeat": 3}
    rows, _ = b.rounds(job, ("loop", "nstep", "ctrl_loop"), better=min)
    rows["overhead"] = {p: rows["loop"][p] - rows["nstep"][p] for p in PACKAGES}
    print(f"Per-call overhead: pendulum with one motor; ns per call, {b.stat} of "
          f"{b.a.rounds} rounds x 3 repeats of 100000 calls; ratio MuJoCo / mjrs (above 1: mjrs cheaper)\n")
    print("| | mjrs ns | MuJoCo ns | MuJoCo÷mjrs | mjrs instr | MuJoCo instr | MuJoCo÷mjrs instr |")
    print("| --- | ---: | ---: | ---: | ---: | ---: | ---: |")
    counts = {}
    if not b.a.no_callgrind:
        for key in ("loop", "nstep", "ctrl_loop"):
            counts[key] = {p: b.per_call(p, mjb, key) for p in PACKAGES}
        counts["overhead"] = {p: counts["loop"][p] - counts["nstep"][p] for p in PACKAGES}
    labels = {"loop": "`mj_step(m, d)` in a Python loop", "nstep": "one step of `mj_step(m, d, nstep=N)`",
              "overhead": "call overhead (loop − nstep)", "ctrl_loop": "`d.ctrl[:] = u; mj_step(m, d)`"}
    for key in ("loop", "nstep", "overhead", "ctrl_loop"):
        r = rows[key]
        cells = [labels[key], f"{r['mjrs']:.0f}", f"{r['mujoco']:.0f}", f"{r['mujoco'] / r['mjrs']:.2f}"]
        if counts:
            c = counts[key]
            cells += [f"{c['mjrs']:.0f}", f"{c['mujoco']:.0f}", f"{c['mujoco'] / c['mjrs']:.2f}"]
        else:
            cells += ["—"] * 3
        print("| " + " | ".join(cells) + " |", flush=True)
    print()


def core_speed(b, mjb, steps):
    """`mjrs speed` and MuJoCo's `speed` on the same MJB, best (or median) of the rounds,
    alternating."""
    mjrs = b.target / "release" / "mjrs"
    theirs = MJREF_HOME / "speed"
    seen = {"mjrs": [], "mujoco": []}
    for k in range(b.a.rounds):
        cmds = [("mjrs", [mjrs, "speed", mjb, "--steps", steps]), ("mujoco", [theirs, mjb, steps])]
        for package, cmd in (cmds if k % 2 == 0 else cmds[::-1]):
            seen[package].append(last_json(run(b.pin() + cmd))["steps_per_second"])
    return {p: b.reduce(v) for p, v in seen.items()}


def loop_table(b, chosen):
    k = b.a.nstep
    print(f"Python loop `d.ctrl[:] = u[k]; mj_step(m, d)` and `mj_step(m, d, nstep={k})` (the "
          f"controls of each call's first step): steps/s, {b.stat} of {b.a.rounds} rounds x 2 repeats "
          f"(steps: bench/models.txt x {b.a.steps_scale:g}); core: `mjrs speed` / MuJoCo's `speed` "
          "(C loop) on the same MJB; ratios mjrs ÷ MuJoCo\n")
    head = ["model", "loop mjrs/s", "loop MuJoCo/s", "mjrs÷MuJoCo", f"nstep={k} mjrs/s",
            f"nstep={k} MuJoCo/s", "mjrs÷MuJoCo", "same qpos", "core mjrs/s", "core MuJoCo/s",
            "core mjrs÷MuJoCo"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join([" --- "] + [" ---: "] * 6 + [" --- "] + [" ---: "] * 3) + "|")
    for name, xml, steps in chosen:
        mjb = b.mjb(name, xml)
        n = max(k, round(steps * b.a.steps_scale))
        job = {"case": "loop", "mjb": str(mjb), "steps": n, "nstep": k, "repeat": 2}
        try:
            best, last = b.rounds(job, ("steps_per_second", "nstep_per_second"))
        except RuntimeError as e:
            print(f"| {name} | fails: {str(e).splitlines()[-1][:150]} |")
            continue
        same = "yes" if last["mjrs"]["qpos"] == last["mujoco"]["qpos"] else "no"
        cells = [name]
        for r in best.values():
            cells += [f"{r['mjrs']:.0f}", f"{r['mujoco']:.0f}", f"{r['mjrs'] / r['mujoco']:.2f}"]
        cells.append(same)
        if b.a.no_core:
            cells += ["—"] * 3
        else:
            core = core_speed(b, mjb, n)
            cells += [f"{core['mjrs']:.0f}", f"{core['mujoco']:.0f}",
                      f"{core['mjrs'] / core['mujoco']:.2f}"]
        print("| " + " | ".join(cells) + " |", flush=True)
    print()


def counts_table(b, chosen):
    k, nroll = b.a.nstep, b.a.cg_nroll
    print(f"Instructions per step from Python (callgrind, the whole interpreter, Ki): `d.ctrl[:] = "
          f"u; mj_step(m, d)` in a Python loop, `mj_step(m, d, nstep={k})` and `rollout.rollout` "
          f"({nroll} rollouts), each over N steps (bench/models.txt x {b.a.cg_scale:g}, at least "
          f"{k}; loop and nstep after min(N, 20) steps); \"step\": the step function alone "
          "(mjrs_core's step, MuJoCo's mj_step) in the same runs; \"outside\": the rest per step "
          "(bindings, interpreter, controls, rollout's state copies); ratios MuJoCo ÷ mjrs "
          "(above 1: mjrs fewer); same: all three final states bit for bit equal\n")
    head = ["model", "N", "loop mjrs", "loop MuJoCo", "MuJoCo÷mjrs", f"nstep={k} mjrs",
            f"nstep={k} MuJoCo", "rollout mjrs", "rollout MuJoCo", "MuJoCo÷mjrs", "step mjrs",
            "step MuJoCo", "outside mjrs loop/nstep/rollout", "outside MuJoCo", "same"]
    print("| " + " | ".join(head) + " |")
    print("|" + "|".join([" --- "] + [" ---: "] * (len(head) - 2) + [" --- "]) + "|")
    for name, xml, steps in chosen:
        mjb = b.mjb(name, xml)
        n = max(k, round(steps * b.a.cg_scale / (k * nroll)) * k * nroll)
        job = {"steps": n, "nstep": k, "warmup": min(n, 20), "nroll": nroll}
        try:
            r = {p: b.sections(p, mjb, job) for p in PACKAGES}
        except RuntimeError as e:
            print(f"| {name} | fails: {str(e).splitlines()[-1][:150]} |")
            continue
        c = {p: r[p][0] for p in PACKAGES}
        same = "yes" if r["mjrs"][1] == r["mujoco"][1] else "no"

        def ki(p, section, part="total"):
            return c[p][section][part] / 1000

        def outside(p):
            return "/".join(f"{ki(p, s) - ki(p, s, 'step'):.1f}" for s in ("loop", "nstep", "rollout"))

        cells = [name, str(n), f"{ki('mjrs', 'loop'):.1f}", f"{ki('mujoco', 'loop'):.1f}",
                 f"{ki('mujoco', 'loop') / ki('mjrs', 'loop'):.2f}", f"{ki('mjrs', 'nstep'):.1f}",
                 f"{ki('mujoco', 'nstep'):.1f}", f"{ki('mjrs', 'rollout'):.1f}",
                 f"{ki('mujoco', 'rollout'):.1f}",
                 f"{ki('mujoco', 'rollout') / ki('mjrs', 'rollout'):.2f}",
                 f"{ki('mjrs', 'loop', 'step'):.1f}", f"{ki('mujoco', 'loop', 'step'):.1f}",
                 outside("mjrs"), outside("mujoco"), same]
        print("| " + " | ".join(cells) + " |", flush=True)
    print()


def rollout_table(b, chosen, threads):
    print(f"rollout.rollout: {b.a.rollout_batch} rollouts x {b.a.rollout_steps} steps from the reset "
          f"state, steps/s, {b.stat} of {b.a.rounds} rounds x 2 repeats; ratio mjrs ÷ MuJoCo\n")
    print("| model | threads | mjrs/s | MuJoCo/s | mjrs÷MuJoCo | same states |")
    print("| --- | ---: | ---: | ---: | ---: | --- |")
    for name, xml, _ in chosen:
        mjb = b.mjb(name, xml)
        for t in threads:
            job = {"case": "rollout", "mjb": str(mjb), "nroll": b.a.rollout_batch,
                   "nstep": b.a.rollout_steps, "threads": t, "repeat": 2}
            try:
                best, last = b.rounds(job, ("steps_per_second",))
                best = best["steps_per_second"]
            except RuntimeError as e:
                print(f"| {name} | {t} | fails: {str(e).splitlines()[-1][:150]} |")
                continue
            same = "yes" if last["mjrs"]["state"] == last["mujoco"]["state"] else "no"
            print(f"| {name} | {t} | {best['mjrs']:.0f} | {best['mujoco']:.0f} | "
                  f"{best['mjrs'] / best['mujoco']:.2f} | {same} |", flush=True)
    print()


def main():
    if len(sys.argv) == 4 and sys.argv[1] == "--worker":
        worker(sys.argv[2], json.loads(sys.argv[3]))
        return
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("names", nargs="*")
    ap.add_argument("--rounds", type=int, default=3)
    ap.add_argument("--steps-scale", type=float, default=0.25)
    ap.add_argument("--threads", default="1,2", help="rollout thread counts")
    ap.add_argument("--rollout-batch", type=int, default=16)
    ap.add_argument("--rollout-steps", type=int, default=200)
    ap.add_argument("--only", default="overhead,counts,loop,rollout")
    ap.add_argument("--no-callgrind", action="store_true")
    ap.add_argument("--no-core", action="store_true", help="skip the core's steps/s columns")
    ap.add_argument("--cg-calls", default="2000,12000",
                    help="the two call counts of the callgrind difference")
    ap.add_argument("--nstep", type=int, default=10, help="steps per `mj_step(m, d, nstep=k)` call")
    ap.add_argument("--cg-scale", type=float, default=0.0025,
                    help="counts table: steps counted per model, bench/models.txt's x this")
    ap.add_argument("--cg-nroll", type=int, default=2, help="counts table: rollouts per batch")
    ap.add_argument("--cpu", type=int,
                    help="pin the timed one-thread runs to CPU C (taskset); threaded rollouts stay unpinned")
    ap.add_argument("--median", action="store_true",
                    help="the median of the rounds instead of the best")
    ap.add_argument("--mjrs-python")
    ap.add_argument("--mujoco-python")
    a = ap.parse_args()
    a.cg_calls = [int(x) for x in a.cg_calls.split(",")]
    unknown = set(a.names) - {m[0] for m in models()}
    if unknown:
        ap.error(f"not in bench/models.txt: {', '.join(sorted(unknown))}")
    if (a.rounds < 1 or a.steps_scale <= 0 or a.cg_scale <= 0 or a.nstep < 1 or a.cg_nroll < 1
            or len(a.cg_calls) != 2 or not 0 <= a.cg_calls[0] < a.cg_calls[1]):
        ap.error("--rounds, --steps-scale, --cg-scale, --nstep and --cg-nroll must be positive, "
                 "--cg-calls two increasing counts")
    only = set(a.only.split(","))
    # NumPy's OpenBLAS starts a pool of threads that poll for work: under callgrind they add
    # instructions that depend on the scheduling (60 Ki per hopper step), and on a loaded
    # machine they take cores. Neither package calls BLAS while stepping.
    os.environ.update(OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    threads = [int(t) for t in a.threads.split(",")]
    chosen = [m for m in models() if not a.names or m[0] in a.names]
    if not a.no_core and "loop" in only:
        subprocess.run(["cargo", "build", "--release", "-q", "--bin", "mjrs"], cwd=ROOT, check=True)
    commit = subprocess.run(["git", "-C", str(ROOT), "log", "-1", "--format=%h %cs"],
                            capture_output=True, text=True).stdout.strip()
    print(f"mjrs {commit} (Python package) against mujoco 3.1.6 from Python; "
          f"{datetime.datetime.now(datetime.timezone.utc):%Y-%m-%d %H:%M} UTC, load average "
          f"{os.getloadavg()[0]:.2f}, {os.cpu_count()} cores\n")
    with tempfile.TemporaryDirectory() as tmp:
        b = Bench(a, tmp)
        if "overhead" in only:
            overhead_table(b)
        if "counts" in only:
            counts_table(b, chosen)
        if "loop" in only:
            loop_table(b, chosen)
        if "rollout" in only:
            rollout_table(b, chosen, threads)


if __name__ == "__main__":
    main()
