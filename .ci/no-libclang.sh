#!/usr/bin/env bash
# Packs the qhull binding, the workspace's only C code, and builds it from its package archive
# from scratch with every libclang of this machine hidden from the loader (run inside
# `unshare -m`: the bind mounts vanish with the namespace) and LIBCLANG_PATH pointing nowhere.
# Proves that the build needs a C compiler and no libclang (issue 21), and that the archive
# carries the C sources.
set -euo pipefail
cd "$(dirname "$0")/.."
while IFS= read -r lib; do
  mount --bind /dev/null "$lib"
done < <(find /usr/lib /lib /usr/local/lib -type f -name 'libclang*.so*' 2>/dev/null)
target=$(mktemp -d)
trap 'rm -rf "$target"' EXIT
LIBCLANG_PATH=/nonexistent CARGO_TARGET_DIR=$target cargo package -p mjrs-qhull-sys --allow-dirty --quiet
echo "mjrs-qhull-sys built from its package with libclang hidden"
