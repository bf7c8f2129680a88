//! The help topics of `help` and of every builtin's `--help` (bash manual, "Bash
//! Builtin Commands", `help`): one table keyed by topic name, in bash's own order. The
//! synopsis lines are bash 5.2's, byte for byte, since scripts and people parse them;
//! the descriptions are shellbox's own words.

use super::super::{Interp, R};

/// One help topic: a builtin, a compound command, or one of bash's pseudo-topics
/// (`%`, `variables`).
pub struct Topic {
    /// The name `help` matches patterns against.
    pub name: &'static str,
    /// bash's synopsis line (`help -s`, the first line of `--help`, the topic list).
    pub synopsis: &'static str,
    /// One line saying what it does (`help -d`, the second line of `--help`).
    pub short: &'static str,
    /// The rest of the long help, without indentation; lines are indented on output.
    pub body: &'static str,
}

const fn t(
    name: &'static str,
    synopsis: &'static str,
    short: &'static str,
    body: &'static str,
) -> Topic {
    Topic {
        name,
        synopsis,
        short,
        body,
    }
}

/// Every topic in the order bash lists them (its builtin table, where the keywords
/// sit among the builtins).
pub const TOPICS: &[Topic] = &[
    t(
        "%",
        "job_spec [&]",
        "Bring a job back to the foreground.",
        "A job specification alone works like `fg' with it as the argument; followed
by `&' it works like `bg'.  `%1', `%+' (current job), `%-' (previous job)
and `%name' (a job whose command starts with name) all name jobs.

Status: that of the resumed job.",
    ),
    t(
        "(( ... ))",
        "(( expression ))",
        "Evaluate an arithmetic expression.",
        "The expression is evaluated with the rules of `let'; `(( expr ))' is the
same as `let \"expr\"'.

Status: 1 when the expression's value is 0, 0 otherwise.",
    ),
    t(
        ".",
        ". filename [arguments]",
        "Run the commands of a file in this shell.",
        "Reads FILENAME and executes its commands in the current shell, so its
assignments, functions and `cd's stay in effect.  A name without a slash is
looked up in $PATH.  ARGUMENTS, if any, become the positional parameters
while the file runs.

Status: that of the last command run from the file; 1 when it cannot be read.",
    ),
    t(
        ":",
        ":",
        "Do nothing, successfully.",
        "Its arguments are expanded (so side effects such as `${x:=y}' happen) and
otherwise ignored.

Status: always 0.",
    ),
    t(
        "[",
        "[ arg... ]",
        "Evaluate a test expression.",
        "The same as `test', except that the last argument must be `]'.",
    ),
    t(
        "[[ ... ]]",
        "[[ expression ]]",
        "Evaluate a conditional expression.",
        "Like `test' but parsed by the shell: words are not split or globbed, `&&'
and `||' join tests, `( )' groups them, `==' and `!=' match the right side
as a pattern and `=~' matches it as an extended regular expression, whose
captures land in BASH_REMATCH.

Status: 0 when the expression is true, 1 when false, 2 on a syntax error.",
    ),
    t(
        "alias",
        "alias [-p] [name[=value] ... ]",
        "Define or show aliases.",
        "With no arguments or with -p, prints every alias as `alias name=value'.
NAME=VALUE defines an alias; NAME alone prints it.  A value ending in a blank
makes the next word eligible for alias expansion too.

Status: 0 unless a NAME has no alias.",
    ),
    t(
        "bg",
        "bg [job_spec ...]",
        "Resume jobs in the background.",
        "Continues each stopped JOB_SPEC (default: the current job) as if it had
been started with `&'.

Status: 0 unless job control is off or a job does not exist.",
    ),
    t(
        "bind",
        "bind [-lpsvPSVX] [-m keymap] [-f filename] [-q name] [-u name] [-r keyseq] [-x keyseq:shell-command] [keyseq:readline-function or readline-command]",
        "Show or change Readline key bindings and variables.",
        "Options:
  -m keymap  use KEYMAP for the rest of the command
  -l         list the names of the editing functions
  -p, -P     print the bindings (reusable, or readable)
  -v, -V     print the Readline variables (reusable, or readable)
  -s, -S     print the macro bindings (reusable, or readable)
  -q name    say which keys run function NAME
  -u name    unbind every key that runs function NAME
  -r keyseq  remove the binding of KEYSEQ
  -f file    read bindings from FILE
  -x keyseq:command  run COMMAND when KEYSEQ is typed
  -X         list the -x bindings

Status: 0 unless an option is invalid or an error occurs.",
    ),
    t(
        "break",
        "break [n]",
        "Leave a for, while or until loop.",
        "Leaves the innermost enclosing loop, or the Nth one counting outwards.

Status: 0 unless N is less than 1.",
    ),
    t(
        "builtin",
        "builtin [shell-builtin [arg ...]]",
        "Run a shell builtin.",
        "Runs SHELL-BUILTIN with ARGs even when a function of the same name exists,
which lets a function wrap the builtin it replaces.

Status: that of the builtin; 1 when it is not a builtin.",
    ),
    t(
        "caller",
        "caller [expr]",
        "Report where the current function was called from.",
        "Without EXPR, prints `line file' of the current call.  With EXPR, prints
`line function file' of the frame EXPR levels up (0 is the current one),
which is enough to print a stack trace.

Status: 0 unless no function is running or EXPR is out of range.",
    ),
    t(
        "case",
        "case WORD in [PATTERN [| PATTERN]...) COMMANDS ;;]... esac",
        "Run commands chosen by pattern matching.",
        "Runs the COMMANDS of the first PATTERN that matches WORD; `|' separates
alternative patterns.  `;&' falls through to the next clause, `;;&' goes
on testing the following patterns.

Status: that of the last command run, or 0 when nothing matched.",
    ),
    t(
        "cd",
        "cd [-L|[-P [-e]] [-@]] [dir]",
        "Change the working directory.",
        "Moves to DIR, or to $HOME when DIR is omitted; `cd -' goes to $OLDPWD and
prints it.  A relative DIR is looked for in the directories of $CDPATH
first.  PWD and OLDPWD are updated.

Options:
  -L  keep symbolic links in the new path, resolving `..' textually (default)
  -P  resolve symbolic links to the physical directory
  -e  with -P, fail when the new directory cannot be determined
  -@  accepted; extended attributes are not supported

Status: 0 when the directory changed, non-zero otherwise.",
    ),
    t(
        "command",
        "command [-pVv] command [arg ...]",
        "Run a command bypassing functions, or describe commands.",
        "Runs COMMAND with ARGs, looking for a builtin or a program but never a
shell function of that name.

Options:
  -p  search a default PATH that finds the standard utilities
  -v  print the word or path that would run each COMMAND
  -V  describe each COMMAND in words, like `type'

Status: that of COMMAND, or 127 when it is not found.",
    ),
    t(
        "compgen",
        "compgen [-abcdefgjksuv] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [word]",
        "Print the completions the options generate.",
        "Takes the same options as `complete' (except -p and -r) and prints the
matches for WORD, one a line, instead of registering a specification.

Status: 0 unless an option is invalid or nothing matched.",
    ),
    t(
        "complete",
        "complete [-abcdefgjksuv] [-pr] [-DEI] [-o option] [-A action] [-G globpat] [-W wordlist] [-F function] [-C command] [-X filterpat] [-P prefix] [-S suffix] [name ...]",
        "Say how the arguments of commands are completed.",
        "Registers a completion specification for each NAME.  Without options or
names, prints every specification as a reusable command.

Options:
  -p  print the specifications (of the NAMEs, or all)
  -r  remove the specifications (of the NAMEs, or all)
  -D  the specification is the default for commands without one
  -E  the specification applies to an empty command line
  -I  the specification applies to the first word of a line

Status: 0 unless an option is invalid or an error occurs.",
    ),
    t(
        "compopt",
        "compopt [-o|+o option] [-DEI] [name ...]",
        "Change or show completion options.",
        "Sets (-o) or clears (+o) OPTION in the specification of each NAME, or in
the one being run when there is no NAME.  Without -o/+o, prints the options.
-D, -E and -I pick the default, empty-line and first-word specifications.

Status: 0 unless an option is invalid or a NAME has no specification.",
    ),
    t(
        "continue",
        "continue [n]",
        "Start the next iteration of a for, while or until loop.",
        "Skips to the next iteration of the innermost enclosing loop, or of the Nth
one counting outwards.

Status: 0 unless N is less than 1.",
    ),
    t(
        "coproc",
        "coproc [NAME] command [redirections]",
        "Run a command as a coprocess.",
        "Starts COMMAND in the background with its input and output connected to
the shell through the file descriptors in the array NAME (default COPROC):
element 0 reads its output, element 1 writes its input.

Status: 0.",
    ),
    t(
        "declare",
        "declare [-aAfFgiIlnrtux] [name[=value] ...] or declare -p [-aAfFilnrtux] [name ...]",
        "Set variables' values and attributes.",
        "Gives each NAME the attributes chosen and the VALUE if one is given.  In a
function the variables are local unless -g is given.  Without names, lists
the variables having the attributes.  `+' instead of `-' removes one.

Options:
  -p  print each NAME's attributes and value as a reusable command
  -f  act on functions; -F prints only their names
  -g  create global variables from inside a function
  -I  a new local variable starts with the value of the one it hides
  -a  indexed array            -A  associative array
  -i  integer (assignments are evaluated arithmetically)
  -l  lower-case on assignment -u  upper-case on assignment
  -n  name reference to the variable named by its value
  -r  read-only                -t  trace (functions inherit DEBUG/RETURN traps)
  -x  exported to the environment of commands

Status: 0 unless an option is invalid or an assignment fails.",
    ),
    t(
        "dirs",
        "dirs [-clpv] [+N] [-N]",
        "Show the directory stack.",
        "Prints the stack kept by `pushd' and `popd', the current directory first.

Options:
  -c  empty the stack
  -l  do not abbreviate the home directory as ~
  -p  one entry a line
  -v  one entry a line, numbered
  +N  only the Nth entry from the left (from 0)
  -N  only the Nth entry from the right (from 0)

Status: 0 unless an option is invalid or N is out of range.",
    ),
    t(
        "disown",
        "disown [-h] [-ar] [jobspec ... | pid ...]",
        "Remove jobs from the job table.",
        "Forgets each JOBSPEC (default: the current job) so the shell no longer
reports or waits for it.

Options:
  -a  all jobs
  -r  only running jobs
  -h  keep the job but do not send it SIGHUP when the shell exits

Status: 0 unless a job does not exist.",
    ),
    t(
        "echo",
        "echo [-neE] [arg ...]",
        "Print the arguments.",
        "Writes the ARGs separated by single spaces and followed by a newline.

Options:
  -n  no trailing newline
  -e  interpret backslash escapes (\\n, \\t, \\c to stop output, \\0nnn, \\xHH, ...)
  -E  do not interpret them (the default unless xpg_echo is on)

Status: 0 unless writing fails.",
    ),
    t(
        "enable",
        "enable [-a] [-dnps] [-f filename] [name ...]",
        "Turn builtins on or off.",
        "With no NAMEs, or with -p or -a, lists the builtins.  NAMEs are checked to
be builtins; shellbox cannot disable or load builtins.

Status: 0 unless a NAME is not a builtin.",
    ),
    t(
        "eval",
        "eval [arg ...]",
        "Run the arguments as shell code.",
        "Joins the ARGs with spaces and parses and runs the result in the current
shell.

Status: that of the code run, or 0 when it is empty.",
    ),
    t(
        "exec",
        "exec [-cl] [-a name] [command [argument ...]] [redirection ...]",
        "Replace the shell with a command, or redirect the shell.",
        "With a COMMAND, runs it in place of the shell, which ends with its status.
Without one, the redirections apply to the shell itself from now on.

Options:
  -a name  pass NAME as the command's argument zero
  -c       run the command with an empty environment
  -l       put a dash in front of argument zero

Status: 0 unless COMMAND is not found or a redirection fails.",
    ),
    t(
        "exit",
        "exit [n]",
        "Leave the shell.",
        "Ends the shell with status N, or with the status of the last command when N
is omitted.  An EXIT trap runs first.",
    ),
    t(
        "export",
        "export [-fn] [name[=value] ...] or export -p",
        "Mark variables for the environment of commands.",
        "Each NAME (assigned VALUE if given) is passed to the commands the shell
runs from now on.

Options:
  -f  the NAMEs are functions
  -n  remove the export mark instead
  -p  list the exported variables as reusable commands

Status: 0 unless an option or a NAME is invalid.",
    ),
    t(
        "false",
        "false",
        "Fail.",
        "Does nothing, unsuccessfully.

Status: always 1.",
    ),
    t(
        "fc",
        "fc [-e ename] [-lnr] [first] [last] or fc -s [pat=rep] [command]",
        "List, edit or rerun commands from the history.",
        "FIRST and LAST pick a range of history entries by number (negative counts
back from the newest) or by the text they start with.

Options:
  -l        list the entries instead of editing them
  -n        list without numbers
  -r        reverse the order
  -e ename  the editor to use (default $FCEDIT, then $EDITOR, then vi)
  -s        rerun COMMAND (default: the last) after replacing PAT with REP

Status: that of the command rerun, or 0 unless an error occurs.",
    ),
    t(
        "fg",
        "fg [job_spec]",
        "Bring a job to the foreground.",
        "Makes JOB_SPEC (default: the current job) the foreground job and waits
for it.

Status: that of the job, or 1 when it does not exist.",
    ),
    t(
        "for",
        "for NAME [in WORDS ... ] ; do COMMANDS; done",
        "Run commands once for each word of a list.",
        "Sets NAME to each of the expanded WORDS in turn and runs COMMANDS.  Without
`in WORDS' the positional parameters are used.

Status: that of the last command run, or 0 when there was none.",
    ),
    t(
        "for ((",
        "for (( exp1; exp2; exp3 )); do COMMANDS; done",
        "Loop under the control of arithmetic expressions.",
        "Evaluates EXP1 once, then runs COMMANDS and evaluates EXP3 for as long as
EXP2 is non-zero.  An omitted expression counts as 1.

Status: that of the last command run, or 0 when there was none.",
    ),
    t(
        "function",
        "function name { COMMANDS ; } or name () { COMMANDS ; }",
        "Define a shell function.",
        "Makes NAME a command that runs COMMANDS in the current shell with its
arguments as the positional parameters.

Status: 0 unless NAME is read-only.",
    ),
    t(
        "getopts",
        "getopts optstring name [arg ...]",
        "Parse the options of a script or function.",
        "Each call puts the next option letter in the variable NAME and the index of
the next argument in OPTIND; an option's argument goes to OPTARG.  A letter
followed by `:' in OPTSTRING takes an argument.  An unknown option or a
missing argument sets NAME to `?' and prints a message, unless OPTSTRING
starts with `:' (then NAME is `?' or `:' and OPTARG holds the letter) or
OPTERR is 0.  ARGs are parsed instead of the positional parameters.

Status: 0 when an option was found, 1 at the end of the options.",
    ),
    t(
        "hash",
        "hash [-lr] [-p pathname] [-dt] [name ...]",
        "Remember or show where commands were found.",
        "Looks up each NAME in $PATH and remembers the result.  With no arguments,
lists the remembered commands with how often they were used.

Options:
  -r           forget every command
  -d           forget the NAMEs
  -p pathname  remember PATHNAME for NAME without searching
  -t           print the remembered path of each NAME
  -l           list as reusable commands

Status: 0 unless a NAME is not found or an option is invalid.",
    ),
    t(
        "help",
        "help [-dms] [pattern ...]",
        "Describe builtin commands.",
        "Prints the help of every topic matching PATTERN (a glob, or the start of a
name), or the list of topics when there is none.

Options:
  -d  only the one-line descriptions
  -m  in the layout of a manual page
  -s  only the synopses

Status: 0 unless no topic matches or an option is invalid.",
    ),
    t(
        "history",
        "history [-c] [-d offset] [n] or history -anrw [filename] or history -ps arg [arg...]",
        "Show or change the command history.",
        "Lists the history with entry numbers, or only the last N entries.

Options:
  -c         clear the history
  -d offset  delete the entry at OFFSET (negative counts from the end)
  -a         append this session's new entries to the history file
  -n         read the entries of the file not read yet
  -r         read the file and append its entries
  -w         write the whole history to the file
  -p         expand the ARGs with history expansion and print them
  -s         add the ARGs to the history as one entry

FILENAME defaults to $HISTFILE.

Status: 0 unless an option is invalid or an error occurs.",
    ),
    t(
        "if",
        "if COMMANDS; then COMMANDS; [ elif COMMANDS; then COMMANDS; ]... [ else COMMANDS; ] fi",
        "Run commands depending on a condition.",
        "Runs the `then' part of the first `if' or `elif' list that succeeds, or
the `else' part when none does.

Status: that of the last command run, or 0 when no branch ran.",
    ),
    t(
        "jobs",
        "jobs [-lnprs] [jobspec ...] or jobs -x command [args]",
        "List jobs.",
        "Lists the JOBSPECs, or every job, with their state.

Options:
  -l  add process IDs
  -n  only jobs whose state changed since the last report
  -p  only process IDs
  -r  only running jobs
  -s  only stopped jobs
  -x  run COMMAND with each job spec in ARGS replaced by its process ID

Status: 0 unless an option is invalid or an error occurs.",
    ),
    t(
        "kill",
        "kill [-s sigspec | -n signum | -sigspec] pid | jobspec ... or kill -l [sigspec]",
        "Send a signal to processes or jobs.",
        "Sends SIGTERM, or the signal named by SIGSPEC or numbered SIGNUM, to each
PID or JOBSPEC.  `kill -l' lists the signal names, or converts between
names and numbers for the SIGSPECs given.

Status: 0 unless an argument is invalid or sending fails.",
    ),
    t(
        "let",
        "let arg [arg ...]",
        "Evaluate arithmetic expressions.",
        "Evaluates each ARG as an arithmetic expression in 64-bit integers: C's
operators with their precedence (`**' for powers), assignments, `++'/`--',
`? :' and `,'.  Variables are usable by name; numbers may be written as
0x1F, 017 or BASE#DIGITS.

Status: 1 when the last ARG evaluates to 0, 0 otherwise.",
    ),
    t(
        "local",
        "local [option] name[=value] ...",
        "Create variables local to a function.",
        "Each NAME becomes a variable visible only in the current function and the
functions it calls; OPTIONs are those of `declare'.  `local -' makes the
function's changes to `set' options temporary.

Status: 0 unless used outside a function or an assignment fails.",
    ),
    t(
        "logout",
        "logout [n]",
        "Leave a login shell.",
        "Like `exit N', in a login shell.",
    ),
    t(
        "mapfile",
        "mapfile [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
        "Read lines into an indexed array.",
        "Reads lines from the standard input, or from -u FD, into ARRAY (default
MAPFILE), one element each.

