"""Batches of rollouts on Ray workers: ``mjrs.rollout.rollout`` beyond one process or machine.

    import ray
    import mjrs
    from mjrs.ray import RolloutPool

    ray.init()                                   # or ray.init(address="auto") on a cluster
    model = mjrs.MjModel.from_xml_path("humanoid.xml")
    with RolloutPool(model, nworker=4) as pool:
        state, sensordata = pool.rollout(initial_state, control, progress=True)

Each worker is a Ray actor that receives the model once (pickled as its MJB bytes, sent once
through Ray's object store) and keeps it with one ``MjData``; a batch is cut into chunks of
rollouts that go to the workers as they become free. A chunk's outputs come back as NumPy
arrays through the object store (read without a copy) and are written into the batch's
arrays. The arguments and results are those of ``mjrs.rollout.rollout``, bit for bit: rollouts
do not depend on each other or on the data they run on.

Faults: a worker whose process dies is restarted by Ray (up to ``max_restarts`` times), which
loads the model again and runs the chunks that were running or waiting on it again; every
chunk's result is written exactly once, so a batch's results are complete and the same as
without the fault. Once the restarts are used up, ``rollout`` raises Ray's ``RayActorError``.
(Ray logs, for each worker, that "constructor arguments in the object store" could be lost on a
restart: the pool keeps its reference to the model for as long as it lives, so they are not.)

Needs ``ray`` (not a dependency of mjrs); ``progress=True`` needs ``tqdm``.
"""
import math
import os
import time

import ray

import mjrs
from mjrs import _progress, rollout as _rollout

__all__ = ["RolloutPool", "RolloutWorker", "rollout"]


class RolloutWorker:
    """What each Ray actor runs: one model, one data, ``mjrs.rollout.rollout`` on chunks.

    Subclass it to change what a worker does (``RolloutPool(worker_class=...)``)."""

    def __init__(self, model, nthread=1):
        self.model = model
        self.data = mjrs.MjData(model)
        self.nthread = nthread

    def rollout(self, start, initial_state, control, initial_warmstart, nstep, control_spec):
        """The outputs of rollouts ``start, start + 1, ...`` of a batch: ``(state,
        sensordata)``, returned through the object store."""
        return _rollout.rollout(self.model, self.data, initial_state, control, nstep=nstep,
                                control_spec=control_spec, initial_warmstart=initial_warmstart,
                                nthread=self.nthread)

    def pid(self):
        """The worker's process id (to watch restarts)."""
        return os.getpid()

    def cpu_time(self):
        """The CPU seconds the worker's process has used (to measure what a batch costs)."""
        return time.process_time()


class RolloutPool:
    """``nworker`` Ray actors, each holding ``model``, running batches of rollouts.

    ``nthread`` threads per worker (``rollout(nthread=...)``) and as many CPUs reserved for
    each actor; ``max_restarts`` restarts of a worker whose process died (each retrying the
    chunks it had); ``worker_class`` the actor's class (a ``RolloutWorker``)."""

    def __init__(self, model, nworker, *, nthread=1, max_restarts=3,
                 worker_class=RolloutWorker):
        if not isinstance(model, mjrs.MjModel):
            raise TypeError("model must be an mjrs.MjModel")
        if not isinstance(nworker, int) or nworker < 1:
            raise ValueError("nworker must be a positive integer")
        if not ray.is_initialized():
            raise RuntimeError("Ray is not initialized: call ray.init() first")
        self.model = model
        actor = ray.remote(worker_class).options(
            num_cpus=nthread, max_restarts=max_restarts, max_task_retries=max_restarts)
        # one copy in the object store for every worker, kept referenced for as long as the
        # pool lives: a restarted worker loads the model from it again
        self._model_ref = ray.put(model)
        self.workers = [actor.remote(self._model_ref, nthread) for _ in range(nworker)]

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.shutdown()

    def shutdown(self):
        """Ends the worker processes."""
        for w in self.workers:
            ray.kill(w, no_restart=True)
        self.workers = []

    def pids(self):
        """The process id of each worker."""
        return ray.get([w.pid.remote() for w in self.workers])

    def cpu_time(self):
        """The CPU seconds used by the worker processes together."""
        return sum(ray.get([w.cpu_time.remote() for w in self.workers]))

    def rollout(self, initial_state, control=None, *,
                control_spec=int(mjrs.mjtState.mjSTATE_CTRL), nroll=None, nstep=None,
                initial_warmstart=None, state=None, sensordata=None, chunk=None,
                progress=False):
        """``mjrs.rollout.rollout(model, data, initial_state, control, ...)`` on the workers:
        returns ``(state, sensordata)`` of shapes ``(nroll, nstep, nstate)`` and ``(nroll,
        nstep, nsensordata)``. ``chunk`` rollouts go to a worker at a time (default: a
        quarter of a worker's share); ``progress=True`` shows a tqdm bar."""
        if not self.workers:
            raise RuntimeError("the pool was shut down")
        # checked and completed by the single-process rollout's rules and messages
        b = _rollout._prepare(self.model, initial_state, control, control_spec, nroll, nstep,
                              initial_warmstart, state, sensordata)
        if chunk is None:
            chunk = math.ceil(b.nroll / (4 * len(self.workers)))
        if not isinstance(chunk, int) or chunk < 1:
            raise ValueError("chunk must be a positive integer")
        bar = _progress.bar(progress, b.nroll, "rollout (ray)")
        try:
            self._run(b, _progress.chunks(b.nroll, chunk), control_spec, bar)
        finally:
            bar.close()
        return b.state, b.sensordata

    def _run(self, b, parts, control_spec, bar):
        """Keeps two chunks queued on each worker; writes each chunk's result once, as it
        arrives."""
        todo = list(reversed(parts))
        running = {}                                   # object ref -> (start, stop, worker)

        def submit(w):
            start, stop = todo.pop()
            initial_state, initial_warmstart, control, _, _ = b.arrays(start, stop)
            ref = self.workers[w].rollout.remote(start, initial_state, control,
                                                 initial_warmstart, b.nstep, control_spec)
            running[ref] = (start, stop, w)

        for _ in range(2):
            for w in range(len(self.workers)):
                if todo:
                    submit(w)
        while running:
            done, _ = ray.wait(list(running), num_returns=1)
            ref = done[0]
            start, stop, w = running.pop(ref)
            state, sensordata = ray.get(ref)         # views of the object store, no copy
            b.state[start:stop] = state
            b.sensordata[start:stop] = sensordata
            bar.update(stop - start)
            if todo:
                submit(w)


def rollout(model, initial_state, control=None, *, nworker=2, nthread=1, **kwargs):
    """One batch on a pool of ``nworker`` workers made for it (``RolloutPool.rollout``'s
    arguments); a pool kept across batches saves starting the workers each time."""
    with RolloutPool(model, nworker, nthread=nthread) as pool:
        return pool.rollout(initial_state, control, **kwargs)
