//! Parsing of sed scripts into a flat command list (blocks become jumps), with GNU
//! sed's error messages (`-e expression #N, char M: ...`).

use std::rc::Rc;

use super::regex::Rx;

/// A first address.
#[derive(Clone)]
pub enum Addr {
    Line(u64),
    Last,
    /// `None` is the empty regex: the last one used.
    Re(Option<Rc<Rx>>),
    Step(u64, u64),
    /// `0` in `0,/re/`.
    Zero,
}

/// A second address.
#[derive(Clone)]
pub enum Addr2 {
    Line(u64),
    Last,
    Re(Option<Rc<Rx>>),
    Plus(u64),
    Tilde(u64),
}

/// One piece of an `s` replacement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Repl {
    Lit(Vec<u8>),
    /// `&` is group 0.
    Group(usize),
    Lower,
    Upper,
    LowerOne,
    UpperOne,
    EndCase,
}

pub struct Subst {
    pub re: Option<Rc<Rx>>,
    pub repl: Vec<Repl>,
    pub global: bool,
    pub nth: usize,
    pub print: usize,
    pub write: Option<String>,
}

pub enum Kind {
    /// `{`: index of the command after the matching `}`.
    Block(usize),
    EndBlock,
    LineNo,
    Delete,
    DeleteFirst,
    GetHold,
    GetHoldAppend,
    Hold,
    HoldAppend,
    List(Option<usize>),
    Next,
    NextAppend,
    Print,
    PrintFirst,
    Exchange,
    Zap,
    FileName,
    Quit {
        code: i32,
        print: bool,
    },
    Append(Vec<u8>),
    Insert(Vec<u8>),
    Change(Vec<u8>),
    /// b, t or T; target index (`None` = end of script).
    Branch(char, Option<usize>),
    Label,
    ReadFile(String),
    ReadLine(String),
    Write(String),
    WriteFirst(String),
    Subst(Box<Subst>),
    Translit(Vec<(char, char)>),
}

pub struct Cmd {
    pub a1: Option<Addr>,
    pub a2: Option<Addr2>,
    pub negate: bool,
    pub kind: Kind,
}

/// A script made of `-e` pieces and `-f` files, for error positions.
pub struct Piece {
    pub text: String,
    /// `None` for `-e`, else the file name.
    pub file: Option<String>,
}

struct P<'a> {
    cs: Vec<char>,
    i: usize,
    /// Start offset of each piece in `cs`.
    starts: Vec<usize>,
    pieces: &'a [Piece],
    ere: bool,
    /// Labels and pending branches by name.
    labels: Vec<(String, usize)>,
    branches: Vec<(usize, String)>,
    blocks: Vec<usize>,
    cmds: Vec<Cmd>,
    /// Files `w` writes to, in order of appearance.
    pub wfiles: Vec<String>,
}

pub struct Script {
    pub cmds: Vec<Cmd>,
    pub wfiles: Vec<String>,
    /// `#n` on the first line.
    pub quiet: bool,
}