Options:
  -d delim     end lines at DELIM instead of newline
  -n count     read at most COUNT lines (0: all)
  -O origin    store from index ORIGIN (default 0; the array is not cleared)
  -s count     skip the first COUNT lines
  -t           drop the delimiter from each line
  -u fd        read from file descriptor FD
  -C callback  run CALLBACK every QUANTUM lines with the index and the line
  -c quantum   lines between CALLBACK calls (default 5000)

Status: 0 unless an option is invalid or ARRAY is read-only or not an array.",
    ),
    t(
        "popd",
        "popd [-n] [+N | -N]",
        "Remove a directory from the stack.",
        "Removes the top directory and changes to the new top one.

Options:
  -n  do not change directory
  +N  remove the Nth entry from the left (from 0)
  -N  remove the Nth entry from the right (from 0)

Status: 0 unless the stack is empty or an argument is invalid.",
    ),
    t(
        "printf",
        "printf [-v var] format [arguments]",
        "Format and print the arguments.",
        "Prints FORMAT with each %-specification replaced by the next argument,
as C's printf does, reusing FORMAT until the arguments run out.  Besides
the usual conversions: %b expands backslash escapes in its argument, %q
quotes it for reuse as shell input, %Q does too after applying the
precision, and %(FMT)T prints a time with strftime's FMT.

Options:
  -v var  store the output in VAR instead of printing it

Status: 0 unless an option is invalid or writing or assigning fails.",
    ),
    t(
        "pushd",
        "pushd [-n] [+N | -N | dir]",
        "Add a directory to the stack.",
        "Pushes DIR and changes to it; with no argument, swaps the top two entries.

Options:
  -n  do not change directory
  +N  rotate the stack so the Nth entry from the left (from 0) is on top
  -N  rotate the stack so the Nth entry from the right (from 0) is on top

Status: 0 unless an argument is invalid or the change of directory fails.",
    ),
    t(
        "pwd",
        "pwd [-LP]",
        "Print the working directory.",
        "Options:
  -L  print $PWD when it names the working directory (default)
  -P  print the path with every symbolic link resolved

Status: 0 unless an option is invalid or the directory cannot be read.",
    ),
    t(
        "read",
        "read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]",
        "Read a line and split it into variables.",
        "Reads one line of the standard input and splits it into words at the
characters of IFS.  Each NAME gets one word and the last NAME the rest of
the line; with no NAME, the line goes to REPLY.  Backslash escapes the
next character, including a newline.

Options:
  -a array    put the words in ARRAY, from index 0
  -d delim    read up to DELIM instead of a newline
  -e          use Readline (only on a terminal)
  -i text     initial Readline text
  -n nchars   stop after NCHARS characters
  -N nchars   read exactly NCHARS characters, ignoring the delimiter
  -p prompt   print PROMPT on stderr first (on a terminal)
  -r          backslashes are ordinary characters
  -s          do not echo (on a terminal)
  -t timeout  give up after TIMEOUT seconds
  -u fd       read from file descriptor FD

Status: 0 unless end of file is reached, the time runs out (more than 128),
an assignment fails or FD is invalid.",
    ),
    t(
        "readarray",
        "readarray [-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]",
        "Read lines into an indexed array.",
        "Another name for `mapfile'.",
    ),
    t(
        "readonly",
        "readonly [-aAf] [name[=value] ...] or readonly -p",
        "Make variables unchangeable.",
        "Each NAME (assigned VALUE if given) can no longer be assigned or unset.

Options:
  -a  the NAMEs are indexed arrays
  -A  the NAMEs are associative arrays
  -f  the NAMEs are functions
  -p  list the read-only variables as reusable commands

Status: 0 unless an option or a NAME is invalid.",
    ),
    t(
        "return",
        "return [n]",
        "Return from a function or sourced file.",
        "Ends the running function or `.' script with status N, or with the status
of the last command when N is omitted.

Status: N; 1 outside a function or sourced file.",
    ),
    t(
        "select",
        "select NAME [in WORDS ... ;] do COMMANDS; done",
        "Let the user pick words from a numbered menu.",
        "Prints the expanded WORDS (default: the positional parameters) numbered on
stderr, prompts with PS3 and reads a line.  NAME is set to the word with
that number (or to null) and REPLY to the line, then COMMANDS run; this
repeats until `break' or end of input.

Status: that of the last command run.",
    ),
    t(
        "set",
        "set [-abefhkmnptuvxBCEHPT] [-o option-name] [--] [-] [arg ...]",
        "Change shell options and the positional parameters.",
        "`-X' turns option X on and `+X' turns it off.  ARGs become the positional
parameters; `--' ends the options (with no ARG it clears them).  Without
arguments, lists every shell variable.

Options:
  -a  export variables when assigned  -b  report ended jobs at once
  -e  exit when a command fails       -f  no pathname expansion
  -h  remember where commands are     -k  assignments anywhere on a line
  -m  job control                     -n  read commands without running them
  -p  privileged mode                 -t  exit after one command
  -u  expanding an unset variable is an error
  -v  print input lines as read       -x  trace commands before running them
  -B  brace expansion                 -C  `>' does not overwrite files
  -E  ERR trap is inherited           -H  `!' history expansion
  -P  do not follow symbolic links    -T  DEBUG/RETURN traps are inherited
  -o option-name  set an option by name (`set -o' lists them)

Status: 0 unless an option is invalid.",
    ),
    t(
        "shift",
        "shift [n]",
        "Shift the positional parameters.",
        "Discards the first N positional parameters (default 1) and renumbers the
rest from $1.

Status: 0 unless N is negative or greater than $#.",
    ),
    t(
        "shopt",
        "shopt [-pqsu] [-o] [optname ...]",
        "Set or show shell options.",
        "Without options, shows whether each OPTNAME (or every option) is on.

Options:
  -s  turn the OPTNAMEs on
  -u  turn the OPTNAMEs off
  -q  print nothing; the status tells whether all are on
  -p  print as reusable commands
  -o  the OPTNAMEs are those of `set -o'

Status: 0 when the options asked about are on, 1 otherwise or on an error.",
    ),
    t(
        "source",
        "source filename [arguments]",
        "Run the commands of a file in this shell.",
        "Another name for `.'.",
    ),
    t(
        "suspend",
        "suspend [-f]",
        "Stop the shell until it is continued.",
        "Options:
  -f  also suspend a login shell

Status: 0 unless job control is off or an error occurs.",
    ),
    t(
        "test",
        "test [expr]",
        "Evaluate a test expression.",
        "Operators (a lone STRING is true when it is not empty):
  -e FILE  exists        -f FILE  regular file   -d FILE  directory
  -L FILE  symbolic link -s FILE  not empty      -r/-w/-x FILE  permission
  -n STRING  not empty   -z STRING  empty
  S1 = S2, S1 != S2, S1 < S2, S1 > S2          string comparison
  N1 -eq -ne -lt -le -gt -ge N2                integer comparison
  F1 -nt F2, F1 -ot F2, F1 -ef F2              newer, older, same file
  -o OPTION  the shell option is on            -v VAR  VAR is set
  ! EXPR, EXPR1 -a EXPR2, EXPR1 -o EXPR2, ( EXPR )

Status: 0 when EXPR is true, 1 when false or absent, 2 on an error.",
    ),
    t(
        "time",
        "time [-p] pipeline",
        "Report the time a pipeline took.",
        "Runs PIPELINE and then prints its real, user and system time on stderr in
the format of TIMEFORMAT; -p uses the POSIX format.

Status: that of PIPELINE.",
    ),
    t(
        "times",
        "times",
        "Show the shell's process times.",
        "Prints the user and system times of the shell, then of its children.

Status: always 0.",
    ),
    t(
        "trap",
        "trap [-lp] [[arg] signal_spec ...]",
        "Run commands when signals or shell events occur.",
        "ARG is run when one of the SIGNAL_SPECs arrives.  An empty ARG ignores the
signals; `-' or an omitted ARG restores the default.  Besides signal names
and numbers: EXIT (0) runs as the shell exits, DEBUG before each command,
RETURN when a function or sourced file returns, ERR when a command fails
where `set -e' would exit.

Options:
  -l  list the signal names and numbers
  -p  print the traps set (of the SIGNAL_SPECs, or all)

Status: 0 unless a SIGNAL_SPEC or an option is invalid.",
    ),
    t(
        "true",
        "true",
        "Succeed.",
        "Does nothing, successfully.

Status: always 0.",
    ),
    t(
        "type",
        "type [-afptP] name [name ...]",
        "Say what kind of command each name is.",
        "Describes how each NAME would run: alias, keyword, function, builtin or file.

Options:
  -a  every match, not just the first
  -f  ignore functions
  -P  search PATH even for aliases, builtins and functions
  -p  print the file that would run, if any
  -t  print one word: alias, keyword, function, builtin, file or nothing

Status: 0 when every NAME is found, 1 otherwise.",
    ),
    t(
        "typeset",
        "typeset [-aAfFgiIlnrtux] name[=value] ... or typeset -p [-aAfFilnrtux] [name ...]",
        "Set variables' values and attributes.",
        "Another name for `declare'.",
    ),
    t(
        "ulimit",
        "ulimit [-SHabcdefiklmnpqrstuvxPRT] [limit]",
        "Show or change resource limits.",
        "Without LIMIT prints the limit chosen by the option (default -f); with it,
sets it.  LIMIT is a number, `unlimited', `soft' or `hard'.  -S and -H pick
the soft or hard limit; -a prints them all.  Sizes are in 1024-byte blocks,
except -p (512 bytes) and the counts.

Status: 0 unless an option or LIMIT is invalid or the change fails.",
    ),
    t(
        "umask",
        "umask [-p] [-S] [mode]",
        "Show or set the file creation mask.",
        "Sets the mask to MODE (octal, or symbolic like chmod's), or prints it.

Options:
  -p  print as a reusable command
  -S  print symbolically (u=rwx,g=rx,o=rx)

Status: 0 unless MODE or an option is invalid.",
    ),
    t(
        "unalias",
        "unalias [-a] name [name ...]",
        "Remove aliases.",
        "Removes each NAME's alias; -a removes them all.

Status: 0 unless a NAME has no alias.",
    ),
    t(
        "unset",
        "unset [-f] [-v] [-n] [name ...]",
        "Remove variables and functions.",
        "Removes each NAME: the variable when there is one, else the function.

Options:
  -v  only variables
  -f  only functions
  -n  remove a name reference itself, not the variable it names

Status: 0 unless a NAME is read-only or an option is invalid.",
    ),
    t(
        "until",
        "until COMMANDS; do COMMANDS-2; done",
        "Loop until a test succeeds.",
        "Runs COMMANDS-2 for as long as COMMANDS fail.

Status: that of the last command run, or 0 when there was none.",
    ),
    t(
        "variables",
        "variables - Names and meanings of some shell variables",
        "Shell variables and what they mean.",
        "BASH_VERSION  the shell's version        HOME  the home directory
HOSTNAME      the machine's name           IFS   the field separators
OLDPWD        the previous directory       PWD   the working directory
PATH          where commands are found     PS1, PS2  the prompts
SHELLOPTS     the `set -o' options on      BASHOPTS  the shopt options on
RANDOM        a new random number each time it is read
SECONDS       seconds since the shell started
LINENO        the current line             FUNCNAME  the function stack
PIPESTATUS    the statuses of the last pipeline
HISTFILE, HISTSIZE, HISTFILESIZE, HISTCONTROL, HISTIGNORE  the history
TIMEFORMAT    the format of `time'         CDPATH  where `cd' looks",
    ),
    t(
        "wait",
        "wait [-fn] [-p var] [id ...]",
        "Wait for jobs to finish.",
        "Waits for each ID (a process ID or job spec), or for every background job.

Options:
  -n      wait for the next job (of the IDs, or any) to finish
  -p var  store the process ID of the job waited for in VAR
  -f      wait until the job ends, not just until its state changes

Status: that of the last ID; 127 for an unknown ID; 0 when waiting for all.",
    ),
    t(
        "while",
        "while COMMANDS; do COMMANDS-2; done",
        "Loop while a test succeeds.",
        "Runs COMMANDS-2 for as long as COMMANDS succeed.

Status: that of the last command run, or 0 when there was none.",
    ),
    t(
        "{ ... }",
        "{ COMMANDS ; }",
        "Group commands.",
        "Runs COMMANDS in the current shell as one unit, so one redirection can
apply to them all.

Status: that of the last command run.",
    ),
];

