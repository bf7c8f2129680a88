//! A GNU `getopt_long`-style option parser shared by the utilities: clustered short
//! options (`-rn`), attached values (`-n1`, `--lines=1`), unique long-option prefixes,
//! argument permutation and `--`, with glibc's exact diagnostics.

use std::io;

use super::Ctx;

/// Whether a long option takes a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HasArg {
    No,
    Required,
    /// Only as `--name=value`.
    Optional,
}

/// One long option and the key it reports (often the equivalent short option).
#[derive(Clone, Copy, Debug)]
pub struct LongOpt {
    pub name: &'static str,
    pub has_arg: HasArg,
    pub key: &'static str,
}

/// Shorthand for a [`LongOpt`].
pub const fn long(name: &'static str, has_arg: HasArg, key: &'static str) -> LongOpt {
    LongOpt { name, has_arg, key }
}

/// What a command line is made of once parsed.
#[derive(Debug, Default)]
pub struct Parsed {
    /// Options in command-line order: key (the short letter, or the long option's key)
    /// and its value.
    pub opts: Vec<(String, Option<String>)>,
    pub operands: Vec<String>,
}

impl Parsed {
    /// Whether option `key` was given.
    pub fn has(&self, key: &str) -> bool {
        self.opts.iter().any(|(k, _)| k == key)
    }
    /// The last value of option `key`.
    pub fn last(&self, key: &str) -> Option<&str> {
        self.opts
            .iter()
            .rev()
            .find(|(k, _)| k == key)
            .and_then(|(_, v)| v.as_deref())
    }
}

/// How a command's arguments are scanned.
#[derive(Clone, Copy, Debug)]
pub struct Spec<'a> {
    /// getopt's short-option string: `"n:c:qv"` (`:` after a letter = takes a value,
    /// `::` = optional attached value).
    pub short: &'a str,
    pub long: &'a [LongOpt],
    /// GNU permutation: options may follow operands. Off means the first operand ends
    /// the options.
    pub permute: bool,
    /// A leading `-` followed by a digit is an operand (for `-N` forms handled by the
    /// command itself, the command pre-scans; here such words stay options).
    pub digits_are_operands: bool,
}

impl<'a> Spec<'a> {
    pub const fn new(short: &'a str, long: &'a [LongOpt]) -> Spec<'a> {
        Spec {
            short,
            long,
            permute: true,
            digits_are_operands: false,
        }
    }
}

/// Short-option arity from the getopt string.
fn short_arity(short: &str, c: char) -> Option<HasArg> {
    for (i, ch) in short.char_indices() {
        if ch == ':' {
            continue;
        }
        if ch == c {
            let rest = short.get(i + ch.len_utf8()..).unwrap_or("");
            return Some(if rest.starts_with("::") {
                HasArg::Optional
            } else if rest.starts_with(':') {
                HasArg::Required
            } else {
                HasArg::No
            });
        }
    }
    None
}

