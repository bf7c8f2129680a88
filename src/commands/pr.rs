//! `pr`: paginates or columnates files for printing, as GNU coreutils 9.1 does: 66-line
//! pages with a 5-line header (date, file name, `Page N`) and trailer, columns printed
//! down (balanced) or across, files merged side by side, line numbers, margins, form
//! feeds in the input as page breaks, and the old `-s`/`-w` option semantics.
//!
//! The page machine follows GNU's: columns are read line by line from shared or per-file
//! inputs (stored and balanced first when one file is printed down several columns),
//! white space is delayed so that multi-column output is tabified, and a header is
//! printed only once a page is known to have something on it.

use std::io;
use std::sync::Arc;

use super::args::{HasArg, LongOpt, long, usage_error};
use super::util::{display_width, lq, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("pages", HasArg::Required, "pages"),
    long("columns", HasArg::Required, "columns"),
    long("across", HasArg::No, "a"),
    long("show-control-chars", HasArg::No, "c"),
    long("double-space", HasArg::No, "d"),
    long("date-format", HasArg::Required, "D"),
    long("expand-tabs", HasArg::Optional, "e"),
    long("form-feed", HasArg::No, "f"),
    long("header", HasArg::Required, "h"),
    long("output-tabs", HasArg::Optional, "i"),
    long("join-lines", HasArg::No, "J"),
    long("length", HasArg::Required, "l"),
    long("merge", HasArg::No, "m"),
    long("number-lines", HasArg::Optional, "n"),
    long("first-line-number", HasArg::Required, "N"),
    long("indent", HasArg::Required, "o"),
    long("no-file-warnings", HasArg::No, "r"),
    long("separator", HasArg::Optional, "s"),
    long("sep-string", HasArg::Optional, "S"),
    long("omit-header", HasArg::No, "t"),
    long("omit-pagination", HasArg::No, "T"),
    long("show-nonprinting", HasArg::No, "v"),
    long("width", HasArg::Required, "w"),
    long("page-width", HasArg::Required, "W"),
    super::about::HELP,
    super::about::VERSION,
];

/// getopt's short options (digits are column-count options of their own).
const SHORT: &str = "D:FJN:S::TW:abcde::fh:i::l:mn::o:rs::tvw:";

const USAGE: &str = "\
Usage: pr [OPTION]... [FILE]...
Paginate or columnate FILE(s) for printing.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  +FIRST_PAGE[:LAST_PAGE], --pages=FIRST_PAGE[:LAST_PAGE]
                    begin [stop] printing with page FIRST_[LAST_]PAGE
  -COLUMN, --columns=COLUMN
                    output COLUMN columns and print columns down,
                    unless -a is used. Balance number of lines in the
                    columns on each page
  -a, --across      print columns across rather than down, used together
                    with -COLUMN
  -c, --show-control-chars
                    use hat notation (^G) and octal backslash notation
  -d, --double-space
                    double space the output
  -D, --date-format=FORMAT
                    use FORMAT for the header date
  -e[CHAR[WIDTH]], --expand-tabs[=CHAR[WIDTH]]
                    expand input CHARs (TABs) to tab WIDTH (8)
  -F, -f, --form-feed
                    use form feeds instead of newlines to separate pages
                    (by a 3-line page header with -F or a 5-line header
                    and trailer without -F)
  -h, --header=HEADER
                    use a centered HEADER instead of filename in page header,
                    -h \"\" prints a blank line, don't use -h\"\"
  -i[CHAR[WIDTH]], --output-tabs[=CHAR[WIDTH]]
                    replace spaces with CHARs (TABs) to tab WIDTH (8)
  -J, --join-lines  merge full lines, turns off -W line truncation, no column
                    alignment, --sep-string[=STRING] sets separators
  -l, --length=PAGE_LENGTH
                    set the page length to PAGE_LENGTH (66) lines
                    (default number of lines of text 56, and with -F 63).
                    implies -t if PAGE_LENGTH <= 10
  -m, --merge       print all files in parallel, one in each column,
                    truncate lines, but join lines of full length with -J
  -n[SEP[DIGITS]], --number-lines[=SEP[DIGITS]]
                    number lines, use DIGITS (5) digits, then SEP (TAB),
                    default counting starts with 1st line of input file
  -N, --first-line-number=NUMBER
                    start counting with NUMBER at 1st line of first
                    page printed (see +FIRST_PAGE)
  -o, --indent=MARGIN
                    offset each line with MARGIN (zero) spaces, do not
                    affect -w or -W, MARGIN will be added to PAGE_WIDTH
  -r, --no-file-warnings
                    omit warning when a file cannot be opened
  -s[CHAR], --separator[=CHAR]
                    separate columns by a single character, default for CHAR
                    is the <TAB> character without -w and 'no char' with -w.
                    -s[CHAR] turns off line truncation of all 3 column
                    options (-COLUMN|-a -COLUMN|-m) except -w is set
  -S[STRING], --sep-string[=STRING]
                    separate columns by STRING,
                    without -S: Default separator <TAB> with -J and <space>
                    otherwise (same as -S\" \"), no effect on column options
  -t, --omit-header  omit page headers and trailers;
                     implied if PAGE_LENGTH <= 10
  -T, --omit-pagination
                    omit page headers and trailers, eliminate any pagination
                    by form feeds set in input files
  -v, --show-nonprinting
                    use octal backslash notation
  -w, --width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters for
                    multiple text-column output only, -s[char] turns off (72)
  -W, --page-width=PAGE_WIDTH
                    set page width to PAGE_WIDTH (72) characters always,
                    truncate lines, except -J option is set, no interference
                    with -S or -s
      --help     display this help and exit
      --version  output version information and exit
";

const INT_MAX: i64 = i32::MAX as i64;
const INT_MIN: i64 = i32::MIN as i64;
const HEADER_LINES: i64 = 5;
const FOOTER_LINES: i64 = 5;
/// Output is handed on in pieces of about this size, with the run's limits checked.
const FLUSH_AT: usize = 64 * 1024;

/// Why printing stopped early.
enum Stop {
    /// GNU `die`: the message (without the `pr: ` prefix), status 1.
    Die(String),
    Io(io::Error),
}

impl From<io::Error> for Stop {
    fn from(e: io::Error) -> Stop {
        Stop::Io(e)
    }
}

type Res<T = ()> = Result<T, Stop>;

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
enum Status {
    Open,
    /// A form feed was read while storing columns; becomes `OnHold` once the page's
    /// header is out.
    FfFound,
    OnHold,
    Closed,
}

/// One column of output: its input, where it starts across the page and, when a file
/// is printed down several columns, which of the stored lines are its own.
#[derive(Clone, Debug)]
struct Col {
    src: usize,
    name: String,
    status: Status,
    /// Lines are stored (and later printed from the store) rather than printed as read.
    stores: bool,
    current_line: usize,
    lines_stored: i64,
    lines_to_print: i64,
    start_position: i64,
    numbered: bool,
    /// A full page was printed without a form feed: one right after it adds no page.
    full_page_printed: bool,
}

impl Col {
    fn new(src: usize, name: String) -> Col {
        Col {
            src,
            name,
            status: Status::Open,
            stores: false,
            current_line: 0,
            lines_stored: 0,
            lines_to_print: 0,
            start_position: 0,
            numbered: false,
            full_page_printed: false,
        }
    }
}

/// An opened input, read whole.
struct Src {
    data: Arc<Vec<u8>>,
    pos: usize,
    /// Reading fails with this (a directory): reported when the input ends.
    error: Option<String>,
}

/// What one input character prints as.
enum Clump {
    None,
    Spaces(i64),
    Bytes([u8; 4], usize),
}

/// The options, as GNU's globals after parsing.
#[derive(Clone)]
struct Config {
    lines_per_page: i64,
    extremities: bool,
    keep_ff: bool,
    use_form_feed: bool,
    columns: i64,
    explicit_columns: bool,
    across: bool,
    storing: bool,
    balance: bool,
    parallel: bool,
    chars_per_line: i64,
    truncate: bool,
    join: bool,
    untabify: bool,
    input_tab_char: u8,
    input_tab_width: i64,
    tabify: bool,
    output_tab_char: u8,
    output_tab_width: i64,
    margin: i64,
    numbered: bool,
    number_separator: u8,
    number_digits: i64,
    skip_count: bool,
    start_line_num: i64,
    esc_sequence: bool,
    cntrl_prefix: bool,
    double_space: bool,
    ignore_failed_opens: bool,
    use_col_sep: bool,
    col_sep: Vec<u8>,
    date_format: String,
    custom_header: Option<String>,
    first_page: u64,
    last_page: u64,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            lines_per_page: 66,
            extremities: true,
            keep_ff: false,
            use_form_feed: false,
            columns: 1,
            explicit_columns: false,
            across: false,
            storing: true,
            balance: false,
            parallel: false,
            chars_per_line: 72,
            truncate: false,
            join: false,
            untabify: false,
            input_tab_char: b'\t',
            input_tab_width: 8,
            tabify: false,
            output_tab_char: b'\t',
            output_tab_width: 8,
            margin: 0,
            numbered: false,
            number_separator: b'\t',
            number_digits: 5,
            skip_count: true,
            start_line_num: 1,
            esc_sequence: false,
            cntrl_prefix: false,
            double_space: false,
            ignore_failed_opens: false,
            use_col_sep: false,
            col_sep: Vec::new(),
            date_format: String::new(),
            custom_header: None,
            first_page: 0,
            last_page: u64::MAX,
        }
    }
}

