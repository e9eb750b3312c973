#!/usr/bin/env bash
# Long random exploration of the property tests, apart from the test command (which draws
# every case from the fixed seed in .cargo/config.toml, so that it gives one verdict).
#
#   tests/explore-properties.sh [CASES] [SEED]
#
# Runs tests/tests/properties.rs with CASES cases per property (default 2000) from SEED (default:
# a random one, printed first). proptest writes each failure it finds, shrunk, to
# tests/tests/properties.proptest-regressions; commit that line with the fix, and every later
# run of the test command replays it.
set -euo pipefail
cd "$(dirname "$0")/.."
cases=${1:-2000}
seed=${2:-$(od -An -N8 -tu8 /dev/urandom | tr -d ' ')}
echo "property exploration: $cases cases per property, PROPTEST_RNG_SEED=$seed"
PROPTEST_RNG_SEED=$seed PROPTEST_CASES=$cases \
  cargo test --release -p mjrs-tests --test properties
