//! `join`: writes one line for each pair of lines of two sorted files with equal join
//! fields (GNU coreutils): `-1 -2 -j` choose the fields, `-t` the separator, `-a`/`-v`
//! print unpaired lines, `-e` fills missing fields, `-o` picks the output fields (or
//! `auto`), `-i` ignores case, `--header` pairs the first lines unconditionally, and the
//! input order is checked with GNU's messages (`--check-order`, `--nocheck-order`).

use std::cmp::Ordering;

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Parsed, Spec, long, usage_error};
use super::util::{chomp, quotef, records};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("ignore-case", HasArg::No, "i"),
    long("check-order", HasArg::No, "check-order"),
    long("nocheck-order", HasArg::No, "nocheck-order"),
    long("zero-terminated", HasArg::No, "z"),
    long("header", HasArg::No, "header"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: join [OPTION]... FILE1 FILE2
For each pair of input lines with identical join fields, write a line to
standard output.  The default join field is the first, delimited by blanks.

When FILE1 or FILE2 (not both) is -, read standard input.

  -a FILENUM             also print unpairable lines from file FILENUM, where
                           FILENUM is 1 or 2, corresponding to FILE1 or FILE2
  -e STRING              replace missing (empty) input fields with STRING;
                           I.e., missing fields specified with '-12jo' options
  -i, --ignore-case      ignore differences in case when comparing fields
  -j FIELD               equivalent to '-1 FIELD -2 FIELD'
  -o FORMAT              obey FORMAT while constructing output line
  -t CHAR                use CHAR as input and output field separator
  -v FILENUM             like -a FILENUM, but suppress joined output lines
  -1 FIELD               join on this FIELD of file 1
  -2 FIELD               join on this FIELD of file 2
      --check-order      check that the input is correctly sorted, even
                           if all input lines are pairable
      --nocheck-order    do not check that the input is correctly sorted
      --header           treat the first line in each file as field headers,
                           print them without trying to pair them
  -z, --zero-terminated  line delimiter is NUL, not newline
      --help        display this help and exit
      --version     output version information and exit

Unless -t CHAR is given, leading blanks separate fields and are ignored,
else fields are separated by CHAR.  Any FIELD is a field number counted
from 1.  FORMAT is one or more comma or blank separated specifications,
each being 'FILENUM.FIELD' or '0'.  Default FORMAT outputs the join field,
the remaining fields from FILE1, the remaining fields from FILE2, all
separated by CHAR.  If FORMAT is the keyword 'auto', then the first
line of each file determines the number of fields output for each line.

Important: FILE1 and FILE2 must be sorted on the join fields.
E.g., use \"sort -k 1b,1\" if 'join' has no options,
or use \"join -t ''\" if 'sort' has no options.
Note, comparisons honor the rules specified by 'LC_COLLATE'.
If the input is not sorted and some lines cannot be joined, a
warning message will be given.
";

/// How an operand may be reinterpreted when a third one turns up (GNU's heuristics for
/// `-j1 FIELD` and `-o LIST LIST...` written POSIX-style).
#[derive(Clone, Copy, PartialEq, Eq)]
enum OperandStatus {
    MustBeOperand,
    MightBeJ1,
    MightBeJ2,
    MightBeO,
}

/// Where the fields come from in the field separator sense.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Tab {
    /// Runs of blanks separate fields; leading blanks are ignored.
    Blanks,
    /// The whole line is one field (`-t ''`).
    WholeLine,
    Char(u8),
}

/// One `-o` element: the join field (`0`) or field N (0-based) of file 1 or 2.
#[derive(Clone, Copy)]
enum OutField {
    Join,
    File(usize, usize),
}

/// An input line and the byte ranges of its fields.
#[derive(Clone, Default)]
struct Line {
    text: Vec<u8>,
    fields: Vec<(usize, usize)>,
}

impl Line {
    fn field(&self, n: usize) -> &[u8] {
        self.fields
            .get(n)
            .and_then(|&(s, e)| self.text.get(s..e))
            .unwrap_or(&[])
    }
}

fn is_blank(b: u8) -> bool {
    b == b' ' || b == b'\t'
}

