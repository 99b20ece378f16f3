#!/usr/bin/env bash
# Runs hammersim's benchmarks and the peer baseline they are compared with,
# as bench/RESULTS.md reports them. Installs python3-numpy (Debian) for the
# peer when no python3 on this machine can import numpy.
#   bench/run.sh                 all benchmarks, 2 s each
#   BENCHTIME=5s bench/run.sh    longer runs
#   BENCH=ChargeSweep bench/run.sh   one benchmark
set -euo pipefail
cd "$(dirname "$0")/.."
if ! python3 -c 'import numpy' 2>/dev/null && ! /usr/bin/python3 -c 'import numpy' 2>/dev/null; then
  echo "bench/run.sh: installing python3-numpy for the peer baseline" >&2
  sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
  $sudo apt-get update -qq && $sudo apt-get install -y -qq python3-numpy >/dev/null
fi
go test -run '^$' -bench "${BENCH:-.}" -benchtime "${BENCHTIME:-2s}" -count "${COUNT:-1}" ./bench/
