#!/usr/bin/env bash
# Builds db_bench_cpp, the C++ LevelDB counterpart of bin/db-bench, into bench/cpp/build/.
# Needs g++ and the system's LevelDB and Snappy (Debian/Ubuntu: libleveldb-dev libsnappy-dev).
# CXX and CXXFLAGS override the compiler and its flags; prints the program's path.
set -euo pipefail

here="$(cd -P "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
out="$here/build"
program="$out/db_bench_cpp"
source="$here/db_bench_cpp.cc"
mkdir -p "$out"

if [ ! -x "$program" ] || [ "$source" -nt "$program" ] || [ "${BASH_SOURCE[0]}" -nt "$program" ]; then
  if [ ! -f /usr/include/leveldb/db.h ] && ! echo '#include <leveldb/db.h>' \
      | "${CXX:-g++}" -x c++ -fsyntax-only - 2>/dev/null; then
    echo "build.sh: no LevelDB headers; install libleveldb-dev (apt-get install libleveldb-dev)" >&2
    exit 1
  fi
  # shellcheck disable=SC2086
  "${CXX:-g++}" ${CXXFLAGS:--O2} -std=c++17 -Wall -Wextra -Werror -pthread \
    -o "$program.tmp" "$source" -lleveldb -lsnappy
  mv "$program.tmp" "$program"
fi
echo "$program"