fn split_fields(text: Vec<u8>, tab: Tab) -> Line {
    let mut fields = Vec::new();
    let len = text.len();
    if len > 0 {
        match tab {
            Tab::WholeLine => fields.push((0, len)),
            Tab::Char(t) => {
                let mut start = 0;
                for (i, &b) in text.iter().enumerate() {
                    if b == t {
                        fields.push((start, i));
                        start = i + 1;
                    }
                }
                fields.push((start, len));
            }
            Tab::Blanks => {
                let mut i = 0;
                while i < len && text.get(i).is_some_and(|&b| is_blank(b)) {
                    i += 1;
                }
                if i < len {
                    loop {
                        let start = i;
                        while i < len && !text.get(i).is_some_and(|&b| is_blank(b)) {
                            i += 1;
                        }
                        fields.push((start, i));
                        if i == len {
                            break;
                        }
                        while i < len && text.get(i).is_some_and(|&b| is_blank(b)) {
                            i += 1;
                        }
                        if i == len {
                            // Trailing blanks end in one more (empty) field, as GNU's do.
                            fields.push((len, len));
                            break;
                        }
                    }
                }
            }
        }
    }
    Line { text, fields }
}

/// One input file being read line by line.
struct Input {
    name: String,
    lines: std::vec::IntoIter<Vec<u8>>,
    line_no: u64,
    prev: Option<Line>,
}

struct Join {
    tab: Tab,
    eol: u8,
    ignore_case: bool,
    check: Option<bool>,
    join_field: [usize; 2],
    unpaired: [bool; 2],
    paired: bool,
    empty: Option<Vec<u8>>,
    outlist: Vec<OutField>,
    auto: bool,
    autocount: [usize; 2],
    header: bool,
    seen_unpairable: bool,
    warned: [bool; 2],
    warnings: Vec<String>,
    out: Vec<u8>,
}

/// A fatal sort-order error (`--check-order`): the message to print.
struct Disorder(String);

impl Join {
    fn keycmp(&self, a: &Line, b: &Line, jf_a: usize, jf_b: usize) -> Ordering {
        let fa = a.field(jf_a);
        let fb = b.field(jf_b);
        match (fa.is_empty(), fb.is_empty()) {
            (true, true) => return Ordering::Equal,
            (true, false) => return Ordering::Less,
            (false, true) => return Ordering::Greater,
            _ => {}
        }
        if self.ignore_case {
            let n = fa.len().min(fb.len());
            for (x, y) in fa.iter().zip(fb).take(n) {
                match x.to_ascii_uppercase().cmp(&y.to_ascii_uppercase()) {
                    Ordering::Equal => {}
                    o => return o,
                }
            }
            fa.len().cmp(&fb.len())
        } else {
            fa.cmp(fb)
        }
    }

    /// Reads the next line of file `which` (0 or 1), checking its order.
    fn get_line(&mut self, input: &mut Input, which: usize) -> Result<Option<Line>, Disorder> {
        let Some(text) = input.lines.next() else {
            return Ok(None);
        };
        input.line_no += 1;
        let line = split_fields(text, self.tab);
        if let Some(prev) = &input.prev
            && self.check != Some(false)
            && (self.check == Some(true) || self.seen_unpairable)
            && !self.warned[which]
        {
            let jf = self.join_field[which];
            if self.keycmp(prev, &line, jf, jf) == Ordering::Greater {
                let msg = format!(
                    "{}:{}: is not sorted: {}",
                    input.name,
                    input.line_no,
                    crate::text::decode(&line.text)
                );
                if self.check == Some(true) {
                    return Err(Disorder(msg));
                }
                self.warned[which] = true;
                self.warnings.push(msg);
            }
        }
        input.prev = Some(line.clone());
        Ok(Some(line))
    }

    fn prfield(&mut self, n: usize, line: &Line) {
        let f = line.field(n);
        if !f.is_empty() {
            self.out.extend_from_slice(f);
        } else if let Some(e) = &self.empty {
            self.out.extend_from_slice(e);
        }
    }

    fn sep(&self) -> u8 {
        match self.tab {
            Tab::Blanks => b' ',
            Tab::WholeLine => b'\n',
            Tab::Char(c) => c,
        }
    }

