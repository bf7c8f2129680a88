//! `unexpand`: converts runs of blanks to tabs (`-a` everywhere, default only leading
//! blanks; `-t N`/`-t LIST` imply `-a`; `--first-only`), GNU's algorithm, including
//! keeping a lone blank just before a tab stop.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::expand::{TabStops, obsolete_tabs, tab_stops};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("all", HasArg::No, "a"),
    long("first-only", HasArg::No, "first-only"),
    long("tabs", HasArg::Required, "t"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: unexpand [OPTION]... [FILE]...
Convert blanks in each FILE to tabs, writing to standard output.

With no FILE, or when FILE is -, read standard input.

  -a, --all        convert all blanks, instead of just initial blanks
      --first-only  convert only leading sequences of blanks (overrides -a)
  -t, --tabs=N     have tabs N characters apart instead of 8 (enables -a)
  -t, --tabs=LIST  use comma separated list of tab positions.
                     The last specified position can be prefixed with '/'
                     to specify a tab size to use after the last
                     explicitly specified tab stop.  Also a prefix of '+'
                     can be used to align remaining tab stops relative to
                     the last specified tab stop instead of the first column
      --help        display this help and exit
      --version     output version information and exit
";

/// The state of the line being converted; it carries across input files.
struct Unexpander<'t> {
    tabs: &'t TabStops,
    entire_line: bool,
    convert: bool,
    column: u64,
    next_tab: u64,
    index: usize,
    one_blank_before_stop: bool,
    prev_blank: bool,
    pending: Vec<u8>,
}

impl Unexpander<'_> {
    fn new_line(&mut self) {
        self.convert = true;
        self.column = 0;
        self.next_tab = 0;
        self.index = 0;
        self.one_blank_before_stop = false;
        self.prev_blank = true;
        self.pending.clear();
    }

    /// Feeds one byte (None at end of input).
    fn feed(&mut self, c: Option<u8>, out: &mut Vec<u8>) {
        let mut c = c;
        if self.convert {
            let blank = matches!(c, Some(b' ' | b'\t'));
            if blank {
                match self.tabs.next(self.column, &mut self.index) {
                    None => self.convert = false,
                    Some(next) => {
                        self.next_tab = next;
                        if c == Some(b'\t') {
                            self.column = next;
                            if let Some(first) = self.pending.first_mut() {
                                *first = b'\t';
                            }
                        } else {
                            self.column += 1;
                            if !(self.prev_blank && self.column == next) {
                                // Whether these blanks become a tab is not known yet.
                                if self.column == next {
                                    self.one_blank_before_stop = true;
                                }
                                self.pending.extend(c);
                                self.prev_blank = true;
                                return;
                            }
                            c = Some(b'\t');
                            if let Some(first) = self.pending.first_mut() {
                                *first = b'\t';
                            }
                        }
                        // Drop the pending blanks, unless it was a lone blank just
                        // before the previous stop.
                        let keep = usize::from(self.one_blank_before_stop);
                        self.pending.truncate(keep);
                    }
                }
            } else if c == Some(b'\x08') {
                self.column = self.column.saturating_sub(1);
                self.next_tab = self.column;
                self.index = self.index.saturating_sub(1);
            } else {
                self.column += 1;
            }
            if !self.pending.is_empty() {
                if self.pending.len() > 1
                    && self.one_blank_before_stop
                    && let Some(first) = self.pending.first_mut()
                {
                    *first = b'\t';
                }
                out.append(&mut self.pending);
                self.one_blank_before_stop = false;
            }
            self.prev_blank = blank;
            self.convert &= self.entire_line || blank;
        }
        if let Some(c) = c {
            out.push(c);
            if c == b'\n' {
                self.new_line();
            }
        }
    }
}

pub fn unexpand(ctx: &mut Ctx) -> CmdResult {
    let (args, obsolete) = obsolete_tabs(ctx.args);
    let parsed = match super::args::parse(&Spec::new("at:", LONG), &args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    let Some(tabs) = tab_stops(ctx, &obsolete, &parsed)? else {
        return Ok(1);
    };
    let entire_line = (parsed.has("a") || parsed.has("t")) && !parsed.has("first-only");
    let mut un = Unexpander {
        tabs: &tabs,
        entire_line,
        convert: true,
        column: 0,
        next_tab: 0,
        index: 0,
        one_blank_before_stop: false,
        prev_blank: true,
        pending: Vec::new(),
    };
    let status = ctx.each_input(&parsed.operands, |ctx, _, data| {
        for chunk in data.chunks(1 << 16) {
            ctx.host.check()?;
            let mut out = Vec::with_capacity(chunk.len());
            for &c in chunk {
                un.feed(Some(c), &mut out);
            }
            ctx.stdout.write_all(&out)?;
        }
        Ok(())
    })?;
    let mut out = Vec::new();
    un.feed(None, &mut out);
    ctx.stdout.write_all(&out)?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn unexpand_table() {
        for (line, stdin, out) in [
            ("unexpand", "        a       b\n", "\ta       b\n"),
            ("unexpand -a", "        a       b\n", "\ta\tb\n"),
            ("unexpand -t 4", "    a   b  c\n", "\ta\tb  c\n"),
            ("unexpand -a", "abcdefg h\n", "abcdefg h\n"),
            ("unexpand -a", "abcdefg  h\n", "abcdefg\t h\n"),
            ("unexpand -a", "abcdefg \th\n", "abcdefg\t\th\n"),
            ("unexpand -3", "   x  ", "\tx  "),
            ("unexpand -3", "a     x\n", "a     x\n"),
            ("unexpand --first-only -t 2", "    a    b\n", "\t\ta    b\n"),
            ("unexpand -t 2,5", "     a     b\n", "\t\ta     b\n"),
        ] {
            check(&[], line, stdin, (out, "", 0));
        }
        check(
            &[],
            "unexpand -t 3,1",
            "",
            ("", "unexpand: tab sizes must be ascending\n", 1),
        );
    }
}
