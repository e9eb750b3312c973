#!/usr/bin/env bash
# The Python package's tests: builds the wheel of ./python into a virtual environment of its own
# (created on the first run, under the cargo target directory), with maturin, NumPy and pytest
# from the package index, and runs pytest on python/tests. Called by the repository's ./test.sh;
# arguments go to pytest.
#
# Needs python3 (3.10 or later) with its venv module (Debian: python3-venv), Mesa's EGL, and
# Xvfb with libGL for the window tests (tests/test_window.py, tests/test_viewer.py start a
# virtual X server); ./test.sh installs them when it can.
set -euo pipefail
cd "$(dirname "$0")/.."

target=${CARGO_TARGET_DIR:-target}
venv="$target/python-venv"
[[ $venv = /* ]] || venv="$PWD/$venv"
python=$venv/bin/python
if [[ ! -x $python ]]; then
  python3 -m venv "$venv"
fi
# pinned to the versions the fixtures were recorded and the tests written with, so that a new
# release cannot change a result; Gymnasium (with the modules its MuJoCo environments import:
# glfw, imageio, packaging) but not mujoco: its tests run on mjrs
"$python" -m pip install -q --disable-pip-version-check --upgrade pip
"$python" -m pip install -q --disable-pip-version-check maturin==1.16.0 numpy==2.4.6 \
  pytest==9.2.0 gymnasium==1.4.0 glfw==2.11.0 imageio==2.38.1 packaging==26.4
# the optional dependencies of mjrs.ray (Ray: a local cluster in tests/test_ray.py) and of the
# progress bars (tqdm)
"$python" -m pip install -q --disable-pip-version-check ray==2.60.0 tqdm==4.70.1
# maturin's build hook runs the `maturin` program it installed next to the interpreter
export PATH="$venv/bin:$PATH"
# without build isolation, maturin builds into the same cargo target directory each time
"$python" -m pip install -q --disable-pip-version-check --no-build-isolation --force-reinstall --no-deps ./python
exec "$python" -m pytest -q -p no:cacheprovider --rootdir python python/tests "$@"
