//! `rg`: ripgrep's behaviour when its output is not a terminal — recursive search from
//! `.` by default, hidden files and ignored files skipped (`.gitignore` inside a git
//! repository, `.ignore` and `.rgignore` anywhere), Rust regex syntax, `path:text` lines
//! (no line numbers unless `-n`, no file names for a single file), and the flags `-i -S
//! -s -w -x -v -c -l --files-without-match -F -e -f -A -B -C -o -m -g -t -T --hidden
//! --no-ignore -u -n -N -H -I --column --files --type-list --heading --no-heading`;
//! exit 0/1/2. `--heading` (ripgrep's default on a terminal) prints each file's path on
//! its own line above its lines, with a blank line between files.
//!
//! The reference is ripgrep 14 (its documentation and source, non-tty defaults). The
//! machine's ripgrep is 13, so `tests/fixtures/util-rg.test` confirms only the cases
//! where the two agree and records 14's output for the rest (error messages prefixed
//! with `rg: `, the missing-pattern message). Differences: files are searched in
//! sorted order (ripgrep is parallel and unordered without `--sort path`); with no path
//! operand, piped input is searched when stdin has data, otherwise the working
//! directory; binary files (a NUL byte) are skipped.

use std::io::Write as _;

use globset::{Glob, GlobBuilder, GlobMatcher};
use regex::bytes::{Regex, RegexBuilder};

use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};
use crate::fs::Fs;

const LONG: &[LongOpt] = &[
    long("ignore-case", HasArg::No, "i"),
    long("smart-case", HasArg::No, "S"),
    long("case-sensitive", HasArg::No, "s"),
    long("word-regexp", HasArg::No, "w"),
    long("line-regexp", HasArg::No, "x"),
    long("invert-match", HasArg::No, "v"),
    long("count", HasArg::No, "c"),
    long("files-with-matches", HasArg::No, "l"),
    long("files-without-match", HasArg::No, "files-without-match"),
    long("fixed-strings", HasArg::No, "F"),
    long("regexp", HasArg::Required, "e"),
    long("file", HasArg::Required, "f"),
    long("after-context", HasArg::Required, "A"),
    long("before-context", HasArg::Required, "B"),
    long("context", HasArg::Required, "C"),
    long("only-matching", HasArg::No, "o"),
    long("max-count", HasArg::Required, "m"),
    long("glob", HasArg::Required, "g"),
    long("iglob", HasArg::Required, "iglob"),
    long("type", HasArg::Required, "t"),
    long("type-not", HasArg::Required, "T"),
    long("hidden", HasArg::No, "hidden"),
    long("no-ignore", HasArg::No, "no-ignore"),
    long("unrestricted", HasArg::No, "u"),
    long("line-number", HasArg::No, "n"),
    long("no-line-number", HasArg::No, "N"),
    long("with-filename", HasArg::No, "H"),
    long("no-filename", HasArg::No, "I"),
    long("files", HasArg::No, "files"),
    long("type-list", HasArg::No, "type-list"),
    long("quiet", HasArg::No, "q"),
    long("no-heading", HasArg::No, "no-heading"),
    long("heading", HasArg::No, "heading"),
    long("color", HasArg::Required, "color"),
    long("sort", HasArg::Required, "sort"),
    long("null", HasArg::No, "0"),
    long("max-depth", HasArg::Required, "d"),
    long("follow", HasArg::No, "L"),
    long("text", HasArg::No, "a"),
    long("column", HasArg::No, "column"),
    long("help", HasArg::No, "h"),
];

const HELP: &str = r#"ripgrep (rg) recursively searches the current directory for a regex pattern.
By default, ripgrep will respect gitignore rules and automatically skip hidden
files/directories and binary files.

USAGE:
    rg [OPTIONS] PATTERN [PATH ...]
    rg [OPTIONS] -e PATTERN ... [PATH ...]
    rg [OPTIONS] -f PATTERNFILE ... [PATH ...]
    rg [OPTIONS] --files [PATH ...]
    rg [OPTIONS] --type-list
    command | rg [OPTIONS] PATTERN
    rg [OPTIONS] --help

