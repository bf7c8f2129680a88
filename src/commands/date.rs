//! `date`: prints (or with `-s` sets) the virtual clock, or a time given by `-d`,
//! `-f` or `-r`, in the default, `+FORMAT`, `-I`, `-R` or `--rfc-3339` formats, in
//! the local time `TZ` selects (UTC when unset; `-u` forces UTC).
//!
//! `-d` understands the forms scripts use: `@EPOCH`, ISO dates and times (`T`, `Z`,
//! fractions, numeric offsets), `YYYYMMDD`, `MM/DD/YYYY`, month names (`Jan 2 2020`,
//! `2 January`), times with `am`/`pm`, weekdays (`monday`, `next friday`), `now`,
//! `today`, `yesterday`, `tomorrow` and relative items (`2 days ago`, `+3 hours`,
//! `last year`, `next week`), with calendar months as GNU counts them.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{civil, epoch, lq, quotef};
use super::{CmdResult, Ctx};
use crate::fs::Timestamp;
use crate::timefmt::Zone;

const LONG: &[LongOpt] = &[
    long("date", HasArg::Required, "d"),
    long("file", HasArg::Required, "f"),
    long("iso-8601", HasArg::Optional, "I"),
    long("reference", HasArg::Required, "r"),
    long("rfc-email", HasArg::No, "R"),
    long("rfc-822", HasArg::No, "R"),
    long("rfc-2822", HasArg::No, "R"),
    long("rfc-3339", HasArg::Required, "rfc-3339"),
    long("set", HasArg::Required, "s"),
    long("utc", HasArg::No, "u"),
    long("universal", HasArg::No, "u"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: date [OPTION]... [+FORMAT]
Display the current time in the given FORMAT, or set the system date.

  -d, --date=STRING          display time described by STRING, not 'now'
  -f, --file=DATEFILE        like --date; once for each line of DATEFILE
  -I[FMT], --iso-8601[=FMT]  output date/time in ISO 8601 format.
                               FMT='date' for date only (the default),
                               'hours', 'minutes', 'seconds', or 'ns'
  -R, --rfc-email            output date and time in RFC 5322 format
      --rfc-3339=FMT         output date/time in RFC 3339 format.
                               FMT='date', 'seconds', or 'ns'
  -r, --reference=FILE       display the last modification time of FILE
  -s, --set=STRING           set time described by STRING
  -u, --utc, --universal     print or set Coordinated Universal Time (UTC)
      --help     display this help and exit
      --version  output version information and exit

The clock is virtual; local time is UTC unless TZ names a zone.
";

const DEFAULT_FORMAT: &str = "%a %b %e %H:%M:%S %Z %Y";

const MONTHS: [&str; 12] = [
    "january",
    "february",
    "march",
    "april",
    "may",
    "june",
    "july",
    "august",
    "september",
    "october",
    "november",
    "december",
];

const WEEKDAYS: [&str; 7] = [
    "sunday",
    "monday",
    "tuesday",
    "wednesday",
    "thursday",
    "friday",
    "saturday",
];

/// A month (1-12) from a name or its 3-letter (or `sept`) abbreviation.
fn month_name(w: &str) -> Option<u32> {
    let w = w.trim_end_matches('.');
    if w.len() < 3 {
        return None;
    }
    MONTHS
        .iter()
        .position(|m| m.starts_with(w) && (w.len() == 3 || w.len() == m.len() || w == "sept"))
        .map(|i| i as u32 + 1)
}

/// A weekday (0 = Sunday) from a name or abbreviation (`mon`, `tues`, `wednes`...).
fn weekday_name(w: &str) -> Option<u32> {
    let w = w.trim_end_matches(['.', ',']);
    if w.len() < 3 {
        return None;
    }
    WEEKDAYS
        .iter()
        .position(|d| d.starts_with(w) && (w.len() == 3 || w.len() == d.len() || w.len() == 4))
        .map(|i| i as u32)
}

/// Seconds per unit (`s`); days (`d`), months and years are calendar units, counted
/// on the local calendar before the time zone applies, as GNU's `mktime` does.
fn unit(w: &str) -> Option<(char, i64)> {
    let w = w.strip_suffix('s').filter(|s| s.len() > 2).unwrap_or(w);
    Some(match w {
        "year" => ('y', 1),
        "month" => ('m', 1),
        "fortnight" => ('d', 14),
        "week" => ('d', 7),
        "day" => ('d', 1),
        "hour" => ('s', 3600),
        "minute" | "min" => ('s', 60),
        "second" | "sec" => ('s', 1),
        _ => return None,
    })
}

fn parse_frac(f: &str) -> Option<u32> {
    if f.is_empty() || !f.bytes().all(|b| b.is_ascii_digit()) {
        return if f.is_empty() { Some(0) } else { None };
    }
    let mut digits: String = f.chars().take(9).collect();
    while digits.len() < 9 {
        digits.push('0');
    }
    digits.parse().ok()
}

#[derive(Default)]
struct Items {
    date: Option<(i64, u32, u32)>,
    time: Option<(u32, u32, u32, u32)>,
    /// Offset east of UTC in seconds, when the string gives one.
    zone: Option<i64>,
    weekday: Option<(i64, u32)>,
    years: i64,
    months: i64,
    days: i64,
    secs: i64,
}

/// `hh:mm[:ss[.frac]]` with an optional glued `am`/`pm` and zone (`Z`, `+hh:mm`).
fn parse_time(w: &str, items: &mut Items) -> Option<()> {
    let (mut body, mut zone) = (w, None);
    if let Some(b) = body.strip_suffix('z') {
        body = b;
        zone = Some(0);
    } else if let Some(i) = body.rfind(['+', '-'])
        && i > 0
    {
        zone = Some(parse_zone(&body[i..])?);
        body = &body[..i];
    }
    let (body, meridian) = match body.strip_suffix("am") {
        Some(b) => (b, Some(false)),
        None => match body.strip_suffix("pm") {
            Some(b) => (b, Some(true)),
            None => (body, None),
        },
    };
    let parts: Vec<&str> = body.split(':').collect();
    let num = |s: &str| -> Option<u32> {
        if s.is_empty() || s.len() > 2 || !s.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        s.parse().ok()
    };
    let mut h = num(parts.first()?)?;
    let m = match parts.get(1) {
        Some(m) => num(m)?,
        None if meridian.is_some() => 0,
        None => return None,
    };
    let (s, ns) = match parts.get(2) {
        Some(sec) => {
            let (si, sf) = sec.split_once(['.', ',']).unwrap_or((sec, ""));
            (num(si)?, parse_frac(sf)?)
        }
        None => (0, 0),
    };
    if parts.len() > 3 {
        return None;
    }
    if let Some(pm) = meridian {
        if !(1..=12).contains(&h) {
            return None;
        }
        h = h % 12 + if pm { 12 } else { 0 };
    }
    if h > 23 || m > 59 || s > 60 {
        return None;
    }
    items.time = Some((h, m, s, ns));
    if let Some(z) = zone {
        items.zone = Some(z);
    }
    Some(())
}

/// `+hhmm`, `-hh:mm`, `+hh`.
fn parse_zone(w: &str) -> Option<i64> {
    let (sign, rest) = match w.as_bytes().first()? {
        b'+' => (1, &w[1..]),
        b'-' => (-1, &w[1..]),
        _ => return None,
    };
    let digits: String = rest.chars().filter(|&c| c != ':').collect();
    if !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let (h, m) = match digits.len() {
        1 | 2 => (digits.parse::<i64>().ok()?, 0),
        4 => (
            digits[..2].parse::<i64>().ok()?,
            digits[2..].parse::<i64>().ok()?,
        ),
        _ => return None,
    };
    Some(sign * (h * 3600 + m * 60))
}

/// An ISO `YYYY-MM-DD` date, possibly with `T` and a time.
fn parse_iso(w: &str, items: &mut Items) -> Option<()> {
    let (date, time) = match w.split_once('t') {
        Some((d, t)) => (d, Some(t)),
        None => (w, None),
    };
    let mut it = date.splitn(3, '-');
    let y: i64 = it.next()?.parse().ok()?;
    let m: u32 = it.next()?.parse().ok()?;
    let d: u32 = it.next()?.parse().ok()?;
    items.date = Some((y, m, d));
    if let Some(t) = time {
        parse_time(t, items)?;
    }
    Some(())
}

/// Parses a `-d` string relative to `now`, in local time `zone` unless the string
/// names its own (`TZ="Europe/Paris" ...` in front, `Z`, `UTC`, `+hh:mm`); `None` if
/// it is not understood or names a local time the zone skips.
pub fn parse_date(s: &str, now: Timestamp, zone: &Zone) -> Option<Timestamp> {
    let mut t = s.trim();
    let own;
    let mut zone = zone;
    if let Some(rest) = t.strip_prefix("TZ=\"")
        && let Some((tz, rest)) = rest.split_once('"')
    {
        own = Zone::from_tz(Some(tz));
        zone = &own;
        t = rest.trim();
    }
    if let Some(rest) = t.strip_prefix('@') {
        let (int, frac) = rest.split_once(['.', ',']).unwrap_or((rest, ""));
        let secs: i64 = int.trim().parse().ok()?;
        return Some(Timestamp {
            secs,
            nanos: parse_frac(frac)?,
        });
    }
    let local_now = now.secs.saturating_add(zone.offset(now.secs));
    let lower = t.to_ascii_lowercase().replace(',', " ");
    // A sign may stand apart from its number (`+ 10 days`), as GNU's lexer allows.
    let mut words: Vec<String> = Vec::new();
    let mut sign: Option<&str> = None;
    // A sign before anything but digits counts for nothing (`+ month`, `- -1 day`).
    for w in lower.split_whitespace() {
        let w = match w.strip_prefix(['+', '-']) {
            Some(rest) if !rest.is_empty() && !rest.starts_with(|c: char| c.is_ascii_digit()) => {
                rest
            }
            _ => w,
        };
        let digits_next = w.starts_with(|c: char| c.is_ascii_digit());
        match sign.take() {
            Some(sg) if digits_next => words.push(format!("{sg}{w}")),
            _ if w == "+" || w == "-" => sign = Some(w),
            _ => words.push(w.to_owned()),
        }
    }
    let words: Vec<&str> = words.iter().map(String::as_str).collect();
    let mut items = Items::default();
    let mut i = 0;
    let mut ordinal: Option<i64> = None;
    let mut last_rel: Option<(char, i64)> = None;
    // Whether the previous item was an `hh:mm[:ss]` time, which a signed number
    // right after takes as its zone (`12:00 -2 hours` is 14:00 UTC plus an hour).
    let mut after_time = false;
    while let Some(&w) = words.get(i) {
        i += 1;
        let next = words.get(i).copied();
        let follows_time = std::mem::take(&mut after_time);
        let is_digits = !w.is_empty() && w.bytes().all(|b| b.is_ascii_digit());
        match w {
            "now" | "today" => continue,
            "yesterday" => {
                items.days -= 1;
                continue;
            }
            "tomorrow" => {
                items.days += 1;
                continue;
            }
            "utc" | "gmt" | "ut" | "z" => {
                items.zone = Some(0);
                continue;
            }
            "next" => {
                ordinal = Some(1);
                continue;
            }
            "last" => {
                ordinal = Some(-1);
                continue;
            }
            "this" => {
                ordinal = Some(0);
                continue;
            }
            "ago" => {
                let (kind, amount) = last_rel?;
                match kind {
                    'y' => items.years -= 2 * amount,
                    'm' => items.months -= 2 * amount,
                    'd' => items.days -= 2 * amount,
                    _ => items.secs -= 2 * amount,
                }
                last_rel = None;
                continue;
            }
            "am" | "pm" => {
                let (h, m, s, ns) = items.time?;
                if !(1..=12).contains(&h) {
                    return None;
                }
                let h = h % 12 + if w == "pm" { 12 } else { 0 };
                items.time = Some((h, m, s, ns));
                continue;
            }
            _ => {}
        }
        if let Some(wd) = weekday_name(w) {
            items.weekday = Some((ordinal.take().unwrap_or(0), wd));
            continue;
        }
        if let Some((kind, mult)) = unit(w) {
            let n = ordinal.take().unwrap_or(1);
            let amount = n * mult;
            match kind {
                'y' => items.years += amount,
                'm' => items.months += amount,
                'd' => items.days += amount,
                _ => items.secs += amount,
            }
            last_rel = Some((kind, amount));
            continue;
        }
        if let Some(m) = month_name(w) {
            // `Jan 2 [2020]`.
            let day = next
                .filter(|n| n.len() <= 2)
                .and_then(|n| n.parse::<u32>().ok());
            let (y, _, _) = items.date.unwrap_or((civil(local_now).year, 1, 1));
            let mut d = 1;
            if let Some(day) = day {
                d = day;
                i += 1;
            }
            let mut y = y;
            if let Some(year) = words
                .get(i)
                .filter(|n| n.len() == 4)
                .and_then(|n| n.parse::<i64>().ok())
            {
                y = year;
                i += 1;
            }
            items.date = Some((y, m, d));
            continue;
        }
        // A number: relative amount, a day before a month name, a year, or a date.
        let signed = w
            .strip_prefix(['+', '-'])
            .is_some_and(|r| !r.is_empty() && r.bytes().all(|b| b.is_ascii_digit()));
        if signed && follows_time {
            // GNU's time_zone_hhmm: one or two digits are hours, three or four hhmm.
            let digits = &w[1..];
            let n: i64 = digits.parse().ok()?;
            let (h, m) = match digits.len() {
                1 | 2 => (n, 0),
                3 | 4 => (n / 100, n % 100),
                _ => return None,
            };
            if h > 24 || m > 59 {
                return None;
            }
            let sign = if w.starts_with('-') { -1 } else { 1 };
            items.zone = Some(sign * (h * 3600 + m * 60));
            continue;
        }
        if (is_digits || signed)
            && let Some((kind, mult)) = next.and_then(unit)
        {
            let n: i64 = w.parse().ok()?;
            let amount = n.checked_mul(mult)?;
            match kind {
                'y' => items.years += amount,
                'm' => items.months += amount,
                'd' => items.days = items.days.checked_add(amount)?,
                _ => items.secs = items.secs.checked_add(amount)?,
            }
            last_rel = Some((kind, amount));
            i += 1;
            continue;
        }
        if is_digits
            && w.len() <= 2
            && let Some(m) = next.and_then(month_name)
        {
            let mut y = civil(local_now).year;
            i += 1;
            if let Some(year) = words
                .get(i)
                .filter(|n| n.len() == 4)
                .and_then(|n| n.parse::<i64>().ok())
            {
                y = year;
                i += 1;
            }
            items.date = Some((y, m, w.parse().ok()?));
            continue;
        }
        if is_digits && w.len() == 4 && items.date.is_some() {
            if let Some((_, m, d)) = items.date {
                items.date = Some((w.parse().ok()?, m, d));
            }
            continue;
        }
        if is_digits && w.len() == 8 {
            items.date = Some((
                w[..4].parse().ok()?,
                w[4..6].parse().ok()?,
                w[6..].parse().ok()?,
            ));
            continue;
        }
        if is_digits && w.len() <= 2 && matches!(next, Some("am" | "pm")) {
            items.time = Some((w.parse().ok()?, 0, 0, 0));
            continue;
        }
        if signed && items.time.is_some() && w.len() == 5 {
            items.zone = Some(parse_zone(w)?);
            continue;
        }
        if w.contains('-') && w.starts_with(|c: char| c.is_ascii_digit()) {
            parse_iso(w, &mut items)?;
            continue;
        }
        if w.contains('/') {
            let parts: Vec<&str> = w.split('/').collect();
            let date = match parts.as_slice() {
                [y, m, d] if y.len() == 4 => (y.parse().ok()?, m.parse().ok()?, d.parse().ok()?),
                [m, d, y] => {
                    let mut y: i64 = y.parse().ok()?;
                    if y < 100 {
                        y += if y < 69 { 2000 } else { 1900 };
                    }
                    (y, m.parse().ok()?, d.parse().ok()?)
                }
                [m, d] => (civil(local_now).year, m.parse().ok()?, d.parse().ok()?),
                _ => return None,
            };
            items.date = Some(date);
            continue;
        }
        if w.contains(':') || w.ends_with("am") || w.ends_with("pm") {
            parse_time(w, &mut items)?;
            after_time = w.contains(':') && !w.contains(['+', '-', 'z']) && !w.ends_with('m');
            continue;
        }
        return None;
    }
    if ordinal.is_some() {
        return None;
    }
    let today = civil(local_now);
    let explicit_day = items.date.is_some() || items.weekday.is_some();
    let (y, m, d) = items.date.unwrap_or((today.year, today.month, today.day));
    if !(1..=12).contains(&m) || !(1..=31).contains(&d) {
        return None;
    }
    let (h, mi, s, nanos) = match items.time {
        Some(t) => t,
        None if explicit_day => (0, 0, 0, 0),
        None => (today.hour, today.min, today.sec, now.nanos),
    };
    let mut day = d as i64;
    // A day of the week counts only when no date is given.
    if let Some((ord, wd)) = items.weekday.filter(|_| items.date.is_none()) {
        let cur = (super::util::epoch(y, m, d, 0, 0, 0).div_euclid(86_400) + 4).rem_euclid(7);
        let diff = (i64::from(wd) - cur + 7) % 7;
        day += diff + 7 * (ord - i64::from(ord > 0 && diff != 0));
    }
    let total_months = (m as i64 - 1) + items.months + 12 * items.years;
    let year = y + total_months.div_euclid(12);
    let month = total_months.rem_euclid(12) as u32 + 1;
    let days = (day - 1).checked_add(items.days)?.checked_mul(86_400)?;
    let base = epoch(year, month, 1, h, mi, s).checked_add(days)?;
    let secs = match items.zone {
        Some(z) => base.checked_sub(z)?,
        None => zone.to_utc(base)?,
    }
    .checked_add(items.secs)?;
    Some(Timestamp { secs, nanos })
}

/// Expands what `timefmt::strftime` lacks: `%:z` family and `%3N`-style widths.
pub(crate) fn strftime(fmt: &str, t: Timestamp, zone: &Zone) -> String {
    let offset = zone.offset(t.secs);
    let mut pre = String::new();
    let mut cs = fmt.chars().peekable();
    while let Some(c) = cs.next() {
        if c != '%' {
            pre.push(c);
            continue;
        }
        let mut spec = String::new();
        while let Some(&n) = cs.peek() {
            if n == ':' || n.is_ascii_digit() {
                spec.push(n);
                cs.next();
            } else {
                break;
            }
        }
        match (spec.as_str(), cs.peek()) {
            (":" | "::" | ":::", Some('z')) => {
                cs.next();
                pre.push_str(&crate::timefmt::numeric_zone(offset, spec.len()));
            }
            (w, Some('N')) if !w.is_empty() && !w.contains(':') => {
                cs.next();
                let width: usize = w.parse().unwrap_or(9).clamp(1, 9);
                let digits = format!("{:09}", t.nanos);
                pre.push_str(digits.get(..width).unwrap_or(&digits));
            }
            ("", Some('%')) => {
                cs.next();
                pre.push_str("%%");
            }
            _ => {
                pre.push('%');
                pre.push_str(&spec);
            }
        }
    }
    zone.strftime(&pre, t.secs, t.nanos)
}

fn invalid_arg(ctx: &mut Ctx, arg: &str, opt: &str, valid: &[&str]) -> CmdResult {
    ctx.err(format!("invalid argument {} for {}", lq(arg), lq(opt)))?;
    let mut msg = String::from("Valid arguments are:\n");
    for v in valid {
        msg.push_str(&format!("  - {}\n", ctx.lquote(v)));
    }
    ctx.stderr.write_all(msg.as_bytes())?;
    usage_error(ctx, "", 1)
}

/// The argument of `-I`/`--rfc-3339` matched as GNU's `argmatch` does (unique prefix).
fn argmatch<'a>(arg: &str, valid: &[&'a str]) -> Option<&'a str> {
    if let Some(v) = valid.iter().find(|v| **v == arg) {
        return Some(v);
    }
    let found: Vec<&&str> = valid.iter().filter(|v| v.starts_with(arg)).collect();
    match found.as_slice() {
        [one] if !arg.is_empty() => Some(one),
        _ => None,
    }
}