/// The topic named exactly `name`.
pub fn topic(name: &str) -> Option<&'static Topic> {
    TOPICS.iter().find(|t| t.name == name)
}

/// The long help: synopsis line, description and body, each body line indented by
/// four spaces as bash indents its help (blank lines too).
pub fn long_text(t: &Topic) -> String {
    let mut out = format!("{}: {}\n", t.name, t.synopsis);
    for line in std::iter::once(t.short)
        .chain(std::iter::once(""))
        .chain(t.body.lines())
    {
        out.push_str("    ");
        out.push_str(line);
        out.push('\n');
    }
    out
}

/// `NAME --help`: the long help on stdout and status 2, as bash's builtins answer it.
pub fn answer(sh: &mut Interp, name: &str) -> R {
    let text = topic(name).map(long_text).unwrap_or_default();
    sh.out_status(name, text.as_bytes())?;
    Ok(2)
}

/// Builtins that take `--help` as an ordinary argument: those that parse no options
/// (`echo` prints it, `test` sees a non-empty string) and `bind`, whose option loop
/// treats it as an unknown option.
const NO_HELP_OPTION: &[&str] = &[":", "[", "bind", "echo", "false", "test", "true"];

/// The option letters of builtins that read options with bash's `internal_getopt`
/// (`:` after a letter that takes an argument; `+` first where `+x` options exist).
/// Its loop answers `--help` wherever it meets it among the options, so
/// `read -r --help` and `cd -L --help` print help too.
const GETOPT_LETTERS: &[(&str, &str)] = &[
    ("alias", "p"),
    ("cd", "LPe@"),
    ("command", "pvV"),
    ("declare", "+aAfFgiIlnprtux"),
    ("disown", "ahr"),
    ("enable", "adnpsf:"),
    ("exec", "cla:"),
    ("export", "fnp"),
    ("fc", "e:lnrs"),
    ("hash", "dlp:rt"),
    ("help", "dms"),
    ("history", "acd:npsrw"),
    ("jobs", "lnprsx"),
    ("local", "+aAfFgiIlnprtux"),
    ("mapfile", "d:u:n:O:tC:c:s:"),
    ("printf", "v:"),
    ("pwd", "LP"),
    ("read", "ersa:d:i:n:N:p:t:u:"),
    ("readarray", "d:u:n:O:tC:c:s:"),
    ("readonly", "aAfnp"),
    ("set", "+abefhkmnoptuvxBCEHPT"),
    ("shopt", "opqsu"),
    ("suspend", "f"),
    ("trap", "lp"),
    ("type", "afptP"),
    ("typeset", "+aAfFgiIlnprtux"),
    ("ulimit", "SHabcdefiklmnpqrstuvxPRT"),
    ("umask", "Sp"),
    ("unalias", "a"),
    ("unset", "fnv"),
    ("wait", "fnp:"),
];