ARGS:
    <PATTERN>    A regular expression used for searching.
    <PATH>...    A file or directory to search.

OPTIONS:
    -A, --after-context <NUM>                    Show NUM lines after each match.
    -B, --before-context <NUM>                   Show NUM lines before each match.
    -s, --case-sensitive                         Search case sensitively (default).
    -C, --context <NUM>                          Show NUM lines before and after each match.
    -c, --count                                  Only show the count of matching lines for each file.
    -f, --file <PATTERNFILE>...                  Search for patterns from the given file.
        --files                                  Print each file that would be searched.
    -l, --files-with-matches                     Print the paths with at least one match.
        --files-without-match                    Print the paths that contain zero matches.
    -F, --fixed-strings                          Treat the pattern as a literal string.
    -g, --glob <GLOB>...                         Include or exclude files.
    -h, --help                                   Prints help information.
        --heading                                Print the file path above clusters of matches.
        --hidden                                 Search hidden files and directories.
        --iglob <GLOB>...                        Include or exclude files case insensitively.
    -i, --ignore-case                            Case insensitive search.
    -v, --invert-match                           Invert matching.
    -n, --line-number                            Show line numbers.
    -x, --line-regexp                            Only show matches surrounded by line boundaries.
    -m, --max-count <NUM>                        Limit the number of matches.
    -d, --max-depth <NUM>                        Descend at most NUM directories.
    -I, --no-filename                            Never print the file path with the matched lines.
        --no-ignore                              Don't respect ignore files.
        --no-heading                             Print the file path on each matching line.
    -N, --no-line-number                         Suppress line numbers.
    -0, --null                                   Print a NUL byte after file paths.
    -o, --only-matching                          Print only matched parts of a line.
    -q, --quiet                                  Do not print anything to stdout.
    -e, --regexp <PATTERN>...                    A pattern to search for.
    -S, --smart-case                             Smart case search.
    -a, --text                                   Search binary files as if they were text.
    -t, --type <TYPE>...                         Only search files matching TYPE.
        --type-list                              Show all supported file types.
    -T, --type-not <TYPE>...                     Do not search files matching TYPE.
    -u, --unrestricted                           Reduce the level of "smart" searching.
    -H, --with-filename                          Print the file path with the matched lines.
    -w, --word-regexp                            Only show matches surrounded by word boundaries.

Output is never colored and, unless --heading is given, never grouped under file
headings; files are searched in path order.
"#;

/// File types (`-t`), a subset of ripgrep's list.
const TYPES: &[(&str, &[&str])] = &[
    ("c", &["*.[chH]", "*.[chH].in", "*.cats"]),
    (
        "cpp",
        &["*.[ChH]", "*.cc", "*.[ch]pp", "*.[ch]xx", "*.hh", "*.inl"],
    ),
    ("css", &["*.css", "*.scss"]),
    ("go", &["*.go"]),
    ("html", &["*.htm", "*.html", "*.ejs"]),
    ("java", &["*.java", "*.jsp", "*.jspx", "*.properties"]),
    ("js", &["*.js", "*.jsx", "*.vue", "*.cjs", "*.mjs"]),
    ("json", &["*.json", "*.sarif", "composer.lock"]),
    (
        "md",
        &[
            "*.markdown",
            "*.md",
            "*.mdown",
            "*.mdwn",
            "*.mkd",
            "*.mkdn",
            "*.mdx",
        ],
    ),
    ("py", &["*.py", "*.pyi"]),
    ("rust", &["*.rs"]),
    (
        "sh",
        &[
            "*.bash",
            "*.bashrc",
            ".bash_aliases",
            ".bash_logout",
            ".bash_profile",
            ".bashrc",
            "*.sh",
            ".profile",
            "*.zsh",
            ".zshrc",
        ],
    ),
    ("toml", &["*.toml", "Cargo.lock"]),
    ("ts", &["*.ts", "*.tsx", "*.cts", "*.mts"]),
    ("txt", &["*.txt"]),
    ("yaml", &["*.yaml", "*.yml"]),
];

