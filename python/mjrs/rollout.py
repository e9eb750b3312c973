"""Open-loop rollouts, as MuJoCo's ``mujoco.rollout``: from initial states, step under given
controls and record the state and sensor values after every step.

    state, sensordata = mjrs.rollout.rollout(model, data, initial_state, control)

Shapes (``nstate = mj_stateSize(model, mjSTATE_FULLPHYSICS)``,
``ncontrol = mj_stateSize(model, control_spec)``): ``initial_state`` ``([nroll or 1], nstate)``,
``control`` ``([nroll or 1], [nstep or 1], ncontrol)``, ``initial_warmstart``
``([nroll or 1], nv)``; outputs ``state`` ``(nroll, nstep, nstate)`` and ``sensordata``
``(nroll, nstep, nsensordata)``. A size-1 leading dimension is repeated. ``nthread`` > 1 runs
the rollouts on that many threads (one data each) with the same results. ``progress=True``
shows a tqdm progress bar (tqdm is an optional dependency): the batch then runs in parts of
``nthread`` rollouts or more, with the same results.
"""
import numpy as np

from mjrs import _mjrs, _progress
from mjrs._mjrs import mj_stateSize, mjtState

__all__ = ["rollout"]


def _as_array(name, value, ndim):
    if value is None:
        return None
    if not isinstance(value, (np.ndarray, float)):
        raise ValueError(f"{name} must be a numpy array or float")
    value = np.asarray(value, dtype=np.float64)
    if value.ndim > ndim:
        raise ValueError(f"{name} can have at most {ndim} dimensions, got {value.ndim}")
    while value.ndim < ndim:
        value = value[np.newaxis]
    return np.ascontiguousarray(value)


def _dimension(axis, given, **arrays):
    """The size of ``axis`` shared by the arrays that are not 1 there (or ``given``)."""
    sizes = {name: a.shape[axis] for name, a in arrays.items() if a is not None and a.shape[axis] != 1}
    if given is not None:
        sizes["argument"] = given
    values = set(sizes.values())
    if len(values) > 1:
        raise ValueError(f"dimension {axis} inconsistent: {sizes}")
    return values.pop() if values else 1


def _repeat(array, *sizes):
    if array is None:
        return None
    for axis, n in enumerate(sizes):
        if array.shape[axis] == 1 and n != 1:
            array = np.repeat(array, n, axis=axis)
    return np.ascontiguousarray(array)


def _check_trailing(n, **arrays):
    for name, a in arrays.items():
        if a is not None and a.shape[-1] != n:
            raise ValueError(f"trailing dimension of {name} must be {n}, got {a.shape[-1]}")


def rollout(model, data, initial_state, control=None, *,
            control_spec=int(mjtState.mjSTATE_CTRL), skip_checks=False, nroll=None,
            nstep=None, initial_warmstart=None, state=None, sensordata=None, nthread=1,
            progress=False):
    """Rolls out open-loop trajectories; returns ``(state, sensordata)``."""
    if skip_checks:
        _mjrs._rollout(model, data, nroll, nstep, control_spec, initial_state,
                       initial_warmstart, control, state, sensordata, nthread)
        return state, sensordata
    b = _prepare(model, initial_state, control, control_spec, nroll, nstep,
                 initial_warmstart, state, sensordata, nthread=nthread)
    _run(model, data, b.nstep, control_spec, b.arrays(), nthread, progress)
    return b.state, b.sensordata


class _Batch:
    """A batch's arguments checked and broadcast: the shapes, the input arrays (repeated
    along size-1 dimensions), and the outputs (given or new)."""

    def arrays(self, start=0, stop=None):
        """``(initial_state, initial_warmstart, control, state, sensordata)`` of rollouts
        ``start..stop`` (views)."""
        cut = slice(start, stop)
        return tuple(None if a is None else a[cut] for a in
                     (self.initial_state, self.initial_warmstart, self.control, self.state,
                      self.sensordata))


def _prepare(model, initial_state, control, control_spec, nroll, nstep, initial_warmstart,
             state, sensordata, nthread=1):
    """Checks a batch's arguments with MuJoCo's rules and messages; a ``_Batch``."""
    if control_spec & ~int(mjtState.mjSTATE_USER):
        raise ValueError("control_spec can only contain bits in mjSTATE_USER")
    for name, value in (("nroll", nroll), ("nstep", nstep), ("nthread", nthread)):
        if value is not None and not isinstance(value, int):
            raise ValueError(f"{name} must be an integer")
    initial_state = _as_array("initial_state", initial_state, 2)
    initial_warmstart = _as_array("initial_warmstart", initial_warmstart, 2)
    control = _as_array("control", control, 3)
    state = _as_array("state", state, 3)
    sensordata = _as_array("sensordata", sensordata, 3)
    nstate = mj_stateSize(model, int(mjtState.mjSTATE_FULLPHYSICS))
    _check_trailing(nstate, initial_state=initial_state, state=state)
    _check_trailing(mj_stateSize(model, control_spec), control=control)
    _check_trailing(model.nv, initial_warmstart=initial_warmstart)
    _check_trailing(model.nsensordata, sensordata=sensordata)
    b = _Batch()
    b.nstate = nstate
    nroll = _dimension(0, nroll, initial_state=initial_state, initial_warmstart=initial_warmstart,
                       control=control, state=state, sensordata=sensordata)
    nstep = _dimension(1, nstep, control=control, state=state, sensordata=sensordata)
    initial_state = _repeat(initial_state, nroll)
    initial_warmstart = _repeat(initial_warmstart, nroll)
    control = _repeat(control, nroll, nstep)
    if state is None:
        state = np.empty((nroll, nstep, nstate))
    if sensordata is None:
        sensordata = np.empty((nroll, nstep, model.nsensordata))
    b.nroll, b.nstep = nroll, nstep
    b.initial_state, b.initial_warmstart, b.control = initial_state, initial_warmstart, control
    b.state, b.sensordata = state, sensordata
    return b


def _run(model, data, nstep, control_spec, arrays, nthread, progress):
    """Runs the batch in one call, or in parts of about 1% of it (at least ``nthread``
    rollouts) under a progress bar; rollouts are independent, so the results are the same."""
    nroll = arrays[0].shape[0]
    if not progress:
        _mjrs._rollout(model, data, nroll, nstep, control_spec, *arrays, nthread)
        return
    bar = _progress.bar(True, nroll, "rollout")
    try:
        for start, stop in _progress.chunks(nroll, max(nthread, nroll // 100)):
            part = tuple(None if a is None else a[start:stop] for a in arrays)
            _mjrs._rollout(model, data, stop - start, nstep, control_spec, *part, nthread)
            bar.update(stop - start)
    finally:
        bar.close()
