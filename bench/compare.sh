#!/usr/bin/env bash
# Steps per second of mjrs against MuJoCo 3.1.6 (mjref speed) on the same MJB files, same
# control law, same run: prints one row per model and the ratio mjrs/MuJoCo.
#   bench/compare.sh [STEPS] [MJB...]     default: every tests/fixtures/smooth/*.mjb, 20000 steps
# Needs ../shared/mjref/mjref (not part of the test suite).
set -euo pipefail
cd "$(dirname "$0")/.."
steps=${1:-20000}; shift || true
models=("$@")
[[ ${#models[@]} -gt 0 ]] || models=(tests/fixtures/smooth/*.mjb)
mjref=${MJREF:-../shared/mjref/mjref}
cargo build --release -q
# the JSON is the last line (MuJoCo may print a warning first)
rate() { python3 -c 'import json,sys; print(json.loads(sys.stdin.read().strip().splitlines()[-1])["steps_per_second"])'; }
printf '%-34s %14s %14s %8s\n' model mjrs_steps/s mujoco_steps/s ratio
for mjb in "${models[@]}"; do
  key=()
  ours=$(./target/release/mjrs speed "$mjb" --steps "$steps" "${key[@]}" 2>/dev/null | rate) || ours=error
  ref=$("$mjref" speed "$mjb" --steps "$steps" | rate)
  ratio=$(python3 -c "print(f'{$ours/$ref:.2f}' if '$ours' != 'error' else '-')" 2>/dev/null || echo -)
  printf '%-34s %14s %14s %8s\n' "$(basename "$mjb" .mjb)" "$ours" "$ref" "$ratio"
done
