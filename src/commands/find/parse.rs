//! The `find` expression grammar: `expr := or; or := and (-o and)*; and := not ([-a]
//! not)*; not := (! | -not) not | primary; primary := ( expr ) | test | action | option`,
//! with GNU's diagnostics.

use crate::commands::date::parse_date;
use crate::commands::util::apply_mode;
use crate::fs::Timestamp;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Cmp {
    Less,
    Equal,
    More,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PermKind {
    Exact,
    All,
    Any,
}

#[derive(Debug, Clone)]
pub enum Expr {
    And(Box<Expr>, Box<Expr>),
    Or(Box<Expr>, Box<Expr>),
    Not(Box<Expr>),
    /// `a , b`: evaluates both, yields b.
    Comma(Box<Expr>, Box<Expr>),
    Const(bool),
    Name(String, bool),
    /// `-lname`/`-ilname`: a symlink whose target matches.
    LinkName(String, bool),
    Path(String, bool),
    Regex(regex::Regex),
    Type(Vec<char>),
    XType(Vec<char>),
    /// mtime strictly newer than this.
    Newer(Timestamp),
    /// `-size`: comparison, count, unit bytes.
    Size(Cmp, u64, u64),
    Empty,
    Perm(PermKind, u32),
    /// `-mtime`/`-mmin` style: comparison, count, unit seconds.
    Age(Cmp, i64, i64),
    Links(Cmp, u64),
    Uid(u32),
    Gid(u32),
    Readable,
    Writable,
    Executable,
    Print,
    Print0,
    Printf(String),
    Ls,
    /// `-execdir` runs like `-exec` (commands cannot change directory here).
    Exec {
        argv: Vec<String>,
        batch: bool,
    },
    Delete,
    Prune,
    Quit,
}

impl Expr {
    /// Whether evaluating it may use file sizes (`-size`, `-empty`, `-ls`, `-printf`).
    pub fn uses_sizes(&self) -> bool {
        match self {
            Expr::And(a, b) | Expr::Or(a, b) | Expr::Comma(a, b) => {
                a.uses_sizes() || b.uses_sizes()
            }
            Expr::Not(a) => a.uses_sizes(),
            Expr::Size(..) | Expr::Empty | Expr::Ls | Expr::Printf(_) => true,
            _ => false,
        }
    }
}

/// `-help`/`--help` or `-version`/`--version`, met while parsing: find answers it and
/// exits before searching, whatever follows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Info {
    Help,
    Version,
}

/// Global settings that options in the expression set.
#[derive(Debug, Default, Clone)]
pub struct Globals {
    pub maxdepth: Option<usize>,
    pub mindepth: usize,
    pub depth_first: bool,
    pub follow: bool,
}

pub struct Parser<'a> {
    args: &'a [String],
    pos: usize,
    pub globals: Globals,
    pub has_action: bool,
    /// Set when `-help` or `-version` was reached; parsing stops there.
    pub info: Option<Info>,
    now: Timestamp,
    zone: &'a crate::timefmt::Zone,
    lookup: &'a dyn Fn(&str) -> Result<crate::fs::Metadata, String>,
}

fn cmp_num(s: &str) -> Option<(Cmp, &str)> {
    if let Some(r) = s.strip_prefix('+') {
        Some((Cmp::More, r))
    } else if let Some(r) = s.strip_prefix('-') {
        Some((Cmp::Less, r))
    } else {
        Some((Cmp::Equal, s))
    }
}