/// `isprint` in the C and C.UTF-8 locales, byte by byte.
fn is_print(c: u8) -> bool {
    (0x20..0x7f).contains(&c)
}

/// The number `strtol` reads at the start of `s` (leading blanks and a sign allowed):
/// `Ok((value, rest))`, or `Err(true)` when it overflows and `Err(false)` when there is
/// no number. `unsigned` refuses a minus sign, as `strtoumax` callers in gnulib do.
fn strtol(s: &str, unsigned: bool) -> Result<(i128, &str), bool> {
    let t = s.trim_start_matches([' ', '\t', '\n', '\x0b', '\x0c', '\r']);
    let (neg, body) = match t.as_bytes().first() {
        Some(b'-') if unsigned => return Err(false),
        Some(b'-') => (true, &t[1..]),
        Some(b'+') => (false, &t[1..]),
        _ => (false, t),
    };
    let digits = body.bytes().take_while(u8::is_ascii_digit).count();
    if digits == 0 {
        return Err(false);
    }
    let mut v: i128 = 0;
    let mut overflow = false;
    for b in body.bytes().take(digits) {
        v = v * 10 + i128::from(b - b'0');
        if v > i128::from(u64::MAX) {
            overflow = true;
            v = i128::from(u64::MAX);
        }
    }
    let v = if neg { -v } else { v };
    let limit = if unsigned {
        i128::from(u64::MAX)
    } else {
        i128::from(i64::MAX)
    };
    if overflow || v > limit || v < i128::from(i64::MIN) {
        return Err(true);
    }
    Ok((v, &body[digits..]))
}

/// gnulib's `xdectoimax` for an option value between `min` and `INT_MAX`: the error
/// text is `ERR: 'VALUE'` with the reason an out-of-range value gets.
fn getoptnum(s: &str, min: i64, err: &str) -> Result<i64, String> {
    let errno = match strtol(s, false) {
        Ok((v, "")) if v >= i128::from(min) && v <= i128::from(INT_MAX) => {
            return Ok(v as i64);
        }
        Ok((v, "")) => {
            if v > i128::from(INT_MAX / 2) || v < i128::from(INT_MIN / 2) {
                "Value too large for defined data type"
            } else {
                "Numerical result out of range"
            }
        }
        Err(true) => "Value too large for defined data type",
        _ => return Err(format!("{err}: {}", lq(s))),
    };
    Err(format!("{err}: {}: {errno}", lq(s)))
}

/// `-e`, `-i` and `-n` values: an optional character (anything but a digit) and an
/// optional positive width. `Err` is the message (usage follows it).
fn getoptarg(arg: &str, opt: char) -> Result<(Option<u8>, Option<i64>), String> {
    let mut ch = None;
    let mut rest = arg;
    if let Some(&b) = arg.as_bytes().first()
        && !b.is_ascii_digit()
    {
        ch = Some(b);
        rest = arg.get(1..).unwrap_or_else(|| {
            // A multibyte first character: its first byte is the character, as in C.
            &arg[arg.char_indices().nth(1).map_or(arg.len(), |(i, _)| i)..]
        });
    }
    if rest.is_empty() {
        return Ok((ch, None));
    }
    let bad = |why: &str| {
        Err(format!(
            "'-{opt}' extra characters or invalid number in the argument: {}{why}",
            lq(rest)
        ))
    };
    match strtol(rest, false) {
        Ok((v, "")) if v > 0 && v <= i128::from(INT_MAX) => Ok((ch, Some(v as i64))),
        Ok((v, "")) if v > 0 => bad(": Value too large for defined data type"),
        Err(true) => bad(": Value too large for defined data type"),
        _ => bad(""),
    }
}

/// `+FIRST[:LAST]` and `--pages`: `Ok(None)` when it is not a valid range (a file name
/// for `+`, an error for `--pages`), `Err` for gnulib's `xstrtol_fatal` text.
fn page_range(pages: &str, option: &str) -> Result<Option<(u64, u64)>, String> {
    let fatal = |overflow: bool| {
        if overflow {
            format!("{option} argument '{pages}' too large")
        } else {
            format!("invalid {option} argument '{pages}'")
        }
    };
    let (first, rest) = match strtol(pages, true) {
        Ok((v, rest)) => (v as u64, rest),
        Err(overflow) => return Err(fatal(overflow)),
    };
    if first == 0 {
        return Ok(None);
    }
    let mut last = u64::MAX;
    let mut rest = rest;
    if let Some(after) = rest.strip_prefix(':') {
        match strtol(after, true) {
            Ok((v, "")) => {
                last = v as u64;
                rest = "";
            }
            Ok(_) => return Err(fatal(false)),
            Err(overflow) => return Err(fatal(overflow)),
        }
        if last < first {
            return Ok(None);
        }
    }
    if !rest.is_empty() {
        return Ok(None);
    }
    Ok(Some((first, last)))
}

/// What the command line asks for.
enum Parsed {
    Run(Config, Vec<String>),
    /// Printed already (help, version) or an error: the status.
    Done(i32),
}

