#!/usr/bin/env bash
# Builds the firmware for thumbv7em-none-eabihf, runs it under QEMU on mps2-an386 and on
# netduinoplus2, compares its trajectory with the host's run of the same loop bit for bit (the
# LQR task, the `pid` build: MuJoCo's PID actuator plugin registered on the device, and the
# `mpc` build: an iLQR MPC swinging up and balancing a cart-pole whose masses are 10% off the
# planner's model, on netduinoplus2 and on the Cortex-M7 board mps2-an500; the `hopper` build:
# the same MPC with three controls standing Gymnasium's hopper and hopping it in place, its
# masses 10% off, on mps2-an500, short episodes; and the Gymnasium humanoid used in place from
# flash on netduinoplus2's 128 KiB of RAM: 200 steps, its state hashed and compared with the
# host's), checks that the pendulum's LQR firmware (profile `flash`, the core parts it does not
# use left out) stays under 256 KB of flash, checks that corrupted blobs are refused cleanly, that mjrs-core (f32 and f64) builds for
# the Cortex-M target with neither std nor alloc, and that the device's f32 libm path stays
# within the documented distance (distance-bounds.txt) of the desktop's bit-exact f64 path.
#
#   firmware-example/run.sh            everything above
#   firmware-example/run.sh footprint  only the footprint table: memory, stack, instructions per
#                                      step and per linearization of the firmware model and of
#                                      the largest bench models that fit 128 KiB and 4 MiB of RAM
#   firmware-example/run.sh cpi        only the worst-case cycles per instruction of the MPC's
#                                      code on the Cortex-M4 (cpi-bound.py; about a minute)
#   firmware-example/run.sh fast       only the MPC's opt-in fast build (feature fast: VFMA) on
#                                      netduinoplus2, compared with a fast host build
#   firmware-example/run.sh hopper-long  only the hopper build with longer episodes (2 s standing,
#                                      4 s hopping; feature long) on mps2-an500, against the host
#   firmware-example/run.sh flash      only the flash of the LQR build: at opt-level 3 (profile
#                                      release, which every task runs with) and with the size
#                                      profile `flash` (opt-level "z", panic "immediate-abort"),
#                                      which is run on both boards and compared with the host
#
# Installs what is missing (Debian: rustc-web, rust-web-src, binutils-arm-none-eabi,
# qemu-system-arm; defmt-print with cargo). Where QEMU cannot be installed it says so and exits 0.
set -euo pipefail
cd "$(dirname "$0")"
here=$(pwd)

