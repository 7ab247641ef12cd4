#!/usr/bin/env bash
# Runs the Phalanx benchmarks and writes benchmarks/results/: the JMH JSON files, results.md (the
# table) and chart.svg.
#
#   benchmarks/run.sh quick [all|iteration|structural]   # under 10 minutes on 2 cores
#   benchmarks/run.sh full  [all|iteration|structural]   # careful run: forks, longer, 10k/1M/10M
#   benchmarks/run.sh forks [regex]                      # fork stability: FORKS (5) forks per row,
#                                                        # flags a row whose slowest fork is over
#                                                        # 1.3x its fastest (exit status 1)
#
# Build first: mvn -B install (or mvn -q install -pl benchmarks -am). The JVM is $JAVA_HOME/bin/java
# when JAVA_HOME is set, else java from PATH. RESULTS=dir writes elsewhere (default benchmarks/results).
# Extra JMH options can be passed in JMH_OPTS (for example JMH_OPTS="-e Ashley").
set -euo pipefail

mode="${1:-quick}"
part="${2:-all}"
here="$(cd "$(dirname "$0")" && pwd)"
jar="$here/target/benchmarks.jar"
out="${RESULTS:-$here/results}"
java="${JAVA_HOME:+$JAVA_HOME/bin/}java"
extra=(${JMH_OPTS:-})

if [[ ! -f "$jar" ]]; then
  echo "missing $jar: build it with 'mvn -B install' at the repository root" >&2
  exit 1
fi
if [[ "$mode" == forks ]]; then
  # The rows whose speed has depended on the JVM launch, unless a regex is given.
  rows="${2:-(iteration\.Iterate\.run|groups\.IterateGroup\.phalanx)}"
  mkdir -p "$out"
  "$java" -jar "$jar" "$rows" -f "${FORKS:-5}" -wi 2 -w 400ms -i 3 -r 400ms -jvmArgsAppend "-Xms4g -Xmx4g -XX:+AlwaysPreTouch" \
    -rf json -rff "$out/forks.json" "${extra[@]}"
  exec "$java" -cp "$jar" dev.phalanx.benchmarks.report.ForkSpread "$out/forks.json"
fi
case "$mode" in
  quick)
    # One fork, short iterations (0.4 s: 83 iteration benchmarks must fit), 1M entities (10k/10M only in full mode).
    iter_opts=(-f 1 -wi 2 -w 400ms -i 3 -r 400ms)
    shot_opts=(-f 1 -wi 2 -i 4)
    heap="-Xms4g -Xmx4g -XX:+AlwaysPreTouch"
    sizes=()
    ;;
  full)
    iter_opts=(-f 3 -wi 5 -w 2s -i 10 -r 2s)
    shot_opts=(-f 3 -wi 10 -i 20)
    heap="-Xms12g -Xmx12g -XX:+AlwaysPreTouch"
    sizes=(10000:10k 10000000:10M)
    ;;
  *)
    echo "usage: $0 quick|full [all|iteration|structural] | forks [regex]" >&2
    exit 2
    ;;
esac

mkdir -p "$out"
# Only the files this part writes are replaced: the other part's, and JSON of rows run by hand
# (jmh-1M-commands.json...), stay; the report reads only the run's own files.
if [[ "$part" == all || "$part" == iteration ]]; then
  rm -f "$out"/jmh-*-iteration.json
fi
if [[ "$part" == all || "$part" == structural ]]; then
  rm -f "$out"/jmh-*-structural.json "$out"/jmh-*-destroy.json
fi
jmh() {
  local file="$1"
  shift
  echo "== $file: $*"
  "$java" -jar "$jar" "$@" -prof gc -jvmArgsAppend "$heap" -rf json -rff "$out/$file" "${extra[@]}"
}

start=$SECONDS
if [[ "$part" == all || "$part" == iteration ]]; then
  # Iteration and random access: average time per entity at 1M entities.
  jmh jmh-1M-iteration.json '\.(iteration|access|groups)\.' "${iter_opts[@]}"
  # Full mode: the basic iteration rows again at 10k and 10M (-opi sets the entity count), with
  # their typed-view cells (-p form applies to IterateForms alone, the one class with that parameter).
  for size in "${sizes[@]}"; do
    jmh "jmh-${size#*:}-iteration.json" '\.iteration\.Iterate\.' '\.iteration\.IterateForms\.' \
      -p form=typedView2,typedView3 "${iter_opts[@]}" -opi "${size%%:*}"
  done
fi
if [[ "$part" == all || "$part" == structural ]]; then
  # Structural changes: single shots over 1M entities. Ashley's destroy is quadratic (a linear scan
  # per removal: about 17 us per entity at 100k, about ten times that at 1M), so destroy also runs
  # at 100k for every library, and Ashley's destroy only there (-p picks the libraries at 1M).
  jmh jmh-1M-structural.json '\.structural\.' -e 'structural\.Destroy\.run,structural\.Commands\.,structural\.WithGroups\.' "${shot_opts[@]}"
  jmh jmh-1M-destroy.json '\.structural\.Destroy\.run' -p lib=phalanx,artemis,dominion "${shot_opts[@]}"
  jmh jmh-100k-destroy.json '\.structural\.Destroy\.run' "${shot_opts[@]}" -opi 100000
fi
echo "== JMH done in $((SECONDS - start)) s"
"$java" -cp "$jar" dev.phalanx.benchmarks.report.Report "$out" "$mode"