impl P<'_> {
    fn peek(&self) -> Option<char> {
        self.cs.get(self.i).copied()
    }
    fn next(&mut self) -> Option<char> {
        let c = self.peek();
        if c.is_some() {
            self.i += 1;
        }
        c
    }

    /// GNU's `-e expression #N, char M: msg` (or `file F line L: msg`).
    fn err(&self, msg: impl std::fmt::Display) -> String {
        self.err_at(self.i, msg)
    }

    fn err_at(&self, at: usize, msg: impl std::fmt::Display) -> String {
        let k = self.starts.iter().rposition(|&s| s <= at).unwrap_or(0);
        let start = self.starts.get(k).copied().unwrap_or(0);
        match self.pieces.get(k).and_then(|p| p.file.as_ref()) {
            Some(f) => {
                let line = self
                    .cs
                    .get(start..at.min(self.cs.len()))
                    .unwrap_or(&[])
                    .iter()
                    .filter(|&&c| c == '\n')
                    .count()
                    + 1;
                format!("file {f} line {line}: {msg}")
            }
            None => {
                let expr = self
                    .pieces
                    .iter()
                    .take(k + 1)
                    .filter(|p| p.file.is_none())
                    .count();
                format!("-e expression #{expr}, char {}: {msg}", at - start)
            }
        }
    }

    fn skip_ws(&mut self) {
        while self.peek().is_some_and(|c| c == ' ' || c == '\t') {
            self.i += 1;
        }
    }

    fn number(&mut self) -> Option<u64> {
        let start = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        if start == self.i {
            return None;
        }
        let s: String = self.cs.get(start..self.i).unwrap_or(&[]).iter().collect();
        Some(s.parse().unwrap_or(u64::MAX))
    }

    /// Text up to an unescaped `delim`; `\delim` becomes `delim` (kept escaped when the
    /// delimiter is itself special to regexes, so it stays literal), `\n` stays.
    fn delimited(&mut self, delim: char, regex: bool) -> Option<String> {
        let mut out = String::new();
        loop {
            let c = self.next()?;
            if c == delim {
                return Some(out);
            }
            if c == '\\' {
                let e = self.next()?;
                if e == delim {
                    out.push(delim);
                } else if e == '\n' {
                    if regex {
                        out.push_str("\\n");
                    } else {
                        out.push('\\');
                        out.push('\n');
                    }
                } else {
                    out.push('\\');
                    out.push(e);
                }
                continue;
            }
            if c == '\n' && regex {
                return None;
            }
            out.push(c);
        }
    }

    fn regex(&mut self, src: &str, flags: &str) -> Result<Option<Rc<Rx>>, String> {
        if src.is_empty() {
            return Ok(None);
        }
        let icase = flags.contains('I') || flags.contains('i');
        let multi = flags.contains('M') || flags.contains('m');
        Rx::new(src, self.ere, icase, multi)
            .map(|r| Some(Rc::new(r)))
            .map_err(|e| self.err(e))
    }

    fn address(&mut self) -> Result<Option<Addr>, String> {
        match self.peek() {
            Some(c) if c.is_ascii_digit() => {
                let n = self.number().unwrap_or(0);
                if self.peek() == Some('~') {
                    self.i += 1;
                    let step = self.number().unwrap_or(0);
                    return Ok(Some(Addr::Step(n, step)));
                }
                Ok(Some(if n == 0 { Addr::Zero } else { Addr::Line(n) }))
            }
            Some('$') => {
                self.i += 1;
                Ok(Some(Addr::Last))
            }
            Some('/') | Some('\\') => {
                let delim = if self.next() == Some('\\') {
                    self.next().ok_or_else(|| self.err("unexpected `,'"))?
                } else {
                    '/'
                };
                let src = self
                    .delimited(delim, true)
                    .ok_or_else(|| self.err("unterminated address regex"))?;
                let mut flags = String::new();
                while let Some(f @ ('I' | 'M')) = self.peek() {
                    flags.push(f);
                    self.i += 1;
                }
                Ok(Some(Addr::Re(self.regex(&src, &flags)?)))
            }
            _ => Ok(None),
        }
    }

    fn address2(&mut self) -> Result<Addr2, String> {
        self.skip_ws();
        match self.peek() {
            Some('+') | Some('~') => {
                let c = self.next();
                let n = self
                    .number()
                    .ok_or_else(|| self.err("expected newer version of sed"))?;
                Ok(if c == Some('+') {
                    Addr2::Plus(n)
                } else {
                    Addr2::Tilde(n)
                })
            }
            _ => match self.address()? {
                Some(Addr::Line(n)) => Ok(Addr2::Line(n)),
                Some(Addr::Zero) => Err(self.err("invalid usage of line address 0")),
                Some(Addr::Last) => Ok(Addr2::Last),
                Some(Addr::Re(r)) => Ok(Addr2::Re(r)),
                Some(Addr::Step(n, _)) => Ok(Addr2::Line(n)),
                None => Err(self.err("unexpected `,'")),
            },
        }
    }

    /// After a command: spaces, then `;`, newline, `#`, `}` or the end.
    fn end_of_cmd(&mut self) -> Result<(), String> {
        self.skip_ws();
        match self.peek() {
            None => Ok(()),
            Some('\n') | Some(';') => {
                self.i += 1;
                Ok(())
            }
            Some('}') | Some('#') => Ok(()),
            Some(_) => {
                self.i += 1;
                Err(self.err("extra characters after command"))
            }
        }
    }

    /// The rest of the line (for file names and labels).
    fn rest_of_line(&mut self) -> String {
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' {
                self.i += 1;
                break;
            }
            s.push(c);
            self.i += 1;
        }
        s
    }

    fn label(&mut self) -> String {
        self.skip_ws();
        let mut s = String::new();
        while let Some(c) = self.peek() {
            if c == '\n' || c == ';' {
                break;
            }
            s.push(c);
            self.i += 1;
        }
        s.trim_end().to_owned()
    }

    /// Text of `a`, `i` and `c` (GNU one-line and classic forms).
    fn text(&mut self, cmd: char) -> Result<Vec<u8>, String> {
        self.skip_ws();
        let mut classic = false;
        if self.peek() == Some('\\') {
            self.i += 1;
            classic = true;
            if self.peek() == Some('\n') {
                self.i += 1;
            }
        } else if self.peek().is_none() || self.peek() == Some('\n') {
            let _ = cmd;
            return Err(self.err("expected \\ after `a', `c' or `i'"));
        }
        let _ = classic;
        let mut out = String::new();
        while let Some(c) = self.next() {
            match c {
                '\n' => break,
                '\\' => match self.next() {
                    None => break,
                    Some('t') => out.push('\t'),
                    Some('n') => out.push('\n'),
                    Some('a') => out.push('\x07'),
                    Some('f') => out.push('\x0c'),
                    Some('v') => out.push('\x0b'),
                    Some('r') => out.push('\r'),
                    Some(o) => out.push(o),
                },
                o => out.push(o),
            }
        }
        out.push('\n');
        Ok(crate::text::encode(&out))
    }

    fn replacement(&mut self, src: &str) -> Vec<Repl> {
        let cs: Vec<char> = src.chars().collect();
        let mut out = Vec::new();
        let mut lit = String::new();
        let flush = |lit: &mut String, out: &mut Vec<Repl>| {
            if !lit.is_empty() {
                out.push(Repl::Lit(crate::text::encode(lit)));
                lit.clear();
            }
        };
        let mut i = 0;
        while let Some(&c) = cs.get(i) {
            i += 1;
            if c == '&' {
                flush(&mut lit, &mut out);
                out.push(Repl::Group(0));
                continue;
            }
            if c != '\\' {
                lit.push(c);
                continue;
            }
            let Some(&e) = cs.get(i) else {
                lit.push('\\');
                break;
            };
            i += 1;
            let special = match e {
                '0'..='9' => Some(Repl::Group(e.to_digit(10).unwrap_or(0) as usize)),
                'L' => Some(Repl::Lower),
                'U' => Some(Repl::Upper),
                'l' => Some(Repl::LowerOne),
                'u' => Some(Repl::UpperOne),
                'E' => Some(Repl::EndCase),
                _ => None,
            };
            if let Some(s) = special {
                flush(&mut lit, &mut out);
                out.push(s);
                continue;
            }
            match e {
                'n' => lit.push('\n'),
                't' => lit.push('\t'),
                'a' => lit.push('\x07'),
                'f' => lit.push('\x0c'),
                'v' => lit.push('\x0b'),
                'r' => lit.push('\r'),
                'c' => {
                    if let Some(&x) = cs.get(i) {
                        i += 1;
                        lit.push(char::from((x.to_ascii_uppercase() as u8) ^ 0x40));
                    }
                }
                'o' | 'd' | 'x' => {
                    let (radix, max) = match e {
                        'o' => (8, 3),
                        'd' => (10, 3),
                        _ => (16, 2),
                    };
                    let mut v: u32 = 0;
                    let mut n = 0;
                    while n < max {
                        match cs.get(i).and_then(|d| d.to_digit(radix)) {
                            Some(d) => {
                                v = v * radix + d;
                                i += 1;
                                n += 1;
                            }
                            None => break,
                        }
                    }
                    if n == 0 {
                        lit.push(e);
                    } else {
                        lit.push(crate::text::raw_char((v & 0xff) as u8));
                    }
                }
                o => lit.push(o),
            }
        }
        flush(&mut lit, &mut out);
        out
    }

    fn command(&mut self) -> Result<bool, String> {
        // Skip separators and comments.
        loop {
            match self.peek() {
                Some(' ' | '\t' | '\n' | ';') => self.i += 1,
                Some('#') => {
                    self.rest_of_line();
                }
                _ => break,
            }
        }
        if self.peek().is_none() {
            return Ok(false);
        }
        let a1 = self.address()?;
        let mut a2 = None;
        if a1.is_some() {
            self.skip_ws();
            if self.peek() == Some(',') {
                self.i += 1;
                a2 = Some(self.address2()?);
            }
        }
        if matches!(a1, Some(Addr::Zero)) && !matches!(a2, Some(Addr2::Re(_))) {
            return Err(self.err("invalid usage of line address 0"));
        }
        self.skip_ws();
        let mut negate = false;
        while self.peek() == Some('!') {
            self.i += 1;
            negate = true;
            self.skip_ws();
        }
        let Some(c) = self.next() else {
            return Err(self.err("missing command"));
        };
        let has_addr = a1.is_some();
        let kind = match c {
            '{' => {
                self.blocks.push(self.cmds.len());
                Kind::Block(0)
            }
            '}' => {
                if has_addr {
                    return Err(self.err("} doesn't want any addresses"));
                }
                let Some(open) = self.blocks.pop() else {
                    return Err(self.err("unexpected `}'"));
                };
                let after = self.cmds.len() + 1;
                if let Some(cmd) = self.cmds.get_mut(open) {
                    cmd.kind = Kind::Block(after);
                }
                self.end_of_cmd()?;
                Kind::EndBlock
            }
            '=' => self.simple(Kind::LineNo)?,
            'd' => self.simple(Kind::Delete)?,
            'D' => self.simple(Kind::DeleteFirst)?,
            'g' => self.simple(Kind::GetHold)?,
            'G' => self.simple(Kind::GetHoldAppend)?,
            'h' => self.simple(Kind::Hold)?,
            'H' => self.simple(Kind::HoldAppend)?,
            'n' => self.simple(Kind::Next)?,
            'N' => self.simple(Kind::NextAppend)?,
            'p' => self.simple(Kind::Print)?,
            'P' => self.simple(Kind::PrintFirst)?,
            'x' => self.simple(Kind::Exchange)?,
            'z' => self.simple(Kind::Zap)?,
            'F' => self.simple(Kind::FileName)?,
            'l' | 'q' | 'Q' | 'L' => {
                self.skip_ws();
                let n = self.number();
                self.end_of_cmd()?;
                match c {
                    'l' => Kind::List(n.map(|n| n as usize)),
                    'L' => Kind::List(None),
                    _ => Kind::Quit {
                        code: n.map_or(0, |n| (n & 0xff) as i32),
                        print: c == 'q',
                    },
                }
            }
            'a' => Kind::Append(self.text(c)?),
            'i' => Kind::Insert(self.text(c)?),
            'c' => Kind::Change(self.text(c)?),
            ':' => {
                if has_addr {
                    return Err(self.err(": doesn't want any addresses"));
                }
                let l = self.label();
                if l.is_empty() {
                    return Err(self.err("\":\" lacks a label"));
                }
                if self.peek() == Some(';') || self.peek() == Some('\n') {
                    self.i += 1;
                }
                self.labels.push((l, self.cmds.len()));
                Kind::Label
            }
            'b' | 't' | 'T' => {
                let l = self.label();
                if self.peek() == Some(';') || self.peek() == Some('\n') {
                    self.i += 1;
                }
                if !l.is_empty() {
                    self.branches.push((self.cmds.len(), l));
                }
                Kind::Branch(c, None)
            }
            'r' | 'R' | 'w' | 'W' => {
                self.skip_ws();
                let f = self.rest_of_line();
                if f.is_empty() {
                    return Err(self.err("missing filename in r/R/w/W commands"));
                }
                match c {
                    'r' => Kind::ReadFile(f),
                    'R' => Kind::ReadLine(f),
                    'w' => {
                        self.wfiles.push(f.clone());
                        Kind::Write(f)
                    }
                    _ => {
                        self.wfiles.push(f.clone());
                        Kind::WriteFirst(f)
                    }
                }
            }
            's' => self.subst()?,
            'y' => self.translit()?,
            'e' => return Err(self.err("the `e' command is not supported")),
            'v' => {
                self.label();
                self.end_of_cmd()?;
                Kind::Label
            }
            other => return Err(self.err(format!("unknown command: `{other}'"))),
        };
        self.cmds.push(Cmd {
            a1,
            a2,
            negate,
            kind,
        });
        Ok(true)
    }

    fn simple(&mut self, k: Kind) -> Result<Kind, String> {
        self.end_of_cmd()?;
        Ok(k)
    }

    fn subst(&mut self) -> Result<Kind, String> {
        let Some(delim) = self.next().filter(|&d| d != '\n' && d != '\\') else {
            return Err(self.err("unterminated `s' command"));
        };
        let unterminated = |p: &Self| p.err("unterminated `s' command");
        let src = self
            .delimited(delim, true)
            .ok_or_else(|| unterminated(self))?;
        let rsrc = self
            .delimited(delim, false)
            .ok_or_else(|| unterminated(self))?;
        let mut s = Subst {
            re: None,
            repl: Vec::new(),
            global: false,
            nth: 1,
            print: 0,
            write: None,
        };
        let mut flags = String::new();
        let mut nth_seen = false;
        loop {
            match self.peek() {
                Some('g') => s.global = true,
                Some('p') => s.print += 1,
                Some(f @ ('i' | 'I' | 'm' | 'M')) => flags.push(f),
                Some('e') => return Err(self.err("the `e' flag is not supported")),
                Some(d) if d.is_ascii_digit() => {
                    let n = self.number().unwrap_or(0);
                    if n == 0 {
                        return Err(self.err("number option to `s' command may not be zero"));
                    }
                    if nth_seen {
                        return Err(self.err("multiple number options to `s' command"));
                    }
                    nth_seen = true;
                    s.nth = usize::try_from(n).unwrap_or(usize::MAX);
                    continue;
                }
                Some('w') => {
                    self.i += 1;
                    self.skip_ws();
                    let f = self.rest_of_line();
                    self.wfiles.push(f.clone());
                    s.write = Some(f);
                    break;
                }
                _ => {
                    self.end_of_cmd()
                        .map_err(|_| self.err("unknown option to `s'"))?;
                    break;
                }
            }
            self.i += 1;
        }
        s.re = self.regex(&src, &flags)?;
        s.repl = self.replacement(&rsrc);
        if let Some(re) = &s.re {
            let groups = re.groups();
            for r in &s.repl {
                if let Repl::Group(k) = r
                    && *k > groups
                {
                    return Err(self.err(format!("invalid reference \\{k} on `s' command's RHS")));
                }
            }
        }
        Ok(Kind::Subst(Box::new(s)))
    }

    fn translit(&mut self) -> Result<Kind, String> {
        let Some(delim) = self.next().filter(|&d| d != '\n' && d != '\\') else {
            return Err(self.err("unterminated `y' command"));
        };
        let unterminated = |p: &Self| p.err("unterminated `y' command");
        let a = self
            .delimited(delim, false)
            .ok_or_else(|| unterminated(self))?;
        let b = self
            .delimited(delim, false)
            .ok_or_else(|| unterminated(self))?;
        let unescape = |s: &str| -> Vec<char> {
            let mut out = Vec::new();
            let mut it = s.chars();
            while let Some(c) = it.next() {
                if c == '\\' {
                    match it.next() {
                        Some('n') => out.push('\n'),
                        Some('t') => out.push('\t'),
                        Some('\\') => out.push('\\'),
                        Some(o) => {
                            out.push('\\');
                            out.push(o);
                        }
                        None => out.push('\\'),
                    }
                } else {
                    out.push(c);
                }
            }
            out
        };
        let (a, b) = (unescape(&a), unescape(&b));
        if a.len() != b.len() {
            return Err(self.err("strings for `y' command are different lengths"));
        }
        self.end_of_cmd()?;
        Ok(Kind::Translit(a.into_iter().zip(b).collect()))
    }
}