/// Parses `args`; an `Err` is getopt's diagnostic line (without the `name: ` prefix).
pub fn parse(spec: &Spec, args: &[String]) -> Result<Parsed, String> {
    let mut out = Parsed::default();
    let mut i = 0;
    while i < args.len() {
        let a = &args[i];
        i += 1;
        if a == "--" {
            out.operands.extend(args[i..].iter().cloned());
            break;
        }
        if let Some(body) = a.strip_prefix("--") {
            let (name, value) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_owned())),
                None => (body, None),
            };
            let opt = find_long(spec.long, name)?;
            match opt.has_arg {
                HasArg::No => {
                    if value.is_some() {
                        return Err(format!("option '--{}' doesn't allow an argument", opt.name));
                    }
                    out.opts.push((opt.key.to_owned(), None));
                }
                HasArg::Optional => out.opts.push((opt.key.to_owned(), value)),
                HasArg::Required => {
                    let v = match value {
                        Some(v) => v,
                        None => match args.get(i) {
                            Some(v) => {
                                i += 1;
                                v.clone()
                            }
                            None => {
                                return Err(format!(
                                    "option '--{}' requires an argument",
                                    opt.name
                                ));
                            }
                        },
                    };
                    out.opts.push((opt.key.to_owned(), Some(v)));
                }
            }
            continue;
        }
        let is_opt = a.len() > 1
            && a.starts_with('-')
            && !(spec.digits_are_operands && a[1..].starts_with(|c: char| c.is_ascii_digit()));
        if !is_opt {
            if spec.permute {
                out.operands.push(a.clone());
                continue;
            }
            out.operands.extend(args[i - 1..].iter().cloned());
            break;
        }
        let cluster = &a[1..];
        for (pos, c) in cluster.char_indices() {
            let arity = if c == ':' {
                None
            } else {
                short_arity(spec.short, c)
            };
            match arity {
                None => return Err(format!("invalid option -- '{c}'")),
                Some(HasArg::No) => out.opts.push((c.to_string(), None)),
                Some(kind) => {
                    let rest = &cluster[pos + c.len_utf8()..];
                    if !rest.is_empty() {
                        out.opts.push((c.to_string(), Some(rest.to_owned())));
                    } else if kind == HasArg::Optional {
                        out.opts.push((c.to_string(), None));
                    } else if let Some(v) = args.get(i) {
                        i += 1;
                        out.opts.push((c.to_string(), Some(v.clone())));
                    } else {
                        return Err(format!("option requires an argument -- '{c}'"));
                    }
                    break;
                }
            }
        }
    }
    Ok(out)
}

/// The long option `name` names (exactly or as an unambiguous prefix); `Err` is getopt's
/// diagnostic.
pub fn find_long<'a>(long: &'a [LongOpt], name: &str) -> Result<&'a LongOpt, String> {
    if let Some(o) = long.iter().find(|o| o.name == name) {
        return Ok(o);
    }
    let matches: Vec<&LongOpt> = long.iter().filter(|o| o.name.starts_with(name)).collect();
    match matches.as_slice() {
        [] => Err(format!("unrecognized option '--{name}'")),
        [one] => Ok(one),
        [first, rest @ ..] if rest.iter().all(|o| o.key == first.key) => Ok(first),
        many => {
            let list: Vec<String> = many.iter().map(|o| format!("'--{}'", o.name)).collect();
            Err(format!(
                "option '--{name}' is ambiguous; possibilities: {}",
                list.join(" ")
            ))
        }
    }
}

/// Prints a usage diagnostic the GNU way (`name: msg` then the `Try` line) and returns
/// `status`.
pub fn usage_error(ctx: &mut Ctx, msg: &str, status: i32) -> io::Result<i32> {
    if !msg.is_empty() {
        ctx.err(msg)?;
    }
    writeln!(
        ctx.stderr,
        "Try '{} --help' for more information.",
        ctx.name
    )?;
    Ok(status)
}

/// GNU's first line for an option value `argmatch` refused: `invalid argument 'x' for
/// 'option'` (or `ambiguous` when it is a prefix of several).
pub fn bad_argument(ctx: &mut Ctx, ambiguous: bool, value: &str, option: &str) -> io::Result<()> {
    let what = if ambiguous { "ambiguous" } else { "invalid" };
    let msg = format!(
        "{what} argument {} for {}",
        ctx.lquote(value),
        ctx.lquote(option)
    );
    ctx.err(msg)
}

/// GNU's `argmatch` for an option's value: an exact or unambiguous prefix match in
/// `table`, else the `invalid`/`ambiguous argument` diagnostic with the list of valid
/// arguments (synonyms on one line) and status 1; `Err(status)` means return it.
pub fn argmatch<T: Copy + PartialEq>(
    ctx: &mut Ctx,
    option: &str,
    value: &str,
    table: &[(&str, T)],
) -> io::Result<Result<T, i32>> {
    argmatch_in(ctx, option, value, table, false)
}