    fn prfields(&mut self, line: &Line, join_field: usize, autocount: usize) {
        let n = if self.auto {
            autocount
        } else {
            line.fields.len()
        };
        let sep = self.sep();
        for i in (0..n).filter(|&i| i != join_field) {
            self.out.push(sep);
            self.prfield(i, line);
        }
    }

    /// Prints the join of two lines; `None` stands for the missing partner of an
    /// unpaired line.
    fn prjoin(&mut self, line1: Option<&Line>, line2: Option<&Line>) {
        let blank = Line::default();
        let l1 = line1.unwrap_or(&blank);
        let l2 = line2.unwrap_or(&blank);
        let sep = self.sep();
        if self.outlist.is_empty() {
            let (line, field) = if line1.is_none() {
                (l2, self.join_field[1])
            } else {
                (l1, self.join_field[0])
            };
            self.prfield(field, line);
            let [a1, a2] = self.autocount;
            self.prfields(l1, self.join_field[0], a1);
            self.prfields(l2, self.join_field[1], a2);
        } else {
            let list = self.outlist.clone();
            for (i, o) in list.iter().enumerate() {
                if i > 0 {
                    self.out.push(sep);
                }
                let (line, field) = match *o {
                    OutField::Join if line1.is_none() => (l2, self.join_field[1]),
                    OutField::Join => (l1, self.join_field[0]),
                    OutField::File(1, f) => (l1, f),
                    OutField::File(_, f) => (l2, f),
                };
                self.prfield(field, line);
            }
        }
        self.out.push(self.eol);
    }
}

/// A usage problem found while reading the options: the message, and whether the
/// `Try ... --help` line follows.
struct OptError(String, bool);

/// A 0-based field number from GNU's `string_to_join_field` (too large saturates).
fn join_field(ctx: &Ctx, s: &str) -> Result<usize, OptError> {
    if !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit()) {
        return match s.parse::<usize>() {
            Ok(0) => Err(OptError(
                format!("invalid field number: {}", ctx.lquote(s)),
                false,
            )),
            Ok(n) => Ok(n - 1),
            Err(_) => Ok(usize::MAX - 1),
        };
    }
    Err(OptError(
        format!("invalid field number: {}", ctx.lquote(s)),
        false,
    ))
}

fn set_join_field(var: &mut Option<usize>, val: usize) -> Result<(), OptError> {
    if let Some(old) = *var
        && old != val
    {
        return Err(OptError(
            format!(
                "incompatible join fields {}, {}",
                old.saturating_add(1),
                val.saturating_add(1)
            ),
            false,
        ));
    }
    *var = Some(val);
    Ok(())
}

fn add_field_list(ctx: &Ctx, list: &str, out: &mut Vec<OutField>) -> Result<(), OptError> {
    for spec in list.split([',', ' ', '\t']) {
        let bad = |what: &str| OptError(format!("{what}: {}", ctx.lquote(spec)), false);
        let mut cs = spec.chars();
        match cs.next() {
            Some('0') => {
                if !cs.as_str().is_empty() {
                    return Err(bad("invalid field specifier"));
                }
                out.push(OutField::Join);
            }
            Some(c @ ('1' | '2')) => {
                let Some(rest) = cs.as_str().strip_prefix('.') else {
                    return Err(bad("invalid field specifier"));
                };
                let f = join_field(ctx, rest)?;
                out.push(OutField::File(if c == '1' { 1 } else { 2 }, f));
            }
            _ => return Err(bad("invalid file number in field spec")),
        }
    }
    Ok(())
}

/// Everything the options decide.
struct Options {
    join: Join,
    names: Vec<String>,
}