impl<'a> Parser<'a> {
    pub fn new(
        args: &'a [String],
        now: Timestamp,
        zone: &'a crate::timefmt::Zone,
        lookup: &'a dyn Fn(&str) -> Result<crate::fs::Metadata, String>,
    ) -> Parser<'a> {
        Parser {
            args,
            pos: 0,
            globals: Globals::default(),
            has_action: false,
            info: None,
            now,
            zone,
            lookup,
        }
    }

    fn peek(&self) -> Option<&'a str> {
        self.args.get(self.pos).map(String::as_str)
    }

    fn next_arg(&mut self, pred: &str) -> Result<&'a str, String> {
        match self.args.get(self.pos) {
            Some(a) => {
                self.pos += 1;
                Ok(a)
            }
            None => Err(format!("missing argument to `{pred}'")),
        }
    }

    /// Parses the whole expression; `Ok(None)` when there is none.
    pub fn parse(&mut self) -> Result<Option<Expr>, String> {
        if self.peek().is_none() {
            return Ok(None);
        }
        let e = self.comma()?;
        if let Some(tok) = self.peek() {
            return Err(if tok == ")" {
                "invalid expression; you have too many ')'".to_owned()
            } else {
                format!("paths must precede expression: `{tok}'")
            });
        }
        Ok(Some(e))
    }

    fn comma(&mut self) -> Result<Expr, String> {
        let mut left = self.or()?;
        while self.peek() == Some(",") {
            self.pos += 1;
            let right = self.or()?;
            left = Expr::Comma(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn or(&mut self) -> Result<Expr, String> {
        let mut left = self.and()?;
        while matches!(self.peek(), Some("-o" | "-or")) {
            let op = self.peek().unwrap_or("-o");
            self.pos += 1;
            if matches!(
                self.peek(),
                None | Some(")" | "-o" | "-or" | "-a" | "-and" | ",")
            ) {
                return Err(format!(
                    "invalid expression; you have used a binary operator '{op}' with nothing after it."
                ));
            }
            let right = self.and()?;
            left = Expr::Or(Box::new(left), Box::new(right));
        }
        Ok(left)
    }

    fn and(&mut self) -> Result<Expr, String> {
        let mut left = self.not()?;
        loop {
            match self.peek() {
                Some("-a" | "-and") => {
                    self.pos += 1;
                    if matches!(
                        self.peek(),
                        None | Some(")" | "-o" | "-or" | "-a" | "-and" | ",")
                    ) {
                        return Err(
                            "invalid expression; you have used a binary operator '-a' with nothing after it."
                                .to_owned(),
                        );
                    }
                }
                None | Some(")" | "-o" | "-or" | ",") => return Ok(left),
                Some(_) => {}
            }
            let right = self.not()?;
            left = Expr::And(Box::new(left), Box::new(right));
        }
    }

    fn not(&mut self) -> Result<Expr, String> {
        match self.peek() {
            Some("!" | "-not") => {
                self.pos += 1;
                if self.peek().is_none() {
                    return Err(
                        "invalid expression; you have used a binary operator '!' with nothing after it."
                            .to_owned(),
                    );
                }
                Ok(Expr::Not(Box::new(self.not()?)))
            }
            _ => self.primary(),
        }
    }

    fn primary(&mut self) -> Result<Expr, String> {
        let Some(tok) = self.peek() else {
            return Err("invalid expression".to_owned());
        };
        self.pos += 1;
        match tok {
            "(" => {
                if self.peek() == Some(")") {
                    return Err("invalid expression; empty parentheses are not allowed.".to_owned());
                }
                let e = self.comma()?;
                if self.peek() != Some(")") {
                    return Err("invalid expression; I was expecting to find a ')' somewhere but did not see one.".to_owned());
                }
                self.pos += 1;
                Ok(e)
            }
            ")" => Err("invalid expression; you have too many ')'".to_owned()),
            "-o" | "-or" | "-a" | "-and" | "," => Err(format!(
                "invalid expression; you have used a binary operator '{tok}' with nothing before it."
            )),
            _ => self.predicate(tok),
        }
    }

    fn predicate(&mut self, tok: &str) -> Result<Expr, String> {
        let expr = match tok {
            "-true" => Expr::Const(true),
            "-false" => Expr::Const(false),
            "-name" | "-iname" => {
                let pat = self.next_arg(tok)?;
                Expr::Name(pat.to_owned(), tok == "-iname")
            }
            "-lname" | "-ilname" => {
                let pat = self.next_arg(tok)?;
                Expr::LinkName(pat.to_owned(), tok == "-ilname")
            }
            "-path" | "-ipath" | "-wholename" | "-iwholename" => {
                let pat = self.next_arg(tok)?;
                Expr::Path(pat.to_owned(), tok.starts_with("-i"))
            }
            "-regex" | "-iregex" => {
                let pat = self.next_arg(tok)?;
                let translated = crate::commands::grep::regex::translate(pat, true)
                    .map_err(|e| format!("invalid regular expression {pat}: {e}"))?;
                let re = regex::RegexBuilder::new(&format!("^(?:{translated})$"))
                    .case_insensitive(tok == "-iregex")
                    .build()
                    .map_err(|e| format!("invalid regular expression {pat}: {e}"))?;
                Expr::Regex(re)
            }
            "-regextype" => {
                self.next_arg(tok)?;
                Expr::Const(true)
            }
            "-type" | "-xtype" => {
                let arg = self.next_arg(tok)?;
                let mut kinds = Vec::new();
                for part in arg.split(',') {
                    let mut cs = part.chars();
                    match (cs.next(), cs.next()) {
                        (Some(c @ ('f' | 'd' | 'l' | 'c' | 'b' | 'p' | 's' | 'D')), None) => {
                            kinds.push(c)
                        }
                        _ => return Err(format!("Unknown argument to {tok}: {arg}")),
                    }
                }
                if tok == "-type" {
                    Expr::Type(kinds)
                } else {
                    Expr::XType(kinds)
                }
            }
            "-maxdepth" | "-mindepth" => {
                let arg = self.next_arg(tok)?;
                let n: usize = arg
                    .parse()
                    .ok()
                    .filter(|_| !arg.starts_with('+') && !arg.starts_with('-'))
                    .ok_or_else(|| {
                        format!(
                            "Expected a positive decimal integer argument to {tok}, but got '{arg}'"
                        )
                    })?;
                if tok == "-maxdepth" {
                    self.globals.maxdepth = Some(n);
                } else {
                    self.globals.mindepth = n;
                }
                Expr::Const(true)
            }
            "-depth" | "-d" => {
                self.globals.depth_first = true;
                Expr::Const(true)
            }
            "-follow" => {
                self.globals.follow = true;
                Expr::Const(true)
            }
            "-xdev"
            | "-mount"
            | "-noleaf"
            | "-ignore_readdir_race"
            | "-noignore_readdir_race"
            | "-nowarn"
            | "-warn" => Expr::Const(true),
            "-newer" | "-anewer" | "-cnewer" => {
                let f = self.next_arg(tok)?;
                let m = (self.lookup)(f)?;
                Expr::Newer(m.mtime)
            }
            "-newermt" => {
                let d = self.next_arg(tok)?;
                let t = parse_date(d, self.now, self.zone).ok_or_else(|| {
                    format!("I cannot figure out how to interpret '{d}' as a date or time")
                })?;
                Expr::Newer(t)
            }
            "-size" => {
                let arg = self.next_arg(tok)?;
                let bad = || format!("invalid -size argument: {arg}");
                let (cmp, rest) = cmp_num(arg).ok_or_else(bad)?;
                let (digits, unit) = match rest.char_indices().find(|(_, c)| !c.is_ascii_digit()) {
                    Some((i, _)) => rest.split_at(i),
                    None => (rest, ""),
                };
                let n: u64 = digits.parse().map_err(|_| bad())?;
                let unit = match unit {
                    "" | "b" => 512,
                    "c" => 1,
                    "w" => 2,
                    "k" => 1024,
                    "M" => 1 << 20,
                    "G" => 1 << 30,
                    _ => return Err(bad()),
                };
                Expr::Size(cmp, n, unit)
            }
            "-empty" => Expr::Empty,
            "-perm" => {
                let arg = self.next_arg(tok)?;
                let (kind, spec) = if let Some(r) = arg.strip_prefix('-') {
                    (PermKind::All, r)
                } else if let Some(r) = arg.strip_prefix('/') {
                    (PermKind::Any, r)
                } else {
                    (PermKind::Exact, arg)
                };
                let mode =
                    apply_mode(spec, 0, false, 0).ok_or_else(|| format!("invalid mode '{arg}'"))?;
                Expr::Perm(kind, mode)
            }
            "-mtime" | "-mmin" | "-atime" | "-amin" | "-ctime" | "-cmin" => {
                let arg = self.next_arg(tok)?;
                let (cmp, rest) =
                    cmp_num(arg).ok_or_else(|| format!("invalid argument `{arg}' to `{tok}'"))?;
                let n: i64 = rest
                    .parse()
                    .map_err(|_| format!("invalid argument `{arg}' to `{tok}'"))?;
                let unit = if tok.ends_with("min") { 60 } else { 86_400 };
                Expr::Age(cmp, n, unit)
            }
            "-links" => {
                let arg = self.next_arg(tok)?;
                let (cmp, rest) =
                    cmp_num(arg).ok_or_else(|| format!("invalid argument `{arg}' to `{tok}'"))?;
                let n = rest
                    .parse()
                    .map_err(|_| format!("invalid argument `{arg}' to `{tok}'"))?;
                Expr::Links(cmp, n)
            }
            "-user" | "-uid" | "-group" | "-gid" => {
                let arg = self.next_arg(tok)?;
                let id = match arg {
                    "root" => 0,
                    "user" => 1000,
                    n => n.parse().map_err(|_| {
                        if tok.starts_with("-g") {
                            format!("'{arg}' is not the name of an existing group")
                        } else {
                            format!("'{arg}' is not the name of a known user")
                        }
                    })?,
                };
                if tok.contains('u') {
                    Expr::Uid(id)
                } else {
                    Expr::Gid(id)
                }
            }
            "-readable" => Expr::Readable,
            "-writable" => Expr::Writable,
            "-executable" => Expr::Executable,
            "-print" => {
                self.has_action = true;
                Expr::Print
            }
            "-print0" => {
                self.has_action = true;
                Expr::Print0
            }
            "-printf" => {
                self.has_action = true;
                Expr::Printf(self.next_arg(tok)?.to_owned())
            }
            "-ls" => {
                self.has_action = true;
                Expr::Ls
            }
            "-exec" | "-execdir" | "-ok" | "-okdir" => {
                self.has_action = true;
                let mut argv = Vec::new();
                loop {
                    let Some(a) = self.args.get(self.pos) else {
                        return Err(format!("missing argument to `{tok}'"));
                    };
                    self.pos += 1;
                    if a == ";" {
                        break;
                    }
                    if a == "+" && argv.last().is_some_and(|l: &String| l == "{}") {
                        argv.pop();
                        if argv.is_empty() {
                            return Err(format!("missing argument to `{tok}'"));
                        }
                        return Ok(Expr::Exec { argv, batch: true });
                    }
                    argv.push(a.clone());
                }
                if argv.is_empty() {
                    return Err(format!("missing argument to `{tok}'"));
                }
                Expr::Exec { argv, batch: false }
            }
            "-delete" => {
                self.has_action = true;
                self.globals.depth_first = true;
                Expr::Delete
            }
            "-help" | "--help" | "-version" | "--version" => {
                self.info = Some(if tok.ends_with("help") {
                    Info::Help
                } else {
                    Info::Version
                });
                // GNU find acts on it at once: nothing after it is parsed.
                self.pos = self.args.len();
                Expr::Const(true)
            }
            "-prune" => Expr::Prune,
            "-quit" => Expr::Quit,
            other if other.starts_with('-') && other.len() > 1 => {
                return Err(format!("unknown predicate `{other}'"));
            }
            other => return Err(format!("paths must precede expression: `{other}'")),
        };
        Ok(expr)
    }
}