fn type_globs(name: &str) -> Option<&'static [&'static str]> {
    TYPES.iter().find(|(n, _)| *n == name).map(|(_, g)| *g)
}

/// One rule of an ignore file.
struct IgnoreRule {
    glob: GlobMatcher,
    negate: bool,
    dir_only: bool,
    /// Matched against the path relative to the ignore file's directory (else the
    /// base name).
    anchored: bool,
}

pub(crate) struct IgnoreFile {
    dir: String,
    rules: Vec<IgnoreRule>,
}

pub(crate) fn parse_ignore(dir: &str, text: &str) -> IgnoreFile {
    let mut rules = Vec::new();
    for raw in text.lines() {
        let line = raw.trim_end();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let (negate, mut pat) = match line.strip_prefix('!') {
            Some(p) => (true, p.to_owned()),
            None => (false, line.trim_start_matches('\\').to_owned()),
        };
        let dir_only = pat.ends_with('/');
        if dir_only {
            pat.pop();
        }
        let anchored = pat.contains('/');
        let pat = pat.trim_start_matches('/').to_owned();
        let Ok(g) = GlobBuilder::new(&pat).literal_separator(true).build() else {
            continue;
        };
        rules.push(IgnoreRule {
            glob: g.compile_matcher(),
            negate,
            dir_only,
            anchored,
        });
    }
    IgnoreFile {
        dir: dir.to_owned(),
        rules,
    }
}

/// Whether `path` is ignored: the innermost ignore file with an opinion decides.
pub(crate) fn ignored(ignores: &[IgnoreFile], path: &str, is_dir: bool) -> bool {
    ignores
        .iter()
        .rev()
        .find_map(|ig| ig.verdict(path, is_dir))
        .unwrap_or(false)
}

impl IgnoreFile {
    /// Some(true) ignored, Some(false) re-included, None no opinion.
    fn verdict(&self, path: &str, is_dir: bool) -> Option<bool> {
        let rel = path
            .strip_prefix(&self.dir)
            .map(|r| r.trim_start_matches('/'))
            .unwrap_or(path);
        let base = rel.rsplit('/').next().unwrap_or(rel);
        let mut out = None;
        for r in &self.rules {
            if r.dir_only && !is_dir {
                continue;
            }
            let hit = if r.anchored {
                r.glob.is_match(rel)
            } else {
                r.glob.is_match(base)
            };
            if hit {
                out = Some(!r.negate);
            }
        }
        out
    }
}

struct Opts {
    invert: bool,
    count: bool,
    files_with: bool,
    files_without: bool,
    only: bool,
    max_count: Option<u64>,
    before: usize,
    after: usize,
    line_numbers: bool,
    /// `--column`: the 1-based byte column of the (first) match after the line number.
    column: bool,
    with_filename: Option<bool>,
    quiet: bool,
    hidden: bool,
    no_ignore: bool,
    binary_ok: bool,
    includes: Vec<(GlobMatcher, bool)>,
    types: Vec<GlobMatcher>,
    types_not: Vec<GlobMatcher>,
    max_depth: Option<usize>,
    null: bool,
    /// `--heading`: the path on its own line above a file's lines.
    heading: bool,
}

struct Search<'a> {
    o: &'a Opts,
    re: Regex,
    fs: &'a Fs,
    out: Vec<u8>,
    matched: bool,
    errors: bool,
    err: Vec<u8>,
    /// Whether some file's lines were printed (`--heading` separates the next with a
    /// blank line).
    printed_file: bool,
}