/// Applies one option; returns the operand status it leaves behind.
fn apply_opt(
    ctx: &Ctx,
    key: &str,
    value: Option<&str>,
    raw_j: bool,
    jf: &mut [Option<usize>; 2],
    jcount: &mut [usize; 2],
    o: &mut Join,
) -> Result<OperandStatus, OptError> {
    let v = value.unwrap_or("");
    match key {
        "a" | "v" => {
            if key == "v" {
                o.paired = false;
            }
            match v {
                "1" => o.unpaired[0] = true,
                "2" => o.unpaired[1] = true,
                _ => {
                    return Err(OptError(
                        format!("invalid field number: {}", ctx.lquote(v)),
                        false,
                    ));
                }
            }
        }
        "e" => {
            if o.empty.as_deref().is_some_and(|e| e != v.as_bytes()) {
                return Err(OptError(
                    "conflicting empty-field replacement strings".to_owned(),
                    false,
                ));
            }
            o.empty = Some(crate::text::encode(v));
        }
        "i" => o.ignore_case = true,
        "1" => set_join_field(&mut jf[0], join_field(ctx, v)?)?,
        "2" => set_join_field(&mut jf[1], join_field(ctx, v)?)?,
        "j" => {
            if raw_j && (v == "1" || v == "2") {
                let is2 = v == "2";
                jcount[usize::from(is2)] += 1;
                return Ok(if is2 {
                    OperandStatus::MightBeJ2
                } else {
                    OperandStatus::MightBeJ1
                });
            }
            let f = join_field(ctx, v)?;
            set_join_field(&mut jf[0], f)?;
            set_join_field(&mut jf[1], f)?;
        }
        "o" => {
            if v == "auto" {
                o.auto = true;
            } else {
                add_field_list(ctx, v, &mut o.outlist)?;
                return Ok(OperandStatus::MightBeO);
            }
        }
        "t" => {
            let b = crate::text::encode(v);
            let new = match b.as_slice() {
                [] => Tab::WholeLine,
                [c] => Tab::Char(*c),
                _ if v == "\\0" => Tab::Char(0),
                _ => {
                    return Err(OptError(
                        format!("multi-character tab {}", ctx.lquote(v)),
                        false,
                    ));
                }
            };
            if o.tab != Tab::Blanks && o.tab != new {
                return Err(OptError("incompatible tabs".to_owned(), false));
            }
            o.tab = new;
        }
        "check-order" => o.check = Some(true),
        "nocheck-order" => o.check = Some(false),
        "header" => o.header = true,
        "z" => o.eol = 0,
        _ => {}
    }
    Ok(OperandStatus::MustBeOperand)
}

