#!/usr/bin/env bash
# Runs every benchmark of docs/benchmarks.md in one go, each figure next to its floor measured in the same
# run (sqlite3 reading and sorting the nsys tables; Python's json.load of the Kineto trace) and its target.
# Profiles are generated into bench-out/ (git-ignored) on first use and reused afterwards.
#
#   bench/run.sh                          # everything (about 10 minutes on 2 cores)
#   bench/run.sh --only startup,nsys-1m   # some cases; see --help
#   bench/run.sh --repeat 5 --no-clone    # more runs; skip the fresh-clone build of the first-run figure
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."

missing=()
command -v sqlite3 >/dev/null || missing+=(sqlite3)
[[ -x /usr/bin/time ]] || missing+=(time)
command -v python3 >/dev/null || missing+=(python3)
if (( ${#missing[@]} )); then
  echo "bench: installing ${missing[*]} (the floors and the RSS measurement need them)" >&2
  sudo=""; [[ $(id -u) -eq 0 ]] || sudo=sudo
  $sudo apt-get update -qq && $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
fi

if [[ ! -f cli/target/dlprof-lint.jar || ! -f bench/target/dlprof-lint-bench.jar ]]; then
  echo "bench: building (mvn -B -q package -DskipTests)" >&2
  mvn -B -q package -DskipTests
fi
exec java -cp bench/target/dlprof-lint-bench.jar dlproflint.bench.Suite "$@"