/// [`argmatch`] without abbreviations (gnulib's `XARGMATCH_EXACT`): only a whole name
/// is accepted, and anything else is `invalid`.
pub fn argmatch_exact<T: Copy + PartialEq>(
    ctx: &mut Ctx,
    option: &str,
    value: &str,
    table: &[(&str, T)],
) -> io::Result<Result<T, i32>> {
    argmatch_in(ctx, option, value, table, true)
}

fn argmatch_in<T: Copy + PartialEq>(
    ctx: &mut Ctx,
    option: &str,
    value: &str,
    table: &[(&str, T)],
    exact: bool,
) -> io::Result<Result<T, i32>> {
    if let Some((_, v)) = table.iter().find(|(n, _)| *n == value) {
        return Ok(Ok(*v));
    }
    let matches: Vec<T> = table
        .iter()
        .filter(|(n, _)| !exact && !value.is_empty() && n.starts_with(value))
        .map(|(_, v)| *v)
        .collect();
    if let Some(&first) = matches.first()
        && matches.iter().all(|v| *v == first)
    {
        return Ok(Ok(first));
    }
    bad_argument(ctx, !matches.is_empty(), value, option)?;
    let mut text = String::from("Valid arguments are:");
    let mut prev: Option<T> = None;
    for (name, v) in table {
        if prev == Some(*v) {
            text.push_str(", ");
        } else {
            text.push_str("\n  - ");
        }
        text.push_str(&ctx.lquote(name));
        prev = Some(*v);
    }
    writeln!(ctx.stderr, "{text}")?;
    Ok(Err(usage_error(ctx, "", 1)?))
}

/// Parses, printing getopt's diagnostic on failure; `Err(status)` means return it.
pub fn parse_or_usage(ctx: &mut Ctx, spec: &Spec, status: i32) -> io::Result<Result<Parsed, i32>> {
    match parse(spec, ctx.args) {
        Ok(p) => Ok(Ok(p)),
        Err(msg) => Ok(Err(usage_error(ctx, &msg, status)?)),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const LONG: &[LongOpt] = &[
        long("lines", HasArg::Required, "n"),
        long("quiet", HasArg::No, "q"),
        long("silent", HasArg::No, "q"),
        long("verbose", HasArg::No, "v"),
        long("color", HasArg::Optional, "color"),
        long("colour", HasArg::Optional, "color"),
    ];

    fn check(args: &[&str], want: Result<(&str, &[&str]), &str>) {
        let args: Vec<String> = args.iter().map(|s| s.to_string()).collect();
        let got = match parse(&Spec::new("n:qvz", LONG), &args) {
            Ok(p) => {
                let o: Vec<String> = p
                    .opts
                    .iter()
                    .map(|(k, v)| match v {
                        Some(v) => format!("{k}={v}"),
                        None => k.clone(),
                    })
                    .collect();
                format!("{} | {:?}", o.join(" "), p.operands)
            }
            Err(e) => format!("error: {e}"),
        };
        let want = match want {
            Ok((opts, ops)) => format!("{opts} | {ops:?}"),
            Err(e) => format!("error: {e}"),
        };
        assert_eq!(got, want, "{args:?}");
    }

    #[test]
    fn getopt_table() {
        check(&["-n1", "a"], Ok(("n=1", &["a"])));
        check(&["-qn", "5", "a", "-v"], Ok(("q n=5 v", &["a"])));
        check(&["a", "--", "-v"], Ok(("", &["a", "-v"])));
        check(&["-", "--lin=3"], Ok(("n=3", &["-"])));
        check(&["--lines", "3"], Ok(("n=3", &[])));
        check(&["--col"], Ok(("color", &[])));
        check(&["--colo=never"], Ok(("color=never", &[])));
        check(&["-x"], Err("invalid option -- 'x'"));
        check(&["-n"], Err("option requires an argument -- 'n'"));
        check(&["--lines"], Err("option '--lines' requires an argument"));
        check(&["--foo"], Err("unrecognized option '--foo'"));
        check(
            &["--verbose=1"],
            Err("option '--verbose' doesn't allow an argument"),
        );
        check(&["--s"], Ok(("q", &[])));
        check(&["--v"], Ok(("v", &[])));
    }
}