impl Search<'_> {
    fn wanted_by_globs(&self, rel: &str, is_dir: bool) -> bool {
        let base = rel.rsplit('/').next().unwrap_or(rel);
        if !self.o.includes.is_empty() {
            // The last matching glob decides; with any positive glob, an unmatched
            // file is excluded (directories are only excluded by negative globs).
            let mut verdict = None;
            for (g, positive) in &self.o.includes {
                if g.is_match(rel) || g.is_match(base) {
                    verdict = Some(*positive);
                }
            }
            match verdict {
                Some(v) => return v,
                None => {
                    let any_positive = self.o.includes.iter().any(|(_, p)| *p);
                    if any_positive && !is_dir {
                        return false;
                    }
                }
            }
        }
        if is_dir {
            return true;
        }
        if !self.o.types.is_empty() && !self.o.types.iter().any(|g| g.is_match(base)) {
            return false;
        }
        !self.o.types_not.iter().any(|g| g.is_match(base))
    }

    fn walk(
        &mut self,
        host: &mut dyn super::Host,
        path: &str,
        shown: &str,
        depth: usize,
        ignores: &mut Vec<IgnoreFile>,
        files: &mut Vec<(String, String)>,
    ) -> std::io::Result<()> {
        host.check()?;
        let Ok(entries) = self.fs.read_dir(path) else {
            return Ok(());
        };
        let pushed = ignores.len();
        if !self.o.no_ignore {
            let in_git = in_git_repo(self.fs, path);
            for name in [".gitignore", ".ignore", ".rgignore"] {
                if name == ".gitignore" && !in_git {
                    continue;
                }
                if let Ok(d) = self.fs.read_file(&crate::fs::path::join(path, name)) {
                    ignores.push(parse_ignore(path, &crate::text::decode(&d)));
                }
            }
        }
        for e in entries {
            let child = crate::fs::path::join(path, &e.name);
            let child_shown = if shown.is_empty() {
                e.name.clone()
            } else if shown.ends_with('/') {
                format!("{shown}{}", e.name)
            } else {
                format!("{shown}/{}", e.name)
            };
            if !self.o.hidden && e.name.starts_with('.') {
                continue;
            }
            let meta = if e.file_type.is_symlink() {
                // Symlinks are not followed (ripgrep's default).
                continue;
            } else {
                self.fs.stat(&child)
            };
            let Ok(meta) = meta else { continue };
            let is_dir = meta.is_dir();
            if ignored(ignores, &child, is_dir) {
                continue;
            }
            let rel = child_shown.trim_start_matches("./");
            if !self.wanted_by_globs(rel, is_dir) {
                continue;
            }
            if is_dir {
                if self.o.max_depth.is_none_or(|m| depth < m) {
                    self.walk(host, &child, &child_shown, depth + 1, ignores, files)?;
                }
            } else if meta.is_file() {
                files.push((child, child_shown));
            }
        }
        ignores.truncate(pushed);
        Ok(())
    }

    fn name_bytes(&self, name: &str, sep: u8) -> Vec<u8> {
        let mut v = crate::text::encode(name);
        v.push(if self.o.null { 0 } else { sep });
        v
    }

    /// Searches one text; returns whether it matched.
    fn search(&mut self, data: &[u8], name: Option<&str>) -> bool {
        let o = self.o;
        let listing = o.quiet || o.count || o.files_with || o.files_without;
        let heading = o.heading && !listing;
        // Under a heading the lines carry no path.
        let (heading_name, name) = if heading { (name, None) } else { (None, name) };
        let lines: Vec<&[u8]> = data.split_inclusive(|&b| b == b'\n').collect();
        let mut count = 0u64;
        let mut last_printed: Option<usize> = None;
        let mut after_left = 0usize;
        let mut printed_any = false;
        let mut out = Vec::new();
        for (i, raw) in lines.iter().enumerate() {
            if o.max_count.is_some_and(|m| count >= m) {
                // Trailing context still prints after the last match.
                if after_left > 0 && !o.count && !o.files_with && !o.files_without {
                    self.line(&mut out, name, i, None, raw, b'-');
                    last_printed = Some(i);
                    after_left -= 1;
                    continue;
                }
                break;
            }
            let body = raw.strip_suffix(b"\n").unwrap_or(raw);
            let is_match = self.re.is_match(body) != o.invert;
            if !is_match {
                if after_left > 0 && !o.count && !o.files_with && !o.files_without && !o.only {
                    self.line(&mut out, name, i, None, raw, b'-');
                    last_printed = Some(i);
                    after_left -= 1;
                }
                continue;
            }
            count += 1;
            if o.quiet || o.count || o.files_with || o.files_without {
                continue;
            }
            // Before-context and group separators.
            let start = i.saturating_sub(o.before);
            let from = match last_printed {
                Some(p) if p + 1 >= start => p + 1,
                _ => {
                    if printed_any && (o.before > 0 || o.after > 0) {
                        out.extend_from_slice(b"--\n");
                    }
                    start
                }
            };
            for (k, l) in lines.iter().enumerate().take(i).skip(from) {
                self.line(&mut out, name, k, None, l, b'-');
            }
            if o.only && !o.invert {
                for m in self.re.find_iter(body) {
                    if m.start() == m.end() {
                        continue;
                    }
                    let mut piece = m.as_bytes().to_vec();
                    piece.push(b'\n');
                    self.line(&mut out, name, i, Some(m.start()), &piece, b':');
                }
            } else {
                // An inverted match has no match to place.
                let col = self.re.find(body).filter(|_| !o.invert).map(|m| m.start());
                self.line(&mut out, name, i, col, raw, b':');
            }
            printed_any = true;
            last_printed = Some(i);
            after_left = o.after;
        }
        let matched = count > 0;
        if o.count && count > 0 {
            if let Some(n) = name {
                out.extend_from_slice(&self.name_bytes(n, b':'));
            }
            out.extend_from_slice(format!("{count}\n").as_bytes());
        }
        if o.files_with
            && matched
            && let Some(n) = name
        {
            out.extend_from_slice(&crate::text::encode(n));
            out.push(if o.null { 0 } else { b'\n' });
        }
        if o.files_without
            && !matched
            && let Some(n) = name
        {
            out.extend_from_slice(&crate::text::encode(n));
            out.push(if o.null { 0 } else { b'\n' });
        }
        if heading && !out.is_empty() {
            if self.printed_file {
                self.out.push(b'\n');
            }
            if let Some(n) = heading_name {
                self.out.extend_from_slice(&self.name_bytes(n, b'\n'));
            }
            self.printed_file = true;
        }
        if !o.quiet {
            self.out.extend_from_slice(&out);
        }
        matched
    }

    /// One output line: file name, line number and (for a match under `--column`) the
    /// 0-based byte offset `col` shown 1-based, then the text.
    fn line(
        &self,
        out: &mut Vec<u8>,
        name: Option<&str>,
        i: usize,
        col: Option<usize>,
        raw: &[u8],
        sep: u8,
    ) {
        if let Some(n) = name {
            out.extend_from_slice(&self.name_bytes(n, sep));
        }
        if self.o.line_numbers {
            out.extend_from_slice(format!("{}", i + 1).as_bytes());
            out.push(sep);
        }
        if let Some(c) = col.filter(|_| self.o.column) {
            out.extend_from_slice(format!("{}", c + 1).as_bytes());
            out.push(sep);
        }
        out.extend_from_slice(raw);
        if !raw.ends_with(b"\n") {
            out.push(b'\n');
        }
    }
}