/// Whether a builtin called with `args` is asking for its help: `--help` as its first
/// argument, or (for the builtins in [`GETOPT_LETTERS`]) among its options before
/// an operand, `--`, or an unknown option (which is an error first).
pub fn asks_for_help(name: &str, args: &[String]) -> bool {
    // Only an option first asks: most calls have none, and need no table search.
    if !args.get(1).is_some_and(|a| a.starts_with(['-', '+'])) {
        return false;
    }
    if NO_HELP_OPTION.contains(&name) {
        return false;
    }
    if args.get(1).is_some_and(|a| a == "--help") {
        return true;
    }
    let Some(&(_, letters)) = GETOPT_LETTERS.iter().find(|(n, _)| *n == name) else {
        return false;
    };
    let plus = letters.starts_with('+');
    let mut i = 1;
    while let Some(a) = args.get(i) {
        if a == "--help" {
            return true;
        }
        let cluster = match (a.strip_prefix('-'), a.strip_prefix('+')) {
            (Some(rest), _) if !rest.is_empty() && !rest.starts_with('-') => rest,
            (_, Some(rest)) if plus && !rest.is_empty() => rest,
            _ => return false,
        };
        for (k, c) in cluster.char_indices() {
            let Some(at) = letters.find(c).filter(|_| c != ':' && c != '+') else {
                return false;
            };
            let takes_arg = letters
                .get(at + c.len_utf8()..)
                .is_some_and(|r| r.starts_with(':'));
            if takes_arg {
                // The option's argument is the rest of the word or the next word.
                if k + c.len_utf8() == cluster.len() {
                    i += 1;
                }
                break;
            }
        }
        i += 1;
        // ulimit's options each take an optional limit as the next word.
        if name == "ulimit" && args.get(i).is_some_and(|n| !n.starts_with('-')) {
            i += 1;
        }
    }
    false
}

