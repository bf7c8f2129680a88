// The compatibility table: scripts of the kind AI agents run, each executed by the real
// /bin/bash 5.2 (recorded by record.mjs into expected.json), by just-bash 3.4.2 and by
// shellbox's `Bash` (compared by ../compat.test.mjs).
//
// A case is `{ name, script, files?, stdin? }`. `files` maps paths relative to the
// working directory to text contents (bash runs in a fresh temp directory holding them,
// the simulated shells in /workspace). Nothing here may depend on the host, the
// directory's path, the time or the process: no `pwd`, no `$$`, no `ls -l` dates, no
// unsorted `find`/`grep -r` listings.
//
// Scripts are written with the `sh` tag: the raw text, with `\${` standing for `${` and
// `` \` `` for a backtick (the only two things a JS template literal would otherwise
// interpret).

const sh = (strings) => strings.raw[0].replace(/\\\$\{/g, "${").replace(/\\`/g, "`");

// ---------------------------------------------------------------------------------------
// Fixtures

const fruits = "apple\nbanana\ncherry\napple\ndate\nbanana\napple\n";

const people = "name,age,city\nalice,34,paris\nbob,27,london\ncarol,41,paris\ndave,27,berlin\n";

const access = [
  '10.0.0.1 - - [01/Jan/2024:00:00:01 +0000] "GET /index.html HTTP/1.1" 200 512',
  '10.0.0.2 - - [01/Jan/2024:00:00:02 +0000] "GET /about.html HTTP/1.1" 404 128',
  '10.0.0.1 - - [01/Jan/2024:00:00:03 +0000] "POST /api/login HTTP/1.1" 200 64',
  '10.0.0.3 - - [01/Jan/2024:00:00:04 +0000] "GET /index.html HTTP/1.1" 200 512',
  '10.0.0.1 - - [01/Jan/2024:00:00:05 +0000] "GET /missing HTTP/1.1" 404 128',
  '10.0.0.2 - - [01/Jan/2024:00:00:06 +0000] "GET /index.html HTTP/1.1" 500 0',
  "",
].join("\n");

const appLog = [
  "2024-01-01 10:00:00 INFO server started",
  "2024-01-01 10:00:05 DEBUG cache warm",
  "2024-01-01 10:01:00 ERROR db timeout",
  "2024-01-01 10:02:00 INFO request ok",
  "2024-01-01 10:03:00 WARN slow request",
  "2024-01-01 10:04:00 ERROR db timeout",
  "2024-01-01 10:05:00 error lowercase entry",
  "",
].join("\n");

const project = {
  "src/main.py":
    "import os\n\ndef main():\n    # TODO: parse args\n    print('hello')\n\nif __name__ == '__main__':\n    main()\n",
  "src/util.py": "def add(a, b):\n    return a + b\n\ndef sub(a, b):\n    # TODO handle overflow\n    return a - b\n",
  "src/app.js": "const x = require('x');\n// TODO: remove\nfunction run() { return 42; }\nmodule.exports = { run };\n",
  "tests/test_util.py": "from src.util import add\n\ndef test_add():\n    assert add(1, 2) == 3\n",
  "README.md": "# Demo\n\nA demo project.\n\n## Usage\n\nRun `python src/main.py`.\n",
  "docs/guide.md": "# Guide\n\nStep one.\nStep two.\n",
  ".gitignore": "node_modules/\n*.log\n",
  "build.log": "ok\nwarning: deprecated\nok\n",
};

const pkg =
  JSON.stringify(
    {
      name: "demo",
      version: "1.0.0",
      scripts: { build: "tsc", test: "node --test" },
      dependencies: { lodash: "^4.17.21", express: "^4.18.2" },
      devDependencies: { typescript: "^5.4.0" },
    },
    null,
    2,
  ) + "\n";

const users =
  JSON.stringify(
    [
      { id: 1, name: "alice", age: 34, tags: ["admin", "dev"], active: true },
      { id: 2, name: "bob", age: 27, tags: ["dev"], active: false },
      { id: 3, name: "carol", age: 41, tags: ["ops"], active: true },
      { id: 4, name: "dave", age: 27, tags: [], active: true },
    ],
    null,
    2,
  ) + "\n";

const dotenv = "# settings\nAPP_NAME=demo\nDEBUG=true\n\nPORT=8080\nDB_URL=postgres://db:5432/app\n";

const passwd = "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\nalice:x:1000:1000:Alice:/home/alice:/bin/zsh\n";

const words = "the quick brown fox jumps over the lazy dog the fox\n";

// ---------------------------------------------------------------------------------------
// Cases

export const cases = [
  // --- echo, printf, quoting -----------------------------------------------------------
  { name: "echo basic", script: sh`echo hello world` },
  { name: "echo -n and -e", script: sh`echo -n a; echo -e 'b\tc'; echo 'd\ne'` },
  { name: "echo multiple spaces and quoting", script: sh`x='a   b'; echo $x; echo "$x"; echo '$x'; echo "\$x"` },
  {
    name: "printf formats",
    script: sh`printf '%s|%5s|%-5s|%d|%05.2f|%x|%o|%%\n' a b c 42 3.14159 255 8`,
  },
  { name: "printf reuses format", script: sh`printf '%s-%s\n' a b c d e` },
  { name: "printf %q", script: sh`printf '%q\n' "a b" "it's" 'x$y' ''` },
  { name: "printf -v", script: sh`printf -v out '%03d' 7; echo "[$out]"` },
  { name: "printf %b and %c", script: sh`printf '%b|%c\n' 'a\tb' hello` },
  { name: "printf numbers", script: sh`printf '%5.1f|%e|%i|%+d|%X\n' 2.25 1234.5 -3 5 3054` },
  { name: "echo escape not interpreted", script: sh`echo "tab:\t." 'nl:\n.'` },

  // --- variables and parameter expansion -----------------------------------------------
  {
    name: "default values",
    script: sh`e=; echo "\${u:-def} \${u-dash} [\${e:-empty}] [\${e-unset}]"; : \${v:=assigned}; echo "$v"; echo "\${v:+alt}"`,
  },
  { name: "string length and substrings", script: sh`s=abcdefgh; echo \${#s} \${s:2:3} \${s: -3} \${s:5}` },
  {
    name: "path trimming",
    script: sh`f=dir/sub/archive.tar.gz; echo \${f%.*} \${f%%.*} \${f#*/} \${f##*/}`,
  },
  {
    name: "pattern substitution",
    script: sh`s=foo-boo-zoo; echo \${s/oo/00} \${s//oo/00} \${s/#foo/X} \${s/%zoo/Y} \${s//-/}`,
  },
  { name: "case conversion", script: sh`s='hello World'; echo \${s^^} \${s,,} \${s^}` },
  { name: "indirect expansion", script: sh`target=value; ref=target; echo \${!ref}` },
  { name: "prefix names", script: sh`app_a=1; app_b=2; other=3; echo \${!app_@}` },
  {
    name: "error if unset",
    script: sh`echo start; echo "\${missing:?is required}"; echo never`,
  },
  {
    name: "positional parameters",
    script: sh`set -- a "b c" d; echo $#; for a in "$@"; do echo "[$a]"; done; echo "$*"; shift; echo "$1"`,
  },
  { name: "IFS join with star", script: sh`set -- x y z; IFS=,; echo "$*"; IFS=:; echo "$*"` },
  { name: "quoted transform", script: sh`s="it's a 'test'"; echo "\${s@Q}"; n=5; echo "\${n@Q}"` },
  {
    name: "readonly variable",
    script: sh`readonly r=1
r=2
echo "after $? r=$r"`,
  },
  {
    name: "unset variable",
    script: sh`x=1; unset x; echo "[\${x-gone}]"; y=2; unset -v y; echo "[$y]"`,
  },
  { name: "export to child", script: sh`export GREETING=hi; bash -c 'echo "child: $GREETING"'` },
  { name: "prefix assignment", script: sh`X=outer; X=inner bash -c 'echo $X'; echo $X` },

  // --- arithmetic ----------------------------------------------------------------------
  {
    name: "arithmetic basics",
    script: sh`echo $((3+4*2)) $((17/5)) $((17%5)) $((2**10)) $(( (1<<4) | 1 )) $((-7/2)) $((-7%3))`,
  },
  { name: "arithmetic increments", script: sh`i=0; ((i++)); ((i+=5)); ((i*=2)); echo $i; let j=i-2; echo $j` },
  { name: "arithmetic bases", script: sh`echo $((0x1f)) $((8#17)) $((2#1011)) $((010))` },
  { name: "arithmetic ternary and logic", script: sh`a=5; b=3; echo $(( a > b ? a : b )) $(( a == 5 && b < 2 )) $(( !0 ))` },
  { name: "arithmetic command status", script: sh`(( 5 > 3 )) && echo yes; (( 0 )); echo $?; (( 2 - 2 )) || echo zero` },
  { name: "division by zero", script: sh`echo before; echo $((1/0)); echo after` },
  { name: "declare -i", script: sh`declare -i n=5; n+=3; n=n*2; echo $n; n="abc"; echo $n` },
  { name: "float via awk", script: sh`awk 'BEGIN { printf "%.2f %.3f\n", 10/3, 2/7 }'` },
  { name: "sum with bc", script: sh`seq 1 10 | paste -sd+ | bc` },
  { name: "sum in arithmetic", script: sh`echo $(( $(seq 1 100 | paste -sd+) ))` },

  // --- control flow --------------------------------------------------------------------
  {
    name: "if elif else",
    script: sh`for n in 1 5 10; do
if [ "$n" -lt 3 ]; then echo "$n small"
elif [ "$n" -lt 8 ]; then echo "$n medium"
else echo "$n large"
fi
done`,
  },
  { name: "c-style for", script: sh`for ((i=0; i<5; i+=2)); do printf '%d ' $i; done; echo` },
  { name: "while counter", script: sh`n=3; while [ $n -gt 0 ]; do echo "n=$n"; n=$((n-1)); done; echo done` },
  { name: "until loop", script: sh`i=0; until [ $i -ge 3 ]; do echo $i; ((i++)); done` },
  {
    name: "case patterns",
    script: sh`for f in a.txt b.md c.py 42 README; do
case "$f" in
  *.txt|*.md) echo "$f: doc" ;;
  *.py) echo "$f: code" ;;
  [0-9]*) echo "$f: number" ;;
  *) echo "$f: other" ;;
esac
done`,
  },
  { name: "case fallthrough", script: sh`case x in x) echo one ;& y) echo two ;;& *) echo three ;; esac` },
  {
    name: "break and continue",
    script: sh`for i in 1 2 3 4 5 6; do
[ $i -eq 2 ] && continue
[ $i -eq 5 ] && break
echo $i
done`,
  },
  {
    name: "nested break 2",
    script: sh`for i in 1 2 3; do for j in a b c; do [ "$j" = c ] && [ $i = 2 ] && break 2; echo $i$j; done; done; echo end`,
  },
  {
    name: "function return status",
    script: sh`is_even() { return $(( $1 % 2 )); }
for n in 3 4; do if is_even $n; then echo "$n even"; else echo "$n odd ($?)"; fi; done`,
  },
  {
    name: "recursive function",
    script: sh`fact() { if [ $1 -le 1 ]; then echo 1; else echo $(( $1 * $(fact $(( $1 - 1 ))) )); fi; }
fact 10`,
  },
  {
    name: "local variables",
    script: sh`x=global
f() { local x=local; echo "in f: $x"; g; }
g() { echo "in g: $x"; }
f; echo "outside: $x"`,
  },
  { name: "function arguments", script: sh`f() { echo "$# args: $1 / $2 / \${3:-none}"; }; f one "two words"` },
  { name: "and or chains", script: sh`true && echo a || echo b; false && echo c || echo d; false || false || echo e` },
  {
    name: "subshell and group",
    script: sh`x=1; (x=2; echo "sub $x"); echo "after sub $x"; { x=3; echo "group $x"; }; echo "after group $x"`,
  },
  { name: "exit status of subshell", script: sh`(exit 4); echo $?; bash -c 'exit 300'; echo $?` },
  { name: "exit stops script", script: sh`echo one; exit 3; echo two` },
  {
    name: "trap on exit",
    script: sh`trap 'echo cleanup' EXIT
echo working
exit 2`,
  },
  { name: "eval", script: sh`cmd='echo $((6*7))'; eval "$cmd"; eval "v_1=ok"; echo $v_1` },
  {
    name: "getopts",
    script: sh`parse() { local OPTIND opt; while getopts "ab:c" opt; do case $opt in a) echo A;; b) echo "B=$OPTARG";; c) echo C;; ?) echo bad;; esac; done; shift $((OPTIND-1)); echo "rest: $*"; }
parse -a -b val -c file1 file2`,
  },
  { name: "source a file", files: { "lib.sh": "greet() { echo \"hello, $1\"; }\nLIBVAR=42\n" }, script: sh`. ./lib.sh; greet agent; source lib.sh; echo $LIBVAR` },
  { name: "background and wait", script: sh`{ echo bg; } > bg.txt & wait; cat bg.txt; echo done` },

  // --- test and [[ ]] ------------------------------------------------------------------
  {
    name: "file tests",
    files: { "a.txt": "x\n", "empty.txt": "", "dir/inner.txt": "y\n" },
    script: sh`[ -f a.txt ] && echo file; [ -d dir ] && echo dir; [ -e nope ] || echo missing; [ -s empty.txt ] || echo empty; [ -s a.txt ] && echo nonempty; [ -f dir ] || echo "dir not file"`,
  },
  {
    name: "string tests",
    script: sh`[ -z "" ] && echo z; [ -n x ] && echo n; [ abc = abc ] && echo eq; [ abc != abd ] && echo ne; [ a \< b ] && echo lt`,
  },
  { name: "numeric tests", script: sh`[ 3 -eq 3 ] && echo eq; [ 2 -lt 10 ] && echo lt; [ 10 -ge 10 ] && echo ge; test 3 -gt 5; echo $?` },
  { name: "test integer error", script: sh`[ 1 -eq x ]; echo "status $?"` },
  {
    name: "double bracket patterns",
    script: sh`f=report.txt; [[ $f == *.txt ]] && echo txt; [[ $f != *.md ]] && echo notmd; [[ -n $f && $f == r* ]] && echo both`,
  },
  {
    name: "regex match",
    script: sh`s=build-1234; if [[ $s =~ ^([a-z]+)-([0-9]+)$ ]]; then echo "\${BASH_REMATCH[0]} \${BASH_REMATCH[1]} \${BASH_REMATCH[2]}"; fi; [[ abc =~ ^b ]] || echo nomatch`,
  },
  { name: "variable is set", script: sh`a=1; [[ -v a ]] && echo "a set"; [[ -v b ]] || echo "b unset"` },
  { name: "negation and grouping", script: sh`[ ! -e nope ] && echo absent; [[ ! ( 1 -gt 2 || 3 -lt 1 ) ]] && echo ok` },

  // --- arrays --------------------------------------------------------------------------
  {
    name: "indexed arrays",
    script: sh`a=(one two three); echo \${a[1]} \${#a[@]} "\${a[@]}"; a+=(four); echo \${a[-1]} \${a[@]:1:2}; echo \${!a[@]}`,
  },
  { name: "array with spaces", script: sh`a=("first item" "second item"); for x in "\${a[@]}"; do echo "<$x>"; done; echo \${#a[0]}` },
  { name: "sparse array", script: sh`a=(a b c d); unset 'a[1]'; echo \${!a[@]}; echo \${a[@]}; a[10]=z; echo \${#a[@]} \${!a[@]}` },
  { name: "array join", script: sh`a=(x y z); (IFS=,; echo "\${a[*]}"); printf '%s\n' "\${a[@]}" | paste -sd'|'` },
  {
    name: "associative array sorted",
    script: sh`declare -A m=([b]=2 [a]=1 [c]=3); m[d]=4; for k in $(printf '%s\n' "\${!m[@]}" | sort); do echo "$k=\${m[$k]}"; done; echo \${#m[@]}`,
  },
  {
    name: "associative array order",
    script: sh`declare -A m; for k in alpha beta gamma delta epsilon; do m[$k]=\${#k}; done; for k in "\${!m[@]}"; do echo "$k \${m[$k]}"; done`,
  },
  {
    name: "word count with associative array",
    files: { "words.txt": words },
    script: sh`declare -A c; for w in $(cat words.txt); do ((c[$w]++)); done; for w in "\${!c[@]}"; do echo "\${c[$w]} $w"; done | sort -k1,1nr -k2`,
  },
  { name: "mapfile", files: { "f.txt": fruits }, script: sh`mapfile -t lines < f.txt; echo \${#lines[@]}; echo "\${lines[2]}"; printf '[%s]' "\${lines[@]:0:2}"; echo` },
  { name: "read into array", script: sh`read -ra parts <<< "a b  c"; echo \${#parts[@]}; IFS=, read -ra csv <<< "x,y,,z"; echo \${#csv[@]} "\${csv[3]}"` },
  { name: "declare -p", script: sh`a=(x "y z"); declare -A m=([k]=v); s=str; declare -p a m s` },
  { name: "glob into array", files: { "a.txt": "", "b.txt": "", "c.md": "" }, script: sh`files=(*.txt); echo \${#files[@]}; printf '%s\n' "\${files[@]}"` },

  // --- read loops and strings ----------------------------------------------------------
  {
    name: "read lines",
    files: { "in.txt": "  leading\ttab\ntrailing  \n\\back\\slash\n" },
    script: sh`while IFS= read -r line; do echo "<$line>"; done < in.txt; while read line; do echo "[$line]"; done < in.txt`,
  },
  {
    name: "read fields from passwd",
    files: { passwd },
    script: sh`while IFS=: read -r user _ uid _ _ home shell; do echo "$user uid=$uid shell=\${shell##*/}"; done < passwd`,
  },
  { name: "read in pipeline subshell", script: sh`x=unset; echo hi | read x; echo "[$x]"; echo hi | { read x; echo "inner [$x]"; }` },
  { name: "read multiple vars", script: sh`read -r a b <<< "1 2 3"; echo "$a|$b"; read -r a b c d <<< "1 2"; echo "$a|$b|$c|$d"` },
  {
    name: "read last line without newline",
    files: { "f.txt": "one\ntwo" },
    script: sh`n=0; while read -r l || [ -n "$l" ]; do n=$((n+1)); echo "$n:$l"; done < f.txt`,
  },
  { name: "read from stdin", stdin: "first line\nsecond line\n", script: sh`read -r a; read -r b; echo "got: $a / $b"` },
  { name: "stdin through pipeline", stdin: "b\na\nc\na\n", script: sh`sort | uniq` },
  { name: "cat stdin dash", stdin: "piped\n", script: sh`echo before | cat - ; cat` },
  {
    name: "parse dotenv",
    files: { ".env": dotenv },
    script: sh`while IFS='=' read -r k v; do [[ -z $k || $k == \#* ]] && continue; echo "$k -> $v"; done < .env`,
  },
  { name: "unicode length", script: sh`s="héllo wörld"; echo \${#s}; printf '%s' "$s" | wc -c; printf '%s' "$s" | wc -m` },

  // --- here-docs and here-strings ------------------------------------------------------
  {
    name: "heredoc expands",
    script: sh`name=agent; cat <<EOF
hello $name
sum: $((2+3))
cmd: $(echo sub)
EOF`,
  },
  {
    name: "heredoc quoted",
    script: sh`name=agent; cat <<'EOF'
hello $name
$(not run) \${x}
EOF`,
  },
  { name: "heredoc strip tabs", script: "cat <<-EOF\n\tindented\n\t\tdouble\n\tEOF\necho after" },
  {
    name: "heredoc keeps indentation",
    script: sh`cat <<EOF
def f():
    return 1
  two spaces
EOF`,
  },
  {
    name: "heredoc to file",
    script: sh`cat > config.yaml <<EOF
server:
  port: 8080
  host: localhost
EOF
grep -n port config.yaml; wc -l < config.yaml`,
  },
  {
    name: "heredoc into loop",
    script: sh`while read -r a b; do echo "$b=$a"; done <<EOF
1 one
2 two
EOF`,
  },
  { name: "here-string", script: sh`tr a-z A-Z <<< "shout"; wc -c <<< "abc"` },

  // --- redirections --------------------------------------------------------------------
  { name: "write and append", script: sh`echo a > f; echo b >> f; printf 'c\n' >> f; cat f; echo x > f; cat f` },
  { name: "stderr to file", script: sh`cat nope 2> err.txt; echo "status $?"; cat err.txt` },
  { name: "stderr into pipe", script: sh`ls nope 2>&1 | sed 's/^/E: /'` },
  {
    name: "separate stdout and stderr",
    script: sh`{ echo out; echo err >&2; } > o.txt 2> e.txt; echo "o: $(cat o.txt)"; echo "e: $(cat e.txt)"`,
  },
  { name: "both to file", script: sh`{ echo a; echo b >&2; echo c; } &> all.txt; cat all.txt; { echo d >&2; } >> all.txt 2>&1; cat all.txt` },
  { name: "output to stderr", script: sh`echo to-out; echo to-err >&2; echo 'also err' 1>&2` },
  { name: "discard output", script: sh`echo hidden > /dev/null; cat nope 2>/dev/null; echo "status $?"; ls nope &>/dev/null || echo failed` },
  { name: "file descriptors", script: sh`exec 3> f3; echo via3 >&3; echo more >&3; exec 3>&-; cat f3; exec 4< f3; read -r l <&4; echo "read: $l"` },
  { name: "input redirection", files: { "f.txt": fruits }, script: sh`wc -l < f.txt; sort < f.txt | head -2` },
  { name: "noclobber", script: sh`set -C; echo a > f; echo b > f; echo "status $?"; echo c >| f; cat f` },
  { name: "redirect to directory", script: sh`mkdir d; echo x > d; echo "status $?"` },
  { name: "redirect from missing file", script: sh`cat < nope; echo "status $?"` },
  { name: "redirect into missing directory", script: sh`echo x > nodir/file.txt; echo "status $?"` },

  // --- pipelines and error modes -------------------------------------------------------
  { name: "pipeline status", script: sh`false | true; echo $?; true | false; echo $?; set -o pipefail; false | true; echo $?` },
  { name: "PIPESTATUS", script: sh`true | false | true; echo \${PIPESTATUS[@]}; (exit 3) | (exit 0); echo \${PIPESTATUS[*]}` },
  { name: "set -e stops", script: sh`set -e; echo a; false; echo b` },
  {
    name: "set -e in conditions",
    script: sh`set -e
if false; then echo no; fi
false || echo recovered
! true
echo still here
grep -q zzz /dev/null && echo found
echo end`,
  },
  { name: "set -e with failing command", script: sh`set -e; echo start; cat missing.txt; echo unreachable` },
  { name: "set -u", script: sh`set -u; echo "\${defined:-ok}"; echo $undefined_var; echo after` },
  { name: "set -euo pipefail", script: sh`set -euo pipefail; echo start; grep pattern nope.txt | wc -l; echo after` },
  { name: "pipefail status value", script: sh`set -o pipefail; (exit 2) | (exit 3) | true; echo $?` },
  { name: "negated pipeline", script: sh`! grep -q x <<< "abc" && echo "no x"; ! true; echo $?` },
  { name: "set -x trace", script: sh`set -x; a=1; echo "value $a"; b=$(echo sub); set +x; echo quiet` },

  // --- command substitution ------------------------------------------------------------
  { name: "command substitution", script: sh`x=$(echo hi | tr a-z A-Z); echo "$x"; echo "nested $(echo $(echo deep))"; echo \`echo old style\`` },
  { name: "trailing newlines stripped", script: sh`x=$(printf 'a\n\n\n'); echo "[$x]"; y=$(printf '\n\nb'); echo "[$y]"` },
  { name: "substitution status", script: sh`x=$(false); echo $?; y=$(echo ok; exit 5); echo "$? $y"` },
  { name: "word splitting of substitution", script: sh`for w in $(printf 'a b\nc\n'); do echo "<$w>"; done; for w in "$(printf 'a b\nc')"; do echo "<$w>"; done` },
  { name: "process substitution", files: { "a.txt": "3\n1\n2\n", "b.txt": "2\n3\n4\n" }, script: sh`diff <(sort a.txt) <(sort b.txt); echo "status $?"; comm -12 <(sort a.txt) <(sort b.txt)` },
  { name: "while read from process substitution", files: { "x.txt": "1\n2\n3\n" }, script: sh`total=0; while read -r n; do total=$((total+n)); done < <(cat x.txt); echo $total` },

  // --- errors --------------------------------------------------------------------------
  { name: "cat missing file", script: sh`cat nope` },
  { name: "cat missing then present", files: { "a.txt": "here\n" }, script: sh`cat nope a.txt; echo "status $?"` },
  { name: "command not found", script: sh`nosuchcmd --flag; echo "status $?"` },
  { name: "command not found last", script: sh`echo first; definitely-not-a-command` },
  { name: "syntax error if", script: sh`if then fi` },
  { name: "syntax error unclosed quote", script: sh`echo "abc` },
  { name: "syntax error later line", script: sh`echo one
echo two
done` },
  { name: "syntax error unexpected paren", script: sh`echo ok; foo ( ) bar` },
  { name: "grep missing file", script: sh`grep foo nope.txt; echo "status $?"` },
  { name: "ls missing", script: sh`ls nope; echo "status $?"` },
  { name: "rm missing", script: sh`rm nope; echo "status $?"; rm -f nope; echo "forced $?"` },
  { name: "mkdir existing", script: sh`mkdir a; mkdir a; echo "status $?"; mkdir -p a; echo "p $?"` },
  { name: "mkdir missing parent", script: sh`mkdir x/y; echo "status $?"` },
  { name: "cd missing", script: sh`cd nope; echo "status $?"` },
  { name: "cat directory", script: sh`mkdir d; cat d; echo "status $?"` },
  { name: "rm directory without -r", script: sh`mkdir d; rm d; echo "status $?"; rmdir d && echo removed` },
  { name: "rmdir non-empty", files: { "d/f": "x" }, script: sh`rmdir d; echo "status $?"` },
  { name: "cp missing", script: sh`cp nope dest; echo "status $?"` },
  { name: "mv missing", script: sh`mv nope dest; echo "status $?"` },
  { name: "head missing", script: sh`head -n 2 nope; echo "status $?"` },
  { name: "wc missing", files: { "a.txt": "1\n2\n" }, script: sh`wc -l a.txt nope; echo "status $?"` },
  { name: "sed bad expression", files: { "f": "a\n" }, script: sh`sed 's/a/b' f; echo "status $?"` },
  { name: "local outside function", script: sh`local x=1; echo "status $?"` },
  { name: "bad substitution", script: sh`echo start; echo \${x!y}; echo after` },
  { name: "sort missing", script: sh`sort nope; echo "status $?"` },
  { name: "non-executable script", files: { "run.sh": "echo ran\n" }, script: sh`./run.sh; echo "status $?"` },
  { name: "failing command in script", script: sh`grep -q needle <<< "haystack" || { echo "needle not found" >&2; exit 1; }` },

  // --- files and directories -----------------------------------------------------------
  { name: "mkdir -p and ls -R", script: sh`mkdir -p a/b/c; touch a/b/c/f.txt a/top.txt; ls -R a` },
  {
    name: "cp files and directories",
    files: { "src/a.txt": "A\n", "src/sub/b.txt": "B\n" },
    script: sh`cp src/a.txt copy.txt; cp -r src dst; cat copy.txt dst/sub/b.txt; ls dst`,
  },
  { name: "mv rename", files: { "old.txt": "content\n" }, script: sh`mv old.txt new.txt; ls; cat new.txt; mkdir d; mv new.txt d/; ls d` },
  { name: "rm -r", files: { "tree/a/b.txt": "b", "tree/c.txt": "c", "keep.txt": "k" }, script: sh`rm -r tree; ls; [ -e tree ] || echo gone` },
  {
    name: "ls sorting and flags",
    files: { "b.txt": "", "a.txt": "", "C.txt": "", ".hidden": "", "dir/x": "" },
    script: sh`ls; echo ---; ls -1; echo ---; ls -a; echo ---; ls -A; echo ---; ls -d */; echo ---; ls -F`,
  },
  { name: "ls multiple arguments", files: { "d1/a": "", "d1/b": "", "d2/c": "", "f.txt": "" }, script: sh`ls d1 d2 f.txt` },
  { name: "ls reverse", files: { "a": "", "b": "", "c": "" }, script: sh`ls -r; ls -1r | head -1` },
  { name: "touch and test", script: sh`touch new.txt; [ -f new.txt ] && echo exists; wc -c < new.txt` },
  { name: "symlink", files: { "target.txt": "pointed\n" }, script: sh`ln -s target.txt link.txt; readlink link.txt; cat link.txt; [ -L link.txt ] && echo symlink` },
  { name: "chmod and execute script", script: sh`printf '#!/bin/bash\necho "script got $1"\nexit 7\n' > run.sh; chmod +x run.sh; ./run.sh arg; echo "status $?"; [ -x run.sh ] && echo executable` },
  { name: "bash script file", files: { "s.sh": "echo \"args: $#\"\nfor a; do echo \"- $a\"; done\n" }, script: sh`bash s.sh one "two three"` },
  { name: "cat -n and nl", files: { "f.txt": "alpha\n\nbeta\n" }, script: sh`cat -n f.txt; nl f.txt` },
  { name: "cat -A", files: { "f.txt": "a\tb  \nc\n" }, script: sh`cat -A f.txt` },
  { name: "basename dirname", script: sh`basename /a/b/c.txt; basename /a/b/c.txt .txt; basename dir/; dirname a/b/c; dirname file; dirname /top` },
  { name: "stat size", files: { "f.txt": "12345\n" }, script: sh`stat -c '%s %n' f.txt` },
  { name: "wc file sizes", files: { "a.txt": "one two\nthree\n", "b.txt": "x\n" }, script: sh`wc a.txt b.txt; wc -l a.txt; wc -w < a.txt; wc -c a.txt` },
  { name: "mktemp use", script: sh`d=$(mktemp -d); echo data > "$d/f"; cat "$d/f"; rm -r "$d"; [ -e "$d" ] || echo cleaned` },
  { name: "write then read file", script: sh`printf 'line1\nline2\n' > notes.txt; echo line3 >> notes.txt; cat notes.txt; wc -l notes.txt` },
  { name: "file with spaces in name", script: sh`touch "my file.txt"; for f in *.txt; do echo "[$f]"; done; rm "my file.txt"; ls | wc -l` },

  // --- globbing and expansion ----------------------------------------------------------
  { name: "brace expansion", script: sh`echo {1..5} {a,b}{x,y} {01..03} {5..1..2} file.{js,ts}` },
  { name: "glob no match", script: sh`echo *.none; shopt -s nullglob; for f in *.none; do echo "$f"; done; echo end` },
  { name: "glob sorted", files: { "b.txt": "", "a.txt": "", "B.txt": "", "c.log": "" }, script: sh`echo *.txt; echo ?.log; echo [ab].*` },
  { name: "globstar", files: { "x/y/z.txt": "", "x/w.txt": "", "top.txt": "" }, script: sh`shopt -s globstar; echo **/*.txt` },
  { name: "extglob", files: { "a.txt": "", "b.md": "", "c.js": "" }, script: sh`shopt -s extglob
echo !(*.txt); echo @(a|c).*; echo +([a-c]).md` },
  { name: "extglob enabled on the same line", files: { "a.txt": "" }, script: sh`shopt -s extglob; echo !(*.txt)` },
  { name: "dotglob", files: { ".env": "", "visible": "" }, script: sh`echo *; shopt -s dotglob; echo *` },

  // --- grep ----------------------------------------------------------------------------
  { name: "grep -n", files: { "app.log": appLog }, script: sh`grep -n ERROR app.log` },
  { name: "grep -i", files: { "app.log": appLog }, script: sh`grep -i error app.log` },
  { name: "grep -v", files: { "app.log": appLog }, script: sh`grep -v -e INFO -e DEBUG app.log` },
  { name: "grep -c", files: { "app.log": appLog }, script: sh`grep -c ERROR app.log; grep -ci error app.log` },
  { name: "grep -l", files: project, script: sh`grep -l TODO src/*` },
  { name: "grep -r", files: project, script: sh`grep -r TODO . | sort` },
  { name: "grep -rn include", files: project, script: sh`grep -rn --include='*.py' 'def ' . | sort` },
  { name: "grep -rl", files: project, script: sh`grep -rl import . | sort` },
  { name: "grep -E alternation", files: { "app.log": appLog }, script: sh`grep -E 'WARN|DEBUG' app.log; grep -E '10:0[1-3]' app.log | wc -l` },
  { name: "grep -o", files: { "access.log": access }, script: sh`grep -o '[0-9]\{3\} [0-9]*$' access.log; grep -oE '"[A-Z]+ [^ ]+' access.log | sort -u` },
  { name: "grep -w", files: { "f.txt": "cat\nconcat\ncat food\nthe cat.\n" }, script: sh`grep -w cat f.txt; echo ---; grep -x cat f.txt` },
  { name: "grep context", files: { "f.txt": "a\nb\nmatch1\nc\nd\ne\nf\nmatch2\ng\n" }, script: sh`grep -n -B1 -A1 match f.txt; echo ===; grep -C2 match2 f.txt` },
  { name: "grep -q and status", files: { "f.txt": "alpha\n" }, script: sh`grep -q alpha f.txt && echo found; grep -q beta f.txt; echo "status $?"; grep beta f.txt; echo "again $?"` },
  { name: "grep -F special chars", files: { "f.txt": "a.b\naxb\n[x]\n" }, script: sh`grep -F 'a.b' f.txt; grep 'a.b' f.txt; grep -F '[x]' f.txt` },
  { name: "grep multiple files prefix", files: { "a.txt": "hit a\nmiss\n", "b.txt": "hit b\n" }, script: sh`grep hit a.txt b.txt; grep -h hit a.txt b.txt; grep -H hit a.txt; grep -c hit a.txt b.txt` },
  { name: "grep -m and -e", files: { "f.txt": "x1\ny1\nx2\ny2\n" }, script: sh`grep -m1 x f.txt; grep -e x1 -e y2 f.txt` },
  { name: "grep stdin", stdin: "one\ntwo\nthree\n", script: sh`grep -n t` },
  { name: "grep -P absent", files: { "f.txt": "a1\nb\n" }, script: sh`grep -E '[[:digit:]]+' f.txt; grep '^[[:alpha:]]$' f.txt` },
  { name: "grep extended backrefs", files: { "f.txt": "abab\nabcd\nxyxy\n" }, script: sh`grep -E '(..)\1' f.txt` },

  // --- sed -----------------------------------------------------------------------------
  { name: "sed substitute global", files: { "f.txt": "foo bar foo\nfoo\n" }, script: sh`sed 's/foo/baz/g' f.txt; sed 's/foo/baz/' f.txt; sed 's/foo/baz/2' f.txt` },
  { name: "sed -n print range", script: sh`seq 10 | sed -n '3,5p'; seq 10 | sed -n '$p'; seq 10 | sed -n '2~3p'` },
  { name: "sed -i in place", files: { "config.ini": "debug=true\nport=80\n" }, script: sh`sed -i 's/debug=true/debug=false/' config.ini; cat config.ini` },
  { name: "sed -i with backup", files: { "f.txt": "v1\n" }, script: sh`sed -i.bak 's/v1/v2/' f.txt; ls; cat f.txt f.txt.bak` },
  { name: "sed -E groups", files: { "f.txt": "alpha=1\nbeta=22\n" }, script: sh`sed -E 's/([a-z]+)=([0-9]+)/\2:\1/' f.txt; sed 's/\([a-z]*\)=/\1 is /' f.txt` },
  { name: "sed delete lines", files: { "f.txt": "keep\n# comment\n\nkeep too\n  # indented\n" }, script: sh`sed '/^#/d; /^$/d' f.txt; echo ---; sed '/^[[:space:]]*#/d' f.txt` },
  { name: "sed regex range", files: { "f.txt": "a\nSTART\nb\nc\nEND\nd\n" }, script: sh`sed -n '/START/,/END/p' f.txt; echo ---; sed '/START/,/END/d' f.txt` },
  { name: "sed multiple expressions", script: sh`echo 'hello world' | sed -e 's/hello/bye/' -e 's/world/moon/'; echo abc | sed 's/b/[&]/'` },
  { name: "sed insert append change", files: { "f.txt": "one\ntwo\nthree\n" }, script: sh`sed '1i header' f.txt; sed '$a footer' f.txt; sed '2c\replaced' f.txt; sed '/two/a\after two' f.txt` },
  { name: "sed transliterate and number", files: { "f.txt": "abc\ncab\n" }, script: sh`sed 'y/abc/xyz/' f.txt; sed = f.txt` },
  { name: "sed custom delimiter", script: sh`echo /usr/local/bin | sed 's|/|_|g'; echo a/b | sed 's#/#\\#'` },
  { name: "sed quit", script: sh`seq 100 | sed -n '/7/{p;q}'; seq 5 | sed 3q` },
  { name: "sed case insensitive and I flag", script: sh`printf 'Hello\nHELLO\nhello\n' | sed 's/hello/hi/I'` },
  { name: "sed line ending ops", files: { "f.txt": "a\nb\nc\n" }, script: sh`sed ':a;N;$!ba;s/\n/,/g' f.txt; sed '$!d' f.txt; sed -n '1!G;h;$p' f.txt` },
  { name: "sed stdin edit", stdin: "key: value\n", script: sh`sed 's/: */=/'` },

  // --- awk -----------------------------------------------------------------------------
  { name: "awk fields", files: { "access.log": access }, script: sh`awk '{print $1, $9}' access.log; awk '{print $NF}' access.log | head -2` },
  { name: "awk -F and OFS", files: { "people.csv": people }, script: sh`awk -F, 'NR>1 {print $1, $3}' people.csv; awk -F, -v OFS=';' 'NR>1 {$2=$2+1; print}' people.csv` },
  { name: "awk -F colon", files: { passwd }, script: sh`awk -F: '$3 >= 1000 {print $1 " home=" $6}' passwd; awk -F: '{print NF}' passwd | sort -u` },
  { name: "awk sum BEGIN END", files: { "access.log": access }, script: sh`awk 'BEGIN {print "bytes"} {sum += $10} END {print sum, NR, sum/NR}' access.log` },
  { name: "awk arrays", files: { "access.log": access }, script: sh`awk '{count[$9]++} END {for (s in count) print s, count[s]}' access.log | sort` },
  { name: "awk printf table", files: { "people.csv": people }, script: sh`awk -F, 'NR>1 {printf "%-6s|%4d|%s\n", $1, $2, toupper($3)}' people.csv` },
  { name: "awk conditions", files: { "people.csv": people }, script: sh`awk -F, 'NR>1 && $2 > 30' people.csv; awk -F, '$3 == "paris" {n++} END {print n " in paris"}' people.csv` },
  { name: "awk -v variable", script: sh`seq 5 | awk -v t=3 '$1 > t {print "big", $1}'` },
  { name: "awk string functions", script: sh`echo 'Hello World foo' | awk '{print length($0), substr($2, 2, 3), index($0, "foo"), tolower($1); n = split("a:b:c", p, ":"); print n, p[3]; s = $0; gsub(/o/, "0", s); print s; sub(/l+/, "L"); print}'` },
  { name: "awk regex match", files: { "app.log": appLog }, script: sh`awk '/ERROR/ {e++} /INFO/ {i++} END {print "errors=" e, "info=" i}' app.log; awk '$3 ~ /^(WARN|ERROR)$/ {print $2}' app.log` },
  { name: "awk NR ranges", script: sh`seq 10 | awk 'NR==2, NR==4'; seq 10 | awk 'NR % 3 == 0'` },
  { name: "awk FNR two files", files: { "a": "1\n2\n", "b": "3\n4\n5\n" }, script: sh`awk '{print FILENAME, FNR, NR}' a b` },
  { name: "awk field rebuild", script: sh`echo 'a b c d' | awk '{$2 = ""; print}'; echo 'a b c' | awk '{$5 = "e"; print; print NF}'` },
  { name: "awk uninitialized and numbers", script: sh`echo '3 abc 4x' | awk '{print x+0, $1*2, $2+0, $3+1, 1e3, 0.1+0.2, 2^10}'` },
  { name: "awk END NR and last line", files: { "f.txt": fruits }, script: sh`awk 'END {print NR, $0}' f.txt` },
  { name: "awk in and delete", script: sh`awk 'BEGIN {a["x"]=1; a["y"]=2; delete a["x"]; print ("x" in a), ("y" in a), length(a)}'` },
  { name: "awk dedupe", files: { "f.txt": fruits }, script: sh`awk '!seen[$0]++' f.txt` },
  { name: "awk group sum", files: { "people.csv": people }, script: sh`awk -F, 'NR>1 {s[$3]+=$2; c[$3]++} END {for (k in s) printf "%s %d %.1f\n", k, s[k], s[k]/c[k]}' people.csv | sort` },
  { name: "awk stdin", stdin: "10 20\n30 40\n", script: sh`awk '{print $1 + $2}'` },
  { name: "awk print to stderr and file", script: sh`echo data | awk '{print "to file: " $0 > "out.txt"; print "err" > "/dev/stderr"}'; cat out.txt` },

  // --- sort, uniq, head, tail, wc, cut, tr, paste, comm, diff --------------------------
  { name: "sort variants", files: { "n.txt": "10\n9\n100\n-1\n9\n" }, script: sh`sort n.txt | paste -sd' '; sort -n n.txt | paste -sd' '; sort -rn n.txt | paste -sd' '; sort -un n.txt | paste -sd' '` },
  { name: "sort by key", files: { "people.csv": people }, script: sh`tail -n +2 people.csv | sort -t, -k2,2n -k1,1r; echo ---; tail -n +2 people.csv | sort -t, -k3` },
  { name: "sort case and unique", script: sh`printf 'b\nA\na\nB\nb\n' | sort; printf 'b\nA\na\nB\nb\n' | sort -u; printf 'b\nA\na\nB\n' | sort -f` },
  { name: "sort -h and -V", script: sh`printf '1G\n10K\n2M\n512\n' | sort -h; printf 'v1.10\nv1.2\nv1.9\n' | sort -V` },
  { name: "uniq counts", files: { "f.txt": fruits }, script: sh`sort f.txt | uniq -c; sort f.txt | uniq -d; sort f.txt | uniq -u` },
  { name: "top frequencies", files: { "f.txt": fruits }, script: sh`sort f.txt | uniq -c | sort -rn | head -2` },
  { name: "word frequency", files: { "t.txt": words }, script: sh`tr -s ' ' '\n' < t.txt | sort | uniq -c | sort -rn | head -3` },
  { name: "head variants", script: sh`seq 10 | head -n 3; seq 10 | head -3; printf 'abcdefgh' | head -c 5; echo; seq 5 | head -n -2` },
  { name: "tail variants", script: sh`seq 10 | tail -n 2; seq 10 | tail -3; seq 5 | tail -n +4; printf 'abcdefgh' | tail -c 3; echo` },
  { name: "head and tail files", files: { "a": "1\n2\n3\n", "b": "x\ny\n" }, script: sh`head -n 1 a b; tail -n 1 a b` },
  { name: "wc stdin", script: sh`printf 'one two\nthree\n' | wc; printf 'one two\nthree\n' | wc -l; echo -n abc | wc -c` },
  { name: "cut fields", files: { "people.csv": people }, script: sh`cut -d, -f2 people.csv; cut -d, -f1,3 people.csv | tail -1; cut -d, -f2- people.csv | head -1` },
  { name: "cut characters and tabs", script: sh`echo abcdefgh | cut -c1-3; echo abcdefgh | cut -c5-; printf 'a\tb\tc\n' | cut -f2; echo 'a:b:c' | cut -d: -f1 --complement` },
  { name: "tr variants", script: sh`echo hello | tr a-z A-Z; echo 'a-b-c' | tr -d -; echo 'too    many   spaces' | tr -s ' '; echo 'abc123def' | tr -cd '0-9'; echo; printf 'a\nb\nc\n' | tr '\n' ','; echo` },
  { name: "tr classes", script: sh`echo 'Hello, World!' | tr '[:upper:]' '[:lower:]'; echo 'a1b2' | tr -d '[:digit:]'; echo 'x y' | tr ' ' '\n'` },
  { name: "paste", files: { "a": "1\n2\n3\n", "b": "x\ny\n" }, script: sh`paste a b; paste -d: a b; paste -sd, a; paste -s a b` },
  { name: "comm", files: { "a": "apple\nbanana\ncherry\n", "b": "banana\ncherry\ndate\n" }, script: sh`comm a b; echo ---; comm -12 a b; echo ---; comm -23 a b; echo ---; comm -3 a b` },
  { name: "diff normal", files: { "old.txt": "one\ntwo\nthree\nfour\n", "new.txt": "one\n2\nthree\nfour\nfive\n" }, script: sh`diff old.txt new.txt; echo "status $?"` },
  { name: "diff unified", files: { "old.txt": "one\ntwo\nthree\nfour\n", "new.txt": "one\n2\nthree\nfour\nfive\n" }, script: sh`diff -u old.txt new.txt | tail -n +3; echo "status \${PIPESTATUS[0]}"` },
  { name: "diff unified labels", files: { "a": "x\ny\n", "b": "x\nz\n" }, script: sh`diff -u --label before --label after a b` },
  { name: "diff identical and quiet", files: { "a": "same\n", "b": "same\n", "c": "other\n" }, script: sh`diff a b && echo identical; diff -q a c; echo "status $?"` },
  { name: "diff missing file", files: { "a": "x\n" }, script: sh`diff a nope; echo "status $?"` },
  { name: "rev tac", script: sh`echo hello | rev; seq 3 | tac` },
  { name: "fold and expand", script: sh`echo abcdefghij | fold -w 4; printf 'a\tb\n' | expand -t 4` },
  { name: "seq variants", script: sh`seq 3; seq 2 2 8 | paste -sd' '; seq -s, 1 5; seq -w 8 11 | paste -sd' '; seq 5 -2 1 | paste -sd' '` },
  { name: "yes head", script: sh`yes | head -3; yes ab | head -n 2` },
  { name: "od bytes", script: sh`printf 'hi\n' | od -c; printf 'AB' | od -An -tx1` },

  // --- jq ------------------------------------------------------------------------------
  { name: "jq pretty print", files: { "package.json": pkg }, script: sh`jq . package.json` },
  { name: "jq -r field", files: { "package.json": pkg }, script: sh`jq -r .name package.json; jq .version package.json; jq -r '.scripts.test' package.json` },
  { name: "jq keys and length", files: { "package.json": pkg }, script: sh`jq -c keys package.json; jq '.dependencies | length' package.json; jq -r '.dependencies | keys[]' package.json` },
  { name: "jq -c iterate", files: { "users.json": users }, script: sh`jq -c '.[]' users.json` },
  { name: "jq select", files: { "users.json": users }, script: sh`jq -r '.[] | select(.age > 30) | .name' users.json; jq -c '[.[] | select(.active | not) | .id]' users.json` },
  { name: "jq map", files: { "users.json": users }, script: sh`jq -c 'map(.age * 2)' users.json; jq -c 'map({(.name): .age}) | add' users.json` },
  { name: "jq --arg and --argjson", files: { "users.json": users }, script: sh`jq -r --arg n bob '.[] | select(.name == $n) | .age' users.json; jq -c --argjson min 30 '[.[] | select(.age >= $min) | .name]' users.json` },
  { name: "jq string interpolation", files: { "users.json": users }, script: sh`jq -r '.[] | "\(.name) is \(.age)"' users.json` },
  { name: "jq to_entries", files: { "package.json": pkg }, script: sh`jq -r '.scripts | to_entries[] | "\(.key)=\(.value)"' package.json; jq -c '.scripts | with_entries(.value |= ascii_upcase)' package.json` },
  { name: "jq sort group", files: { "users.json": users }, script: sh`jq -r 'sort_by(.age) | .[].name' users.json; jq -c 'group_by(.age) | map({age: .[0].age, n: length})' users.json` },
  { name: "jq tsv csv", files: { "users.json": users }, script: sh`jq -r '.[] | [.name, .age] | @tsv' users.json; jq -r '.[] | [.id, .name] | @csv' users.json` },
  { name: "jq update and delete", files: { "package.json": pkg }, script: sh`jq -c '.version = "1.1.0" | del(.scripts, .devDependencies) | .dependencies.zod = "^3"' package.json` },
  { name: "jq slurp and null input", script: sh`printf '1\n2\n3\n' | jq -s 'add'; jq -n '{a: 1, b: [true, null]}'; jq -nc '[range(3)]'` },
  { name: "jq exit status", script: sh`echo '{"a":1}' | jq -e '.b'; echo "status $?"; echo '{"a":1}' | jq -e '.a'; echo "status $?"` },
  { name: "jq has and conditionals", files: { "users.json": users }, script: sh`jq -r '.[] | if .age > 30 then "\(.name): senior" else "\(.name): junior" end' users.json; jq '.[0] | has("tags"), has("email")' users.json` },
  { name: "jq arrays ops", files: { "users.json": users }, script: sh`jq -c '[.[].tags[]] | unique' users.json; jq '[.[].age] | add / length' users.json; jq -c 'min_by(.age), max_by(.age) | .name' users.json` },
  { name: "jq edit file in place", files: { "package.json": pkg }, script: sh`jq '.version = "2.0.0"' package.json > tmp.json && mv tmp.json package.json; jq -r .version package.json; ls` },
  { name: "jq stdin raw", stdin: "[\"a\",\"b\"]\n", script: sh`jq -r '.[]' | tr a-z A-Z` },
  { name: "jq -R and split", script: sh`printf 'a,b\nc,d\n' | jq -R 'split(",")' -c; printf 'x\ny\n' | jq -Rs -c 'split("\n")'` },
  { name: "jq any all and paths", files: { "users.json": users }, script: sh`jq 'any(.[]; .age > 40), all(.[]; .active)' users.json; jq -c '[paths(type == "boolean")]' users.json` },
  { name: "jq build object", script: sh`jq -n --arg k key --arg v val '{($k): $v, list: [$k, $v]}'` },

  // --- find and xargs ------------------------------------------------------------------
  { name: "find -name", files: project, script: sh`find . -name '*.py' | sort` },
  { name: "find -type d", files: project, script: sh`find . -type d | sort` },
  { name: "find -maxdepth", files: project, script: sh`find . -maxdepth 1 -type f | sort; echo ---; find src -maxdepth 0` },
  { name: "find -exec rm", files: project, script: sh`find . -name '*.log' -exec rm {} \;; ls -A` },
  { name: "find -exec plus", files: project, script: sh`find . -name '*.md' -exec wc -l {} + | sort` },
  { name: "find print0 xargs -0", files: { "a b.txt": "one\n", "c.txt": "two\n", "d.md": "three\n" }, script: sh`find . -name '*.txt' -print0 | sort -z | xargs -0 cat` },
  { name: "find not and path", files: project, script: sh`find . -type f -not -name '*.py' | sort; echo ---; find . -path './src/*' | sort` },
  { name: "find -iname and -empty", files: { "A.TXT": "", "b.txt": "x", "sub/C.Txt": "" }, script: sh`find . -iname '*.txt' | sort; find . -empty | sort` },
  { name: "find count files", files: project, script: sh`find . -type f | wc -l; find . -type f -name '*.py' | wc -l` },
  { name: "find missing dir", script: sh`find nope; echo "status $?"` },
  { name: "find and grep pipeline", files: project, script: sh`find . -name '*.py' | sort | xargs grep -c TODO` },
  { name: "xargs -n and -I", script: sh`echo a b c d | xargs -n 2 echo; printf '1\n2\n' | xargs -I{} echo 'item {}'; seq 3 | xargs echo` },
  { name: "xargs with no input", script: sh`echo -n | xargs echo ran; printf '' | xargs -r echo skipped; echo end` },
  { name: "xargs mkdir and touch", script: sh`echo d1 d2 | xargs mkdir; printf 'd1/a\nd2/b\n' | xargs touch; ls d1 d2` },

  // --- tee, encoding, checksums, dates, misc -------------------------------------------
  { name: "tee", script: sh`echo hi | tee out.txt | tr a-z A-Z; cat out.txt; echo more | tee -a out.txt > /dev/null; cat out.txt` },
  { name: "tee multiple files", script: sh`seq 3 | tee a b > /dev/null; cat a b | wc -l` },
  { name: "base64", script: sh`echo 'hello world' | base64; echo aGVsbG8gd29ybGQK | base64 -d; printf 'x' | base64` },
  { name: "base64 wrapping", script: sh`seq 40 | base64; seq 40 | base64 -w 0; echo` },
  { name: "checksums", files: { "f.txt": "content\n" }, script: sh`sha256sum f.txt; echo -n abc | sha256sum; md5sum f.txt; echo -n abc | sha1sum` },
  { name: "sha256sum check", files: { "f.txt": "content\n" }, script: sh`sha256sum f.txt > sums; sha256sum -c sums; echo changed > f.txt; sha256sum -c sums; echo "status $?"` },
  { name: "date epoch", script: sh`date -d @0 -u; date -u -d @1700000000 +%Y-%m-%dT%H:%M:%S; date -u -d @86400 +%F` },
  { name: "date formats", script: sh`date -u -d '2024-01-15 13:45:00' '+%A %B %d %Y %H:%M %j %u'; date -u -d '2024-02-28' +%s` },
  { name: "type and command -v", script: sh`type echo; type cd; command -v jq > /dev/null && echo has-jq; command -v nosuch || echo "no nosuch"; f() { :; }; type -t f; type -t if` },
  { name: "true false colon", script: sh`true; echo $?; false; echo $?; :; echo $?` },
  { name: "timeout passthrough", script: sh`timeout 5 echo ok; timeout 5 bash -c 'exit 3'; echo "status $?"` },
  { name: "sleep zero", script: sh`sleep 0; echo awake` },
  { name: "nested bash -c", script: sh`bash -c 'echo "$0 $1 $2"' zero one two; sh -c 'echo from sh'` },
  { name: "printf with xargs", script: sh`printf '%s\n' b a | xargs printf '<%s>'; echo` },
  { name: "pipeline into while", files: { "f.txt": fruits }, script: sh`sort -u f.txt | while read -r fruit; do echo "\${#fruit} $fruit"; done` },
  { name: "string builder loop", script: sh`out=""; for i in $(seq 1 5); do out+="$i,"; done; echo "\${out%,}"` },
  { name: "case conversion with tr and awk", script: sh`echo Mixed | tr '[:lower:][:upper:]' '[:upper:][:lower:]'; echo Mixed | awk '{print toupper($0), tolower($0)}'` },

  // --- agent-style tasks ---------------------------------------------------------------
  {
    name: "task scaffold project",
    script: sh`mkdir -p src tests
cat > src/index.ts <<'EOF'
export const add = (a: number, b: number) => a + b;
EOF
cat > tests/index.test.ts <<'EOF'
import { add } from "../src/index";
EOF
echo '{"name":"demo"}' > package.json
find . -type f | sort
cat src/index.ts`,
  },
  { name: "task rename in many files", files: project, script: sh`grep -rl TODO . | sort | xargs sed -i 's/TODO/FIXME/g'; grep -rn FIXME . | sort; grep -r TODO . | wc -l` },
  { name: "task status codes report", files: { "access.log": access }, script: sh`awk '{print $9}' access.log | sort | uniq -c | sort -rn` },
  { name: "task top ips", files: { "access.log": access }, script: sh`cut -d' ' -f1 access.log | sort | uniq -c | sort -k1,1nr -k2 | head -2 | awk '{print $2 ": " $1}'` },
  { name: "task csv column stats", files: { "people.csv": people }, script: sh`tail -n +2 people.csv | cut -d, -f3 | sort | uniq -c; tail -n +2 people.csv | awk -F, '{s+=$2} END {print "avg age:", s/NR}'` },
  { name: "task check files exist", files: { "a": "", "c": "" }, script: sh`for f in a b c; do if [ -e "$f" ]; then echo "$f exists"; else echo "$f missing"; fi; done` },
  { name: "task todo list", files: project, script: sh`grep -rn 'TODO' --include='*.py' --include='*.js' . | sort | sed 's/^\.\///'` },
  { name: "task edit env file", files: { ".env": dotenv }, script: sh`sed -i 's/^DEBUG=.*/DEBUG=false/' .env; grep -q '^LOG_LEVEL=' .env || echo 'LOG_LEVEL=info' >> .env; cat .env` },
  { name: "task json to lines", files: { "users.json": users }, script: sh`jq -r '.[] | select(.active) | .name' users.json | while read -r n; do echo "user: $n"; done | sort -r` },
  { name: "task count lines per extension", files: project, script: sh`for ext in py js md; do n=$(find . -name "*.$ext" -type f | sort | xargs cat | wc -l); echo "$ext $n"; done` },
  { name: "task extract function names", files: project, script: sh`grep -rhoE 'def [a-z_]+' --include='*.py' . | sed 's/def //' | sort` },
  { name: "task backup and compare", files: { "config.json": "{\"a\": 1}\n" }, script: sh`cp config.json config.json.bak; jq '.a = 2' config.json.bak > config.json; diff config.json.bak config.json; echo "changed: $?"; ls` },
  { name: "task error summary", files: { "app.log": appLog }, script: sh`grep -i error app.log | awk '{$1=$2=""; sub(/^  /, ""); print}' | sort | uniq -c | sort -rn` },
  { name: "task loop over files with counts", files: project, script: sh`for f in src/*.py; do printf '%-16s %3d lines\n' "$f" "$(wc -l < "$f")"; done` },
  { name: "task guard with exit code", files: { "data.txt": "x\n" }, script: sh`check() { [ -s "$1" ] || { echo "error: $1 is empty or missing" >&2; return 1; }; echo "ok: $1"; }
check data.txt; check none.txt; echo "last $?"` },
  { name: "task markdown headings", files: project, script: sh`grep -h '^#' README.md docs/guide.md | sed -E 's/^(#+) /\1|/' | awk -F'|' '{printf "%d %s\n", length($1), $2}'` },
  { name: "task replace line range", script: sh`seq 1 8 > f.txt; sed -i '3,5d' f.txt; sed -i '2a inserted' f.txt; paste -sd' ' f.txt` },
  { name: "task dedupe and merge lists", files: { "a.txt": "x\ny\nz\n", "b.txt": "y\nw\n" }, script: sh`cat a.txt b.txt | sort -u > merged.txt; cat merged.txt; comm -13 <(sort a.txt) <(sort b.txt)` },
  { name: "task summarize dependencies", files: { "package.json": pkg }, script: sh`jq -r '(.dependencies // {}) + (.devDependencies // {}) | to_entries | sort_by(.key) | .[] | "\(.key)@\(.value)"' package.json` },
  { name: "task gitignore style filter", files: project, script: sh`find . -type f | sed 's|^\./||' | grep -v -E '\.log$|^\.git' | sort` },

  // --- more echo/printf ----------------------------------------------------------------
  { name: "printf star width and precision", script: sh`printf '[%*d] [%-*s] [%.3s] [%05d]\n' 5 42 6 ab abcdef -42` },
  { name: "printf escapes", script: sh`printf '\x41\101\u00e9\n'; printf 'a\\b\n'; printf -- '-x\n'` },
  { name: "printf invalid number", script: sh`printf '%d\n' abc; echo "status $?"; printf '%d\n' 3.5; echo "status $?"` },
  { name: "printf no arguments", script: sh`printf '%s|%d|\n'; printf 'plain\n'` },
  { name: "printf date format", script: sh`printf '%(%Y-%m-%d %H:%M)T\n' 0; printf '%(%s)T\n' 86400` },
  { name: "echo options", script: sh`echo -e '\x41\0101'; echo -E 'a\tb'; echo -- -n; echo -n -e 'x\n'` },
  { name: "ansi-c quoting", script: sh`echo $'a\tb'; s=$'line1\nline2'; echo "$s" | wc -l; printf '%s\n' $'it\'s'` },

  // --- more parameter expansion --------------------------------------------------------
  { name: "array element transforms", script: sh`a=(one two three); echo "\${a[@]/#/pre-}"; echo "\${a[@]^}"; echo "\${a[@]%e}"; echo "\${#a[1]}"` },
  { name: "character class removal", script: sh`s='Hello, World 123'; echo "\${s//[aeiou]/}"; echo "\${s//[^0-9]/}"; echo "\${s//[[:space:]]/_}"` },
  { name: "positional slices", script: sh`set -- a b c d e; echo "\${@:2}"; echo "\${@:2:2}"; echo "\${@: -1}"; echo "\${!#}"` },
  { name: "default from command", script: sh`v="\${UNSET_VAR:-$(echo computed)}"; echo "$v"; w=\${EMPTY:=fallback}; echo "$w"` },
  { name: "file contents substitution", files: { "f.txt": "a\nb\nc\n" }, script: sh`content=$(<f.txt); echo "\${content//$'\n'/,}"; echo "\${#content}"` },
  { name: "read whole file with read -d", files: { "f.txt": "x y\nz\n" }, script: sh`IFS= read -r -d '' all < f.txt; echo "status $?"; printf '[%s]\n' "$all"` },
  { name: "unquoted expansion globbing", files: { "a.txt": "", "b.txt": "" }, script: sh`p='*.txt'; echo $p; echo "$p"; set -f; echo $p` },
  { name: "IFS splitting", script: sh`s='a:b::c'; IFS=: read -ra parts <<< "$s"; echo \${#parts[@]}; IFS=:; for x in $s; do echo "[$x]"; done` },
  { name: "special parameters", script: sh`f() { echo "$# $1 \${FUNCNAME[0]}"; }; f x y; echo $-; echo "$0"` },
  {
    name: "LINENO",
    script: sh`echo $LINENO
f() {
  echo "in f at $LINENO"
}
f`,
  },

  // --- more arithmetic -----------------------------------------------------------------
  { name: "arithmetic with variables", script: sh`x=abc; echo $((x)); y=z; z=5; echo $((y+1)); n=" 7 "; echo $((n*2))` },
  { name: "arithmetic invalid octal", script: sh`echo $((08)); echo after` },
  { name: "arithmetic overflow", script: sh`echo $((2**63)) $((2**64)) $((9223372036854775807 + 1))` },
  { name: "arithmetic syntax error", script: sh`echo $((1 +* 2)); echo after` },
  { name: "let status", script: sh`let "a = 0"; echo $?; let "b = 2 * 3"; echo $? $b` },
  { name: "expr", script: sh`expr 3 + 4; expr 10 / 3; expr length abcde; expr substr hello 2 3; expr 5 \> 3; expr 0 + 0; echo "status $?"` },
  { name: "bc scale", script: sh`echo 'scale=3; 10/3' | bc; echo '2^10' | bc; echo '5 > 3' | bc` },
  { name: "seq floats and formats", script: sh`seq 0.5 0.5 2; seq -f '%03g' 3; seq 3 1` },

  // --- more control flow and functions -------------------------------------------------
  { name: "function keyword syntax", script: sh`function greet { echo "hi $1"; }; function twice() { "$@"; "$@"; }; greet there; twice echo ok` },
  { name: "function with redirect", script: sh`log() { echo "log: $*"; } >> log.txt; log one; log two; cat log.txt` },
  {
    name: "declare -f",
    script: sh`f() { local x=1; if [ $x -eq 1 ]; then echo yes; fi; for i in a b; do echo $i; done; }
declare -f f`,
  },
  {
    name: "type of function",
    script: sh`g() { echo g; }
type g`,
  },
  { name: "unset function", script: sh`f() { echo f; }; f; unset -f f; f; echo "status $?"` },
  { name: "return last status", script: sh`f() { false; return; }; f; echo $?; g() { true; }; g; echo $?` },
  { name: "local masks status", script: sh`f() { local x=$(false); echo "local: $?"; local y; y=$(false); echo "split: $?"; }; f` },
  { name: "loop output redirected", script: sh`for i in 1 2 3; do echo "line $i"; done > out.txt; wc -l < out.txt; while read -r l; do echo "[$l]"; done < out.txt | tail -1` },
  { name: "pipeline variable scope", files: { "f.txt": fruits }, script: sh`n=0; cat f.txt | while read -r l; do n=$((n+1)); done; echo "pipe: $n"; n=0; while read -r l; do n=$((n+1)); done < f.txt; echo "redirect: $n"` },
  { name: "lastpipe", files: { "f.txt": fruits }, script: sh`shopt -s lastpipe; n=0; cat f.txt | while read -r l; do n=$((n+1)); done; echo $n` },
  { name: "infinite loop with break", script: sh`i=0; while :; do i=$((i+1)); if (( i >= 4 )); then break; fi; done; echo $i; while true; do echo once; break; done` },
  { name: "case with nocasematch", script: sh`shopt -s nocasematch; for a in YES no Maybe; do case $a in y*) echo "$a: yes";; n*) echo "$a: no";; *) echo "$a: ?";; esac; done` },
  { name: "case with character classes", script: sh`for c in a Z 5 _; do case $c in [[:lower:]]) echo "$c lower";; [[:upper:]]) echo "$c upper";; [[:digit:]]) echo "$c digit";; *) echo "$c other";; esac; done` },
  { name: "trap ERR", script: sh`trap 'echo "error trapped: $?"' ERR; false; echo next; (exit 3); echo done` },
  { name: "set -e in function called from if", script: sh`set -e; f() { false; echo "continued in f"; }; if f; then echo ok; fi; f; echo unreachable` },
  { name: "set -e in subshell", script: sh`set -e; (false; echo inner); echo outer` },
  { name: "set -e ignores or true", script: sh`set -e; rm nope 2>/dev/null || true; grep -q x /dev/null || echo "no x"; echo reached` },
  { name: "wait for background status", script: sh`(exit 3) & wait $!; echo "status $?"; sleep 0 & wait; echo all` },
  { name: "aliases not expanded", script: sh`alias ll='echo aliased'; ll; echo "status $?"` },
  {
    name: "aliases expanded when enabled",
    script: sh`shopt -s expand_aliases
alias ll='echo aliased'
ll now`,
  },
  { name: "shift beyond count", script: sh`set -- a b; shift 3; echo "status $? count $#"; shift 2; echo "count $#"` },
  { name: "builtin and command", script: sh`echo() { builtin echo "wrapped: $*"; }; echo hi; command echo direct; unset -f echo; echo plain` },
  { name: "printenv and env prefix", script: sh`X=5 printenv X; export Y=6; printenv Y; env Z=7 bash -c 'echo $Z'; printenv NOPE; echo "status $?"` },
  { name: "exec redirect rest of script", script: sh`exec 3>&1; exec > log.txt; echo hidden1; echo hidden2; exec 1>&3 3>&-; echo visible; cat log.txt` },
  { name: "stderr ordering swap", script: sh`{ echo out; echo err >&2; } 2>&1 >/dev/null | sed 's/^/got: /'` },
  {
    name: "heredoc in function and pipeline",
    script: sh`gen() { cat <<EOF
name=$1
EOF
}
gen a; gen b | tr a-z A-Z; cat <<'X' | grep -c o
one
two
three
X`,
  },
  {
    name: "heredoc in command substitution",
    script: sh`v=$(cat <<EOF
first
second
EOF
); echo "$v" | tail -1; echo \${#v}`,
  },
  {
    name: "heredoc with escapes",
    script: sh`x=1; cat <<EOF
dollar: \$x value: $x backslash: \\ end
EOF`,
  },

  // --- more test operators -------------------------------------------------------------
  { name: "test too many arguments", script: sh`x="a b"; [ $x = "a b" ]; echo "status $?"` },
  { name: "test missing bracket", script: sh`[ 1 -eq 1; echo "status $?"` },
  { name: "test unary operator expected", script: sh`[ $empty -eq 1 ]; echo "status $?"; [ -z $empty ] && echo "unquoted empty"` },
  { name: "test string ordering", script: sh`[[ 10 < 9 ]] && echo "string less"; [[ 10 -lt 9 ]] || echo "not numerically"; [[ 1+1 -eq 2 ]] && echo arith` },
  { name: "test compound and double equals", files: { "a": "", "b": "" }, script: sh`[ -f a -a -f b ] && echo both; [ -f a -o -f c ] && echo either; [ "x" == "x" ] && echo eq; [[ -e a && -r a ]] && echo readable` },

  // --- more files ----------------------------------------------------------------------
  { name: "verbose file operations", files: { "a.txt": "a\n" }, script: sh`mkdir -pv d/e; cp -v a.txt d/; mv -v d/a.txt d/b.txt; rm -v d/b.txt; rm -rv d` },
  { name: "cp directory without -r", script: sh`mkdir d; cp d e; echo "status $?"` },
  { name: "cp into directory and overwrite", files: { "a.txt": "new\n", "d/a.txt": "old\n" }, script: sh`cp a.txt d/; cat d/a.txt; cp -n a.txt d/a.txt; echo x > b.txt; mv -f b.txt a.txt; cat a.txt` },
  { name: "mv directory into directory", files: { "src/x": "x", "dst/keep": "k" }, script: sh`mv src dst/; ls dst; ls dst/src` },
  { name: "permissions with stat", script: sh`touch f; chmod 640 f; stat -c '%a %A %n' f; mkdir -m 700 d; stat -c '%a %F' d; chmod -R u+x d; chmod +x f; stat -c '%a' f` },
  { name: "umask", script: sh`umask 077; touch f; mkdir d; stat -c '%a %n' f d; umask` },
  { name: "touch dates", script: sh`touch -d '2020-01-01 00:00:00' a; touch -d '2021-06-01 12:00:00' b; touch -d @0 c; ls -t; stat -c '%Y %n' c; date -r a +%F` },
  { name: "find by modification time", script: sh`touch -d '2000-01-01' old.txt; touch new.txt; find . -type f -mtime +30; touch -d '2010-01-01' ref; find . -newer ref -type f | sort` },
  { name: "ls size sort", files: { "small": "1", "big": "1234567890", "mid": "12345" }, script: sh`ls -S; ls -Sr | head -1` },
  { name: "ls glob arguments", files: { "a.txt": "", "b.txt": "", "sub/c.txt": "" }, script: sh`ls *.txt; ls -d sub; ls sub/*.txt; ls -1 . sub` },
  { name: "ls long format fields", files: { "f": "12345" }, script: sh`chmod 644 f; ls -l f | awk '{print $1, $5, $NF}'` },
  { name: "truncate and size checks", files: { "f.txt": "some content\n" }, script: sh`truncate -s 0 f.txt; [ -s f.txt ] || echo empty; truncate -s 4 f.txt; wc -c < f.txt; od -c f.txt` },
  { name: "trailing newline check", script: sh`printf 'no newline' > a; printf 'newline\n' > b; for f in a b; do if [ -n "$(tail -c1 $f)" ]; then echo "$f: missing"; else echo "$f: ok"; fi; done` },
  { name: "split files", script: sh`seq 5 > f; split -l 2 f part_; ls part_*; cat part_ac` },
  { name: "join files", files: { "a": "1 alice\n2 bob\n3 carol\n", "b": "1 admin\n3 ops\n" }, script: sh`join a b; join -a1 a b` },
  { name: "column table", files: { "t": "name age\nalice 34\nbob 7\n" }, script: sh`column -t t; printf 'a,b\nccc,d\n' | column -t -s,` },
  { name: "cmp files", files: { "a": "abc\n", "b": "abd\n", "c": "abc\n" }, script: sh`cmp a c && echo same; cmp a b; echo "status $?"; cmp -s a b || echo differ` },
  { name: "gzip round trip", files: { "f.txt": "compress me\n" }, script: sh`gzip f.txt; ls; gunzip -c f.txt.gz; zcat f.txt.gz | wc -c; gzip -d f.txt.gz; cat f.txt; echo hi | gzip | gunzip` },
  { name: "tar list", files: { "d/a.txt": "a\n" }, script: sh`tar -cf out.tar d/a.txt; tar -tf out.tar; mkdir x; tar -xf out.tar -C x; cat x/d/a.txt` },
  { name: "cksum and sha512", files: { "f": "data\n" }, script: sh`cksum f; echo -n '' | cksum; sha512sum f | cut -c1-32` },
  { name: "base64 file round trip", files: { "f": "binary-ish\tdata\n" }, script: sh`base64 f > f.b64; cat f.b64; base64 -d f.b64 | cmp - f && echo identical` },
  { name: "urandom byte count", script: sh`head -c 16 /dev/urandom | wc -c; head -c 5 /dev/zero | od -An -tx1` },
  { name: "cat > file from stdin", stdin: "typed line 1\ntyped line 2\n", script: sh`cat > notes.txt; wc -l notes.txt; tail -1 notes.txt` },
  { name: "tee into stderr", script: sh`echo both | tee copy.txt | tr a-z A-Z >&2; cat copy.txt` },
  { name: "basename and dirname variants", script: sh`basename -s .txt a.txt b/c.txt; basename -a x/y z/w; dirname a/b/ c; realpath --relative-to=. -m sub/../x/y` },
  { name: "diff recursive", files: { "a/same": "s\n", "a/changed": "1\n", "a/only_a": "", "b/same": "s\n", "b/changed": "2\n", "b/only_b": "" }, script: sh`diff -r a b; echo "status $?"; diff -rq a b` },
  { name: "diff side by side", files: { "a": "one\ntwo\n", "b": "one\nthree\n" }, script: sh`diff -y -W 30 a b` },
  { name: "diff ignore whitespace", files: { "a": "x  y\nz\n", "b": "x y\nz \n" }, script: sh`diff -w a b && echo "same ignoring space"; diff -b a b; echo "status $?"` },
  { name: "comm unsorted input", files: { "a": "b\na\n", "b": "a\nb\n" }, script: sh`comm a b; echo "status $?"` },

  // --- more grep -----------------------------------------------------------------------
  { name: "grep -r without directory", files: project, script: sh`grep -r TODO | sort` },
  { name: "grep -r directory with trailing slash", files: project, script: sh`grep -rn def src/ | sort; grep -r def src | sort | head -1` },
  { name: "grep --exclude-dir and -L", files: project, script: sh`grep -rl --exclude-dir=src def . | sort; grep -L TODO src/*.py src/app.js tests/*.py` },
  { name: "grep word boundaries", files: { "f.txt": "foo\nfoobar\nbar foo baz\n" }, script: sh`grep '\bfoo\b' f.txt; grep '\<foo' f.txt | wc -l; grep -ow foo f.txt | wc -l` },
  { name: "grep BRE alternation and intervals", files: { "f.txt": "aa\nab\nb\naaa\n" }, script: sh`grep 'ab\|^b' f.txt; grep -E '^a{2,}$' f.txt; grep -c 'a\{3\}' f.txt` },
  { name: "grep dash patterns", files: { "f.txt": "-v flag\nplain\n" }, script: sh`grep -- -v f.txt; grep -e -v f.txt; grep -n -e plain -- f.txt` },
  { name: "grep patterns from file", files: { "want": "b\nd\n", "data": "a\nb\nc\nd\nbd\n" }, script: sh`grep -Fxf want data; echo ---; grep -vFxf want data` },
  { name: "grep status with missing file", files: { "a.txt": "hit\n" }, script: sh`grep hit a.txt nope; echo "status $?"; grep -s hit a.txt nope; echo "silent $?"` },
  { name: "grep stdin label", script: sh`echo match | grep -H match; echo match | grep -c match -; echo x | grep -l x` },
  { name: "grep binary file", script: sh`printf 'text\0binary\n' > bin.dat; grep text bin.dat; echo "status $?"; grep -a -c text bin.dat; grep -c text bin.dat` },
  { name: "grep empty pattern and count", files: { "f.txt": "a\n\nb\n" }, script: sh`grep -c '' f.txt; grep -n '^$' f.txt; grep -v -c . f.txt` },
  { name: "grep -o with -n and -i", files: { "f.txt": "Error: x\nok\nERROR again error\n" }, script: sh`grep -noi error f.txt` },
  { name: "grep context overlap", script: sh`seq 10 | grep -A2 -e 3 -e 4; seq 10 | grep -B1 -e 1 -e 9` },
  { name: "grep max count with context", script: sh`seq 20 | grep -m2 -A1 1` },
  { name: "grep count per file recursive", files: project, script: sh`grep -rc TODO --include='*.py' . | sort` },
  { name: "grep -E and -F with plus", files: { "f.txt": "a+b\nab\n" }, script: sh`grep -E 'a+b' f.txt; grep -F 'a+b' f.txt; grep 'a+b' f.txt` },

  // --- more sed ------------------------------------------------------------------------
  { name: "sed print substituted lines", files: { "f.txt": "name: a\nage: 3\nname: b\n" }, script: sh`sed -n 's/^name: //p' f.txt; sed -n '/age/=' f.txt` },
  { name: "sed trim whitespace", script: sh`printf '  padded  \n\tx\t\n' | sed -E 's/^[[:space:]]+//; s/[[:space:]]+$//' | cat -A` },
  { name: "sed first match only", files: { "f.txt": "x=1\nx=2\nx=3\n" }, script: sh`sed '0,/x=/s//y=/' f.txt; sed '2,$s/x/z/' f.txt` },
  { name: "sed case conversion", script: sh`echo 'hello world' | sed 's/\b\(.\)/\u\1/g'; echo 'make upper' | sed -E 's/(\w+)$/\U\1/'; echo 'ABC' | sed 's/.*/\L&/'` },
  { name: "sed newline in replacement", script: sh`echo 'a,b,c' | sed 's/,/\n/g'; echo 'x' | sed 's/x/1\t2/'` },
  {
    name: "sed read file",
    files: { "f.txt": "start\nMARKER\nend\n", "ins.txt": "inserted 1\ninserted 2\n" },
    script: sh`sed '/MARKER/r ins.txt' f.txt; echo ---; sed '/MARKER/{r ins.txt
d}' f.txt`,
  },
  { name: "sed write file", script: sh`seq 6 | sed -n '/[246]/w evens.txt'; cat evens.txt; seq 3 | sed 's/2/two/w changed.txt' > /dev/null; cat changed.txt` },
  { name: "sed negation and relative range", script: sh`seq 8 | sed '/3/,+2!d'; seq 5 | sed '/2/!s/$/!/'` },
  { name: "sed missing file", script: sh`sed 's/a/b/' nope; echo "status $?"` },
  { name: "sed -i multiple files", files: { "a.txt": "old\n", "b.txt": "old old\n" }, script: sh`sed -i 's/old/new/g' a.txt b.txt; cat a.txt b.txt` },
  { name: "sed join lines and dedupe", script: sh`printf 'a\nb\nc\nd\n' | sed 'N;s/\n/ /'; printf 'x\nx\ny\n' | sed '$!N; /^\(.*\)\n\1$/!P; D'` },
  { name: "sed change range", files: { "f.txt": "1\n2\n3\n4\n" }, script: sh`sed '2,3c\middle' f.txt; sed -E 's/([0-9])/<\1>/' f.txt | paste -sd' '` },
  { name: "sed escaping slashes and ampersand", script: sh`echo 'path=/old/dir' | sed 's/\/old\/dir/\/new\/place/'; echo 'a & b' | sed 's/&/and/'; echo 'x' | sed 's/x/[\&]/'` },
  { name: "sed script file", files: { "edit.sed": "s/cat/dog/\n/remove/d\n$a\\\nthe end\n", "f.txt": "a cat\nremove me\nlast\n" }, script: sh`sed -f edit.sed f.txt` },
  { name: "sed -z", script: sh`printf 'a\nb\n' | sed -z 's/\n/,/g'; echo` },

  // --- more awk ------------------------------------------------------------------------
  { name: "awk single-char separators", script: sh`echo 'a|b|c' | awk -F'|' '{print $2, NF}'; echo 'x.y.z' | awk -F. '{print $3}'; echo 'p q' | awk -F' ' '{print $2}'; echo 'a1b2c' | awk -F'[0-9]' '{print $3}'` },
  { name: "awk tab separator", script: sh`printf 'a\tb c\td\n' | awk -F'\t' '{print $2}'; printf 'a b\n' | awk -v OFS='\t' '{$1=$1; print}' | cat -A` },
  { name: "awk normalize whitespace", script: sh`echo '  lots   of   space  ' | awk '{$1=$1; print "[" $0 "]"}'; echo 'a b c' | awk -v OFS=, '{$1=$1} 1'` },
  { name: "awk next and exit", script: sh`seq 10 | awk 'NR % 2 {next} {print} NR >= 6 {exit} END {print "end at", NR}'` },
  { name: "awk paragraph mode", script: sh`printf 'a 1\nb 2\n\nc 3\n\n\nd 4\n' | awk 'BEGIN {RS=""} {print NR": "$1"-"$NF}'` },
  { name: "awk FS in BEGIN and sprintf", files: { "people.csv": people }, script: sh`awk 'BEGIN {FS=","} NR>1 {s = sprintf("%s(%d)", $1, $2); out = out s " "} END {print out}' people.csv` },
  { name: "awk match and int", script: sh`echo 'version 12.34.5 released' | awk '{if (match($0, /[0-9]+\.[0-9]+/)) print RSTART, RLENGTH, substr($0, RSTART, RLENGTH)}'; awk 'BEGIN {print int(3.9), int(-3.9), 7 % 3, -7 % 3}'` },
  { name: "awk getline from file", files: { "f.txt": "l1\nl2\nl3\n" }, script: sh`awk 'BEGIN {while ((getline line < "f.txt") > 0) n++; print n, line}'` },
  { name: "awk pipes to commands", script: sh`printf '3\n1\n2\n' | awk '{print $1 | "sort -n"} END {close("sort -n"); print "after sort"}'; awk 'BEGIN {"echo piped" | getline x; print x; system("echo from system")}'` },
  { name: "awk ENVIRON", script: sh`MYVAR=hello awk 'BEGIN {print ENVIRON["MYVAR"]}'` },
  { name: "awk -f program file", files: { "prog.awk": "BEGIN { FS = \":\" }\n{ names[NR] = $1 }\nEND { for (i = NR; i >= 1; i--) print names[i] }\n", passwd }, script: sh`awk -f prog.awk passwd` },
  { name: "awk dynamic regex", script: sh`printf 'apple\nbanana\ncherry\n' | awk -v pat='an+' '$0 ~ pat'; printf 'a\nb\n' | awk '!/a/'` },
  { name: "awk two file join", files: { "ids": "2\n3\n", "data": "1 one\n2 two\n3 three\n" }, script: sh`awk 'NR == FNR {want[$1]; next} $1 in want {print $2}' ids data` },
  { name: "awk write per-key files", files: { "people.csv": people }, script: sh`awk -F, 'NR>1 {print $1 > ($3 ".txt")}' people.csv; ls *.txt; cat paris.txt` },
  { name: "awk printf percent and padding", script: sh`awk 'BEGIN {printf "%5.1f%%|%-8s|%08.3f|%c|%o|%x\n", 45.678, "left", 3.14159, 65, 8, 255}'` },
  { name: "awk capitalize", script: sh`echo 'hello big world' | awk '{for (i = 1; i <= NF; i++) $i = toupper(substr($i, 1, 1)) substr($i, 2)} 1'` },
  { name: "awk empty lines and NF", script: sh`printf 'a b\n\nc\n' | awk '{print NF ":" $0} NF == 0 {e++} END {print "empty", e}'` },
  { name: "awk numeric string comparison", script: sh`printf '10\n9\n100\n' | awk '$1 > 9'; printf 'abc\n' | awk '{print ($1 > 5) ? "gt" : "le"}'` },
  { name: "awk -v escapes", script: sh`awk -v s='a\tb' 'BEGIN {print s}' | cat -A` },
  { name: "awk multiple -F chars", script: sh`echo 'k1=v1;k2=v2' | awk -F'[=;]' '{print $2, $4}'; echo 'a::b' | awk -F'::' '{print $2}'` },
  { name: "awk regex field split in function", script: sh`echo 'x-y_z' | awk '{n = split($0, p, /[-_]/); for (i = 1; i <= n; i++) printf "%s%s", p[i], (i < n ? "," : "\n")}'` },
  { name: "awk uninitialized output", script: sh`awk 'BEGIN {print "[" x "]", x + 0, length(x)}'` },

  // --- more sort, uniq, cut, tr, wc ... ------------------------------------------------
  { name: "sort numeric key with spaces", script: sh`printf 'x 10\ny 9\nz 100\n' | sort -k2 -n; printf 'b:3\na:20\nc:1\n' | sort -t: -k2 -n` },
  { name: "sort stable and check", script: sh`printf 'b 1\na 1\nc 0\n' | sort -s -k2,2n; printf 'a\nc\nb\n' | sort -c; echo "status $?"; printf 'a\nb\n' | sort -c && echo sorted` },
  { name: "sort output in place", files: { "f": "c\na\nb\n" }, script: sh`sort -o f f; cat f` },
  { name: "sort uniq -c output", script: sh`printf 'x\ny\nx\nz\nx\ny\n' | sort | uniq -c | sort -k1,1nr -k2,2 | awk '{print $2 "=" $1}'` },
  { name: "sort blanks and months", script: sh`printf '  b\na\n c\n' | sort -b; printf 'Mar\nJan\nFeb\n' | sort -M` },
  { name: "uniq options", script: sh`printf 'a\nA\nb\n' | uniq -i; printf '1 x\n2 x\n3 y\n' | uniq -f1 -c; printf 'a\na\nb\na\n' | uniq` },
  { name: "cut with multiple spaces", script: sh`echo 'a  b c' | cut -d' ' -f2; echo 'a  b c' | cut -d' ' -f3; printf 'no-delim\nx,y\n' | cut -d, -f2 -s; echo abcdef | cut -b2-4` },
  { name: "cut tab delimiter", script: sh`printf 'k\tv1\tv2\n' | cut -f2,3 -d$'\t'; printf 'a,b\n' | cut -d, -f1,2 --output-delimiter=' | '` },
  { name: "tr squeeze and delete", script: sh`printf 'a\n\n\nb\n' | tr -s '\n'; printf 'a b\tc\n' | tr '[:space:]' '\n'; printf 'dos\r\n' | tr -d '\r' | od -c | head -1; echo abc | tr a-y b-z` },
  { name: "wc options", files: { "f.txt": "short\na much longer line\n" }, script: sh`wc -L f.txt; wc -lw f.txt; cat f.txt | wc -m` },
  { name: "nl options", files: { "f.txt": "a\n\nb\n" }, script: sh`nl -ba f.txt; nl -w2 -s': ' f.txt` },
  { name: "paste stdin pairs", script: sh`seq 6 | paste - -; seq 4 | paste -d, - - ; printf 'a\nb\n' | paste -s -d' ' -` },
  { name: "fmt wrapping", script: sh`echo 'the quick brown fox jumps over the lazy dog' | fmt -w 15` },
  { name: "head and tail edges", script: sh`printf 'a\nb\nc' | tail -n 1; echo; printf 'a\nb\nc' | head -n 2; printf '' | head -n 1 | wc -c; seq 3 | tail -n 0 | wc -l` },
  { name: "sigpipe with pipefail", script: sh`set -o pipefail; yes | head -n 1; echo "status $?"; seq 100000 | head -n 1 > /dev/null; echo "seq $?"` },
  { name: "od formats", script: sh`printf 'Hi!\n' | od -A x -t x1z; printf '\x01\x02' | od -An -tu1` },

  // --- more jq -------------------------------------------------------------------------
  { name: "jq number formatting", script: sh`echo '[1.0, 1.5, 100, 1e3, 0.1, -0]' | jq -c .; echo '3' | jq '. / 2'` },
  { name: "jq error index", script: sh`echo '{"a":1}' | jq '.[0]'; echo "status $?"` },
  { name: "jq invalid input", script: sh`echo '{bad' | jq .; echo "status $?"` },
  { name: "jq compile error", script: sh`echo '{}' | jq '.a |'; echo "status $?"` },
  { name: "jq try catch and alternative", script: sh`echo '{"a":null}' | jq -c '[.a // "default", (.b.c? // "none"), (try error("boom") catch .)]'` },
  { name: "jq reduce and range", script: sh`jq -n 'reduce range(1; 6) as $i (0; . + $i)'; jq -nc '[limit(3; range(10))], first(range(5;10)), [range(0;10;3)]'` },
  { name: "jq string functions", script: sh`jq -rn '"a,b,c" | split(",") | join("-")'; jq -rn '"Hello" | ascii_downcase, ascii_upcase, length, ltrimstr("He"), rtrimstr("lo")'; jq -n '"abc" | test("b"), startswith("ab"), endswith("x")'` },
  { name: "jq regex functions", script: sh`jq -c -n '"v1.2.3" | capture("v(?<major>[0-9]+)\\.(?<minor>[0-9]+)")'; jq -rn '"a-b-c" | sub("-"; "+"), gsub("-"; "+")'` },
  { name: "jq formats", script: sh`jq -rn '"a b&c" | @uri'; jq -rn '"hi" | @base64'; jq -rn '"aGk=" | @base64d'; jq -rn '["x y", "z"] | @sh'; jq -rn '{"a":[1,2]} | @json'; jq -rn '"<&>" | @html'` },
  { name: "jq tonumber tostring", script: sh`jq -c -n '["1", "2.5"] | map(tonumber)'; jq -c -n '[1, "a", null, true] | map(tostring)'; jq -n '"12" | tonumber + 1'` },
  { name: "jq recursive and paths", script: sh`echo '{"a":{"b":1,"c":[2,3]}}' | jq -c '[.. | numbers]'; echo '{"a":{"b":1}}' | jq -c '[paths]'; echo '{"a":{"b":1}}' | jq -c 'getpath(["a","b"]), setpath(["a","d"]; 2)'` },
  { name: "jq update assignment", files: { "users.json": users }, script: sh`jq -c 'map(.age += 1) | map(.age)' users.json; jq -c '.[0].tags |= . + ["new"] | .[0].tags' users.json; jq -c '[.[] | select(.active)] | length' users.json` },
  { name: "jq delete selected", files: { "users.json": users }, script: sh`jq -c 'del(.[] | select(.age == 27)) | map(.name)' users.json; jq -c 'map(del(.tags, .active))[0]' users.json` },
  { name: "jq inputs and slurp files", files: { "a.json": "{\"x\":1}\n", "b.json": "{\"x\":2}\n" }, script: sh`jq -s 'map(.x) | add' a.json b.json; jq -n '[inputs.x]' -c a.json b.json; jq -c -s '.[0] * .[1]' a.json b.json` },
  { name: "jq output options", script: sh`echo '{"b":1,"a":[1,2]}' | jq -S .; echo '{"a":[1]}' | jq --tab .; echo '{"a":[1]}' | jq --indent 1 .; jq -j -n '"no", "newline"'; echo` },
  { name: "jq env and args", script: sh`FOO=bar jq -rn 'env.FOO, $ENV.FOO'; jq -cn '$ARGS.positional' --args a b; jq -n --argjson o '{"k":[1]}' '$o.k[0]'` },
  { name: "jq object construction", files: { "users.json": users }, script: sh`jq -c '.[] | {name, n: (.tags | length)}' users.json; jq -c '{count: length, names: map(.name)}' users.json; jq -c 'map({key: .name, value: .id}) | from_entries' users.json` },
  { name: "jq sorting and uniqueness", script: sh`echo '[3,1,2,1]' | jq -c 'sort, unique, (sort | reverse), min, max'; echo '[{"k":"b"},{"k":"a"},{"k":"b"}]' | jq -c 'unique_by(.k) | map(.k)'` },
  { name: "jq flatten and contains", script: sh`echo '[1,[2,[3]]]' | jq -c 'flatten, flatten(1)'; echo '{"a":[1,2,3]}' | jq '.a | contains([2]), index(2), inside([1,2,3,4])'; echo '"abcb"' | jq -c 'indices("b")'` },
  { name: "jq keys unsorted and map_values", script: sh`echo '{"b":1,"a":2}' | jq -c 'keys_unsorted, keys, map_values(. * 10), to_entries[0]'` },
  { name: "jq null handling", script: sh`echo '{"a":null}' | jq '.a, .missing, (.a | length), (null + 1)'; echo 'null' | jq -r '.x'` },
  { name: "jq type and walk", script: sh`echo '[1,"a",null,[],{}]' | jq -c 'map(type)'; echo '{"a":[1,{"b":2}]}' | jq -c 'walk(if type == "number" then . + 1 else . end)'` },
  { name: "jq raw strings with escapes", script: sh`echo '{"s":"tab\there\nnewline \"q\""}' | jq -r .s; echo '{"s":"é"}' | jq .s; echo '{"s":"é"}' | jq -a .s` },
  {
    name: "jq larger document",
    files: {
      "data.json":
        JSON.stringify({ items: Array.from({ length: 50 }, (_, i) => ({ id: i, score: (i * 37) % 101, group: ["a", "b", "c"][i % 3] })) }) + "\n",
    },
    script: sh`jq '[.items[] | select(.score > 80)] | length' data.json; jq -r '.items | group_by(.group) | map("\(.[0].group): \(map(.score) | add)") | .[]' data.json; jq -c '.items | sort_by(-.score) | .[:3] | map(.id)' data.json`,
  },

  // --- more find and xargs -------------------------------------------------------------
  { name: "find prune", files: project, script: sh`find . -path ./src -prune -o -type f -print | sort` },
  { name: "find or and mindepth", files: project, script: sh`find . \( -name '*.md' -o -name '*.js' \) | sort; find . -mindepth 2 -type f | sort | head -2` },
  { name: "find printf", files: project, script: sh`find src -type f -printf '%f %s\n' | sort; find . -maxdepth 1 -type d -printf '%p\n' | sort` },
  { name: "find delete", files: project, script: sh`find . -name '*.py' -delete; find . -type f | sort` },
  { name: "find exec shell", files: { "a.txt": "1\n2\n", "b.txt": "3\n" }, script: sh`find . -name '*.txt' -exec sh -c 'echo "$1: $(wc -l < "$1")"' _ {} \; | sort` },
  { name: "find regex and size", files: { "x1.log": "", "x22.log": "data", "y.log": "more data here" }, script: sh`find . -regex '.*/x[0-9]+\.log' | sort; find . -size +5c; find . -type f -size -1c` },
  { name: "find exec basename", files: project, script: sh`find . -name '*.py' -exec basename {} \; | sort; find . -name '*.md' | xargs -n1 dirname | sort` },
  { name: "xargs -0 and -L", script: sh`printf 'a b\0c\0' | xargs -0 -n1 echo; printf '1 2\n3 4\n' | xargs -L1 echo line:` },
  { name: "xargs trace and failure status", script: sh`echo a b | xargs -t echo; echo x | xargs false; echo "status $?"` },
  { name: "xargs shell with placeholder", script: sh`printf 'one\ntwo\n' | xargs -I % sh -c 'echo "start %"; echo "end %"'` },
  { name: "xargs delimiter", script: sh`printf 'a b\nc d\n' | xargs -d '\n' -n1 echo item` },
  { name: "xargs missing command", script: sh`echo x | xargs nosuchcmd; echo "status $?"` },

  // --- more agent tasks ----------------------------------------------------------------
  { name: "task check required tools", script: sh`for t in grep sed awk jq; do command -v "$t" > /dev/null && echo "$t: ok" || echo "$t: missing"; done` },
  { name: "task list largest files", files: project, script: sh`find . -type f -exec wc -c {} + | grep -v total | sort -k1,1nr -k2 | head -3` },
  {
    name: "task json lines processing",
    files: { "events.jsonl": "{\"t\":\"click\",\"n\":1}\n{\"t\":\"view\",\"n\":5}\n{\"t\":\"click\",\"n\":2}\n" },
    script: sh`jq -s -c 'group_by(.t) | map({t: .[0].t, total: map(.n) | add})' events.jsonl; jq -r 'select(.t == "click") | .n' events.jsonl | paste -sd+ | bc`,
  },
  { name: "task csv to json", files: { "people.csv": people }, script: sh`tail -n +2 people.csv | jq -R -c 'split(",") | {name: .[0], age: (.[1] | tonumber), city: .[2]}' | jq -s -c 'sort_by(.age) | map(.name)'` },
  { name: "task count by extension", files: project, script: sh`find . -type f -name '*.*' | sed 's/.*\.//' | sort | uniq -c | sort -k1,1nr -k2` },
  { name: "task safe file rewrite", files: { "config.txt": "a=1\nb=2\n" }, script: sh`tmp=$(mktemp); sed 's/^b=.*/b=3/' config.txt > "$tmp" && mv "$tmp" config.txt; cat config.txt; ls` },
  { name: "task version bump", files: { "VERSION": "1.4.9\n" }, script: sh`IFS=. read -r major minor patch < VERSION; patch=$((patch + 1)); echo "$major.$minor.$patch" > VERSION; cat VERSION` },
  { name: "task ensure line in file", files: { "hosts": "127.0.0.1 localhost\n" }, script: sh`line='10.0.0.5 db'; grep -qxF "$line" hosts || echo "$line" >> hosts; grep -qxF "$line" hosts || echo "$line" >> hosts; cat hosts` },
  { name: "task retry loop", script: sh`n=0; until [ $n -ge 3 ]; do n=$((n+1)); if [ $n -eq 3 ]; then echo "attempt $n ok"; break; fi; echo "attempt $n failed" >&2; done` },
  {
    name: "task parse key value output",
    script: sh`out='status: running
pid: 42
uptime: 3h'; echo "$out" | awk -F': ' '$1 == "pid" {print $2}'; while IFS=': ' read -r k v; do declare "info_$k=$v"; done <<< "$out"; echo "$info_status $info_uptime"`,
  },
  { name: "task summarize log levels", files: { "app.log": appLog }, script: sh`awk '{print toupper($3)}' app.log | sort | uniq -c | awk '{printf "%-6s %d\n", $2, $1}'` },
  {
    name: "task extract urls",
    files: { "page.html": "<a href=\"https://example.com/a\">A</a>\n<a href='http://test.org/b?x=1'>B</a>\n<p>none</p>\n" },
    script: sh`grep -oE "https?://[^\"' >]+" page.html`,
  },
  { name: "task generate files in loop", script: sh`for i in $(seq 1 3); do printf 'file %d\n' "$i" > "file_$i.txt"; done; ls; cat file_*.txt; rm file_2.txt; ls | wc -l` },
  { name: "task directory tree summary", files: project, script: sh`for d in */; do printf '%s %d\n' "\${d%/}" "$(find "$d" -type f | wc -l)"; done` },
  {
    name: "task replace with special characters",
    files: { "f.txt": "url=http://old.example.com/path\n" },
    script: sh`new='https://new.example.com/x&y'; esc=$(printf '%s' "$new" | sed 's/[&|]/\\&/g'); sed -i "s|http://old.example.com/path|$esc|" f.txt; cat f.txt`,
  },
  {
    name: "task multi-line string variable",
    script: sh`msg="line one
line two
line three"; echo "$msg" | grep -c line; echo "\${msg%%$'\n'*}"; printf '%s\n' "$msg" | tail -n 1`,
  },

  // --- assorted ------------------------------------------------------------------------
  { name: "printf width counts bytes", script: sh`printf '%-8s|%s\n' "naïve" x abc y; printf '%10s|\n' "héllo"` },
  { name: "jq leaf_paths", script: sh`echo '{"a":{"b":{"c":1}},"d":[2]}' | jq -c '[leaf_paths]'` },
  { name: "jq undefined function", files: { "users.json": users }, script: sh`jq '.[] | lenght' users.json; echo "status $?"` },
  { name: "date arithmetic", script: sh`date -u -d '2024-01-15 + 10 days' +%F; date -u -d '2024-01-15 -1 day' +%F; date -u -d '2024-01-31 + 1 month' +%F; date -u -d '2024-02-28 +1 day' +%F` },
  { name: "source missing file", script: sh`source nosuch.sh; echo "status $?"; . ./missing.env; echo "status $?"` },
  { name: "set -u positional in braces", script: sh`set -u; echo "start"; echo "\${1}"; echo never` },
  { name: "invalid regex in double brackets", script: sh`[[ abc =~ [ ]]; echo "status $?"` },
  { name: "find -exec missing command", files: { "a.txt": "" }, script: sh`find . -name a.txt -exec nosuchcmd {} \;; echo "status $?"` },
  { name: "xargs -n with -I", script: sh`seq 3 | xargs -n1 -I{} echo "n={}"` },
  { name: "grep -P", files: { "f.txt": "x=1\ny=22\nx=333\n" }, script: sh`grep -oP '(?<=x=)\d+' f.txt; grep -cP '^\w=\d{2}$' f.txt` },
  { name: "syntax error unclosed brace", script: sh`echo "\${x"` },
];
