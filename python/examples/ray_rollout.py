"""Batches of rollouts on Ray workers (mjrs.ray), against one process with threads.

    python python/examples/ray_rollout.py [MODEL.xml] [--nroll N] [--nstep N] [--address ADDR]

Starts a local Ray cluster (or joins ADDR), rolls out NROLL random-control trajectories of
NSTEP steps from perturbed initial states, checks that every way of running the batch gives
the same numbers bit for bit, and prints steps per second for `rollout(nthread=1, 2, 4)` in
this process and for pools of 1, 2 and 4 Ray workers (best of --repeat runs each), with the
steps per CPU-second (this process's and the workers' CPU time: what a batch costs, much less
disturbed than the wall clock by other programs on the machine).
"""
import argparse
import os
import pathlib
import time

import numpy as np
import ray

import mjrs
from mjrs.ray import RolloutPool

ROOT = pathlib.Path(__file__).resolve().parents[2]


def make_batch(m, nroll, nstep, seed=0):
    """Initial states around the model's reset state and uniform random controls."""
    d = mjrs.MjData(m)
    rng = np.random.default_rng(seed)
    spec = mjrs.mjtState.mjSTATE_FULLPHYSICS
    initial = np.zeros((nroll, mjrs.mj_stateSize(m, spec)))
    for i in range(nroll):
        mjrs.mj_resetData(m, d)
        d.qpos[:] += 0.01 * rng.normal(size=m.nq)
        mjrs.mj_getState(m, d, initial[i], spec)
    lo, hi = m.actuator_ctrlrange[:, 0], m.actuator_ctrlrange[:, 1]
    control = rng.uniform(lo, hi, (nroll, nstep, m.nu))
    return initial, control


def best_time(run, repeat, cpu_time=time.process_time):
    """The shortest wall and CPU times of `repeat` runs, and the last result; `cpu_time` is a
    clock of the CPU seconds used by everything that runs the batch."""
    wall, cpu, out = float("inf"), float("inf"), None
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), cpu_time()
        out = run()
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, cpu_time() - start_cpu)
    return wall, cpu, out


def report(label, steps, wall, cpu):
    print(f"  {label:38s} {steps / wall:12,.0f} steps/s {steps / cpu:12,.0f} steps/CPU-s")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("model", nargs="?", default=str(ROOT / "tests/models/humanoid.xml"))
    p.add_argument("--nroll", type=int, default=64)
    p.add_argument("--nstep", type=int, default=500)
    p.add_argument("--repeat", type=int, default=3)
    p.add_argument("--address", default=None, help="a running Ray cluster (default: local)")
    p.add_argument("--progress", action="store_true", help="tqdm progress bars")
    args = p.parse_args()

    m = mjrs.MjModel.from_xml_path(args.model)
    initial, control = make_batch(m, args.nroll, args.nstep)
    steps = args.nroll * args.nstep
    print(f"{pathlib.Path(args.model).name}: {args.nroll} rollouts x {args.nstep} steps, "
          f"{os.cpu_count()} CPUs")

    reference = None
    for nthread in (1, 2, 4):
        d = mjrs.MjData(m)
        wall, cpu, out = best_time(lambda: mjrs.rollout.rollout(
            m, d, initial, control, nthread=nthread, progress=args.progress), args.repeat)
        reference = reference or out
        assert all(np.array_equal(a, b) for a, b in zip(out, reference))
        report(f"one process, rollout(nthread={nthread})", steps, wall, cpu)

    if args.address:
        ray.init(address=args.address)
    else:
        ray.init(num_cpus=4, include_dashboard=False, log_to_driver=False)
    for nworker in (1, 2, 4):
        with RolloutPool(m, nworker) as pool:
            pool.rollout(initial[:nworker], control[:nworker])      # workers started and warm
            wall, cpu, out = best_time(
                lambda: pool.rollout(initial, control, progress=args.progress), args.repeat,
                lambda: time.process_time() + pool.cpu_time())
        assert all(np.array_equal(a, b) for a, b in zip(out, reference))
        report(f"Ray, {nworker} worker{'s' if nworker > 1 else ''}", steps, wall, cpu)
    ray.shutdown()
    print("all results equal bit for bit")


if __name__ == "__main__":
    main()
