#!/bin/bash -eu
# OSS-Fuzz / ClusterFuzzLite build: the cargo-fuzz targets of fuzz/ into $OUT, each with its
# seed corpus (committed corpus + seeds) and, for the MJCF-reading targets, the dictionary.
# Runs unchanged locally: SRC=<dir holding mjrs> OUT=<dir> .clusterfuzzlite/build.sh
cd "$SRC/mjrs/fuzz"
export RUSTC_BOOTSTRAP=${RUSTC_BOOTSTRAP:-1}
cargo fuzz build -O
bin=target/x86_64-unknown-linux-gnu/release
for t in mjb_load xml_compile step_state ray vfs; do
  cp "$bin/$t" "$OUT/"
  dirs=()
  [[ -d corpus/$t ]] && dirs+=("corpus/$t")
  [[ -d seeds/$t ]] && dirs+=("seeds/$t")
  if ((${#dirs[@]})); then
    tmp=$(mktemp -d)
    for d in "${dirs[@]}"; do cp -r "$d/." "$tmp/"; done
    if [[ -n $(ls -A "$tmp") ]]; then
      (cd "$tmp" && zip -q -r "$OUT/${t}_seed_corpus.zip" .)
    fi
    rm -rf "$tmp"
  fi
done
cp dict/mjcf.dict "$OUT/xml_compile.dict"
cp dict/mjcf.dict "$OUT/vfs.dict"