/// Arity of a short option in [`SHORT`].
fn short_arity(c: char) -> Option<HasArg> {
    let i = SHORT.find(c)?;
    let rest = &SHORT[i + c.len_utf8()..];
    Some(if rest.starts_with("::") {
        HasArg::Optional
    } else if rest.starts_with(':') {
        HasArg::Required
    } else {
        HasArg::No
    })
}

fn parse(ctx: &mut Ctx) -> io::Result<Parsed> {
    let mut cfg = Config::default();
    let mut files = Vec::new();
    let mut old_options = false;
    let mut old_w = false;
    let mut old_s = false;
    // Digits of old-style `-99` column counts, and how many belong to the current run.
    let mut count: Option<String> = None;
    let mut n_digits = 0usize;
    let args = ctx.args;
    let mut i = 0;
    macro_rules! die {
        ($msg:expr) => {{
            ctx.err($msg)?;
            return Ok(Parsed::Done(1));
        }};
    }
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            files.extend(args[i..].iter().cloned());
            break;
        }
        // The options of this word, in order, with their values.
        let mut opts: Vec<(String, Option<String>)> = Vec::new();
        if let Some(body) = a.strip_prefix("--") {
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (body, None),
            };
            let opt = match super::args::find_long(LONG, name) {
                Ok(o) => o,
                Err(msg) => {
                    // getopt names the whole word, value included.
                    let msg = msg.replacen(&format!("'--{name}'"), &format!("'{a}'"), 1);
                    return Ok(Parsed::Done(usage_error(ctx, &msg, 1)?));
                }
            };
            let value = match (opt.has_arg, value) {
                (HasArg::No, Some(_)) => {
                    let msg = format!("option '--{}' doesn't allow an argument", opt.name);
                    return Ok(Parsed::Done(usage_error(ctx, &msg, 1)?));
                }
                (HasArg::Required, None) => match args.get(i) {
                    Some(v) => {
                        i += 1;
                        Some(v.clone())
                    }
                    None => {
                        let msg = format!("option '--{}' requires an argument", opt.name);
                        return Ok(Parsed::Done(usage_error(ctx, &msg, 1)?));
                    }
                },
                (_, v) => v,
            };
            opts.push((opt.key.to_owned(), value));
        } else if a.len() > 1 && a.starts_with('-') {
            let cluster = &a[1..];
            for (pos, c) in cluster.char_indices() {
                if c.is_ascii_digit() {
                    opts.push((c.to_string(), None));
                    continue;
                }
                match short_arity(c) {
                    None => {
                        let msg = format!("invalid option -- '{c}'");
                        return Ok(Parsed::Done(usage_error(ctx, &msg, 1)?));
                    }
                    Some(HasArg::No) => opts.push((c.to_string(), None)),
                    Some(kind) => {
                        let rest = &cluster[pos + c.len_utf8()..];
                        if !rest.is_empty() {
                            opts.push((c.to_string(), Some(rest.to_owned())));
                        } else if kind == HasArg::Optional {
                            opts.push((c.to_string(), None));
                        } else if let Some(v) = args.get(i) {
                            i += 1;
                            opts.push((c.to_string(), Some(v.clone())));
                        } else {
                            let msg = format!("option requires an argument -- '{c}'");
                            return Ok(Parsed::Done(usage_error(ctx, &msg, 1)?));
                        }
                        break;
                    }
                }
            }
        } else {
            // `+FIRST[:LAST]` unless a page range is already set.
            if cfg.first_page == 0
                && let Some(range) = a.strip_prefix('+')
            {
                match page_range(range, "+") {
                    Err(msg) => die!(msg),
                    Ok(Some((first, last))) => {
                        cfg.first_page = first;
                        cfg.last_page = last;
                        continue;
                    }
                    Ok(None) => {}
                }
            }
            files.push(a.clone());
            continue;
        }
        for (key, value) in opts {
            if key.len() == 1 && key.bytes().all(|b| b.is_ascii_digit()) {
                let s = count.get_or_insert_with(String::new);
                s.truncate(n_digits);
                s.push_str(&key);
                n_digits += 1;
                continue;
            }
            n_digits = 0;
            let v = value.as_deref();
            macro_rules! num {
                ($min:expr, $err:expr) => {
                    match getoptnum(v.unwrap_or(""), $min, $err) {
                        Ok(n) => n,
                        Err(msg) => die!(msg),
                    }
                };
            }
            macro_rules! optarg {
                ($c:expr) => {
                    match v.map(|v| getoptarg(v, $c)) {
                        None => (None, None),
                        Some(Ok(pair)) => pair,
                        Some(Err(msg)) => return Ok(Parsed::Done(usage_error(ctx, &msg, 1)?)),
                    }
                };
            }
            match key.as_str() {
                "pages" => match page_range(v.unwrap_or(""), "--pages") {
                    Err(msg) => die!(msg),
                    Ok(Some((first, last))) => {
                        cfg.first_page = first;
                        cfg.last_page = last;
                    }
                    Ok(None) => die!(format!("invalid page range {}", lq(v.unwrap_or("")))),
                },
                "columns" => {
                    cfg.columns = num!(1, "invalid number of columns");
                    cfg.explicit_columns = true;
                    count = None;
                }
                "a" => {
                    cfg.across = true;
                    cfg.storing = false;
                }
                "b" => cfg.balance = true,
                "c" => cfg.cntrl_prefix = true,
                "d" => cfg.double_space = true,
                "D" => cfg.date_format = v.unwrap_or("").to_owned(),
                "e" => {
                    let (c, w) = optarg!('e');
                    cfg.input_tab_char = c.unwrap_or(cfg.input_tab_char);
                    cfg.input_tab_width = w.unwrap_or(cfg.input_tab_width);
                    cfg.untabify = true;
                }
                "f" | "F" => cfg.use_form_feed = true,
                "h" => cfg.custom_header = Some(v.unwrap_or("").to_owned()),
                "i" => {
                    let (c, w) = optarg!('i');
                    cfg.output_tab_char = c.unwrap_or(cfg.output_tab_char);
                    cfg.output_tab_width = w.unwrap_or(cfg.output_tab_width);
                    cfg.tabify = true;
                }
                "J" => cfg.join = true,
                "l" => cfg.lines_per_page = num!(1, "'-l PAGE_LENGTH' invalid number of lines"),
                "m" => {
                    cfg.parallel = true;
                    cfg.storing = false;
                }
                "n" => {
                    cfg.numbered = true;
                    let (c, w) = optarg!('n');
                    cfg.number_separator = c.unwrap_or(cfg.number_separator);
                    cfg.number_digits = w.unwrap_or(cfg.number_digits);
                }
                "N" => {
                    cfg.skip_count = false;
                    cfg.start_line_num = num!(INT_MIN, "'-N NUMBER' invalid starting line number");
                }
                "o" => cfg.margin = num!(0, "'-o MARGIN' invalid line offset"),
                "r" => cfg.ignore_failed_opens = true,
                "s" => {
                    old_options = true;
                    old_s = true;
                    if !cfg.use_col_sep
                        && let Some(v) = v
                    {
                        cfg.col_sep = v.as_bytes().to_vec();
                    }
                }
                "S" => {
                    old_s = false;
                    cfg.col_sep = v.unwrap_or("").as_bytes().to_vec();
                    cfg.use_col_sep = true;
                }
                "t" => {
                    cfg.extremities = false;
                    cfg.keep_ff = true;
                }
                "T" => {
                    cfg.extremities = false;
                    cfg.keep_ff = false;
                }
                "v" => cfg.esc_sequence = true,
                "w" => {
                    old_options = true;
                    old_w = true;
                    let n = num!(1, "'-w PAGE_WIDTH' invalid number of characters");
                    if !cfg.truncate {
                        cfg.chars_per_line = n;
                    }
                }
                "W" => {
                    old_w = false;
                    cfg.truncate = true;
                    cfg.chars_per_line = num!(1, "'-W PAGE_WIDTH' invalid number of characters");
                }
                "help" => {
                    super::about::write_help(ctx, USAGE)?;
                    return Ok(Parsed::Done(0));
                }
                "version" => {
                    super::about::write_version(ctx)?;
                    return Ok(Parsed::Done(0));
                }
                _ => return Ok(Parsed::Done(usage_error(ctx, "", 1)?)),
            }
        }
    }
    if let Some(digits) = count {
        cfg.columns = match getoptnum(&digits, 1, "invalid number of columns") {
            Ok(n) => n,
            Err(msg) => die!(msg),
        };
        cfg.explicit_columns = true;
    }
    if cfg.date_format.is_empty() {
        cfg.date_format = default_date_format(ctx).to_owned();
    }
    if cfg.first_page == 0 {
        cfg.first_page = 1;
    }
    if cfg.parallel && cfg.explicit_columns {
        die!("cannot specify number of columns when printing in parallel");
    }
    if cfg.parallel && cfg.across {
        die!("cannot specify both printing across and printing in parallel");
    }
    // The old POSIX `-w` and `-s` in terms of `-W`, `-J` and `-S`.
    if old_options {
        let columned = cfg.parallel || cfg.explicit_columns;
        if old_w {
            if columned {
                cfg.truncate = true;
                if old_s {
                    cfg.use_col_sep = true;
                }
            } else {
                cfg.join = true;
            }
        } else if !cfg.use_col_sep && old_s && columned {
            if !cfg.truncate {
                cfg.join = true;
                if !cfg.col_sep.is_empty() {
                    cfg.use_col_sep = true;
                }
            } else {
                cfg.use_col_sep = true;
            }
        }
    }
    Ok(Parsed::Run(cfg, files))
}

