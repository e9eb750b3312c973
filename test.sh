#!/usr/bin/env bash
# The README's test command: installs what the tests need and a fresh machine lacks, then runs
# every test of the workspace (both precisions, the renderer and the viewer included).
#
#   ./test.sh                 every test: the workspace's, then the Python package's (pytest)
#   ./test.sh -p mjrs-core    any further arguments go to `cargo test --workspace --release`
#   ./test.sh --python [ARGS] only the Python package's tests (python/test.sh; ARGS to pytest)
#
# Needed beyond a Rust toolchain and a C compiler: Mesa's EGL (the renderer's tests draw
# headless, on the software device when there is no GPU) and Xvfb with the X client libraries
# (the viewer's tests, Rust and Python, and Gymnasium's human mode open real windows on a
# virtual display), and python3 with its venv module
# (the Python package's tests build its wheel into a virtual environment; the Python packages
# they use come from the package index). They are Debian packages; as
# root, or with password-less sudo, this script installs the missing ones with apt-get.
# Otherwise it names them and stops before building anything.
set -euo pipefail
cd "$(dirname "$0")"

missing_tools=()
command -v cargo >/dev/null 2>&1 || missing_tools+=("Rust (cargo): https://rustup.rs")
command -v cc >/dev/null 2>&1 || missing_tools+=("a C compiler as cc (Debian: gcc)")
if ((${#missing_tools[@]})); then
  printf 'mjrs tests need: %s\n' "${missing_tools[@]}" >&2
  exit 1
fi

# ldconfig lives in /sbin, which is not on every user's PATH
ldconfig=$(PATH=$PATH:/sbin:/usr/sbin command -v ldconfig || echo ldconfig)
# read once: `ldconfig -p | grep -q` would fail under pipefail whenever grep stops reading early
libraries=$("$ldconfig" -p 2>/dev/null || true)
has_lib() { grep -q "$1" <<<"$libraries"; }

# library or program -> Debian package
packages=()
has_lib 'libEGL\.so\.1' || packages+=(libegl1)
has_lib 'libEGL_mesa' || packages+=(libegl-mesa0)
[[ -n $(find /usr/lib -maxdepth 3 -name 'swrast_dri.so' -print -quit 2>/dev/null) ]] || packages+=(libgl1-mesa-dri)
has_lib 'libGLX_mesa' || packages+=(libglx-mesa0)
# libGL (GLX through libglvnd): glfw's windows in the Python tests (Gymnasium's human mode)
has_lib 'libGL\.so\.1' || packages+=(libgl1)
command -v Xvfb >/dev/null 2>&1 || packages+=(xvfb)
has_lib 'libX11-xcb' || packages+=(libx11-xcb1)
has_lib 'libXcursor' || packages+=(libxcursor1)
has_lib 'libXi\.so' || packages+=(libxi6)
has_lib 'libxkbcommon-x11' || packages+=(libxkbcommon-x11-0)
command -v python3 >/dev/null 2>&1 || packages+=(python3)
# Debian's python3 leaves `venv`'s pip bootstrap (ensurepip) to the python3-venv package
python3 -c 'import venv, ensurepip' >/dev/null 2>&1 || packages+=(python3-venv)

if ((${#packages[@]})); then
  as_root=()
  can_install=false
  if command -v apt-get >/dev/null 2>&1; then
    if ((EUID == 0)); then
      can_install=true
    elif command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then
      as_root=(sudo -n)
      can_install=true
    fi
  fi
  if ! $can_install; then
    echo "mjrs tests need these system packages (Debian names): ${packages[*]}" >&2
    echo "install them (e.g. sudo apt-get install ${packages[*]}) and run ./test.sh again" >&2
    exit 1
  fi
  echo "installing ${packages[*]}" >&2
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq "${packages[@]}" >/dev/null
fi

if [[ ${1:-} == --python ]]; then
  shift
  exec python/test.sh "$@"
fi
if (($#)); then
  exec cargo test --workspace --release "$@"
fi
cargo test --workspace --release
# the core without its optional parts (Cargo features, on by default, that firmware leaves out):
# the models that need one are refused at validation, naming the feature
cargo test --release -p mjrs-core --no-default-features --lib optional_parts
exec python/test.sh
