#!/bin/sh
# Builds leveldb_peer against the system LevelDB (Debian: libleveldb-dev, libsnappy-dev).
# Usage: interop/cpp/build.sh [output-path]   (default: interop/build/leveldb_peer)
set -eu
here=$(cd "$(dirname "$0")" && pwd)
out=${1:-$(cd "$here/.." && pwd)/build/leveldb_peer}
mkdir -p "$(dirname "$out")"
${CXX:-g++} -O2 -std=c++17 -Wall -Wextra -o "$out" "$here/leveldb_peer.cc" -lleveldb -lsnappy -lpthread
echo "built $out"