/// GNU's header date format: `%Y-%m-%d %H:%M`, or the POSIX one in the C locale when
/// `POSIXLY_CORRECT` is set.
fn default_date_format(ctx: &Ctx) -> &'static str {
    let locale = ["LC_ALL", "LC_TIME", "LANG"]
        .iter()
        .find_map(|k| ctx.env.get(*k).filter(|v| !v.is_empty()));
    let c_locale = locale.is_none_or(|l| l == "C" || l == "POSIX");
    if ctx.env.contains_key("POSIXLY_CORRECT") && c_locale {
        "%b %e %H:%M %Y"
    } else {
        "%Y-%m-%d %H:%M"
    }
}

/// The printer: GNU's state for one run of `pr`.
struct Pr<'a, 'b> {
    ctx: &'a mut Ctx<'b>,
    cfg: Config,
    out: Vec<u8>,
    cols: Vec<Col>,
    /// Stands in for a column index that is out of range (never expected).
    spare: Col,
    srcs: Vec<Src>,
    stdin_src: Option<usize>,
    failed_opens: bool,
    // Page layout.
    lines_per_body: i64,
    chars_per_column: i64,
    number_width: i64,
    line_count: i64,
    line_number: i32,
    page_number: u64,
    total_files: i64,
    files_ready: i64,
    date_text: String,
    file_text: String,
    header_width_available: i64,
    /// The time of headers that name no file (read once, as GNU does).
    now: Option<crate::fs::Timestamp>,
    // Stored columns.
    buff: Vec<u8>,
    line_vector: Vec<usize>,
    end_vector: Vec<i64>,
    // Line state.
    output_position: i64,
    input_position: i64,
    spaces_not_printed: i64,
    separators_not_printed: i64,
    padding_not_printed: i64,
    pad_vertically: bool,
    print_a_header: bool,
    print_a_ff: bool,
    align_empty_cols: bool,
    empty_line: bool,
    ff_only: bool,
    last_line: bool,
}

impl<'a, 'b> Pr<'a, 'b> {
    fn new(ctx: &'a mut Ctx<'b>, cfg: Config) -> Pr<'a, 'b> {
        Pr {
            ctx,
            cfg,
            out: Vec::new(),
            cols: Vec::new(),
            spare: Col::new(0, String::new()),
            srcs: Vec::new(),
            stdin_src: None,
            failed_opens: false,
            lines_per_body: 0,
            chars_per_column: 0,
            number_width: 0,
            line_count: 1,
            line_number: 0,
            page_number: 0,
            total_files: 0,
            files_ready: 0,
            date_text: String::new(),
            file_text: String::new(),
            header_width_available: 0,
            now: None,
            buff: Vec::new(),
            line_vector: Vec::new(),
            end_vector: Vec::new(),
            output_position: 0,
            input_position: 0,
            spaces_not_printed: 0,
            separators_not_printed: 0,
            padding_not_printed: 0,
            pad_vertically: false,
            print_a_header: false,
            print_a_ff: false,
            align_empty_cols: false,
            empty_line: false,
            ff_only: false,
            last_line: false,
        }
    }

    fn col(&mut self, p: usize) -> &mut Col {
        self.cols.get_mut(p).unwrap_or(&mut self.spare)
    }

    fn columns(&self) -> usize {
        self.cols.len()
    }

    // ---- output ----

    fn put(&mut self, c: u8) -> Res {
        self.out.push(c);
        if self.out.len() >= FLUSH_AT {
            self.flush()?;
        }
        Ok(())
    }

    fn put_n(&mut self, c: u8, n: i64) -> Res {
        for _ in 0..n.max(0) {
            self.put(c)?;
        }
        Ok(())
    }

    fn put_all(&mut self, s: &[u8]) -> Res {
        for &c in s {
            self.put(c)?;
        }
        Ok(())
    }

    fn flush(&mut self) -> Res {
        self.ctx.stdout.write_all(&self.out)?;
        self.out.clear();
        self.ctx.host.check()?;
        Ok(())
    }

    // ---- input ----

    fn getc(&mut self, p: usize) -> Option<u8> {
        let src = self.cols.get(p).map_or(usize::MAX, |c| c.src);
        let s = self.srcs.get_mut(src)?;
        let c = s.data.get(s.pos).copied();
        if c.is_some() {
            s.pos += 1;
        }
        c
    }

    fn ungetc(&mut self, p: usize, c: Option<u8>) {
        let src = self.cols.get(p).map_or(usize::MAX, |c| c.src);
        if c.is_some()
            && let Some(s) = self.srcs.get_mut(src)
        {
            s.pos = s.pos.saturating_sub(1);
        }
    }

    /// After a form feed, a newline right behind it belongs to it.
    fn eat_newline(&mut self, p: usize) {
        let c = self.getc(p);
        if c != Some(b'\n') {
            self.ungetc(p, c);
        }
    }

