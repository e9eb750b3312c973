#!/usr/bin/env bash
# Fuzz campaigns with cargo-fuzz (libFuzzer + AddressSanitizer) on stable Rust.
#   fuzz/run.sh TARGET SECONDS [JOBS]   run TARGET for SECONDS (on a copy of its committed
#                                       corpus plus seeds); exit 1 on a crash, panic, timeout or
#                                       out-of-memory, the failing input left in fuzz/artifacts/
#   fuzz/run.sh all SECONDS             every target, one per core at a time (CI: 60 s each)
#   fuzz/run.sh cmin TARGET DIR...      minimize DIR... (e.g. a campaign's corpus) into
#                                       fuzz/corpus/TARGET, the committed corpus
# Targets: mjb_load xml_compile step_state ray vfs. cargo-fuzz is installed when missing.
set -euo pipefail
cd "$(dirname "$0")"
export RUSTC_BOOTSTRAP=1   # cargo-fuzz's nightly flags on the stable toolchain
TARGETS=(mjb_load xml_compile step_state ray vfs)

command -v cargo-fuzz >/dev/null 2>&1 || cargo install cargo-fuzz --locked

# libFuzzer options: 25 s per input is a hang (OSS-Fuzz's limit; the slowest legitimate input,
# 8 Newton solves of 90 elliptic contacts at 59 iterations, takes ~10 s instrumented on a busy
# machine), 2 GiB is out of memory
opts() {
  local t=$1
  echo "-timeout=25 -rss_limit_mb=2048 -print_final_stats=1 -max_len=$([[ $t == mjb_load ]] && echo 262144 || echo 16384)"
  [[ $t == xml_compile || $t == vfs ]] && echo "-dict=dict/mjcf.dict"
  true
}

run_one() {
  local t=$1 secs=$2 jobs=${3:-1}
  local work
  work=$(mktemp -d "${TMPDIR:-/tmp}/mjrs-fuzz-$t.XXXXXX")
  mkdir -p "corpus/$t" "artifacts/$t"
  cp -r "corpus/$t/." "$work/" 2>/dev/null || true
  [[ -d seeds/$t ]] && cp -r "seeds/$t/." "$work/"
  echo "fuzz: $t for ${secs}s ($(ls "$work" | wc -l) inputs to start from, corpus copy in $work)"
  local parallel=""
  ((jobs > 1)) && parallel="-fork=$jobs"
  # with pipefail the pipeline's status is cargo fuzz's (non-zero on a crash, panic, timeout or
  # out-of-memory); the filter itself never fails
  local status=0
  # shellcheck disable=SC2046
  cargo fuzz run -O "$t" "$work" -- $(opts "$t") -max_total_time="$secs" \
    -artifact_prefix="artifacts/$t/" $parallel 2>&1 | tee "$work.log" | \
    { grep -E "^(#[0-9]+ *(DONE|INITED)|stat::|==[0-9]+==|SUMMARY|thread .* panicked|Done [0-9]+ runs)" || true; } ||
    status=$?
  echo "fuzz: $t log in $work.log, corpus now $(ls "$work" | wc -l) inputs"
  return "$status"
}

case "${1:-}" in
  all)
    # one target per core at a time (CI's two cores: 3 rounds instead of 5); built once first
    secs=${2:?usage: run.sh all SECONDS}
    cargo fuzz build -O
    printf '%s\n' "${TARGETS[@]}" | xargs -P "$(nproc)" -I{} "./$(basename "$0")" {} "$secs" ;;
  cmin)
    t=${2:?usage: run.sh cmin TARGET DIR...}; shift 2
    mkdir -p "corpus/$t"
    tmp=$(mktemp -d)
    cargo fuzz run -O "$t" "$tmp" "corpus/$t" "$@" -- -merge=1 $(opts "$t")
    rm -rf "corpus/$t" && mv "$tmp" "corpus/$t"
    echo "fuzz: corpus/$t has $(ls "corpus/$t" | wc -l) inputs" ;;
  mjb_load|xml_compile|step_state|ray|vfs)
    run_one "$1" "${2:?usage: run.sh TARGET SECONDS [JOBS]}" "${3:-1}" ;;
  *)
    sed -n '2,10p' "$(basename "$0")"; exit 2 ;;
esac
