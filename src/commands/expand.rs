//! `expand`: converts tabs to spaces (`-t N`, `-t LIST` with GNU's `/N` and `+N` last
//! stops, `-i` for leading tabs only, obsolescent `-N`). The tab-stop list is shared with
//! `unexpand`.

use super::about::{HELP, VERSION};
use super::args::{HasArg, LongOpt, Parsed, Spec, long};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("initial", HasArg::No, "i"),
    long("tabs", HasArg::Required, "t"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: expand [OPTION]... [FILE]...
Convert tabs in each FILE to spaces, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -i, --initial    do not convert tabs after non blanks
  -t, --tabs=N     have tabs N characters apart, not 8
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help        display this help and exit
      --version     output version information and exit
";

/// Tab stops as GNU's `expand`/`unexpand` take them.
#[derive(Debug, Default)]
pub(super) struct TabStops {
    list: Vec<u64>,
    /// `/N`: after the list, stops every N columns.
    extend: u64,
    /// `+N`: after the list, stops every N columns from the last stop.
    increment: u64,
    /// A single stop N: every N columns (0 when the list rules).
    size: u64,
}

impl TabStops {
    /// Adds a `-t` list (comma or blank separated); `Err` is the diagnostic.
    pub(super) fn parse(&mut self, stops: &str) -> Result<(), String> {
        let mut value: Option<u64> = None;
        let mut extend = false;
        let mut increment = false;
        let bytes = stops.as_bytes();
        for (i, &c) in bytes.iter().enumerate() {
            let rest = || lq(stops.get(i..).unwrap_or(""));
            match c {
                b',' | b' ' | b'\t' => {
                    if let Some(v) = value.take() {
                        self.add(v, extend, increment)?;
                    }
                }
                b'/' | b'+' => {
                    let which = char::from(c);
                    if value.is_some() {
                        return Err(format!(
                            "'{which}' specifier not at start of number: {}",
                            rest()
                        ));
                    }
                    extend = c == b'/';
                    increment = c == b'+';
                }
                b'0'..=b'9' => {
                    let d = u64::from(c - b'0');
                    let v = value.unwrap_or(0);
                    match v.checked_mul(10).and_then(|v| v.checked_add(d)) {
                        Some(v) => value = Some(v),
                        None => {
                            let start = stops[..i].trim_end_matches(|c: char| c.is_ascii_digit());
                            let num: String = stops[start.len()..]
                                .chars()
                                .take_while(char::is_ascii_digit)
                                .collect();
                            return Err(format!("tab stop is too large {}", lq(&num)));
                        }
                    }
                }
                _ => {
                    return Err(format!(
                        "tab size contains invalid character(s): {}",
                        rest()
                    ));
                }
            }
        }
        if let Some(v) = value {
            self.add(v, extend, increment)?;
        }
        Ok(())
    }

    fn add(&mut self, v: u64, extend: bool, increment: bool) -> Result<(), String> {
        if extend {
            if self.extend != 0 {
                return Err("'/' specifier only allowed with the last value".to_owned());
            }
            self.extend = v;
        } else if increment {
            if self.increment != 0 {
                return Err("'+' specifier only allowed with the last value".to_owned());
            }
            self.increment = v;
        } else {
            self.list.push(v);
        }
        Ok(())
    }

    /// Validates the stops and settles the defaults; `Err` is the diagnostic.
    pub(super) fn finish(&mut self) -> Result<(), String> {
        let mut prev = 0;
        for &t in &self.list {
            if t == 0 {
                return Err("tab size cannot be 0".to_owned());
            }
            if t <= prev {
                return Err("tab sizes must be ascending".to_owned());
            }
            prev = t;
        }
        if self.increment != 0 && self.extend != 0 {
            return Err("'/' specifier is mutually exclusive with '+'".to_owned());
        }
        self.size = match self.list.as_slice() {
            [] if self.extend != 0 => self.extend,
            [] if self.increment != 0 => self.increment,
            [] => 8,
            [one] if self.extend == 0 && self.increment == 0 => *one,
            _ => 0,
        };
        Ok(())
    }

    /// The tab stop after `column`, advancing `index` through the list; None past the
    /// last explicit stop when nothing extends the list.
    pub(super) fn next(&self, column: u64, index: &mut usize) -> Option<u64> {
        if self.size != 0 {
            return Some(column + (self.size - column % self.size));
        }
        while let Some(&tab) = self.list.get(*index) {
            if column < tab {
                return Some(tab);
            }
            *index += 1;
        }
        if self.extend != 0 {
            return Some(column + (self.extend - column % self.extend));
        }
        if self.increment != 0 {
            let end = self.list.last().copied().unwrap_or(0);
            return Some(column + (self.increment - (column - end) % self.increment));
        }
        None
    }
}

/// Takes the obsolescent `-N` / `-N,M` words out of `args`: (the other words, the lists).
pub(super) fn obsolete_tabs(args: &[String]) -> (Vec<String>, Vec<String>) {
    let mut rest = Vec::with_capacity(args.len());
    let mut lists = Vec::new();
    for (i, a) in args.iter().enumerate() {
        if a == "--" {
            rest.extend(args[i..].iter().cloned());
            break;
        }
        match a.strip_prefix('-') {
            Some(list)
                if list.starts_with(|c: char| c.is_ascii_digit())
                    && list.bytes().all(|b| b.is_ascii_digit() || b == b',') =>
            {
                lists.push(list.to_owned());
            }
            _ => rest.push(a.clone()),
        }
    }
    (rest, lists)
}

/// Builds the tab stops from the obsolescent lists and the `-t` options; prints the
/// diagnostic on failure.
pub(super) fn tab_stops(
    ctx: &mut Ctx,
    obsolete: &[String],
    parsed: &Parsed,
) -> std::io::Result<Option<TabStops>> {
    let mut tabs = TabStops::default();
    let lists = obsolete.iter().map(String::as_str).chain(
        parsed
            .opts
            .iter()
            .filter(|(k, _)| k == "t")
            .filter_map(|(_, v)| v.as_deref()),
    );
    for list in lists {
        if let Err(msg) = tabs.parse(list) {
            ctx.err(msg)?;
            return Ok(None);
        }
    }
    if let Err(msg) = tabs.finish() {
        ctx.err(msg)?;
        return Ok(None);
    }
    Ok(Some(tabs))
}

/// The state of the line being expanded; it carries across input files.
struct Expander<'t> {
    tabs: &'t TabStops,
    initial_only: bool,
    column: u64,
    index: usize,
    convert: bool,
}

