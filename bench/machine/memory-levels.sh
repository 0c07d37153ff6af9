#!/usr/bin/env bash
# Builds bench/machine/memory_levels.c (a C compiler is all it needs) into bench/machine/build/
# and runs it: identical passes of random memory reads, one time per pass, to see how much this
# machine's own speed moves while a benchmark runs. Arguments go to the program:
#   bench/machine/memory-levels.sh [passes] [megabytes] [reads per pass]
# CC and CFLAGS override the compiler and its flags.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
program="$here/build/memory_levels"
source="$here/memory_levels.c"
mkdir -p "$here/build"
if [ ! -x "$program" ] || [ "$source" -nt "$program" ]; then
  # shellcheck disable=SC2086
  "${CC:-cc}" ${CFLAGS:--O2} -std=c11 -D_POSIX_C_SOURCE=199309L -Wall -Wextra -Werror \
    -o "$program.tmp" "$source"
  mv "$program.tmp" "$program"
fi
exec "$program" "$@"
