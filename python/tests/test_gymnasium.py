"""Gymnasium's MuJoCo environments run on mjrs, `mujoco` swapped for `mjrs`, and give what they
give on MuJoCo 3.1.6 (fixtures/generate_gymnasium.py): the same observations, rewards,
terminations and truncations over 1000 steps of a seeded random policy, resets included."""
import hashlib

import gymnasium as gym
import numpy as np
import pytest

import mjrs
from conftest import FIXTURES


@pytest.fixture(scope="module")
def recorded():
    with np.load(FIXTURES / "gymnasium.npz") as f:
        return {k: f[k] for k in f.files}


pytestmark = pytest.mark.usefixtures("mujoco_is_mjrs")


@pytest.mark.parametrize("env_id", ["InvertedPendulum-v5"])
def test_environment_matches_mujoco(recorded, env_id):
    env = gym.make(env_id)
    assert env.unwrapped.model.__class__ is mjrs.MjModel
    obs, _ = env.reset(seed=0)
    resets = recorded[f"{env_id}/reset_obs"]
    assert np.array_equal(obs, resets[0])
    r = 1
    for i, action in enumerate(recorded[f"{env_id}/actions"]):
        obs, reward, terminated, truncated, _ = env.step(action)
        assert np.array_equal(obs, recorded[f"{env_id}/obs"][i]), f"observation of step {i}"
        assert reward == recorded[f"{env_id}/rewards"][i], f"reward of step {i}"
        assert terminated == recorded[f"{env_id}/terminated"][i], f"termination at step {i}"
        assert truncated == recorded[f"{env_id}/truncated"][i], f"truncation at step {i}"
        if terminated or truncated:
            obs, _ = env.reset()
            assert np.array_equal(obs, resets[r]), f"reset {r}"
            r += 1
    assert r == len(resets)
    env.close()


DIGEST_ENVS = [
    "Ant-v5", "HalfCheetah-v5", "Hopper-v5", "Humanoid-v5", "HumanoidStandup-v5",
    "InvertedDoublePendulum-v5", "InvertedPendulum-v5", "Pusher-v5", "Reacher-v5", "Swimmer-v5",
    "Walker2d-v5",
]


def digest(*values):
    """The generator's digest (fixtures/generate_gymnasium.py)."""
    h = hashlib.blake2b(digest_size=8)
    for v in values:
        h.update(np.asarray(v, dtype=np.float64).tobytes())
    return int.from_bytes(h.digest(), "little")


@pytest.fixture(scope="module")
def recorded_digests():
    with np.load(FIXTURES / "gymnasium_digests.npz") as f:
        return {k: f[k] for k in f.files}


@pytest.mark.parametrize("env_id", DIGEST_ENVS)
def test_every_v5_environment_matches_mujoco_bit_for_bit(recorded_digests, env_id):
    env = gym.make(env_id)
    env.action_space.seed(0)
    obs, _ = env.reset(seed=0)
    assert digest(obs) == recorded_digests[f"{env_id}/reset"][0], "first reset"
    actions = recorded_digests[f"{env_id}/actions"]
    steps = recorded_digests[f"{env_id}/steps"]
    for i in range(len(steps)):
        action = env.action_space.sample()
        # a different action means Gymnasium samples differently: regenerate the fixture
        assert digest(action) == actions[i], f"action of step {i} (Gymnasium's sampling)"
        obs, reward, terminated, truncated, _ = env.step(action)
        after = env.reset()[0] if terminated or truncated else 0
        assert digest(obs, reward, terminated, truncated, after) == steps[i], f"step {i}"
    env.close()