fn in_git_repo(fs: &Fs, dir: &str) -> bool {
    let mut d = dir.to_owned();
    loop {
        if fs.stat(&crate::fs::path::join(&d, ".git")).is_ok() {
            return true;
        }
        if d == "/" || d.is_empty() {
            return false;
        }
        d = crate::fs::path::parent(&d).to_owned();
    }
}

fn usage(ctx: &mut Ctx, msg: &str) -> CmdResult {
    writeln!(ctx.stderr, "rg: {msg}")?;
    Ok(2)
}

pub fn rg(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(
        &Spec::new("iSswxvcFle:f:A:B:C:om:g:t:T:unNHIq0d:Lah", LONG),
        ctx.args,
    ) {
        Ok(p) => p,
        Err(msg) => return usage(ctx, &msg),
    };
    if parsed.has("h") {
        ctx.stdout.write_all(HELP.as_bytes())?;
        return Ok(0);
    }
    let num = |v: Option<&str>| v.and_then(|s| s.parse::<usize>().ok());
    let mut o = Opts {
        invert: parsed.has("v"),
        count: parsed.has("c"),
        files_with: parsed.has("l"),
        files_without: parsed.has("files-without-match"),
        only: parsed.has("o"),
        max_count: parsed.last("m").and_then(|m| m.parse().ok()),
        before: 0,
        after: 0,
        line_numbers: false,
        column: false,
        with_filename: None,
        quiet: parsed.has("q"),
        hidden: parsed.has("hidden"),
        no_ignore: parsed.has("no-ignore"),
        binary_ok: parsed.has("a"),
        includes: Vec::new(),
        types: Vec::new(),
        types_not: Vec::new(),
        max_depth: num(parsed.last("d")),
        null: parsed.has("0"),
        heading: parsed
            .opts
            .iter()
            .rev()
            .find(|(k, _)| k == "heading" || k == "no-heading")
            .is_some_and(|(k, _)| k == "heading"),
    };
    let mut patterns: Vec<String> = Vec::new();
    let mut case = 's';
    let mut numbers = None;
    for (k, v) in &parsed.opts {
        let v = v.as_deref().unwrap_or("");
        match k.as_str() {
            "i" => case = 'i',
            "S" => case = 'S',
            "s" => case = 's',
            "e" => patterns.push(v.to_owned()),
            "f" => match ctx.read_input(v)? {
                Ok(d) => patterns.extend(crate::text::decode(&d).lines().map(str::to_owned)),
                Err(e) => return usage(ctx, &format!("{v}: {e}")),
            },
            "A" | "B" | "C" => {
                let Some(n) = num(Some(v)) else {
                    return usage(ctx, &format!("invalid value '{v}' for '-{k}'"));
                };
                if k != "A" {
                    o.before = n;
                }
                if k != "B" {
                    o.after = n;
                }
            }
            "n" => numbers = Some(true),
            "N" => numbers = Some(false),
            "column" => o.column = true,
            "H" => o.with_filename = Some(true),
            "I" => o.with_filename = Some(false),
            "u" => {
                if o.no_ignore {
                    o.hidden = true;
                }
                if o.hidden && o.no_ignore {
                    o.binary_ok = true;
                }
                o.no_ignore = true;
            }
            "g" | "iglob" => {
                let (positive, pat) = match v.strip_prefix('!') {
                    Some(p) => (false, p),
                    None => (true, v),
                };
                match GlobBuilder::new(pat).case_insensitive(k == "iglob").build() {
                    Ok(g) => o.includes.push((g.compile_matcher(), positive)),
                    Err(e) => return usage(ctx, &format!("error parsing glob '{pat}': {e}")),
                }
            }
            "t" | "T" => {
                let Some(globs) = type_globs(v) else {
                    return usage(
                        ctx,
                        &format!("error parsing -t/--type: unrecognized file type: {v}"),
                    );
                };
                for g in globs {
                    if let Ok(g) = Glob::new(g) {
                        if k == "t" {
                            o.types.push(g.compile_matcher());
                        } else {
                            o.types_not.push(g.compile_matcher());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    // `--column` turns line numbers on unless `-n`/`-N` said otherwise.
    o.line_numbers = numbers.unwrap_or(o.column);
    if parsed.has("type-list") {
        for (n, globs) in TYPES {
            writeln!(ctx.stdout, "{n}: {}", globs.join(", "))?;
        }
        return Ok(0);
    }
    let mut operands = parsed.operands.clone();
    let list_files = parsed.has("files");
    if patterns.is_empty() && !list_files {
        if operands.is_empty() {
            writeln!(
                ctx.stderr,
                "rg: ripgrep requires at least one pattern to execute a search"
            )?;
            return Ok(2);
        }
        patterns.push(operands.remove(0));
    }
    let fixed = parsed.has("F");
    let mut parts: Vec<String> = patterns
        .iter()
        .map(|p| if fixed { regex::escape(p) } else { p.clone() })
        .collect();
    if parsed.has("w") {
        parts = parts.iter().map(|p| format!(r"\b(?:{p})\b")).collect();
    }
    if parsed.has("x") {
        parts = parts.iter().map(|p| format!("^(?:{p})$")).collect();
    }
    let pattern = parts.join("|");
    let icase = match case {
        'i' => true,
        'S' => !patterns.iter().any(|p| p.chars().any(char::is_uppercase)),
        _ => false,
    };
    let re = match RegexBuilder::new(&pattern)
        .case_insensitive(icase)
        .multi_line(true)
        .size_limit(64 << 20)
        .build()
    {
        Ok(r) => r,
        Err(e) => {
            // A syntax error's text starts with its own `regex parse error:` line.
            let text = e.to_string();
            if text.starts_with("regex parse error:") {
                writeln!(ctx.stderr, "rg: {text}")?;
            } else {
                writeln!(ctx.stderr, "rg: regex parse error:\n{text}")?;
            }
            return Ok(2);
        }
    };
    let fs = ctx.fs.snapshot();
    let mut search = Search {
        o: &o,
        re,
        fs: &fs,
        out: Vec::new(),
        matched: false,
        errors: false,
        err: Vec::new(),
        printed_file: false,
    };
    // No path: piped data if there is any, else the working directory.
    let mut stdin_data = None;
    if operands.is_empty() && !list_files {
        let mut first = vec![0u8; 8192];
        let n = ctx.stdin.read(&mut first)?;
        if n > 0 {
            first.truncate(n);
            ctx.stdin.read_to_end(&mut first)?;
            stdin_data = Some(first);
        }
    }
    if let Some(data) = stdin_data {
        let name = o.with_filename.unwrap_or(false).then_some("<stdin>");
        let hit = search.search(&data, name);
        ctx.stdout.write_all(&search.out)?;
        return Ok(if hit { 0 } else { 1 });
    }
    let implicit = operands.is_empty();
    if implicit {
        operands.push(".".to_owned());
    }
    let mut files: Vec<(String, String)> = Vec::new();
    let mut multi = operands.len() > 1;
    for op in &operands {
        if op == "-" {
            // Standard input, named `<stdin>` among other files (its path is empty).
            files.push((String::new(), "<stdin>".to_owned()));
            continue;
        }
        let path = ctx.path(op);
        match fs.stat(&path) {
            Ok(m) if m.is_dir() => {
                multi = true;
                let shown = if implicit { String::new() } else { op.clone() };
                let mut ignores = Vec::new();
                if !o.no_ignore {
                    // Ignore files of enclosing directories apply too.
                    let mut anc = crate::fs::path::parent(&path).to_owned();
                    let mut chain = Vec::new();
                    while anc != "/" && !anc.is_empty() {
                        chain.push(anc.clone());
                        anc = crate::fs::path::parent(&anc).to_owned();
                    }
                    for d in chain.into_iter().rev() {
                        for name in [".gitignore", ".ignore", ".rgignore"] {
                            if name == ".gitignore" && !in_git_repo(&fs, &d) {
                                continue;
                            }
                            if let Ok(data) = fs.read_file(&crate::fs::path::join(&d, name)) {
                                ignores.push(parse_ignore(&d, &crate::text::decode(&data)));
                            }
                        }
                    }
                }
                search.walk(ctx.host, &path, &shown, 1, &mut ignores, &mut files)?;
            }
            Ok(_) => files.push((path, op.clone())),
            Err(e) => {
                writeln!(search.err, "rg: {op}: {e} (os error {})", e.errno.code())?;
                search.errors = true;
            }
        }
    }
    if list_files {
        for (_, shown) in &files {
            ctx.stdout.write_all(&crate::text::encode(shown))?;
            ctx.stdout.write_all(if o.null { b"\0" } else { b"\n" })?;
        }
        ctx.stderr.write_all(&search.err)?;
        return Ok(if search.errors {
            2
        } else if files.is_empty() {
            1
        } else {
            0
        });
    }
    let show_name = o.with_filename.unwrap_or(multi);
    for (path, shown) in &files {
        ctx.host.check()?;
        let data = if path.is_empty() {
            let mut data = Vec::new();
            ctx.stdin.read_to_end(&mut data)?;
            std::sync::Arc::new(data)
        } else {
            let Ok(data) = fs.read_file(path) else {
                continue;
            };
            data
        };
        if !o.binary_ok && data.contains(&0) {
            continue;
        }
        let name = show_name.then_some(shown.as_str());
        if search.search(&data, name) {
            search.matched = true;
            if o.quiet {
                break;
            }
        }
        ctx.stdout.write_all(&search.out)?;
        search.out.clear();
    }
    ctx.stdout.write_all(&search.out)?;
    ctx.stderr.write_all(&search.err)?;
    Ok(if search.errors && !search.matched {
        2
    } else if search.matched || (o.files_without && !search.out.is_empty()) {
        0
    } else {
        1
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[
        (".git/", ""),
        (".gitignore", "target/\n*.log\n"),
        ("src/main.rs", "fn main() {\n    println!(\"Hello\");\n}\n"),
        ("src/lib.rs", "pub fn hello() {}\n"),
        ("README.md", "# hello\nworld\n"),
        ("target/out.rs", "fn hello() {}\n"),
        ("debug.log", "hello log\n"),
        (".hidden", "hello hidden\n"),
        ("notes/.ignore", "skip.txt\n"),
        ("notes/skip.txt", "hello\n"),
        ("notes/keep.txt", "Hello there\n"),
    ];

    #[test]
    fn rg_table() {
        for (line, stdin, out, status) in [
            (
                "rg hello",
                "",
                "README.md:# hello\nsrc/lib.rs:pub fn hello() {}\n",
                0,
            ),
            (
                "rg -i hello",
                "",
                "README.md:# hello\nnotes/keep.txt:Hello there\nsrc/lib.rs:pub fn hello() {}\nsrc/main.rs:    println!(\"Hello\");\n",
                0,
            ),
            (
                "rg -S Hello",
                "",
                "notes/keep.txt:Hello there\nsrc/main.rs:    println!(\"Hello\");\n",
                0,
            ),
            ("rg -n world", "", "README.md:2:world\n", 0),
            ("rg hello src/lib.rs", "", "pub fn hello() {}\n", 0),
            ("rg -c hello", "", "README.md:1\nsrc/lib.rs:1\n", 0),
            ("rg -l -i hello src", "", "src/lib.rs\nsrc/main.rs\n", 0),
            ("rg --files src", "", "src/lib.rs\nsrc/main.rs\n", 0),
            (
                "rg --files",
                "",
                "README.md\nnotes/keep.txt\nsrc/lib.rs\nsrc/main.rs\n",
                0,
            ),
            (
                "rg --hidden -l hello",
                "",
                ".hidden\nREADME.md\nsrc/lib.rs\n",
                0,
            ),
            (
                "rg --no-ignore -l hello",
                "",
                "README.md\ndebug.log\nnotes/skip.txt\nsrc/lib.rs\ntarget/out.rs\n",
                0,
            ),
            ("rg -t rust -l fn", "", "src/lib.rs\nsrc/main.rs\n", 0),
            ("rg -g '*.md' -l hello", "", "README.md\n", 0),
            ("rg -g '!*.md' -l hello", "", "src/lib.rs\n", 0),
            (
                "rg -o -i 'h[a-z]+o'",
                "",
                "README.md:hello\nnotes/keep.txt:Hello\nsrc/lib.rs:hello\nsrc/main.rs:Hello\n",
                0,
            ),
            ("rg -w -F fn src/lib.rs", "", "pub fn hello() {}\n", 0),
            (
                "rg -v -N fn src/main.rs",
                "",
                "    println!(\"Hello\");\n}\n",
                0,
            ),
            (
                "rg -A1 main src/main.rs",
                "",
                "fn main() {\n    println!(\"Hello\");\n",
                0,
            ),
            ("rg nomatch", "", "", 1),
            ("rg x", "a\nxb\n", "xb\n", 0),
            ("rg -e a -e b", "a\nc\nb\n", "a\nb\n", 0),
        ] {
            check(FILES, line, stdin, (out, "", status));
        }
        check(
            FILES,
            "rg x nope",
            "",
            ("", "rg: nope: No such file or directory (os error 2)\n", 2),
        );
        check(
            FILES,
            "rg",
            "",
            (
                "",
                "rg: ripgrep requires at least one pattern to execute a search\n",
                2,
            ),
        );
    }
}