    /// Opens `name` (`-` is standard input) as a column's input; a failure is reported
    /// (unless `-r`) and gives `None`.
    fn open_file(&mut self, name: &str) -> Res<Option<(Col, Option<crate::fs::Timestamp>)>> {
        if name == "-" {
            let src = self.stdin()?;
            self.total_files += 1;
            return Ok(Some((Col::new(src, "standard input".to_owned()), None)));
        }
        let (data, error, mtime) = match self.ctx.open_input(name) {
            Ok(input) => {
                let mtime = {
                    let path = self.ctx.path(name);
                    self.ctx.fs.lock().stat(&path).ok().map(|m| m.mtime)
                };
                (input.read_all(&mut *self.ctx.stdin)?, None, mtime)
            }
            Err(e) if e.is(crate::fs::Errno::EISDIR) => {
                (Arc::new(Vec::new()), Some(e.to_string()), None)
            }
            Err(super::util::OpenError::Limit(e)) => return Err(Stop::Io(e)),
            Err(e) => {
                self.failed_opens = true;
                if !self.cfg.ignore_failed_opens {
                    self.flush()?;
                    self.ctx.err(format!("{}: {e}", quotef(name)))?;
                }
                return Ok(None);
            }
        };
        self.srcs.push(Src {
            data,
            pos: 0,
            error,
        });
        self.total_files += 1;
        let col = Col::new(self.srcs.len() - 1, name.to_owned());
        Ok(Some((col, mtime)))
    }

    /// Standard input's source, read the first time it is named.
    fn stdin(&mut self) -> Res<usize> {
        if let Some(i) = self.stdin_src {
            return Ok(i);
        }
        let data = super::util::Input::Stdin.read_all(&mut *self.ctx.stdin)?;
        self.srcs.push(Src {
            data,
            pos: 0,
            error: None,
        });
        let i = self.srcs.len() - 1;
        self.stdin_src = Some(i);
        Ok(i)
    }

    // ---- setup ----

    fn print_files(&mut self, names: &[String]) -> Res {
        self.init_parameters(names.len())?;
        if !self.init_fps(names)? {
            return Ok(());
        }
        if self.cfg.first_page > 1 {
            if !self.skip_to_page(self.cfg.first_page)? {
                return Ok(());
            }
            self.page_number = self.cfg.first_page;
        } else {
            self.page_number = 1;
        }
        self.init_funcs();
        self.line_number = self.line_count as i32;
        // A page can hold no text (`-l 1 -d`): GNU then loops for ever, so each page
        // charges work and the run's limits end it.
        while self.print_page()? {
            self.ctx.host.check()?;
        }
        Ok(())
    }

    fn init_parameters(&mut self, number_of_files: usize) -> Res {
        let cfg = &mut self.cfg;
        let mut lines = cfg.lines_per_page - HEADER_LINES - FOOTER_LINES;
        if lines <= 0 {
            cfg.extremities = false;
            cfg.keep_ff = true;
        }
        if !cfg.extremities {
            lines = cfg.lines_per_page;
        }
        if cfg.double_space {
            lines /= 2;
        }
        self.lines_per_body = lines;
        if number_of_files == 0 {
            cfg.parallel = false;
        }
        if cfg.parallel {
            cfg.columns = number_of_files as i64;
        }
        if cfg.storing {
            cfg.balance = true;
        }
        if cfg.columns > 1 {
            if !cfg.use_col_sep {
                cfg.col_sep = if cfg.join {
                    b"\t".to_vec()
                } else {
                    b" ".to_vec()
                };
                cfg.use_col_sep = true;
            } else if !cfg.join && cfg.col_sep == b"\t" {
                cfg.col_sep = b" ".to_vec();
            }
            cfg.truncate = true;
            if cfg.col_sep != b"\t" {
                cfg.untabify = true;
            }
            cfg.tabify = true;
        } else {
            cfg.storing = false;
        }
        if cfg.join {
            cfg.truncate = false;
        }
        let mut used_by_number = 0;
        if cfg.numbered {
            self.line_count = cfg.start_line_num;
            self.number_width = if cfg.number_separator == b'\t' {
                cfg.number_digits + 8 - cfg.number_digits % 8
            } else {
                cfg.number_digits + 1
            };
            if cfg.parallel {
                used_by_number = self.number_width;
            }
        }
        let sep_chars = (cfg.columns - 1)
            .saturating_mul(cfg.col_sep.len() as i64)
            .min(INT_MAX);
        let useful = (cfg.chars_per_line - used_by_number - sep_chars).max(0);
        self.chars_per_column = useful / cfg.columns.max(1);
        if self.chars_per_column < 1 {
            return Err(Stop::Die("page width too narrow".to_owned()));
        }
        Ok(())
    }

    fn init_fps(&mut self, names: &[String]) -> Res<bool> {
        self.total_files = 0;
        self.cols.clear();
        if self.cfg.parallel {
            for name in names {
                if let Some((col, _)) = self.open_file(name)? {
                    self.cols.push(col);
                }
            }
            if self.cols.is_empty() {
                return Ok(false);
            }
            self.init_header(None, None);
        } else {
            let first = match names.first() {
                Some(name) => match self.open_file(name)? {
                    Some((col, mtime)) => {
                        let named = (name != "-").then_some(name.as_str());
                        self.init_header(named, mtime);
                        col
                    }
                    None => return Ok(false),
                },
                None => {
                    let src = self.stdin()?;
                    self.total_files += 1;
                    self.init_header(None, None);
                    Col::new(src, "standard input".to_owned())
                }
            };
            let n = self.cfg.columns.max(1) as usize;
            self.cols = vec![first; n];
        }
        self.files_ready = self.total_files;
        Ok(true)
    }

    /// The header's date (the file's modification time, or now) and name.
    fn init_header(&mut self, name: Option<&str>, mtime: Option<crate::fs::Timestamp>) {
        let t = match (name, mtime) {
            (Some(_), Some(t)) => t,
            _ => *self
                .now
                .get_or_insert_with(|| self.ctx.fs.lock().clock().now()),
        };
        self.date_text = (self.ctx.zone()).strftime(&self.cfg.date_format, t.secs, t.nanos);
        self.file_text = match (&self.cfg.custom_header, name) {
            (Some(h), _) => h.clone(),
            (None, Some(n)) => n.to_owned(),
            (None, None) => String::new(),
        };
        self.header_width_available = self.cfg.chars_per_line
            - display_width(&self.date_text) as i64
            - display_width(&self.file_text) as i64;
    }

    fn init_funcs(&mut self) {
        let cfg = &self.cfg;
        let sep = cfg.col_sep.len() as i64;
        let mut h = cfg.margin;
        let mut h_next = if !cfg.truncate {
            0
        } else if cfg.parallel && cfg.numbered {
            h + self.chars_per_column + self.number_width
        } else {
            h + self.chars_per_column
        };
        h += sep;
        let n = self.cols.len();
        for (i, col) in self.cols.iter_mut().enumerate() {
            col.stores = cfg.storing;
            col.numbered = cfg.numbered && (!cfg.parallel || i == 0);
            col.start_position = h;
            if i + 1 == n {
                // The rightmost column is numbered with -m only when it is the first.
                col.numbered = cfg.numbered && (!cfg.parallel || n == 1);
                break;
            }
            if !cfg.truncate {
                h = 0;
                h_next = 0;
            } else {
                h = h_next + sep;
                h_next = h + self.chars_per_column;
            }
        }
    }

