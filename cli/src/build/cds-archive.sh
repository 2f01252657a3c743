#!/usr/bin/env bash
# Writes the class-data-sharing archive the launcher maps (cli/target/dlprof-lint.jsa), run by `mvn package`.
#
# A static archive made from the class lists of training runs, not a dynamic one (-XX:ArchiveClassesAtExit): Java 17
# leaves out of a dynamic archive every class compiled for Java 5 or older, and picocli's 170-odd classes are (its
# jar targets Java 5), so every command parsed them again from the jar. A static dump keeps them. The training runs
# are the commands users run most: a lint with a cold and a warm rule cache writing each report format, --help,
# --version, and the rule catalogue; the JDK's own default class list is added so that what a training run did not
# touch is still shared as without the archive.
#
# usage: cds-archive.sh JAR ARCHIVE EXAMPLE_PROFILE WORK_DIR
# A JVM that cannot dump (no class-data sharing) leaves no archive and the build goes on: the launcher then runs
# without one.
set -uo pipefail
jar=$1 archive=$2 example=$3 work=$4
rm -rf "$work" "$archive"
mkdir -p "$work"
export DLPROF_LINT_CACHE_DIR="$work/rule-cache"
opts=(-XX:TieredStopAtLevel=1 -XX:+UseSerialGC -Xss4m -Xlog:cds=off)
n=0
train() {
  n=$((n + 1))
  java "${opts[@]}" -XX:DumpLoadedClassList="$work/$n.classlist" -jar "$jar" "$@" > "$work/$n.out" 2>&1
}
train "$example" --fail-on none --report json="$work/report.json"
train "$example" --fail-on none --report json="$work/report.json" --report sarif="$work/report.sarif" \
  --report html="$work/report.html" --report csv="$work/report.csv"
train "$example" --fail-on none
train --help
train --version
train rules list
train rules explain dlprof/amp-not-used
home=$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')
# the default list first, then each run's classes once, in the order first loaded (a class list names a class after
# those it needs)
cat "$home/lib/classlist" "$work"/*.classlist 2>/dev/null | awk '!/^#/ && !seen[$0]++' > "$work/classes"
if ! java -Xshare:dump -XX:SharedClassListFile="$work/classes" -XX:SharedArchiveFile="$archive" -cp "$jar" \
    > "$work/dump.log" 2>&1; then
  rm -f "$archive"
  echo "dlprof-lint build: no class-data sharing archive (see $work/dump.log); the launcher runs without one" >&2
fi
exit 0
