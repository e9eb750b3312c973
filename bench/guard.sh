#!/usr/bin/env bash
# Regression guard (issue 25): fails when the instructions per step of a fixed model grow by more
# than the tolerance against the count committed in bench/guard.txt. Instructions are counted by
# valgrind's callgrind in mjrs's step function only (`mjrs_core::forward::step_skip`; model loading and
# the control law are not counted), so machine load does not move them.
#
#   bench/guard.sh              measure and compare (about 10 s under valgrind, after the build)
#   bench/guard.sh --update     write the measured count into bench/guard.txt: a deliberate change,
#                               committed with the change that explains it
#   bench/guard.sh --selftest   one measurement compared with a baseline 3% below it (must fail)
#                               and with itself (must pass): the guard can fail
#
# Valgrind is installed with apt-get when missing (as root or with password-less sudo); where that
# is impossible the guard says so and is skipped. A count more than the tolerance below the
# committed one passes with a note asking for --update, so that the next growth is measured from
# the better number. Counts depend on the compiler: guard.txt records the rustc it was made with.
set -euo pipefail
cd "$(dirname "$0")/.."
guard=bench/guard.txt
mode=${1:-check}
case $mode in check|--update|--selftest) ;; *) sed -n '2,16p' "$0" >&2; exit 2 ;; esac

field() { awk -v k="$1" '$1 == k { print $2 }' "$guard"; }
model=$(field model); steps=$(field steps); tolerance=$(field tolerance_percent)
committed=$(field instructions_per_step)
[[ -n $model && -n $steps && -n $tolerance && -n $committed ]] || {
  echo "guard: $guard lacks model, steps, tolerance_percent or instructions_per_step" >&2; exit 2; }

if ! command -v valgrind >/dev/null 2>&1; then
  as_root=()
  if ((EUID != 0)) && command -v sudo >/dev/null 2>&1 && sudo -n true 2>/dev/null; then as_root=(sudo -n); fi
  if command -v apt-get >/dev/null 2>&1 && { ((EUID == 0)) || ((${#as_root[@]})); }; then
    echo "guard: installing valgrind" >&2
    "${as_root[@]}" apt-get update -qq
    DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq valgrind >/dev/null
  else
    echo "guard: SKIPPED: valgrind is not installed and cannot be installed here (apt-get as root or sudo)" >&2
    exit 0
  fi
fi

cargo build --release -q --bin mjrs
mjrs=${CARGO_TARGET_DIR:-target}/release/mjrs
out=$(mktemp)
trap 'rm -f "$out"' EXIT
# step_skip holds the whole step; `step` itself may compile to a bare jump into it, which
# callgrind would count as one instruction
valgrind --tool=callgrind --toggle-collect='mjrs_core::forward::step_skip' --callgrind-out-file="$out" \
  "$mjrs" speed "$model" --steps "$steps" >/dev/null 2>&1
total=$(awk '/^(summary|totals):/ { print $2; exit }' "$out")
[[ -n $total && $total -gt 0 ]] || { echo "guard: callgrind counted no instructions in the step" >&2; exit 1; }
measured=$(awk -v t="$total" -v n="$steps" 'BEGIN { printf "%.1f", t / n }')
# a count that collapsed means the toggle no longer covers the step: never a vacuous pass
if [[ $mode != --update ]] && awk -v m="$measured" -v c="$committed" 'BEGIN { exit !(m < c / 2) }'; then
  echo "guard: $measured instructions per step, under half the committed $committed: the count no longer covers the step" >&2
  exit 1
fi
rustc=$(rustc --version)

# verdict BASELINE: 0 within the tolerance, 1 above it
verdict() {
  awk -v m="$measured" -v b="$1" -v tol="$tolerance" 'BEGIN {
    change = 100 * (m - b) / b
    printf "guard: %s, %d steps: %.1f instructions per step against %.1f (%+.2f%%, tolerance +%s%%)\n",
      ENVIRON["model"], ENVIRON["steps"], m, b, change, tol
    if (change > tol) { exit 1 }
    if (change < -tol) { print "guard: faster than the committed count: bench/guard.sh --update and commit" }
  }'
}
export model steps

case $mode in
  check)
    if ! verdict "$committed"; then
      echo "guard: FAILED: the step of $model grew by more than $tolerance%" >&2
      echo "guard: committed with $(field rustc | tr '_' ' '), measured with $rustc; profile: bench/profile.py" >&2
      exit 1
    fi ;;
  --update)
    sed -i -e "s/^instructions_per_step .*/instructions_per_step $measured/" \
      -e "s/^rustc .*/rustc ${rustc// /_}/" "$guard"
    echo "guard: $guard now holds $measured instructions per step ($rustc); commit it" ;;
  --selftest)
    low=$(awk -v m="$measured" 'BEGIN { printf "%.1f", m / 1.03 }')
    if verdict "$low"; then echo "guard: selftest FAILED: 3% more work passed" >&2; exit 1; fi
    verdict "$measured" || { echo "guard: selftest FAILED: equal work failed" >&2; exit 1; }
    echo "guard: selftest passed (3% more work fails, equal work passes)" ;;
esac