    fn init_page(&mut self) -> Res {
        if self.cfg.storing {
            self.store_columns()?;
            for col in &mut self.cols {
                col.lines_to_print = col.lines_stored;
            }
        } else {
            let lines = self.lines_per_body;
            for col in &mut self.cols {
                col.lines_to_print = if col.status == Status::Open { lines } else { 0 };
            }
        }
        Ok(())
    }

    fn cols_ready_to_print(&self) -> usize {
        let storing = self.cfg.storing;
        self.cols
            .iter()
            .filter(|q| {
                q.status == Status::Open
                    || q.status == Status::FfFound
                    || (storing && q.lines_stored > 0 && q.lines_to_print > 0)
            })
            .count()
    }

    // ---- files ----

    fn close_file(&mut self, p: usize) -> Res {
        if self.col(p).status == Status::Closed {
            return Ok(());
        }
        let src = self.col(p).src;
        if let Some(err) = self.srcs.get(src).and_then(|s| s.error.clone()) {
            return Err(Stop::Die(format!("{}: {err}", quotef(&self.col(p).name))));
        }
        if !self.cfg.parallel {
            for q in &mut self.cols {
                q.status = Status::Closed;
                if q.lines_stored == 0 {
                    q.lines_to_print = 0;
                }
            }
        } else {
            let col = self.col(p);
            col.status = Status::Closed;
            col.lines_to_print = 0;
        }
        self.files_ready -= 1;
        Ok(())
    }

    fn hold_file(&mut self, p: usize) {
        if !self.cfg.parallel {
            let status = if self.cfg.storing {
                Status::FfFound
            } else {
                Status::OnHold
            };
            for q in &mut self.cols {
                q.status = status;
            }
        } else {
            self.col(p).status = Status::OnHold;
        }
        self.col(p).lines_to_print = 0;
        self.files_ready -= 1;
    }

    fn reset_status(&mut self) {
        for q in &mut self.cols {
            if q.status == Status::OnHold {
                q.status = Status::Open;
                self.files_ready += 1;
            }
        }
        if self.cfg.storing {
            let closed = self.cols.first().is_none_or(|c| c.status == Status::Closed);
            self.files_ready = if closed { 0 } else { 1 };
        }
    }

    // ---- pages ----

    fn print_page(&mut self) -> Res<bool> {
        self.init_page()?;
        if self.cols_ready_to_print() == 0 {
            return Ok(false);
        }
        if self.cfg.extremities {
            self.print_a_header = true;
        }
        self.pad_vertically = false;
        let mut pv = false;
        let mut lines_left = self.lines_per_body;
        if self.cfg.double_space {
            lines_left *= 2;
        }
        let columns = self.columns();
        while lines_left > 0 && self.cols_ready_to_print() > 0 {
            self.output_position = 0;
            self.spaces_not_printed = 0;
            self.separators_not_printed = 0;
            self.pad_vertically = false;
            self.align_empty_cols = false;
            self.empty_line = true;
            for p in 0..columns {
                self.input_position = 0;
                let (to_print, status, start, stores) = {
                    let c = self.col(p);
                    (c.lines_to_print, c.status, c.start_position, c.stores)
                };
                if to_print > 0 || status == Status::FfFound {
                    self.ff_only = false;
                    self.padding_not_printed = start;
                    let whole = if stores {
                        self.print_stored(p)?
                    } else {
                        self.read_line(p)?
                    };
                    if !whole {
                        self.read_rest_of_line(p)?;
                    }
                    pv |= self.pad_vertically;
                    self.col(p).lines_to_print -= 1;
                    if self.col(p).lines_to_print <= 0 && self.cols_ready_to_print() == 0 {
                        break;
                    }
                    let status = self.col(p).status;
                    if self.cfg.parallel && status != Status::Open {
                        if self.empty_line {
                            self.align_empty_cols = true;
                        } else if status == Status::Closed
                            || (status == Status::OnHold && self.ff_only)
                        {
                            self.align_column(p)?;
                        }
                    }
                } else if self.cfg.parallel {
                    if self.empty_line {
                        self.align_empty_cols = true;
                    } else {
                        self.align_column(p)?;
                    }
                }
                if self.cfg.use_col_sep {
                    self.separators_not_printed += 1;
                }
            }
            if self.pad_vertically {
                self.put(b'\n')?;
                lines_left -= 1;
            }
            if self.cols_ready_to_print() == 0 && !self.cfg.extremities {
                break;
            }
            if self.cfg.double_space && pv {
                self.put(b'\n')?;
                lines_left -= 1;
            }
        }
        if lines_left == 0 {
            for col in &mut self.cols {
                if col.status == Status::Open {
                    col.full_page_printed = true;
                }
            }
        }
        self.pad_vertically = pv;
        if pv && self.cfg.extremities {
            self.pad_down(lines_left + FOOTER_LINES)?;
        } else if self.cfg.keep_ff && self.print_a_ff {
            self.put(b'\x0c')?;
            self.print_a_ff = false;
        }
        self.flush()?;
        self.page_number = self.page_number.wrapping_add(1);
        if self.cfg.last_page < self.page_number {
            return Ok(false);
        }
        self.reset_status();
        Ok(true)
    }

    /// Moves across to where the column starts (owed padding) and prints the
    /// separators owed before it.
    fn pad_to_column(&mut self) -> Res {
        let sep = self.cfg.col_sep.len() as i64;
        if sep < self.padding_not_printed {
            self.pad_across_to(self.padding_not_printed - sep)?;
            self.padding_not_printed = 0;
        }
        if self.cfg.use_col_sep {
            self.print_sep_string()?;
        }
        Ok(())
    }

    fn align_column(&mut self, p: usize) -> Res {
        self.padding_not_printed = self.col(p).start_position;
        self.pad_to_column()?;
        if self.col(p).numbered {
            self.add_line_number(p)?;
        }
        Ok(())
    }

    fn store_columns(&mut self) -> Res {
        self.buff.clear();
        self.line_vector.clear();
        self.end_vector.clear();
        let mut buff_start = 0usize;
        for col in &mut self.cols {
            col.lines_stored = 0;
        }
        let mut line = 0usize;
        for p in 0..self.columns() {
            if self.files_ready <= 0 {
                break;
            }
            self.col(p).current_line = line;
            let mut j = self.lines_per_body;
            while j > 0 && self.files_ready > 0 {
                j -= 1;
                if self.col(p).status != Status::Open {
                    continue;
                }
                self.input_position = 0;
                if !self.read_line(p)? {
                    self.read_rest_of_line(p)?;
                }
                if self.col(p).status == Status::Open || buff_start != self.buff.len() {
                    self.col(p).lines_stored += 1;
                    self.line_vector.push(buff_start);
                    self.end_vector.push(self.input_position);
                    buff_start = self.buff.len();
                    line += 1;
                }
            }
        }
        self.line_vector.push(buff_start);
        self.balance(line);
        Ok(())
    }

    fn balance(&mut self, total: usize) {
        let columns = self.columns().max(1);
        let mut first = 0;
        for (i, col) in self.cols.iter_mut().enumerate() {
            let mut lines = total / columns;
            if i < total % columns {
                lines += 1;
            }
            col.lines_stored = lines as i64;
            col.current_line = first;
            first += lines;
        }
    }