impl Expander<'_> {
    fn feed(&mut self, data: &[u8], out: &mut Vec<u8>) {
        for &c in data {
            if self.convert {
                if c == b'\t' {
                    let next = self
                        .tabs
                        .next(self.column, &mut self.index)
                        .unwrap_or(self.column + 1);
                    let n = usize::try_from(next - self.column).unwrap_or(0);
                    out.resize(out.len() + n, b' ');
                    self.column = next;
                    continue;
                } else if c == b'\x08' {
                    self.column = self.column.saturating_sub(1);
                    self.index = self.index.saturating_sub(1);
                } else {
                    self.column += 1;
                }
                self.convert &= !self.initial_only || c == b' ';
            }
            out.push(c);
            if c == b'\n' {
                self.column = 0;
                self.index = 0;
                self.convert = true;
            }
        }
    }
}

pub fn expand(ctx: &mut Ctx) -> CmdResult {
    let (args, obsolete) = obsolete_tabs(ctx.args);
    let parsed = match super::args::parse(&Spec::new("it:", LONG), &args) {
        Ok(p) => p,
        Err(msg) => return super::args::usage_error(ctx, &msg, 1),
    };
    if let Some(s) = super::about::std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let Some(tabs) = tab_stops(ctx, &obsolete, &parsed)? else {
        return Ok(1);
    };
    let mut ex = Expander {
        tabs: &tabs,
        initial_only: parsed.has("i"),
        column: 0,
        index: 0,
        convert: true,
    };
    ctx.each_input(&parsed.operands, |ctx, _, data| {
        for chunk in data.chunks(1 << 16) {
            ctx.host.check()?;
            let mut out = Vec::with_capacity(chunk.len() + chunk.len() / 4);
            ex.feed(chunk, &mut out);
            ctx.stdout.write_all(&out)?;
        }
        Ok(())
    })
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn expand_table() {
        for (line, stdin, out) in [
            ("expand", "a\tb\n\tx\n", "a       b\n        x\n"),
            ("expand -t 4", "a\tb\tc\n", "a   b   c\n"),
            ("expand -4", "ab\tc\n", "ab  c\n"),
            ("expand -t 2,5", "\ta\tb\tc\td\n", "  a  b c d\n"),
            ("expand -t 2,/4", "\ta\tb\tc\n", "  a b   c\n"),
            ("expand -t 2,+4", "\ta\tb\tc\n", "  a   b   c\n"),
            ("expand -i -t 2", "\t a\tb\n", "   a\tb\n"),
            ("expand -t 3", "ab\x08\tc", "ab\x08  c"),
        ] {
            check(&[], line, stdin, (out, "", 0));
        }
        for (line, err) in [
            ("expand -t 0", "expand: tab size cannot be 0\n"),
            ("expand -t 4,2", "expand: tab sizes must be ascending\n"),
            (
                "expand -t x",
                "expand: tab size contains invalid character(s): 'x'\n",
            ),
            (
                "expand -t 4/8",
                "expand: '/' specifier not at start of number: '/8'\n",
            ),
            (
                "expand -t 4,+4,/8",
                "expand: '/' specifier is mutually exclusive with '+'\n",
            ),
        ] {
            check(&[], line, "", ("", err, 1));
        }
        check(
            &[("f", "\tz\n")],
            "expand nofile f",
            "",
            (
                "        z\n",
                "expand: nofile: No such file or directory\n",
                1,
            ),
        );
    }
}
