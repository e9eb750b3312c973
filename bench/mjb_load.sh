#!/usr/bin/env bash
# MJB load cost of mjrs against MuJoCo 3.1.6 on the same blobs (compiled by MuJoCo), from memory
# (no file I/O): instructions per byte of the blob (callgrind, one load, counting only
# `OwnedModel::from_mjb` / `mj_loadModel` from a VFS buffer) and the best wall time of LOADS
# loads, beside a plain copy of the blob's bytes.
#   bench/mjb_load.sh [LOADS] [XML...]   default: 20 loads; hopper, humanoid100, a 2 MB
#                                        mesh blob (wx250s), a 17 MB textured blob
#                                        (bench/models/big_texture.xml)
# Needs ../shared/mjref/mjref (MuJoCo from PyPI, its venv for the headers) and valgrind.
set -euo pipefail
cd "$(dirname "$0")/.."
loads=${1:-20}; shift || true
models=("$@")
[[ ${#models[@]} -gt 0 ]] || models=(
  tests/models/hopper.xml
  tests/models/compile/mujoco/model/humanoid100/humanoid100.xml
  tests/models/compile/menagerie/trossen_wx250s/wx250s.xml
  bench/models/big_texture.xml
)
mjref=${MJREF:-../shared/mjref/mjref}
py=${MJREF_HOME:-$HOME/.cache/mjref}/venv/bin/python
"$mjref" setup
cargo build --release -q --bin mjrs
mjrs=${CARGO_TARGET_DIR:-target}/release/mjrs
work=$(mktemp -d); trap 'rm -rf "$work"' EXIT
mj=$("$py" -c 'import mujoco,os; print(os.path.dirname(mujoco.__file__))')
cc -O2 bench/mjb_load_mujoco.c -I"$mj/include" -L"$mj" -l:libmujoco.so.3.1.6 -Wl,-rpath,"$mj" -o "$work/mjb_load_mujoco"

# instructions BLOB TOGGLE CMD...: callgrind's count inside the function TOGGLE
instructions() {
  local toggle=$1; shift
  valgrind --tool=callgrind --toggle-collect="$toggle" --callgrind-out-file="$work/cg" "$@" \
    >/dev/null 2>"$work/cg.err"
  sed -n 's/.*Collected : \([0-9]*\).*/\1/p' "$work/cg.err"
}
field() { python3 -c "import json,sys; print(json.loads(sys.stdin.read())['$1'])"; }

printf '%-14s %10s %10s %10s %10s %10s %10s\n' model bytes mjrs_i/B mujoco_i/B mjrs_us mujoco_us copy_us
for xml in "${models[@]}"; do
  name=$(basename "$xml" .xml)
  blob="$work/$name.mjb"
  "$mjref" mjb "$xml" -o "$blob" >/dev/null
  bytes=$(stat -c %s "$blob")
  ours=$(instructions '*OwnedModel*from_mjb*' "$mjrs" speed "$blob" --load 1)
  theirs=$(instructions mj_loadModel "$work/mjb_load_mujoco" "$blob" 1)
  j=$("$mjrs" speed "$blob" --load "$loads")
  k=$("$work/mjb_load_mujoco" "$blob" "$loads")
  awk -v n="$name" -v b="$bytes" -v o="$ours" -v t="$theirs" \
      -v lo="$(field seconds_per_load <<<"$j")" -v lt="$(field seconds_per_load <<<"$k")" \
      -v c="$(field seconds_per_copy <<<"$j")" \
      'BEGIN { printf "%-14s %10d %10.2f %10.2f %10.1f %10.1f %10.1f\n", n, b, o / b, t / b, 1e6 * lo, 1e6 * lt, 1e6 * c }'
done