    fn add_line_number(&mut self, p: usize) -> Res {
        let digits = self.line_number.to_string();
        self.line_number = self.line_number.wrapping_add(1);
        let width = self.cfg.number_digits;
        let len = digits.len() as i64;
        if width > len {
            for _ in 0..width - len {
                self.char_func(p, b' ')?;
            }
        }
        // Cutting off the high-order digits keeps the width, as GNU does.
        let cut = (len - width).max(0) as usize;
        for b in digits.bytes().skip(cut) {
            self.char_func(p, b)?;
        }
        let sep = self.cfg.number_separator;
        if self.columns() > 1 {
            if sep == b'\t' {
                for _ in 0..self.number_width - width {
                    self.char_func(p, b' ')?;
                }
            } else {
                self.char_func(p, sep)?;
            }
        } else {
            self.char_func(p, sep)?;
            if sep == b'\t' {
                let w = self.cfg.output_tab_width;
                self.output_position += w - self.output_position % w;
            }
        }
        if self.cfg.truncate && !self.cfg.parallel {
            self.input_position += self.number_width;
        }
        Ok(())
    }

    fn pad_across_to(&mut self, position: i64) -> Res {
        if self.cfg.tabify {
            self.spaces_not_printed = position - self.output_position;
        } else {
            self.put_n(b' ', position - self.output_position)?;
            self.output_position = position;
        }
        Ok(())
    }

    fn pad_down(&mut self, lines: i64) -> Res {
        if self.cfg.use_form_feed {
            self.put(b'\x0c')
        } else {
            self.put_n(b'\n', lines)
        }
    }

    /// A form feed ends the line and, until the next page, the column's input.
    fn form_feed(&mut self, p: usize) {
        self.eat_newline(p);
        if self.cfg.keep_ff {
            self.print_a_ff = true;
        }
        self.hold_file(p);
    }

    fn read_rest_of_line(&mut self, p: usize) -> Res {
        loop {
            match self.getc(p) {
                Some(b'\n') => return Ok(()),
                Some(b'\x0c') => {
                    self.form_feed(p);
                    return Ok(());
                }
                None => return self.close_file(p),
                Some(_) => {}
            }
        }
    }

    /// Reads a line of a page being skipped (`+FIRST`), counting it for `-n`.
    fn skip_read(&mut self, p: usize, column_number: usize) -> Res {
        let mut c = self.getc(p);
        if c == Some(b'\x0c') && self.col(p).full_page_printed {
            c = self.getc(p);
            if c == Some(b'\n') {
                c = self.getc(p);
            }
        }
        self.col(p).full_page_printed = false;
        let single_ff = c == Some(b'\x0c');
        if self.last_line {
            self.col(p).full_page_printed = true;
        }
        while c != Some(b'\n') {
            match c {
                Some(b'\x0c') => {
                    if self.last_line {
                        if !self.cfg.parallel {
                            for q in &mut self.cols {
                                q.full_page_printed = false;
                            }
                        } else {
                            self.col(p).full_page_printed = false;
                        }
                    }
                    self.eat_newline(p);
                    self.hold_file(p);
                    break;
                }
                None => {
                    self.close_file(p)?;
                    break;
                }
                Some(_) => c = self.getc(p),
            }
        }
        if self.cfg.skip_count && (!self.cfg.parallel || column_number == 1) && !single_ff {
            self.line_count += 1;
        }
        Ok(())
    }

    fn print_white_space(&mut self) -> Res {
        let mut h_old = self.output_position;
        let goal = h_old + self.spaces_not_printed;
        let w = self.cfg.output_tab_width;
        let tab = self.cfg.output_tab_char;
        while goal - h_old > 1 {
            let h_new = h_old + w - h_old % w;
            if h_new > goal {
                break;
            }
            self.put(tab)?;
            h_old = h_new;
        }
        self.put_n(b' ', goal - h_old)?;
        self.output_position = goal;
        self.spaces_not_printed = 0;
        Ok(())
    }

    /// Prints the separators owed before a column (only the first one has the string:
    /// GNU's loop uses up its length once).
    fn print_sep_string(&mut self) -> Res {
        if self.separators_not_printed <= 0 {
            if self.spaces_not_printed > 0 {
                self.print_white_space()?;
            }
            return Ok(());
        }
        let sep = std::mem::take(&mut self.cfg.col_sep);
        let mut rest = sep.iter();
        let result = (|| {
            while self.separators_not_printed > 0 {
                for &c in rest.by_ref() {
                    if c == b' ' {
                        self.spaces_not_printed += 1;
                    } else {
                        if self.spaces_not_printed > 0 {
                            self.print_white_space()?;
                        }
                        self.put(c)?;
                        self.output_position += 1;
                    }
                }
                if self.spaces_not_printed > 0 {
                    self.print_white_space()?;
                }
                self.separators_not_printed -= 1;
            }
            Ok(())
        })();
        self.cfg.col_sep = sep;
        result
    }

    /// Stores or prints one character of column `p`.
    fn char_func(&mut self, p: usize, c: u8) -> Res {
        if self.col(p).stores {
            self.buff.push(c);
            Ok(())
        } else {
            self.print_char(c)
        }
    }

    fn print_clump(&mut self, p: usize, clump: &Clump) -> Res {
        match clump {
            Clump::None => Ok(()),
            Clump::Spaces(n) => {
                for _ in 0..*n {
                    self.char_func(p, b' ')?;
                }
                Ok(())
            }
            Clump::Bytes(b, n) => {
                for &c in b.iter().take(*n) {
                    self.char_func(p, c)?;
                }
                Ok(())
            }
        }
    }

    fn print_char(&mut self, c: u8) -> Res {
        if self.cfg.tabify {
            if c == b' ' {
                self.spaces_not_printed += 1;
                return Ok(());
            }
            if self.spaces_not_printed > 0 {
                self.print_white_space()?;
            }
            if !is_print(c) {
                if c == b'\x08' {
                    self.output_position -= 1;
                }
            } else {
                self.output_position += 1;
            }
        }
        self.put(c)
    }

    fn skip_to_page(&mut self, page: u64) -> Res<bool> {
        let mut n = 1u64;
        while n < page {
            let columns = self.columns();
            for _ in 1..self.lines_per_body.max(1) {
                for j in 0..columns {
                    if self.col(j).status == Status::Open {
                        self.skip_read(j, j + 1)?;
                    }
                }
            }
            self.last_line = true;
            for j in 0..columns {
                if self.col(j).status == Status::Open {
                    self.skip_read(j, j + 1)?;
                }
            }
            if self.cfg.storing {
                for q in &mut self.cols {
                    if q.status != Status::Closed {
                        q.status = Status::OnHold;
                    }
                }
            }
            self.reset_status();
            self.last_line = false;
            self.ctx.host.check()?;
            if self.files_ready < 1 {
                self.flush()?;
                self.ctx.err(format!(
                    "starting page number {page} exceeds page count {n}"
                ))?;
                break;
            }
            n += 1;
        }
        Ok(self.files_ready > 0)
    }

