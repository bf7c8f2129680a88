//! `fmt` (GNU coreutils): refills paragraphs to a width (`-w`, `-WIDTH`, default 75)
//! aiming at a goal width (`-g`, default 93%), choosing line breaks that minimise GNU's
//! cost function (raggedness, sentence ends, widows and orphans), with `-s` (split
//! only), `-u` (uniform spacing), `-c`/`-t` (crown and tagged indents) and `-p`
//! (prefix). Columns count bytes, as GNU's do.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::quote;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("crown-margin", HasArg::No, "c"),
    long("prefix", HasArg::Required, "p"),
    long("split-only", HasArg::No, "s"),
    long("tagged-paragraph", HasArg::No, "t"),
    long("uniform-spacing", HasArg::No, "u"),
    long("width", HasArg::Required, "w"),
    long("goal", HasArg::Required, "g"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: fmt [-WIDTH] [OPTION]... [FILE]...
Reformat each paragraph in the FILE(s), writing to standard output.
The option -WIDTH is an abbreviated form of --width=DIGITS.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -c, --crown-margin        preserve indentation of first two lines
  -p, --prefix=STRING       reformat only lines beginning with STRING,
                              reattaching the prefix to reformatted lines
  -s, --split-only          split long lines, but do not refill
  -t, --tagged-paragraph    indentation of first line different from second
  -u, --uniform-spacing     one space between words, two after sentences
  -w, --width=WIDTH         maximum line width (default of 75 columns)
  -g, --goal=WIDTH          goal width (default of 93% of width)
      --help        display this help and exit
      --version     output version information and exit
";

const WIDTH: i64 = 75;
const LEEWAY: i64 = 7;
const DEF_INDENT: i64 = 3;
const MAXWORDS: usize = 1000;
const MAXCHARS: usize = 5000;
const TABWIDTH: i64 = 8;
const EOF: i32 = -1;

type Cost = i64;
const MAXCOST: Cost = Cost::MAX;

const fn equiv(n: i64) -> Cost {
    n * n
}
const fn short_cost(n: i64) -> Cost {
    equiv(n * 10)
}
const fn ragged_cost(n: i64) -> Cost {
    short_cost(n) / 2
}
const LINE_COST: Cost = equiv(70);
const fn widow_cost(n: i64) -> Cost {
    equiv(200) / (n + 2)
}
const fn orphan_cost(n: i64) -> Cost {
    equiv(150) / (n + 2)
}
const SENTENCE_BONUS: Cost = equiv(50);
const NOBREAK_COST: Cost = equiv(600);
const PAREN_BONUS: Cost = equiv(40);
const PUNCT_BONUS: Cost = equiv(40);
const LINE_CREDIT: Cost = equiv(3);

/// A word of the paragraph being filled: where its text is in the buffer, what follows
/// it, and the best break found for the rest of the paragraph from here.
#[derive(Clone, Copy, Default)]
struct Word {
    start: usize,
    length: i64,
    space: i64,
    paren: bool,
    period: bool,
    punct: bool,
    final_: bool,
    line_length: i64,
    best_cost: Cost,
    next_break: usize,
}

/// C's `isspace` in the C locale.
fn is_space(c: i32) -> bool {
    matches!(c, 0x20 | 0x09..=0x0d)
}

struct Fmt {
    crown: bool,
    tagged: bool,
    split: bool,
    uniform: bool,
    prefix: Vec<u8>,
    prefix_full_length: i64,
    prefix_lead_space: i64,
    prefix_length: i64,
    max_width: i64,
    goal_width: i64,

    input: std::sync::Arc<Vec<u8>>,
    pos: usize,
    in_column: i64,
    out_column: i64,
    parabuf: Vec<u8>,
    words: Vec<Word>,
    word_limit: usize,
    tabs: bool,
    prefix_indent: i64,
    first_indent: i64,
    other_indent: i64,
    next_char: i32,
    next_prefix_indent: i64,
    last_line_length: i64,
    out: Vec<u8>,
}

impl Fmt {
    fn getc(&mut self) -> i32 {
        match self.input.get(self.pos) {
            Some(&b) => {
                self.pos += 1;
                i32::from(b)
            }
            None => EOF,
        }
    }

    fn putc(&mut self, c: i32) {
        self.out.push(c as u8);
    }

    fn w(&self, i: usize) -> Word {
        self.words.get(i).copied().unwrap_or_default()
    }

    fn wm(&mut self, i: usize) -> Option<&mut Word> {
        self.words.get_mut(i)
    }

    fn run(&mut self) {
        self.tabs = false;
        self.other_indent = 0;
        self.next_char = self.get_prefix();
        while self.get_paragraph() {
            self.fmt_paragraph();
            self.put_paragraph(self.word_limit);
        }
    }

    fn set_other_indent(&mut self, same_paragraph: bool) {
        if self.split {
            self.other_indent = self.first_indent;
        } else if self.crown {
            self.other_indent = if same_paragraph {
                self.in_column
            } else {
                self.first_indent
            };
        } else if self.tagged {
            if same_paragraph && self.in_column != self.first_indent {
                self.other_indent = self.in_column;
            } else if self.other_indent == self.first_indent {
                self.other_indent = if self.first_indent == 0 {
                    DEF_INDENT
                } else {
                    0
                };
            }
        } else {
            self.other_indent = self.first_indent;
        }
    }

    /// Reads one paragraph, copying the blank or unprefixed lines before it; false at
    /// the end of the input.
    fn get_paragraph(&mut self) -> bool {
        self.last_line_length = 0;
        let mut c = self.next_char;
        while c == i32::from(b'\n')
            || c == EOF
            || self.next_prefix_indent < self.prefix_lead_space
            || self.in_column < self.next_prefix_indent + self.prefix_full_length
        {
            c = self.copy_rest(c);
            if c == EOF {
                self.next_char = EOF;
                return false;
            }
            self.putc(i32::from(b'\n'));
            c = self.get_prefix();
        }
        self.prefix_indent = self.next_prefix_indent;
        self.first_indent = self.in_column;
        self.parabuf.clear();
        self.word_limit = 0;
        c = self.get_line(c);
        let same = self.same_para(c);
        self.set_other_indent(same);
        if self.split {
        } else if self.crown {
            if self.same_para(c) {
                loop {
                    c = self.get_line(c);
                    if !(self.same_para(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else if self.tagged {
            if self.same_para(c) && self.in_column != self.first_indent {
                loop {
                    c = self.get_line(c);
                    if !(self.same_para(c) && self.in_column == self.other_indent) {
                        break;
                    }
                }
            }
        } else {
            while self.same_para(c) && self.in_column == self.other_indent {
                c = self.get_line(c);
            }
        }
        if let Some(w) = self.word_limit.checked_sub(1).and_then(|i| self.wm(i)) {
            w.period = true;
            w.final_ = true;
        }
        self.next_char = c;
        true
    }

    fn copy_rest(&mut self, mut c: i32) -> i32 {
        self.out_column = 0;
        if self.in_column > self.next_prefix_indent || (c != i32::from(b'\n') && c != EOF) {
            self.put_space(self.next_prefix_indent);
            let prefix = self.prefix.clone();
            for &b in prefix.get(..self.prefix_length as usize).unwrap_or(&prefix) {
                if self.out_column == self.in_column {
                    break;
                }
                self.putc(i32::from(b));
                self.out_column += 1;
            }
            if c != EOF && c != i32::from(b'\n') {
                self.put_space(self.in_column - self.out_column);
            }
            if c == EOF && self.in_column >= self.next_prefix_indent + self.prefix_length {
                self.putc(i32::from(b'\n'));
            }
        }
        while c != i32::from(b'\n') && c != EOF {
            self.putc(c);
            c = self.getc();
        }
        c
    }

    fn same_para(&self, c: i32) -> bool {
        self.next_prefix_indent == self.prefix_indent
            && self.in_column >= self.next_prefix_indent + self.prefix_full_length
            && c != i32::from(b'\n')
            && c != EOF
    }

    /// Reads the words of one line starting with `c`; returns the first non-blank
    /// character after the next line's prefix.
    fn get_line(&mut self, mut c: i32) -> i32 {
        loop {
            let start = self.parabuf.len();
            if let Some(w) = self.wm(self.word_limit) {
                w.start = start;
            }
            let mut text_start = start;
            loop {
                if self.parabuf.len() == MAXCHARS {
                    self.set_other_indent(true);
                    let before = self.parabuf.len();
                    self.flush_paragraph();
                    text_start = text_start.saturating_sub(before - self.parabuf.len());
                    if let Some(w) = self.wm(self.word_limit) {
                        w.start = text_start;
                    }
                }
                self.parabuf.push(c as u8);
                c = self.getc();
                if c == EOF || is_space(c) {
                    break;
                }
            }
            let wl = self.word_limit;
            let length = (self.parabuf.len() - self.w(wl).start) as i64;
            self.in_column += length;
            if let Some(w) = self.wm(wl) {
                w.length = length;
            }
            self.check_punctuation(wl);
            let start_col = self.in_column;
            c = self.get_space(c);
            let space = self.in_column - start_col;
            let period = self.w(wl).period;
            let final_ = c == EOF || (period && (c == i32::from(b'\n') || space > 1));
            let uniform = self.uniform;
            if let Some(w) = self.wm(wl) {
                w.space = space;
                w.final_ = final_;
                if c == i32::from(b'\n') || c == EOF || uniform {
                    w.space = if final_ { 2 } else { 1 };
                }
            }
            if self.word_limit == MAXWORDS - 2 {
                self.set_other_indent(true);
                self.flush_paragraph();
            }
            self.word_limit += 1;
            if c == i32::from(b'\n') || c == EOF {
                break;
            }
        }
        self.get_prefix()
    }

    fn get_prefix(&mut self) -> i32 {
        self.in_column = 0;
        let first = self.getc();
        let mut c = self.get_space(first);
        if self.prefix_length == 0 {
            self.next_prefix_indent = self.prefix_lead_space.min(self.in_column);
        } else {
            self.next_prefix_indent = self.in_column;
            let prefix = self.prefix.clone();
            for &p in prefix.get(..self.prefix_length as usize).unwrap_or(&prefix) {
                if c != i32::from(p) {
                    return c;
                }
                self.in_column += 1;
                c = self.getc();
            }
            c = self.get_space(c);
        }
        c
    }

    fn get_space(&mut self, mut c: i32) -> i32 {
        loop {
            if c == i32::from(b' ') {
                self.in_column += 1;
            } else if c == i32::from(b'\t') {
                self.tabs = true;
                self.in_column = (self.in_column / TABWIDTH + 1) * TABWIDTH;
            } else {
                return c;
            }
            c = self.getc();
        }
    }

    fn check_punctuation(&mut self, i: usize) {
        let w = self.w(i);
        let text = self
            .parabuf
            .get(w.start..w.start + w.length.max(0) as usize)
            .unwrap_or(&[]);
        let (Some(&first), Some(&last)) = (text.first(), text.last()) else {
            return;
        };
        let paren = b"(['`\"".contains(&first);
        let punct = last.is_ascii_punctuation();
        let mut finish = text.len() - 1;
        while finish > 0 && text.get(finish).is_some_and(|b| b")]'\"".contains(b)) {
            finish -= 1;
        }
        let period = text.get(finish).is_some_and(|b| b".?!".contains(b));
        if let Some(w) = self.wm(i) {
            w.paren = paren;
            w.punct = punct;
            w.period = period;
        }
    }

    /// Outputs part of an over-long paragraph, keeping the rest in the buffers.
    fn flush_paragraph(&mut self) {
        if self.word_limit == 0 {
            let buf = std::mem::take(&mut self.parabuf);
            self.out.extend_from_slice(&buf);
            return;
        }
        self.fmt_paragraph();
        let mut split_point = self.word_limit;
        let mut best_break = MAXCOST;
        let mut w = self.w(0).next_break;
        while w != self.word_limit {
            let cur = self.w(w);
            let diff = cur.best_cost - self.w(cur.next_break).best_cost;
            if diff < best_break {
                split_point = w;
                best_break = diff;
            }
            if best_break <= MAXCOST - LINE_CREDIT {
                best_break += LINE_CREDIT;
            }
            w = cur.next_break;
        }
        self.put_paragraph(split_point);
        let shift = self.w(split_point).start;
        self.parabuf.drain(..shift.min(self.parabuf.len()));
        for i in split_point..=self.word_limit {
            if let Some(w) = self.wm(i) {
                w.start = w.start.saturating_sub(shift);
            }
        }
        let moved: Vec<Word> = (split_point..=self.word_limit).map(|i| self.w(i)).collect();
        for (k, word) in moved.into_iter().enumerate() {
            if let Some(slot) = self.wm(k) {
                *slot = word;
            }
        }
        // Break pointers moved with the words.
        for k in 0..=self.word_limit - split_point {
            if let Some(slot) = self.wm(k) {
                slot.next_break = slot.next_break.saturating_sub(split_point);
            }
        }
        self.word_limit -= split_point;
    }

    /// Computes the best breaks for every suffix of the paragraph.
    fn fmt_paragraph(&mut self) {
        let wl = self.word_limit;
        let saved_length = self.w(wl).length;
        let max_width = self.max_width;
        if let Some(w) = self.wm(wl) {
            w.best_cost = 0;
            w.length = max_width;
        }
        for start in (0..wl).rev() {
            let mut best = MAXCOST;
            let mut len = if start == 0 {
                self.first_indent
            } else {
                self.other_indent
            };
            let mut w = start;
            len += self.w(w).length;
            loop {
                w += 1;
                let mut wcost = self.line_cost(w, len) + self.w(w).best_cost;
                if start == 0 && self.last_line_length > 0 {
                    wcost += ragged_cost(len - self.last_line_length);
                }
                if wcost < best {
                    best = wcost;
                    if let Some(s) = self.wm(start) {
                        s.next_break = w;
                        s.line_length = len;
                    }
                }
                if w == wl {
                    break;
                }
                len += self.w(w - 1).space + self.w(w).length;
                if len >= max_width {
                    break;
                }
            }
            let base = self.base_cost(start);
            if let Some(s) = self.wm(start) {
                s.best_cost = best.saturating_add(base);
            }
        }
        if let Some(w) = self.wm(wl) {
            w.length = saved_length;
        }
    }

    fn base_cost(&self, this: usize) -> Cost {
        let mut cost = LINE_COST;
        let t = self.w(this);
        if this > 0 {
            let prev = self.w(this - 1);
            if prev.period {
                if prev.final_ {
                    cost -= SENTENCE_BONUS;
                } else {
                    cost += NOBREAK_COST;
                }
            } else if prev.punct {
                cost -= PUNCT_BONUS;
            } else if this > 1 && self.w(this - 2).final_ {
                cost += widow_cost(prev.length);
            }
        }
        if t.paren {
            cost -= PAREN_BONUS;
        } else if t.final_ {
            cost += orphan_cost(t.length);
        }
        cost
    }

    fn line_cost(&self, next: usize, len: i64) -> Cost {
        if next == self.word_limit {
            return 0;
        }
        let mut cost = short_cost(self.goal_width - len);
        let n = self.w(next);
        if n.next_break != self.word_limit {
            cost += ragged_cost(len - n.line_length);
        }
        cost
    }

    fn put_paragraph(&mut self, finish: usize) {
        self.put_line(0, self.first_indent);
        let mut w = self.w(0).next_break;
        while w != finish {
            self.put_line(w, self.other_indent);
            w = self.w(w).next_break;
        }
    }

    fn put_line(&mut self, mut w: usize, indent: i64) {
        self.out_column = 0;
        self.put_space(self.prefix_indent);
        let prefix = self.prefix.clone();
        let shown = prefix.get(..self.prefix_length as usize).unwrap_or(&prefix);
        self.out.extend_from_slice(shown);
        self.out_column += self.prefix_length;
        self.put_space(indent - self.out_column);
        let endline = self.w(w).next_break.saturating_sub(1);
        while w < endline {
            self.put_word(w);
            self.put_space(self.w(w).space);
            w += 1;
        }
        self.put_word(w);
        self.last_line_length = self.out_column;
        self.putc(i32::from(b'\n'));
    }

    fn put_word(&mut self, i: usize) {
        let w = self.w(i);
        let end = w.start + w.length.max(0) as usize;
        if let Some(text) = self.parabuf.get(w.start..end) {
            self.out.extend_from_slice(text);
        }
        self.out_column += w.length;
    }

    fn put_space(&mut self, space: i64) {
        let space_target = self.out_column + space;
        if self.tabs {
            let tab_target = space_target / TABWIDTH * TABWIDTH;
            if self.out_column + 1 < tab_target {
                while self.out_column < tab_target {
                    self.putc(i32::from(b'\t'));
                    self.out_column = (self.out_column / TABWIDTH + 1) * TABWIDTH;
                }
            }
        }
        while self.out_column < space_target {
            self.putc(i32::from(b' '));
            self.out_column += 1;
        }
    }
}

/// A width option's value: a decimal number no larger than `max`.
fn parse_width(ctx: &Ctx, v: &str, max: i64) -> Result<i64, String> {
    let invalid = || format!("invalid width: {}", ctx.lquote(v));
    let digits = v.trim_start();
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return Err(invalid());
    }
    match digits.parse::<i64>() {
        Ok(n) if n <= max => Ok(n),
        _ => Err(format!("{}: Numerical result out of range", invalid())),
    }
}

pub fn fmt(ctx: &mut Ctx) -> CmdResult {
    let mut args: Vec<String> = ctx.args.to_vec();
    let mut width_opt: Option<String> = None;
    if let Some(first) = args.first()
        && let Some(rest) = first.strip_prefix('-')
        && rest.starts_with(|c: char| c.is_ascii_digit())
    {
        width_opt = Some(rest.to_owned());
        args.remove(0);
    }
    let parsed = match super::args::parse(&Spec::new("0123456789cstuw:p:g:", LONG), &args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let mut f = Fmt {
        crown: false,
        tagged: false,
        split: false,
        uniform: false,
        prefix: Vec::new(),
        prefix_full_length: 0,
        prefix_lead_space: 0,
        prefix_length: 0,
        max_width: WIDTH,
        goal_width: 0,
        input: std::sync::Arc::new(Vec::new()),
        pos: 0,
        in_column: 0,
        out_column: 0,
        parabuf: Vec::with_capacity(MAXCHARS),
        words: vec![Word::default(); MAXWORDS],
        word_limit: 0,
        tabs: false,
        prefix_indent: 0,
        first_indent: 0,
        other_indent: 0,
        next_char: 0,
        next_prefix_indent: 0,
        last_line_length: 0,
        out: Vec::new(),
    };
    let mut goal_opt: Option<String> = None;
    for (k, v) in &parsed.opts {
        let v = v.clone().unwrap_or_default();
        match k.as_str() {
            "c" => f.crown = true,
            "s" => f.split = true,
            "t" => f.tagged = true,
            "u" => f.uniform = true,
            "w" => width_opt = Some(v),
            "g" => goal_opt = Some(v),
            "p" => {
                let b = crate::text::encode(&v);
                let lead = b.iter().take_while(|&&c| c == b' ').count();
                let p = b.get(lead..).unwrap_or(&[]).to_vec();
                let trimmed = p.len() - p.iter().rev().take_while(|&&c| c == b' ').count();
                f.prefix_lead_space = lead as i64;
                f.prefix_full_length = p.len() as i64;
                f.prefix_length = trimmed as i64;
                f.prefix = p;
            }
            d if d.len() == 1 && d.bytes().all(|b| b.is_ascii_digit()) => {
                ctx.err(format!(
                    "invalid option -- {d}; -WIDTH is recognized only when it is the first\n\
                     option; use -w N instead"
                ))?;
                return usage_error(ctx, "", 1);
            }
            _ => {}
        }
    }
    if let Some(w) = &width_opt {
        match parse_width(ctx, w, (MAXCHARS / 2) as i64) {
            Ok(n) => f.max_width = n,
            Err(msg) => {
                ctx.err(msg)?;
                return Ok(1);
            }
        }
    }
    if let Some(g) = &goal_opt {
        match parse_width(ctx, g, f.max_width) {
            Ok(n) => {
                f.goal_width = n;
                if width_opt.is_none() {
                    f.max_width = n + 10;
                }
            }
            Err(msg) => {
                ctx.err(msg)?;
                return Ok(1);
            }
        }
    } else {
        f.goal_width = f.max_width * (2 * (100 - LEEWAY) + 1) / 200;
    }
    let files = if parsed.operands.is_empty() {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    let mut status = 0;
    for name in &files {
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) if e.is(crate::fs::Errno::EISDIR) => {
                ctx.err(format!("{}: read error: Is a directory", quote(name)))?;
                status = 1;
                continue;
            }
            Err(e) => {
                ctx.err(format!("cannot open {} for reading: {e}", quote(name)))?;
                status = 1;
                continue;
            }
        };
        ctx.host.check()?;
        f.input = data;
        f.pos = 0;
        f.run();
        ctx.stdout.write_all(&f.out)?;
        f.out.clear();
    }
    Ok(status)
}