pub fn date(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("d:f:I::r:Rs:u", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut format: Option<String> = None;
    let mut formats = 0;
    for (k, v) in &parsed.opts {
        let f = match (k.as_str(), v.as_deref()) {
            ("I", v) => {
                const ISO: [&str; 5] = ["hours", "minutes", "date", "seconds", "ns"];
                let which = match v {
                    None => "date",
                    Some(a) => match argmatch(a, &ISO) {
                        Some(w) => w,
                        None => return invalid_arg(ctx, a, "--iso-8601", &ISO),
                    },
                };
                match which {
                    "hours" => "%Y-%m-%dT%H%:z",
                    "minutes" => "%Y-%m-%dT%H:%M%:z",
                    "seconds" => "%Y-%m-%dT%H:%M:%S%:z",
                    "ns" => "%Y-%m-%dT%H:%M:%S,%N%:z",
                    _ => "%Y-%m-%d",
                }
            }
            ("rfc-3339", Some(a)) => {
                const RFC: [&str; 3] = ["date", "seconds", "ns"];
                match argmatch(a, &RFC) {
                    Some("date") => "%Y-%m-%d",
                    Some("seconds") => "%Y-%m-%d %H:%M:%S%:z",
                    Some(_) => "%Y-%m-%d %H:%M:%S.%N%:z",
                    None => return invalid_arg(ctx, a, "--rfc-3339", &RFC),
                }
            }
            ("R", _) => "%a, %d %b %Y %H:%M:%S %z",
            _ => continue,
        };
        formats += 1;
        format = Some(f.to_owned());
    }
    let mut ops = parsed.operands.iter();
    if let Some(first) = parsed.operands.first()
        && let Some(f) = first.strip_prefix('+')
    {
        formats += 1;
        format = Some(f.to_owned());
        ops.next();
    }
    if formats > 1 {
        ctx.err("multiple output formats specified")?;
        return Ok(1);
    }
    if let Some(extra) = parsed.operands.get(1) {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
    }
    if let Some(extra) = ops.next() {
        ctx.err(format!("invalid date {}", lq(extra)))?;
        return Ok(1);
    }
    let format = format.unwrap_or_else(|| DEFAULT_FORMAT.to_owned());
    let clock = ctx.fs.lock().clock().clone();
    let now = clock.now();
    let sources = ["d", "f", "r", "s"]
        .iter()
        .filter(|k| parsed.has(k))
        .count();
    if sources > 1 {
        ctx.err("the options to specify dates for printing are mutually exclusive")?;
        return usage_error(ctx, "", 1);
    }
    // `-u` is TZ=UTC0.
    let zone = if parsed.has("u") {
        Zone::utc()
    } else {
        ctx.zone()
    };
    let print = |ctx: &mut Ctx, t: Timestamp| -> std::io::Result<()> {
        let mut line = crate::text::encode(&strftime(&format, t, &zone));
        line.push(b'\n');
        ctx.stdout.write_all(&line)
    };
    if let Some(file) = parsed.last("f") {
        let data = match ctx.read_input(file)? {
            Ok(d) => d,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(file)))?;
                return Ok(1);
            }
        };
        let mut status = 0;
        for line in super::util::records(&data, b'\n') {
            ctx.host.check()?;
            let text = crate::text::decode(super::util::chomp(line, b'\n'));
            match parse_date(&text, now, &zone) {
                Some(t) => print(ctx, t)?,
                None => {
                    ctx.err(format!("invalid date {}", lq(&text)))?;
                    status = 1;
                }
            }
        }
        return Ok(status);
    }
    let t = if let Some(file) = parsed.last("r") {
        let meta = ctx.fs.lock().stat(&ctx.path(file));
        match meta {
            Ok(m) => m.mtime,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(file)))?;
                return Ok(1);
            }
        }
    } else if let Some(s) = parsed.last("d").or(parsed.last("s")) {
        match parse_date(s, now, &zone) {
            Some(t) => t,
            None => {
                ctx.err(format!("invalid date {}", lq(s)))?;
                return Ok(1);
            }
        }
    } else {
        now
    };
    if parsed.has("s") {
        clock.set(t);
    }
    print(ctx, t)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::parse_date;
    use crate::commands::testing::{NOW, check, fs_with, run_in};
    use crate::fs::Timestamp;
    use crate::timefmt::Zone;

    #[test]
    fn date_table() {
        let files = &[("f", "x"), ("dates", "2020-01-02\nbad\n@0\n")];
        let try_ = "Try 'date --help' for more information.\n";
        for (line, out, err, status) in [
            (
                "date",
                "Tue Nov 14 22:13:20 UTC 2023\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "date -u",
                "Tue Nov 14 22:13:20 UTC 2023\n".to_owned(),
                String::new(),
                0,
            ),
            ("date +%s", format!("{NOW}\n"), String::new(), 0),
            (
                "date -d @0 +%F%t%T",
                "1970-01-01\t00:00:00\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "date -R",
                "Tue, 14 Nov 2023 22:13:20 +0000\n".to_owned(),
                String::new(),
                0,
            ),
            ("date -I", "2023-11-14\n".to_owned(), String::new(), 0),
            (
                "date -Iseconds",
                "2023-11-14T22:13:20+00:00\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "date -Ih",
                "2023-11-14T22+00:00\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "date -Ins -d @1.5",
                "1970-01-01T00:00:01,500000000+00:00\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "date --rfc-3339=seconds",
                "2023-11-14 22:13:20+00:00\n".to_owned(),
                String::new(),
                0,
            ),
            (
                "date +%3N -d @1.123456789",
                "123\n".to_owned(),
                String::new(),
                0,
            ),
            ("date +%:z%%", "+00:00%\n".to_owned(), String::new(), 0),
            ("date -r f +%s", format!("{NOW}\n"), String::new(), 0),
            (
                "date -f dates +%F",
                "2020-01-02\n1970-01-01\n".to_owned(),
                "date: invalid date 'bad'\n".to_owned(),
                1,
            ),
            (
                "date -d x",
                String::new(),
                "date: invalid date 'x'\n".to_owned(),
                1,
            ),
            (
                "date x",
                String::new(),
                "date: invalid date 'x'\n".to_owned(),
                1,
            ),
            (
                "date +%F a",
                String::new(),
                format!("date: extra operand 'a'\n{try_}"),
                1,
            ),
            (
                "date -I -R",
                String::new(),
                "date: multiple output formats specified\n".to_owned(),
                1,
            ),
            (
                "date -r nope",
                String::new(),
                "date: nope: No such file or directory\n".to_owned(),
                1,
            ),
            (
                "date -Ix",
                String::new(),
                format!(
                    "date: invalid argument 'x' for '--iso-8601'\nValid arguments are:\n  - 'hours'\n  - 'minutes'\n  - 'date'\n  - 'seconds'\n  - 'ns'\n{try_}"
                ),
                1,
            ),
        ] {
            check(files, line, "", (&out, &err, status));
        }
    }

    #[test]
    fn set_moves_the_virtual_clock() {
        let fs = fs_with(&[]);
        let (out, _, status) = run_in(&fs, "date -s @100 +%s", b"");
        assert_eq!((out.as_slice(), status), (&b"100\n"[..], 0));
        assert_eq!(fs.lock().clock().now().secs, 100);
    }

    #[test]
    fn date_strings() {
        // Monday 2026-11-30 05:13:26 UTC, as the GNU outputs below were taken.
        let now = Timestamp {
            secs: super::epoch(2026, 11, 30, 5, 13, 26),
            nanos: 0,
        };
        for (input, want) in [
            ("now", "2026-11-30 05:13:26"),
            ("tomorrow", "2026-12-01 05:13:26"),
            ("today", "2026-11-30 05:13:26"),
            ("2023-11-14 22:13:20 tomorrow", "2023-11-15 22:13:20"),
            ("last monday", "2026-11-23 00:00:00"),
            ("next monday", "2026-12-07 00:00:00"),
            ("monday", "2026-11-30 00:00:00"),
            ("next friday", "2026-12-04 00:00:00"),
            ("monday 10:00", "2026-11-30 10:00:00"),
            ("hour", "2026-11-30 06:13:26"),
            ("2 weeks", "2026-12-14 05:13:26"),
            ("3pm", "2026-11-30 15:00:00"),
            ("3:30pm", "2026-11-30 15:30:00"),
            ("12am", "2026-11-30 00:00:00"),
            ("Nov 14", "2026-11-14 00:00:00"),
            ("jan 2 2020", "2020-01-02 00:00:00"),
            ("2 jan 2020 10:00", "2020-01-02 10:00:00"),
            ("14 November 2023 8:00", "2023-11-14 08:00:00"),
            ("2023-11-14T22:13:20Z", "2023-11-14 22:13:20"),
            ("2023-11-14T22:13:20.5", "2023-11-14 22:13:20"),
            ("2023-11-14T22:13:20+01:00", "2023-11-14 21:13:20"),
            ("2023-11-14 22:13:20 UTC", "2023-11-14 22:13:20"),
            ("Tue, 14 Nov 2023 22:13:20 +0000", "2023-11-14 22:13:20"),
            ("Tue Nov 14 22:13:20 UTC 2023", "2023-11-14 22:13:20"),
            ("2023/11/14", "2023-11-14 00:00:00"),
            ("11/14/2023", "2023-11-14 00:00:00"),
            ("20231114", "2023-11-14 00:00:00"),
            ("1 month ago", "2026-10-30 05:13:26"),
            ("2024-01-31 +1 month", "2024-03-02 00:00:00"),
            ("last year", "2025-11-30 05:13:26"),
            ("2 days ago", "2026-11-28 05:13:26"),
            ("-1 hour", "2026-11-30 04:13:26"),
            ("+3 hours", "2026-11-30 08:13:26"),
            ("yesterday", "2026-11-29 05:13:26"),
        ] {
            let got = parse_date(input, now, &Zone::utc())
                .map(|t| crate::timefmt::strftime("%F %T", t.secs, t.nanos));
            assert_eq!(got.as_deref(), Some(want), "{input}");
        }
        for bad in ["x", "noon", "next", "25:00", "2023-13-01", "1 parsec"] {
            assert_eq!(parse_date(bad, now, &Zone::utc()), None, "{bad}");
        }
    }
}
