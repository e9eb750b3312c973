"""mjrs.ray on a local Ray cluster this module starts (4 CPUs, one worker process per actor):
batches equal the single-process rollout bit for bit; a worker killed in the middle of a batch
is restarted and its chunks retried, and the batch is still complete and equal."""
import os
import pathlib
import signal
import threading
import time

import numpy as np
import pytest

import mjrs as mujoco
from conftest import model_path

ray = pytest.importorskip("ray")
from mjrs.ray import RolloutPool, RolloutWorker  # noqa: E402

HERE = pathlib.Path(__file__).resolve().parent


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    files = tmp_path_factory.mktemp("ray")
    # the workers import this directory's modules (the stalling worker class below) and see
    # the directory of the files that arm and report a stall
    ray.init(num_cpus=4, include_dashboard=False, log_to_driver=False, configure_logging=False,
             runtime_env={"env_vars": {"PYTHONPATH": str(HERE), "MJRS_TEST_FILES": str(files)}})
    yield files
    ray.shutdown()


@pytest.fixture(scope="module")
def batch():
    """The arm with 24 rollouts of 100 steps from perturbed states, and the single-process
    result."""
    m = mujoco.MjModel.from_xml_path(model_path("tests/models/rollout_arm.xml"))
    d = mujoco.MjData(m)
    nstate = mujoco.mj_stateSize(m, mujoco.mjtState.mjSTATE_FULLPHYSICS)
    rng = np.random.default_rng(3)
    initial = np.zeros((24, nstate))
    for i in range(24):
        mujoco.mj_resetData(m, d)
        d.qpos[:] += 0.1 * rng.normal(size=m.nq)
        mujoco.mj_getState(m, d, initial[i], mujoco.mjtState.mjSTATE_FULLPHYSICS)
    control = rng.uniform(-1, 1, (24, 100, m.nu))
    state, sensordata = mujoco.rollout.rollout(m, d, initial, control)
    return m, initial, control, state, sensordata


class StallingWorker(RolloutWorker):
    """A worker that can be made to stop in the middle of a batch: when the file ``armed``
    exists, the worker that receives the chunk starting at rollout 8 removes it, writes its
    process id to the file ``stalled`` and waits to be killed."""

    def rollout(self, start, *args):
        files = pathlib.Path(os.environ["MJRS_TEST_FILES"])
        if start == 8 and (files / "armed").exists():
            (files / "armed").unlink()
            (files / "stalled").write_text(str(os.getpid()))
            time.sleep(120)
        return super().rollout(start, *args)


@pytest.fixture(scope="module")
def pool(cluster, batch):
    """Three workers, shared by the tests (starting workers is what takes time)."""
    with RolloutPool(batch[0], 3, worker_class=StallingWorker) as pool:
        yield pool


@pytest.mark.parametrize("chunk", [None, 1, 5, 24])
def test_pool_equals_single_process(pool, batch, chunk):
    _, initial, control, state, sensordata = batch
    assert len(set(pool.pids())) == 3                  # one process per worker
    got_state, got_sensordata = pool.rollout(initial, control, chunk=chunk)
    assert np.array_equal(got_state, state)
    assert np.array_equal(got_sensordata, sensordata)


def test_pool_progress_bar(pool, batch, capsys):
    _, initial, control, state, _ = batch
    got_state, _ = pool.rollout(initial, control, chunk=3, progress=True)
    assert np.array_equal(got_state, state)
    err = capsys.readouterr().err
    assert "rollout (ray)" in err and "24/24" in err


def test_results_come_through_the_object_store(pool, batch):
    _, initial, control, state, _ = batch
    ref = pool.workers[0].rollout.remote(0, initial[:2], control[:2], None, 100,
                                         int(mujoco.mjtState.mjSTATE_CTRL))
    chunk_state, _ = ray.get(ref)
    # a read-only view of the shared memory, not a copy
    assert not chunk_state.flags.writeable
    assert np.array_equal(chunk_state, state[:2])


@pytest.mark.parametrize("kill", ["os.kill", "ray.kill"])
def test_killed_worker_is_retried(cluster, pool, batch, kill):
    _, initial, control, state, sensordata = batch
    stalled = cluster / "stalled"
    stalled.unlink(missing_ok=True)
    (cluster / "armed").write_text("")
    before = pool.pids()
    result = {}
    run = threading.Thread(
        target=lambda: result.update(out=pool.rollout(initial, control, chunk=4)))
    run.start()
    for _ in range(600):
        if stalled.exists() and stalled.read_text():
            break
        time.sleep(0.05)
    pid = int(stalled.read_text())
    if kill == "os.kill":
        os.kill(pid, signal.SIGKILL)
    else:
        ray.kill(pool.workers[before.index(pid)], no_restart=False)
    run.join()
    after = pool.pids()
    assert pid in before and pid not in after       # that worker was restarted
    assert len(set(after)) == 3
    got_state, got_sensordata = result["out"]
    assert np.array_equal(got_state, state)
    assert np.array_equal(got_sensordata, sensordata)


def test_worker_death_without_restarts_raises(cluster, batch):
    m, initial, control, _, _ = batch
    stalled = cluster / "stalled"
    stalled.unlink(missing_ok=True)
    (cluster / "armed").write_text("")
    with RolloutPool(m, 1, max_restarts=0, worker_class=StallingWorker) as lone:
        result = {}

        def run():
            try:
                lone.rollout(initial, control, chunk=4)
            except Exception as e:          # noqa: BLE001 (the test looks at the class)
                result["error"] = e
        thread = threading.Thread(target=run)
        thread.start()
        for _ in range(600):
            if stalled.exists() and stalled.read_text():
                break
            time.sleep(0.05)
        os.kill(int(stalled.read_text()), signal.SIGKILL)
        thread.join()
    assert isinstance(result["error"], ray.exceptions.RayActorError)


def test_pool_bad_input(pool, batch):
    m, initial, control, _, _ = batch
    with pytest.raises(TypeError, match="MjModel"):
        RolloutPool("model.xml", 2)
    with pytest.raises(ValueError, match="nworker"):
        RolloutPool(m, 0)
    with pytest.raises(ValueError, match="trailing dimension of initial_state"):
        pool.rollout(initial[:, :3])
    with pytest.raises(ValueError, match="chunk must be a positive integer"):
        pool.rollout(initial, control, chunk=0)
    with pytest.raises(ValueError, match="inconsistent"):
        pool.rollout(initial, control[:5])
    closed = RolloutPool(m, 1)
    closed.shutdown()
    with pytest.raises(RuntimeError, match="shut down"):
        closed.rollout(initial, control)