/// Parses the command line in order, as GNU's `-` getopt string does, so that `-j1 2`
/// and `-o 1.1 2.2 f1 f2` are understood.
fn parse_options(ctx: &Ctx) -> Result<Result<Options, Parsed>, OptError> {
    let mut o = Join {
        tab: Tab::Blanks,
        eol: b'\n',
        ignore_case: false,
        check: None,
        join_field: [0, 0],
        unpaired: [false, false],
        paired: true,
        empty: None,
        outlist: Vec::new(),
        auto: false,
        autocount: [0, 0],
        header: false,
        seen_unpairable: false,
        warned: [false, false],
        warnings: Vec::new(),
        out: Vec::new(),
    };
    let mut jf: [Option<usize>; 2] = [None, None];
    let mut jcount = [0usize; 2];
    let mut names: Vec<(String, OperandStatus)> = Vec::new();
    let mut prev = OperandStatus::MustBeOperand;
    let mut spec = Spec::new("a:e:i1:2:j:o:t:v:z", LONG);
    spec.permute = false;
    let mut rest: &[String] = ctx.args;
    let mut after_dashdash = false;
    loop {
        let parsed = match super::args::parse(&spec, rest) {
            Ok(p) => p,
            Err(msg) => return Err(OptError(msg, true)),
        };
        if parsed.has("help") || parsed.has("version") {
            return Ok(Err(parsed));
        }
        let consumed = rest.len() - parsed.operands.len();
        let raw = rest.get(..consumed).unwrap_or(&[]);
        if raw.last().is_some_and(|a| a == "--") {
            after_dashdash = true;
        }
        for (k, v) in &parsed.opts {
            let raw_j = k == "j" && raw.iter().any(|a| a == "-j1" || a == "-j2");
            prev = apply_opt(ctx, k, v.as_deref(), raw_j, &mut jf, &mut jcount, &mut o)?;
        }
        let Some((first, more)) = parsed.operands.split_first() else {
            break;
        };
        let mut add = |name: &str, prev: &mut OperandStatus| -> Result<(), OptError> {
            if names.len() == 2 {
                let op0 = names
                    .first()
                    .is_some_and(|(_, s)| *s == OperandStatus::MustBeOperand);
                let idx = usize::from(op0);
                let Some((arg, status)) = names.get(idx).cloned() else {
                    return Ok(());
                };
                match status {
                    OperandStatus::MustBeOperand => {
                        return Err(OptError(
                            format!("extra operand {}", super::util::quote(name)),
                            true,
                        ));
                    }
                    OperandStatus::MightBeJ1 => {
                        jcount[0] = jcount[0].saturating_sub(1);
                        set_join_field(&mut jf[0], join_field(ctx, &arg)?)?;
                    }
                    OperandStatus::MightBeJ2 => {
                        jcount[1] = jcount[1].saturating_sub(1);
                        set_join_field(&mut jf[1], join_field(ctx, &arg)?)?;
                    }
                    OperandStatus::MightBeO => add_field_list(ctx, &arg, &mut o.outlist)?,
                }
                names.remove(idx);
            }
            names.push((name.to_owned(), *prev));
            if *prev != OperandStatus::MightBeO {
                *prev = OperandStatus::MustBeOperand;
            }
            Ok(())
        };
        if after_dashdash {
            prev = OperandStatus::MustBeOperand;
            for name in std::iter::once(first).chain(more) {
                add(name, &mut prev)?;
            }
            break;
        }
        add(first, &mut prev)?;
        let pos = ctx.args.len() - more.len();
        rest = ctx.args.get(pos..).unwrap_or(&[]);
    }
    match names.len() {
        2 => {}
        0 => return Err(OptError("missing operand".to_owned(), true)),
        _ => {
            let last = ctx.args.last().map_or("", String::as_str);
            return Err(OptError(
                format!("missing operand after {}", ctx.lquote(last)),
                true,
            ));
        }
    }
    for (i, &n) in jcount.iter().enumerate() {
        if n != 0 {
            set_join_field(&mut jf[0], i)?;
            set_join_field(&mut jf[1], i)?;
        }
    }
    o.join_field = [jf[0].unwrap_or(0), jf[1].unwrap_or(0)];
    Ok(Ok(Options {
        join: o,
        names: names.into_iter().map(|(n, _)| n).collect(),
    }))
}

pub fn join(ctx: &mut Ctx) -> CmdResult {
    let opts = match parse_options(ctx) {
        Ok(Ok(o)) => o,
        Ok(Err(parsed)) => {
            return Ok(std_opts(ctx, &parsed, USAGE)?.unwrap_or(0));
        }
        Err(OptError(msg, true)) => return usage_error(ctx, &msg, 1),
        Err(OptError(msg, false)) => {
            ctx.err(msg)?;
            return Ok(1);
        }
    };
    let Options { mut join, names } = opts;
    let (Some(n1), Some(n2)) = (names.first(), names.get(1)) else {
        return Ok(1);
    };
    if n1 == "-" && n2 == "-" {
        ctx.err("both files cannot be standard input: No such file or directory")?;
        return Ok(1);
    }
    let mut inputs = Vec::new();
    for name in [n1, n2] {
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                return Ok(1);
            }
        };
        let lines: Vec<Vec<u8>> = records(&data, join.eol)
            .map(|r| chomp(r, join.eol).to_vec())
            .collect();
        inputs.push(Input {
            name: name.clone(),
            lines: lines.into_iter(),
            line_no: 0,
            prev: None,
        });
    }
    let [mut in1, mut in2]: [Input; 2] = match inputs.try_into() {
        Ok(a) => a,
        Err(_) => return Ok(1),
    };
    let result = run(&mut join, &mut in1, &mut in2, ctx);
    for w in &join.warnings {
        ctx.err(w)?;
    }
    ctx.stdout.write_all(&join.out)?;
    match result? {
        Err(Disorder(msg)) => {
            ctx.err(msg)?;
            Ok(1)
        }
        Ok(()) if join.warned.iter().any(|&w| w) => {
            ctx.err("input is not in sorted order")?;
            Ok(1)
        }
        Ok(()) => Ok(0),
    }
}