/// Parses the pieces of a script (joined by newlines).
pub fn parse(pieces: &[Piece], ere: bool) -> Result<Script, String> {
    let mut cs = Vec::new();
    let mut starts = Vec::new();
    for (k, p) in pieces.iter().enumerate() {
        if k > 0 {
            cs.push('\n');
        }
        starts.push(cs.len());
        cs.extend(p.text.chars());
    }
    let quiet = pieces.first().is_some_and(|p| {
        let t = &p.text;
        t.starts_with("#n") && (t.len() == 2 || t[2..].starts_with('\n'))
    });
    let mut p = P {
        cs,
        i: 0,
        starts,
        pieces,
        ere,
        labels: Vec::new(),
        branches: Vec::new(),
        blocks: Vec::new(),
        cmds: Vec::new(),
        wfiles: Vec::new(),
    };
    while p.command()? {}
    if !p.blocks.is_empty() {
        return Err(p.err_at(0, "unmatched `{'"));
    }
    for (at, name) in std::mem::take(&mut p.branches) {
        let Some(&(_, target)) = p.labels.iter().find(|(l, _)| *l == name) else {
            return Err(format!("can't find label for jump to `{name}'"));
        };
        if let Some(cmd) = p.cmds.get_mut(at) {
            cmd.kind = Kind::Branch(
                match cmd.kind {
                    Kind::Branch(c, _) => c,
                    _ => 'b',
                },
                Some(target),
            );
        }
    }
    Ok(Script {
        cmds: p.cmds,
        wfiles: p.wfiles,
        quiet,
    })
}
