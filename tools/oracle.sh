#!/usr/bin/env bash
# Before/after oracle for refactors and speed work (reports must stay byte-identical).
#
#   tools/oracle.sh record DIR [EMU]    run every shipped topology (TOML and GraphML) x
#                                       traffic pair (10 s limit each, 2 threads) and
#                                       every `emu check`, keeping JSON, stdout (wall
#                                       time masked), stderr and exit code in DIR; cases
#                                       DIR already holds are kept (a record resumes)
#   tools/oracle.sh compare DIR [EMU]   rerun the cases DIR recorded (not those that hit
#                                       the limit) and compare every file byte for byte
#   tools/oracle.sh list                the cases record runs, one a line, in order
#
# EMU defaults to target/release/emu. Copy the binary aside before changing the code,
# e.g. `cp target/release/emu /tmp/emu-before && tools/oracle.sh record /tmp/before /tmp/emu-before`.
set -u
cd "$(dirname "$0")/.."
mode=${1:?record, compare or list}
mask() { sed -i -E 's/in [0-9.]+ (s|ms|µs) wall time/in X wall time/' "$1"; }
topology() { # topology NAME: its shipped file, TOML or GraphML
  if [ -e "topologies/$1.toml" ]; then echo "topologies/$1.toml"; else echo "topologies/$1.graphml"; fi
}
cases() { # every case record runs: each topology with each traffic file, then its check
  local t name f
  for t in topologies/*.toml topologies/*.graphml; do
    [ -e "$t" ] || continue
    name=$(basename "${t%.*}")
    for f in traffic/*.toml; do echo "$name--$(basename "$f" .toml)"; done
    echo "check--$name"
  done
}
one() { # one CASE OUTDIR LIMIT
  local case=$1 out=$2 limit=$3
  if [[ $case == check--* ]]; then
    "$emu" check --topology "$(topology "${case#check--}")" --json "$out/$case.json" \
      > "$out/$case.out" 2> "$out/$case.err"
  else
    timeout "$limit" "$emu" --topology "$(topology "${case%%--*}")" --traffic "traffic/${case#*--}.toml" \
      -q --threads 2 --json "$out/$case.json" > "$out/$case.out" 2> "$out/$case.err"
  fi
  echo $? > "$out/$case.rc"
  mask "$out/$case.out"
}
[ "$mode" = list ] && { cases; exit 0; }
dir=${2:?a directory}; emu=${3:-target/release/emu}
case $mode in
  record)
    mkdir -p "$dir"
    for case in $(cases); do
      [ -e "$dir/$case.rc" ] && continue
      if [[ $case == check--* ]]; then one "$case" "$dir" 60; else one "$case" "$dir" 10; fi
    done
    echo "recorded $(ls "$dir"/*.rc | wc -l) cases, $(grep -lx 124 "$dir"/*.rc | wc -l) over the limit (not compared)"
    ;;
  compare)
    after=$(mktemp -d); same=0; differ=0
    for rc in "$dir"/*.rc; do
      case=$(basename "$rc" .rc)
      [ "$(cat "$rc")" = 124 ] && continue
      one "$case" "$after" 60
      ok=1
      for ext in rc out err json; do
        if [ -e "$dir/$case.$ext" ] || [ -e "$after/$case.$ext" ]; then
          cmp -s "$dir/$case.$ext" "$after/$case.$ext" || { ok=0; echo "DIFF $case.$ext"; }
        fi
      done
      if [ $ok = 1 ]; then same=$((same + 1)); else differ=$((differ + 1)); fi
    done
    echo "identical: $same  different: $differ  (new outputs in $after)"
    [ $differ = 0 ]
    ;;
  *) echo "usage: tools/oracle.sh record|compare DIR [EMU] | list" >&2; exit 2 ;;
esac