    fn print_header(&mut self) -> Res {
        self.output_position = 0;
        self.pad_across_to(self.cfg.margin)?;
        self.print_white_space()?;
        if self.page_number == 0 {
            return Err(Stop::Die("page number overflow".to_owned()));
        }
        let page_text = format!("Page {}", self.page_number);
        let available = (self.header_width_available - page_text.len() as i64).max(0);
        let lhs = available >> 1;
        let rhs = available - lhs;
        self.put_all(b"\n\n")?;
        self.put_n(b' ', self.cfg.margin)?;
        let date = std::mem::take(&mut self.date_text);
        let file = std::mem::take(&mut self.file_text);
        let result = (|| {
            self.put_all(date.as_bytes())?;
            self.put_n(b' ', lhs.max(1))?;
            self.put_all(file.as_bytes())?;
            self.put_n(b' ', rhs.max(1))?;
            self.put_all(page_text.as_bytes())?;
            self.put_all(b"\n\n\n")
        })();
        self.date_text = date;
        self.file_text = file;
        result?;
        self.print_a_header = false;
        self.output_position = 0;
        Ok(())
    }

    /// Prints (or stores) one line of column `p`; false when it was cut at the column's
    /// width and the rest of it is still to be skipped.
    fn read_line(&mut self, p: usize) -> Res<bool> {
        let mut c = self.getc(p);
        let mut last_input_position = self.input_position;
        if c == Some(b'\x0c') && self.col(p).full_page_printed {
            c = self.getc(p);
            if c == Some(b'\n') {
                c = self.getc(p);
            }
        }
        self.col(p).full_page_printed = false;
        let storing = self.cfg.storing;
        let clump = match c {
            Some(b'\x0c') => {
                self.eat_newline(p);
                self.ff_only = true;
                if self.print_a_header && !storing {
                    self.pad_vertically = true;
                    self.print_header()?;
                } else if self.cfg.keep_ff {
                    self.print_a_ff = true;
                }
                self.hold_file(p);
                return Ok(true);
            }
            None => {
                self.close_file(p)?;
                return Ok(true);
            }
            Some(b'\n') => Clump::None,
            Some(ch) => self.char_to_clump(ch),
        };
        if self.cfg.truncate && self.input_position > self.chars_per_column {
            self.input_position = last_input_position;
            return Ok(false);
        }
        if !self.col(p).stores {
            self.pad_vertically = true;
            if self.print_a_header && !storing {
                self.print_header()?;
            }
            if self.cfg.parallel && self.align_empty_cols {
                let k = self.separators_not_printed;
                self.separators_not_printed = 0;
                for q in 0..k.max(0) as usize {
                    self.align_column(q)?;
                    self.separators_not_printed += 1;
                }
                self.padding_not_printed = self.col(p).start_position;
                self.spaces_not_printed = if self.cfg.truncate {
                    self.chars_per_column
                } else {
                    0
                };
                self.align_empty_cols = false;
            }
            self.pad_to_column()?;
        }
        if self.col(p).numbered {
            self.add_line_number(p)?;
        }
        self.empty_line = false;
        if c == Some(b'\n') {
            return Ok(true);
        }
        self.print_clump(p, &clump)?;
        loop {
            let c = self.getc(p);
            match c {
                Some(b'\n') => return Ok(true),
                Some(b'\x0c') => {
                    self.form_feed(p);
                    return Ok(true);
                }
                None => return self.close_file(p).map(|()| true),
                Some(ch) => {
                    last_input_position = self.input_position;
                    let clump = self.char_to_clump(ch);
                    if self.cfg.truncate && self.input_position > self.chars_per_column {
                        self.input_position = last_input_position;
                        return Ok(false);
                    }
                    self.print_clump(p, &clump)?;
                }
            }
        }
    }

    /// Prints a line of column `p` from the store.
    fn print_stored(&mut self, p: usize) -> Res<bool> {
        let line = self.col(p).current_line;
        self.col(p).current_line += 1;
        self.pad_vertically = true;
        if self.print_a_header {
            self.print_header()?;
        }
        if self.col(p).status == Status::FfFound {
            for q in &mut self.cols {
                q.status = Status::OnHold;
            }
            if self.cols.first().is_none_or(|c| c.lines_to_print <= 0) {
                if !self.cfg.extremities {
                    self.pad_vertically = false;
                }
                return Ok(true);
            }
        }
        self.pad_to_column()?;
        let sep = self.cfg.col_sep.len() as i64;
        let first = self.line_vector.get(line).copied().unwrap_or(0);
        let last = self.line_vector.get(line + 1).copied().unwrap_or(first);
        let text = self
            .buff
            .get(first..last.max(first))
            .unwrap_or(&[])
            .to_vec();
        for c in text {
            self.print_char(c)?;
        }
        if self.spaces_not_printed == 0 {
            let start = self.col(p).start_position;
            self.output_position = start + self.end_vector.get(line).copied().unwrap_or(0);
            if start - sep == self.cfg.margin {
                self.output_position -= sep;
            }
        }
        Ok(true)
    }

    /// What input character `c` prints as, moving the input position by its width.
    fn char_to_clump(&mut self, c: u8) -> Clump {
        let cfg = &self.cfg;
        let octal = |c: u8| {
            let s = format!("\\{c:03o}");
            let mut b = [0u8; 4];
            b.copy_from_slice(&s.as_bytes()[..4]);
            Clump::Bytes(b, 4)
        };
        let (clump, width) = if c == cfg.input_tab_char || c == b'\t' {
            let per = if c == cfg.input_tab_char {
                cfg.input_tab_width
            } else {
                8
            };
            let width = per - self.input_position % per;
            if cfg.untabify {
                (Clump::Spaces(width), width)
            } else {
                (Clump::Bytes([c, 0, 0, 0], 1), width)
            }
        } else if !is_print(c) {
            if cfg.esc_sequence {
                (octal(c), 4)
            } else if cfg.cntrl_prefix {
                if c < 0o200 {
                    (Clump::Bytes([b'^', c ^ 0o100, 0, 0], 2), 2)
                } else {
                    (octal(c), 4)
                }
            } else if c == b'\x08' {
                (Clump::Bytes([c, 0, 0, 0], 1), -1)
            } else {
                (Clump::Bytes([c, 0, 0, 0], 1), 0)
            }
        } else {
            (Clump::Bytes([c, 0, 0, 0], 1), 1)
        };
        if width < 0 && self.input_position == 0 {
            return Clump::None;
        }
        if width < 0 && self.input_position <= -width {
            self.input_position = 0;
        } else {
            self.input_position += width;
        }
        clump
    }
}

pub fn pr(ctx: &mut Ctx) -> CmdResult {
    let (cfg, files) = match parse(ctx)? {
        Parsed::Run(cfg, files) => (cfg, files),
        Parsed::Done(status) => return Ok(status),
    };
    let parallel = cfg.parallel;
    let mut pr = Pr::new(ctx, cfg);
    let result = (|| {
        if files.is_empty() {
            pr.print_files(&[])?;
        } else if parallel {
            pr.print_files(&files)?;
        } else {
            for f in &files {
                pr.print_files(std::slice::from_ref(f))?;
            }
        }
        pr.flush()
    })();
    match result {
        Ok(()) => Ok(if pr.failed_opens { 1 } else { 0 }),
        Err(Stop::Io(e)) => Err(e),
        Err(Stop::Die(msg)) => {
            pr.flush().or_else(|e| match e {
                Stop::Io(e) => Err(e),
                Stop::Die(_) => Ok(()),
            })?;
            pr.ctx.err(msg)?;
            Ok(1)
        }
    }
}