/// GNU's merge loop over runs of equal keys.
fn run(
    j: &mut Join,
    in1: &mut Input,
    in2: &mut Input,
    ctx: &mut Ctx,
) -> std::io::Result<Result<(), Disorder>> {
    macro_rules! get {
        ($input:expr, $which:expr) => {
            match j.get_line($input, $which) {
                Ok(l) => l,
                Err(d) => return Ok(Err(d)),
            }
        };
    }
    let mut seq1: Vec<Line> = get!(in1, 0).into_iter().collect();
    let mut seq2: Vec<Line> = get!(in2, 1).into_iter().collect();
    if j.auto {
        j.autocount = [
            seq1.first().map_or(0, |l| l.fields.len()),
            seq2.first().map_or(0, |l| l.fields.len()),
        ];
    }
    if j.header && (!seq1.is_empty() || !seq2.is_empty()) {
        let (h1, h2) = (seq1.first().cloned(), seq2.first().cloned());
        j.prjoin(h1.as_ref(), h2.as_ref());
        in1.prev = None;
        in2.prev = None;
        if !seq1.is_empty() {
            seq1 = get!(in1, 0).into_iter().collect();
        }
        if !seq2.is_empty() {
            seq2 = get!(in2, 1).into_iter().collect();
        }
    }
    let [jf1, jf2] = j.join_field;
    while let (Some(first1), Some(first2)) = (seq1.first().cloned(), seq2.first().cloned()) {
        ctx.host.check()?;
        match j.keycmp(&first1, &first2, jf1, jf2) {
            Ordering::Less => {
                if j.unpaired[0] {
                    j.prjoin(Some(&first1), None);
                }
                seq1 = get!(in1, 0).into_iter().collect();
                j.seen_unpairable = true;
                continue;
            }
            Ordering::Greater => {
                if j.unpaired[1] {
                    j.prjoin(None, Some(&first2));
                }
                seq2 = get!(in2, 1).into_iter().collect();
                j.seen_unpairable = true;
                continue;
            }
            Ordering::Equal => {}
        }
        // Gather the runs of lines with this key from both files; the line after each
        // run (if any) starts the next round.
        let mut next1 = None;
        while let Some(l) = get!(in1, 0) {
            if j.keycmp(&l, &first2, jf1, jf2) == Ordering::Equal {
                seq1.push(l);
            } else {
                next1 = Some(l);
                break;
            }
        }
        let mut next2 = None;
        while let Some(l) = get!(in2, 1) {
            if j.keycmp(&first1, &l, jf1, jf2) == Ordering::Equal {
                seq2.push(l);
            } else {
                next2 = Some(l);
                break;
            }
        }
        if j.paired {
            for a in &seq1 {
                for b in &seq2 {
                    j.prjoin(Some(a), Some(b));
                }
            }
        }
        seq1 = next1.into_iter().collect();
        seq2 = next2.into_iter().collect();
    }
    // Read the tails to check their order (and print unpaired lines).
    let checktail = j.check != Some(false) && !(j.warned[0] && j.warned[1]);
    if (j.unpaired[0] || checktail)
        && let Some(first) = seq1.first().cloned()
    {
        if j.unpaired[0] {
            j.prjoin(Some(&first), None);
        }
        if !seq2.is_empty() {
            j.seen_unpairable = true;
        }
        while let Some(l) = get!(in1, 0) {
            if j.unpaired[0] {
                j.prjoin(Some(&l), None);
            }
            if j.warned[0] && !j.unpaired[0] {
                break;
            }
        }
    }
    if (j.unpaired[1] || checktail)
        && let Some(first) = seq2.first().cloned()
    {
        if j.unpaired[1] {
            j.prjoin(None, Some(&first));
        }
        if !seq1.is_empty() {
            j.seen_unpairable = true;
        }
        while let Some(l) = get!(in2, 1) {
            if j.unpaired[1] {
                j.prjoin(None, Some(&l));
            }
            if j.warned[1] && !j.unpaired[1] {
                break;
            }
        }
    }
    Ok(Ok(()))
}
