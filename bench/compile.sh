#!/usr/bin/env bash
# Compile time of mjrs against MuJoCo 3.1.6 on the same MJCF files, each model in a fresh
# process of each: the first compilation (assets decoded from their files) and the best of
# ROUNDS more (both keep decoded OBJ and PNG assets in a process-wide cache). Best of TRIES
# fresh processes per column.
#   bench/compile.sh [ROUNDS] [XML...]      default: 10 rounds, the README's models
# Needs a Python with mujoco==3.1.6 ($PYTHON, default python3).
set -euo pipefail
cd "$(dirname "$0")/.."
rounds=${1:-10}; shift || true
models=("$@")
[[ ${#models[@]} -gt 0 ]] || models=(
  tests/models/humanoid.xml
  tests/models/compile/mujoco/model/humanoid100/humanoid100.xml
  tests/models/compile/menagerie/skydio_x2/x2.xml
  tests/models/compile/menagerie/wonik_allegro/right_hand.xml
  tests/models/compile/menagerie/trossen_wx250s/wx250s.xml
  tests/models/compile/menagerie/franka_emika_panda/hand.xml
  tests/models/compile/mujoco/model/mug/mug.xml
)
python=${PYTHON:-python3}
tries=${TRIES:-3}
cargo build --release -q -p mjrs-xml --example compile_time
ours=./target/release/examples/compile_time
# best of $tries processes: "first then" columns in milliseconds
best() { awk '{ if (NR == 1 || $3 < f) f = $3; if (NR == 1 || $5 < t) t = $5 }
              END { printf "%.1f %.1f\n", 1000 * f, 1000 * t }'; }
printf '%-16s %12s %12s %12s %12s\n' model mjrs_first mujoco_first mjrs_again mujoco_again
for xml in "${models[@]}"; do
  read -r of ot < <(for _ in $(seq "$tries"); do "$ours" --rounds "$rounds" "$xml"; done | best)
  read -r mf mt < <(for _ in $(seq "$tries"); do
    "$python" bench/compile_time_mujoco.py "$rounds" "$xml"; done | best)
  printf '%-16s %9s ms %9s ms %9s ms %9s ms\n' "$(basename "$xml" .xml)" "$of" "$mf" "$ot" "$mt"
done