sudo_=""; [[ $(id -u) -ne 0 ]] && sudo_="sudo"
need=()
[[ -x /usr/bin/rustc && -d /usr/lib/rustlib/src/rust ]] || need+=(rustc-web cargo-web rust-web-src)
command -v arm-none-eabi-ld >/dev/null || need+=(binutils-arm-none-eabi)
command -v qemu-system-arm >/dev/null || need+=(qemu-system-arm)
if ((${#need[@]})); then
  echo "firmware: installing ${need[*]}"
  if ! { $sudo_ apt-get update -qq && $sudo_ apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null; }; then
    echo "firmware: SKIPPED: cannot install ${need[*]} (needs Debian's apt)"
    exit 0
  fi
fi
if ! command -v defmt-print >/dev/null; then
  echo "firmware: installing defmt-print"
  cargo install --locked --quiet defmt-print
fi

# Debian's compiler ships the library source that -Z build-std needs (rustup's cannot download
# the target here); the host program is built with the same compiler, so the two share one
# `core` and one `libm`.
# The caller's environment is kept for the main workspace's `mjrs compile` (the footprint blobs):
# it reuses the CLI that ./test.sh built (the same blobs) instead of building it again with
# Debian's compiler (424 s of CPU).
caller=(env -u RUSTC -u RUSTC_BOOTSTRAP PATH="$PATH" ${RUSTC:+RUSTC="$RUSTC"} ${RUSTC_BOOTSTRAP:+RUSTC_BOOTSTRAP="$RUSTC_BOOTSTRAP"})
export PATH=/usr/bin:$PATH RUSTC=/usr/bin/rustc RUSTC_BOOTSTRAP=1
device=(--target thumbv7em-none-eabihf -Z build-std=core -p mjrs-firmware-example)
elf=target/thumbv7em-none-eabihf/release/mjrs-firmware-example

# run BOARD LOG [TASK]: the ELF $elf under QEMU (-icount: instructions advance virtual time
# evenly, which the firmware's SysTick clock counts), TASK named on the semihosting command line
# (a program with several tasks runs that one), defmt decoded to LOG; returns QEMU's status
run() {
  local status=0
  timeout 600 qemu-system-arm -machine "$1" -icount shift=0 -nographic \
    -semihosting-config "enable=on,target=native${3:+,arg=$3}" -kernel "$elf" >"$2.bin" || status=$?
  defmt-print -e "$elf" --log-format "{s}" <"$2.bin" >"$2"
  return $status
}

# build NAME FEATURES [PROFILE]: the device program with FEATURES (no default features) built
# with the Cargo profile PROFILE (release unless named), kept as target/programs/NAME.elf (cargo's
# ELF is overwritten by the next build) and set as $elf
build() {
  local profile=${3:-release}
  cargo build "${device[@]}" --profile "$profile" --quiet --no-default-features --features "$2"
  mkdir -p target/programs
  cp "target/thumbv7em-none-eabihf/$profile/mjrs-firmware-example" "target/programs/$1.elf"
  elf=target/programs/$1.elf
}

# print_size LABEL: the flash and static RAM of $elf
print_size() {
  arm-none-eabi-size "$elf" | tail -1 | awk -v l="$1" '{printf "firmware: %s: flash %d B (text+data), RAM %d B static (data+bss)\n", l, $1+$2, $2+$3}'
}

out=target/logs
mkdir -p "$out"

# footprint XML MEMORY BOARD: the model with <size memory=MEMORY>, as an f32 blob, measured by
# the footprint build on BOARD
footprint() {
  local name; name=$(basename "$1" .xml)
  local dir=target/footprint; mkdir -p "$dir"
  sed '0,/<mujoco[^>]*>/s//&<size memory="'"$2"'"\/>/' "$1" >"$dir/$name.xml"
  (cd .. && "${caller[@]}" cargo run --release --quiet -- compile --f32 "firmware-example/$dir/$name.xml" -o "firmware-example/$dir/$name.mjb")
  local feature=board-mps2; [[ $3 == netduinoplus2 ]] && feature=board-netduino
  MJRS_FIRMWARE_BLOB="$here/$dir/$name.mjb" build "footprint-$name" "$feature,footprint"
  arm-none-eabi-size "$elf" | tail -1 | awk -v b="$3" -v n="$name" '{printf "footprint: %s on %s: flash %d B, RAM %d B static\n", n, b, $1+$2, $2+$3}'
  run "$3" "$out/footprint-$name.log" || { cat "$out/footprint-$name.log"; exit 1; }
  sed "s/^/  $name | /" "$out/footprint-$name.log"
  # the state after the footprint steps, device against host, bit for bit (as a hash)
  local device_digest host_digest
  device_digest=$(grep -o 'digest after .*' "$out/footprint-$name.log")
  host_digest=$("$host" footprint "$dir/$name.mjb" | grep -o 'digest after .*')
  if [[ -z $device_digest || $device_digest != "$host_digest" ]]; then
    echo "footprint: FAILED: $name on $3: device ($device_digest) and host ($host_digest) differ"; exit 1
  fi
  echo "footprint: $name on $3: state $device_digest, device and host bit-identical"
}

host=target/host/mjrs-firmware-host
if [[ ${1:-} == footprint ]]; then
  cargo build --profile host --quiet -p mjrs-firmware-host
  footprint model/inverted_double_pendulum.xml 16K netduinoplus2
  footprint ../tests/models/ant.xml 28K netduinoplus2
  footprint ../tests/models/humanoid.xml 56K netduinoplus2
  footprint ../tests/models/compile/mujoco/model/humanoid/humanoid.xml 56K mps2-an386
  exit 0
fi
# cpi: the worst-case cycles per instruction of the MPC's code on the Cortex-M4 (cpi-bound.py),
# from the instruction mix of the first 5 million logged blocks of the netduinoplus2 mpc run
if [[ ${1:-} == cpi ]]; then
  cargo build "${device[@]}" --release --quiet --no-default-features --features board-netduino,mpc
  { timeout 300 qemu-system-arm -machine netduinoplus2 -icount shift=0 -nographic \
      -semihosting-config enable=on,target=native -kernel "$elf" -d exec,nochain,in_asm \
      -D /dev/stderr 2>&1 >/dev/null | head -n 5000000 >target/cpi-trace.log; } || true
  python3 cpi-bound.py target/cpi-trace.log
  rm -f target/cpi-trace.log
  exit 0
fi

# run_task TASK WHAT NAME BOARD: runs TASK of the program $elf on BOARD under QEMU, logged as
# target/logs/NAME-BOARD.log, compared with the host's run of the same task (host program
# $host_program, else TASK)
run_task() {
  local task=$1 what=$2 name=$3 board=$4 status=0
  echo "firmware: running the $what ($name) on $board"
  run "$board" "$out/$name-$board.log" "$task" || status=$?
  grep -v '^x ' "$out/$name-$board.log" | sed "s/^/  $name $board | /"
  if ((status != 0)); then
    echo "firmware: FAILED: the $name program on $board: QEMU exited with $status"
    exit 1
  fi
  "$host" "${host_program:-$task}" compare "$out/$name-$board.log" | sed "s/^/firmware: $name $board: /" || identical=0
}

# task_build TASK EXTRA BOARD: the program of TASK alone (EXTRA: more features, e.g. fast) for
# BOARD's memory map, sized; its name TASK[-EXTRA] is set as $name
task_build() {
  local feature=board-mps2
  [[ $3 == netduinoplus2 ]] && feature=board-netduino
  name=$1${2:+-${2//,/-}}
  echo "firmware: building the $name program for $3"
  build "$name-$feature" "$feature,$1${2:+,$2}"
  print_size "$name build on $3"
}

identical=1
# fast: the opt-in fast build of issue 25 (fused multiply-adds: VFMA on the M4F, the C library's
# correctly rounded fmaf on the host) for the MPC tasks on netduinoplus2, against a host program
# built the same way; not part of the default run (CI time): it is not faster on the M4F
if [[ ${1:-} == fast ]]; then
  cargo build --profile host --quiet -p mjrs-firmware-host --features fast
  host=target/host/mjrs-firmware-host
  task_build mpc fast netduinoplus2
  run_task mpc "MPC tasks" "$name" netduinoplus2
  ((identical)) || { echo "firmware: fast build NOT bit-identical"; exit 1; }
  echo "firmware: fast build: device and host bit-identical"
  exit 0
fi

echo "firmware: building the host program"
cargo build --profile host --quiet -p mjrs-firmware-host
host=target/host/mjrs-firmware-host

# flash: the LQR build's flash with each profile (Cargo.toml); the `flash` profile's firmware is
# run and compared with the host bit for bit (it must compute the same as the release build)
if [[ ${1:-} == flash ]]; then
  for profile in release flash; do
    for board in mps2-an386 netduinoplus2; do
      feature=board-mps2; [[ $board == netduinoplus2 ]] && feature=board-netduino
      build "lqr-$feature-$profile" "$feature" "$profile"
      arm-none-eabi-size "$elf" | tail -1 | awk -v b="$board" -v p="$profile" '{printf "firmware: LQR build on %s, profile %s: flash %d B (text+data)\n", b, p, $1+$2}'
      [[ $profile == flash ]] || continue
      status=0; run "$board" "$out/flash-$board.log" || status=$?
      if ((status != 0)); then
        cat "$out/flash-$board.log"; echo "firmware: FAILED: the flash profile on $board: QEMU exited with $status"; exit 1
      fi
      "$host" compare "$out/flash-$board.log" | sed "s/^/firmware: flash profile, $board: /" || identical=0
    done
  done
  ((identical)) || { echo "firmware: flash profile NOT bit-identical"; exit 1; }
  echo "firmware: flash profile: device and host bit-identical"
  exit 0
fi

# hopper-long: the hopper's longer episodes (not in CI: 300 updates, 16 s of QEMU CPU time,
# about a minute on a loaded machine)
if [[ ${1:-} == hopper-long ]]; then
  task_build hopper long mps2-an500
  host_program=hopper-long run_task hopper "hopper tasks, long episodes" "$name" mps2-an500
  ((identical)) || { echo "firmware: hopper-long NOT bit-identical"; exit 1; }
  echo "firmware: hopper-long: device and host bit-identical"
  exit 0
fi

# the LQR task alone on mps2-an386: the pendulum firmware whose flash size issue 26 tracks, built
# with the size profile `flash` and without the core parts the pendulum does not use (its
# Cargo features); it must stay under 256 KB of flash and compute the host's bits
echo "firmware: building the LQR program (the pendulum firmware) for mps2-an386, profile flash"
build lqr-board-mps2-flash board-mps2 flash
print_size "mps2-an386, profile flash"
flash_bytes=$(arm-none-eabi-size "$elf" | tail -1 | awk '{print $1+$2}')
if ((flash_bytes >= 256000)); then
  echo "firmware: FAILED: the pendulum firmware needs $flash_bytes B of flash, not under 256 KB"
  exit 1
fi
run_task lqr "LQR task" lqr mps2-an386

# every other task run from one program per memory map holding several tasks, each picked by
# name on QEMU's semihosting command line: one whole-program LTO build per board rather than per
# task (CI time), the same device and host comparisons. The Gymnasium humanoid and the bad-blob
# and footprint programs embed other blobs or statics and keep their own builds.
echo "firmware: building the LQR, PID and MPC tasks as one program for netduinoplus2"
build tasks-board-netduino board-netduino,lqr,pid,mpc
print_size "tasks program (lqr, pid, mpc) on netduinoplus2"
run_task lqr "LQR task" lqr netduinoplus2
run_task pid "PID plugin task" pid netduinoplus2

# the MPC tasks: the M4F board with 128 KiB of RAM (netduinoplus2, an STM32F405 like TinyMPC's)
# and the Cortex-M7 board (mps2-an500, the mps2 memory map); the device's instructions per
# control update are measured under -icount
echo "firmware: MPC bad inputs on the host (mpc-check)"
"$host" mpc-check | sed 's/^/  /' || { echo "firmware: FAILED: mpc-check"; exit 1; }
run_task mpc "MPC tasks" mpc netduinoplus2

echo "firmware: building the PID, MPC, hopper and bad-blob tasks as one program for the mps2 boards"
build tasks-board-mps2 board-mps2,pid,mpc,hopper,bad-blob
print_size "tasks program (pid, mpc, hopper, bad-blob) on mps2-an386 and mps2-an500"
run_task pid "PID plugin task" pid mps2-an386
run_task mpc "MPC tasks" mpc mps2-an500
# the hopper (12 states, 3 controls) on the Cortex-M7 board: short episodes (0.5 s standing,
# 1 s hopping) to stay within CI's time
run_task hopper "hopper tasks" hopper mps2-an500

echo "firmware: corrupted blobs (bad-blob task, mps2-an386)"
status=0; run mps2-an386 "$out/bad-blob.log" bad-blob || status=$?
tail -n 3 "$out/bad-blob.log" | sed 's/^/  bad-blob | /'
if ((status != 1)) || ! grep -q "every damaged header, size and length refused, no fault" "$out/bad-blob.log"; then
  echo "firmware: FAILED: corrupted blobs must end with an error code and a clean exit (status $status)"
  exit 1
fi
echo "firmware: corrupted blobs: $(grep -c 'error code' "$out/bad-blob.log") refused with an error code, clean exit 1"

# the Gymnasium humanoid on the 128 KiB board: its f32 blob used in place from flash (Model and
# Data built in static slots, loading in a few KiB of stack), 200 steps, the state's hash
# compared with the host's
echo "firmware: the Gymnasium humanoid on netduinoplus2 (128 KiB of RAM)"
footprint ../tests/models/humanoid.xml 56K netduinoplus2

echo "firmware: mjrs-core and mjrs-core-f32 for thumbv7em-none-eabihf without std or alloc"
for pkg in mjrs-core mjrs-core-f32; do
  # only `core` is built for the target: any use of alloc or std fails to compile
  (cd .. && cargo build --quiet --lib -p "$pkg" --target thumbv7em-none-eabihf -Z build-std=core \
    --target-dir "$here/target/core-check")
  deps=$(cd .. && cargo tree -q -p "$pkg" --target thumbv7em-none-eabihf -e normal --prefix none | sort -u)
  if grep -Eq '^(std|alloc) ' <<<"$deps"; then
    echo "firmware: FAILED: $pkg depends on std or alloc"; exit 1
  fi
  echo "firmware: $pkg: builds for thumbv7em-none-eabihf; dependencies: $(tr '\n' ' ' <<<"$deps" | sed 's/ ([^)]*)//g')"
done

echo "firmware: distance of the device's f32 libm path from the desktop's bit-exact f64 path"
if ! "$host" distance ../tests/fixtures/mjb distance-bounds.txt | sed 's/^/  /'; then
  echo "firmware: FAILED: a distance exceeds its bound in distance-bounds.txt"; exit 1
fi

if ((identical)); then
  echo "firmware: trajectories bit-identical: device (mps2-an386, netduinoplus2, mps2-an500) and host agree on every state, LQR, PID, MPC and hopper tasks"
else
  echo "firmware: trajectories NOT bit-identical"
  exit 1
fi