const HELP_USAGE: &str = "help: usage: help [-dms] [pattern ...]";

/// `help [-dms] [pattern ...]`.
pub fn help(sh: &mut Interp, args: &[String]) -> R {
    let (flags, i) = match super::letter_options(sh, "help", args, "dms", HELP_USAGE) {
        Ok(v) => v,
        Err(status) => return Ok(status),
    };
    let describe = flags.contains('d');
    let manual = flags.contains('m');
    let synopsis = flags.contains('s');
    let patterns = args.get(i..).unwrap_or_default();
    if patterns.is_empty() {
        let text = overview(sh);
        return sh.out_status("help", text.as_bytes());
    }
    let mut out = String::new();
    let first = &patterns[0];
    if crate::expand::pattern::has_meta(first, true) {
        let plural = if patterns.len() > 1 { "s" } else { "" };
        out.push_str(&format!(
            "Shell commands matching keyword{plural} `{}'\n\n",
            patterns.join(", ")
        ));
    }
    let mut found = false;
    for pat in patterns {
        for t in matches(pat) {
            found = true;
            if describe {
                out.push_str(&format!("{} - {}\n", t.name, t.short));
            } else if manual {
                out.push_str(&manual_page(t));
            } else if synopsis {
                out.push_str(&format!("{}: {}\n", t.name, t.synopsis));
            } else {
                out.push_str(&long_text(t));
            }
        }
    }
    if !found {
        let last = patterns.last().map(String::as_str).unwrap_or_default();
        sh.builtin_error(
            "help",
            &format!(
                "no help topics match `{last}'.  Try `help help' or `man -k {last}' or `info {last}'."
            ),
        );
        return Ok(1);
    }
    sh.out_status("help", out.as_bytes())
}

