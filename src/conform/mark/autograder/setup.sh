#!/usr/bin/env bash
# Gradescope runs this once, as root, when it builds the autograder's image
# from the zip unpacked in /autograder/source. It installs what marking
# needs and is missing: the course's compiler, valgrind (memory errors),
# bubblewrap (each run isolated) and GNU time (peak memory). This program
# is the binary beside this script, the one that made the zip: the same
# version and suite the course marked with at its desk, with nothing to
# build here.
set -eu
here=$(cd "$(dirname "$0")" && pwd)
# The compiler's package is named after its command.
compiler=$(cat "$here/compiler")

need=()
if ! command -v "$compiler" > /dev/null; then
  case "$compiler" in
    cc | gcc*) need+=(gcc libc6-dev) ;;
    clang*) need+=(clang) ;;
    *) echo "setup.sh: the course's compiler $compiler is not installed, and its package is unknown" >&2 ;;
  esac
fi
command -v valgrind > /dev/null || need+=(valgrind)
command -v bwrap > /dev/null || need+=(bubblewrap)
[ -x /usr/bin/time ] || need+=(time)
if [ ${#need[@]} -gt 0 ]; then
  echo "setup.sh: installing ${need[*]}"
  apt-get update
  DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${need[@]}"
fi

chmod 755 "$here/gomoku-mist" "$here/run_autograder"
if ! "$here/gomoku-mist" --version; then
  echo "setup.sh: the bundled gomoku-mist does not run on this image: it was built" >&2
  echo "for Linux on x86-64 with glibc 2.34 or later; choose Ubuntu 22.04 or later as the" >&2
  echo "autograder's base image, or make the zip with a gomoku-mist built on an older system" >&2
  exit 1
fi
