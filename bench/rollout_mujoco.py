#!/usr/bin/env python3
"""MuJoCo 3.1.6's batch rollouts (`mujoco.rollout.rollout`) on T threads, timed like `mjrs rollout`.

    python rollout_mujoco.py MODEL.mjb [--batch N] [--steps H] [--threads T]   (the venv of mjref)

The same batch as `mjrs rollout`: N rollouts of H steps from the reset state, rollout r following
the sine control law of mjref with its clock shifted by 0.1 r seconds. MuJoCo 3.1.6's Python
`rollout` runs one batch on one data and releases the GIL, so T threads each roll out a contiguous
share of the batch on their own MjData. Only the rollouts are timed (controls, initial states and
output buffers are made before). Prints JSON with `steps_per_second` over all rollouts."""
import argparse
import json
import math
import threading
import time

import mujoco
import numpy as np
from mujoco import rollout

CLOCK_SHIFT = 0.1  # keep in step with src/rollout.rs


def controls(m, nroll, nstep):
    """The sine law of mjref at each step's time (accumulated as mj_step accumulates it)."""
    out = np.zeros((nroll, nstep, m.nu))
    for r in range(nroll):
        t = 0.0
        for k in range(nstep):
            tr = t + CLOCK_SHIFT * r
            for i in range(m.nu):
                s = math.sin(2.0 * tr * (1 + 0.1 * i) + i)
                if m.actuator_ctrllimited[i]:
                    lo, hi = m.actuator_ctrlrange[i]
                    out[r, k, i] = lo + (hi - lo) * (0.5 + 0.5 * s)
                else:
                    out[r, k, i] = s
            t += m.opt.timestep
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawTextHelpFormatter)
    ap.add_argument("model")
    ap.add_argument("--batch", type=int, default=64)
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--threads", type=int, default=1)
    a = ap.parse_args()
    if a.batch < 1 or a.steps < 1 or a.threads < 1:
        raise SystemExit("--batch, --steps and --threads must be at least 1")
    m = mujoco.MjModel.from_binary_path(a.model)
    spec = mujoco.mjtState.mjSTATE_FULLPHYSICS
    d0 = mujoco.MjData(m)
    state0 = np.zeros(mujoco.mj_stateSize(m, spec))
    mujoco.mj_getState(m, d0, state0, spec)
    ctrl = controls(m, a.batch, a.steps)
    nstate = state0.size
    shares = np.array_split(np.arange(a.batch), min(a.threads, a.batch))
    jobs = []
    for share in shares:
        n = share.size
        jobs.append(dict(data=mujoco.MjData(m), initial_state=np.tile(state0, (n, 1)),
                         control=np.ascontiguousarray(ctrl[share]),
                         state=np.zeros((n, a.steps, nstate)),
                         sensordata=np.zeros((n, a.steps, m.nsensordata))))

    def work(job):
        rollout.rollout(m, job["data"], job["initial_state"], job["control"],
                        control_spec=mujoco.mjtState.mjSTATE_CTRL.value, skip_checks=True,
                        nroll=job["initial_state"].shape[0], nstep=a.steps,
                        state=job["state"], sensordata=job["sensordata"])

    threads = [threading.Thread(target=work, args=(job,)) for job in jobs]
    start = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    seconds = time.perf_counter() - start
    total = a.batch * a.steps
    print(json.dumps({"model": a.model, "batch": a.batch, "steps": a.steps, "threads": a.threads,
                      "total_steps": total, "seconds": round(seconds, 6),
                      "steps_per_second": round(total / seconds, 1)}))


if __name__ == "__main__":
    main()