/// The topics a pattern selects: those it names exactly or matches as a glob, else
/// (as bash 4.2 did) those whose names start with it.
fn matches(pat: &str) -> Vec<&'static Topic> {
    let opts = crate::expand::pattern::MatchOpts {
        extglob: true,
        ..Default::default()
    };
    let glob = crate::expand::pattern::Pattern::new(pat, opts);
    let exact: Vec<_> = TOPICS
        .iter()
        .filter(|t| t.name == pat || glob.matches(t.name))
        .collect();
    if !exact.is_empty() {
        return exact;
    }
    TOPICS.iter().filter(|t| t.name.starts_with(pat)).collect()
}

/// `help -m`: the topic laid out like a manual page.
fn manual_page(t: &Topic) -> String {
    let mut out = format!(
        "NAME\n    {} - {}\n\nSYNOPSIS\n    {}\n\nDESCRIPTION\n",
        t.name, t.short, t.synopsis
    );
    for line in std::iter::once(t.short)
        .chain(std::iter::once(""))
        .chain(t.body.lines())
    {
        out.push_str(&format!("    {line}\n"));
    }
    out.push_str(
        "\nSEE ALSO\n    bash(1)\n\nIMPLEMENTATION\n    GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n    shellbox, a simulation of bash over an in-memory filesystem\n\n",
    );
    out
}

