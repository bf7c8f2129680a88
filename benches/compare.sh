#!/usr/bin/env bash
# Times the shellbox CLI against /bin/bash (with the host's GNU tools) on the
# workloads of issue 7, side by side in one run, and prints a table of ratios.
#
#   cargo build --profile dist && benches/compare.sh [REPS]
#
# Each script runs REPS times (default 5) under each shell, alternating; the table
# shows the median wall time of whole processes (start-up included) and bash's time
# divided by ours (above 1: we are faster). Every workload's output is checked to be
# the same under both shells. Files for workloads 5 and 6 are generated once in a
# temporary directory; shellbox sees them through `--root` (copied in at start-up,
# which is counted in its time).
set -u
reps=${1:-5}
here=$(cd "$(dirname "$0")/.." && pwd)
sb=${SHELLBOX:-$here/target/dist/shellbox}
[[ -x $sb ]] || { echo "compare.sh: build first: cargo build --profile dist" >&2; exit 1; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# Workload 5: a 5 MB text file of word pairs from a small vocabulary.
mkdir -p "$work/text"
awk 'BEGIN {
  srand(7); split("alpha beta gamma delta epsilon zeta eta theta iota kappa lambda mu nu xi omicron pi rho sigma tau upsilon phi chi psi omega", w, " ");
  n = 0;
  while (n < 5000000) {
    line = w[int(rand() * 24) + 1] " " w[int(rand() * 24) + 1] " " int(rand() * 100);
    print line; n += length(line) + 1;
  }
}' > "$work/text/big.txt"
# Workload 6: 20,000 small files in 200 directories.
mkdir -p "$work/tree"
(
  cd "$work/tree" || exit 1
  for ((d = 0; d < 200; d++)); do
    mkdir "d$d"
    for ((f = 0; f < 100; f++)); do
      if ((f % 37 == 0)); then echo "needle $d $f"; else echo "hay $d $f"; fi > "d$d/f$f.txt"
    done
  done
)

# name | directory (or -) | script | target
workloads=(
  "1 start-up (echo hi)|-|echo hi|<3 ms"
  "2 arithmetic loop|-|x=0; for ((i=0;i<200000;i++)); do x=\$((x+i)); done; echo \$x|3x"
  "3 parameter expansion|-|s=abc/def/abracadabra; n=0; for ((i=0;i<20000;i++)); do a=\${s//a/b}; b=\${s#*/}; c=\${#s}; d=\${s:1:3}; n=\$((n+c)); done; echo \"\$a \$b \$c \$d \$n\"|3x"
  "4 recursive fib 20|-|fib() { if (( \$1 < 2 )); then r=\$1; return; fi; fib \$(( \$1 - 1 )); local a=\$r; fib \$(( \$1 - 2 )); r=\$(( a + r )); }; fib 20; echo \$r|3x"
  "5a grep -c|text|grep -c 'alpha beta' big.txt|1.5x"
  "5b sort, uniq -c, sort -rn, head|text|sort big.txt | uniq -c | sort -rn | head|1.5x"
  "5c sed s///g, wc -c|text|sed 's/a/A/g' big.txt | wc -c|1.5x"
  "5d awk length sum|text|awk '{n+=length(\$0)} END{print n}' big.txt|1.5x"
  "6a find -name|tree|find . -name 'f1*' | wc -l|1.5x"
  "6b grep -rl|tree|grep -rl needle . | wc -l|1.5x"
  "6c ls -R|tree|ls -R | wc -l|1.5x"
  "7 2000 three-stage pipelines|-|for ((i=0;i<2000;i++)); do echo \$i | tr 0-9 a-j | cut -c1-3; done | tail -n 2|3x"
)

now() { date +%s%N; }
median() { printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END{print a[int((NR+1)/2)]}'; }

# Start-up alone: many runs of `-c true` in one loop, so the timer's own cost is shared.
startup() {
  local t0 t1 i
  t0=$(now)
  for ((i = 0; i < 100; i++)); do "$@" -c true; done
  t1=$(now)
  awk -v d=$((t1 - t0)) 'BEGIN{printf "%.2f", d / 100 / 1e6}'
}
sbs=$(startup "$sb") bs=$(startup /bin/bash)
printf 'start-up (-c true, mean of 100): bash %s ms, shellbox %s ms (target < 3 ms)\n\n' "$bs" "$sbs"

printf '%-32s %10s %10s %8s  %-7s %s\n' workload bash_ms ours_ms ratio target output
for w in "${workloads[@]}"; do
  # Scripts may contain '|': the script is everything between the second field
  # and the last.
  name=${w%%|*} rest=${w#*|}; dir=${rest%%|*}; rest=${rest#*|}; script=${rest%|*}; target=${w##*|}
  if [[ $dir == - ]]; then cwd=$work; root=(); else cwd=$work/$dir; root=(--root "$cwd"); fi
  bt=() st=()
  same=same
  for ((r = 0; r < reps; r++)); do
    t0=$(now); bout=$(cd "$cwd" && /bin/bash -c "$script" 2>&1); t1=$(now)
    sout=$(cd "$cwd" && "$sb" "${root[@]}" -c "$script" 2>&1); t2=$(now)
    bt+=($(((t1 - t0) / 1000))) st+=($(((t2 - t1) / 1000)))
    [[ $bout == "$sout" ]] || same=DIFFERENT
  done
  b=$(median "${bt[@]}") s=$(median "${st[@]}")
  ratio=$(awk -v b="$b" -v s="$s" 'BEGIN{printf "%.2f", b / s}')
  printf '%-32s %10.1f %10.1f %7sx  %-7s %s\n' "$name" "$(awk -v x="$b" 'BEGIN{print x/1000}')" \
    "$(awk -v x="$s" 'BEGIN{print x/1000}')" "$ratio" "$target" "$same"
done