/// `help` alone: a few lines of introduction, then every synopsis in two columns
/// half the terminal width ($COLUMNS, default 80) wide, cut with `>` where too long.
fn overview(sh: &Interp) -> String {
    let columns = sh
        .get_str("COLUMNS")
        .and_then(|c| c.parse::<usize>().ok())
        .filter(|&c| c > 0)
        .unwrap_or(80);
    let width = match (columns / 2).min(128) {
        w if w <= 3 => 40,
        w => w,
    };
    let mut out = String::from(
        "GNU bash, version 5.2.15(1)-release (x86_64-pc-linux-gnu)\n\
         The commands below are built into the shell.  `help' shows this list again.\n\
         `help NAME' describes the commands whose names match NAME.\n\
         Commands that are not listed are utilities; most answer `NAME --help'.\n\n\
         A star (*) next to a name means that the command is disabled.\n\n",
    );
    let n = TOPICS.len();
    let height = n.div_ceil(2);
    for row in 0..height {
        let left = cell(TOPICS[row].synopsis, width, false);
        if row * 2 >= n || row + height >= n {
            out.push_str(&left);
        } else {
            out.push_str(&format!("{left:<width$}"));
            out.push_str(&cell(TOPICS[row + height].synopsis, width, true));
        }
        out.push('\n');
    }
    out
}

/// One cell of the topic list, as bash's multibyte `wdispcolumn` cuts it: a marker
/// column (space: no builtin is ever disabled here), then the synopsis; one that
/// nearly fills the column loses its tail to a `>` (one character more in the right
/// column, which has no padding after it).
fn cell(synopsis: &str, width: usize, right: bool) -> String {
    let chars: Vec<char> = synopsis.chars().collect();
    let shown = chars.len().min(width.saturating_sub(2));
    if shown + 1 >= width.saturating_sub(2) {
        let keep = shown.saturating_sub(if right { 2 } else { 1 });
        let cut: String = chars.iter().take(keep).collect();
        format!(" {cut}>")
    } else {
        format!(" {synopsis}")
    }
}
