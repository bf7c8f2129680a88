//! Calendar arithmetic and `strftime` formatting, for `date`, `printf %(fmt)T`,
//! `ls -l` and prompt strings. Local time is UTC unless `TZ` names another zone:
//! an IANA name from the database bundled in the binary (never the host's), or a
//! POSIX TZ string (`EST5EDT,M3.2.0,M11.1.0`, `UTC-2`), resolved as glibc does.

use std::cell::RefCell;

/// Broken-down UTC time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Tm {
    pub year: i64,
    pub month: u32,
    pub day: u32,
    pub hour: u32,
    pub min: u32,
    pub sec: u32,
    /// 0 = Sunday.
    pub wday: u32,
    /// 0-based day of the year.
    pub yday: u32,
}

/// Days since 1970-01-01 of a civil date.
pub fn days_from_civil(y: i64, m: u32, d: u32) -> i64 {
    let y = if m <= 2 { y - 1 } else { y };
    let era = if y >= 0 { y } else { y - 399 } / 400;
    let yoe = y - era * 400;
    let mp = (m as i64 + 9) % 12;
    let doy = (153 * mp + 2) / 5 + d as i64 - 1;
    let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy;
    era * 146097 + doe - 719468
}

/// Breaks seconds since the epoch into UTC fields.
pub fn gmtime(secs: i64) -> Tm {
    let days = secs.div_euclid(86400);
    let rem = secs.rem_euclid(86400);
    let z = days + 719468;
    let era = if z >= 0 { z } else { z - 146096 } / 146097;
    let doe = z - era * 146097;
    let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    let y = yoe + era * 400;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = (doy - (153 * mp + 2) / 5 + 1) as u32;
    let m = if mp < 10 { mp + 3 } else { mp - 9 } as u32;
    let year = if m <= 2 { y + 1 } else { y };
    let yday = (days - days_from_civil(year, 1, 1)) as u32;
    Tm {
        year,
        month: m,
        day: d,
        hour: (rem / 3600) as u32,
        min: (rem % 3600 / 60) as u32,
        sec: (rem % 60) as u32,
        wday: (days + 4).rem_euclid(7) as u32,
        yday,
    }
}

const DAYS: [&str; 7] = [
    "Sunday",
    "Monday",
    "Tuesday",
    "Wednesday",
    "Thursday",
    "Friday",
    "Saturday",
];
const MONTHS: [&str; 12] = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
];

/// A time zone as `TZ` selects it.
#[derive(Clone, Debug)]
pub struct Zone(ZoneKind);

#[derive(Clone, Debug)]
enum ZoneKind {
    Utc,
    /// A zone from the bundled database or a POSIX TZ string.
    Rules(jiff::tz::TimeZone),
    /// What glibc falls back to for a `TZ` it cannot read: offset zero under the name
    /// the string starts with.
    Unread(String),
}

thread_local! {
    /// The last `TZ` value resolved and its zone: scripts rarely change it.
    static LAST: RefCell<Option<Box<(String, Zone)>>> = const { RefCell::new(None) };
}

impl Zone {
    pub fn utc() -> Zone {
        Zone(ZoneKind::Utc)
    }

    /// The zone a process with `TZ` set to `tz` (or unset) uses: unset, empty or
    /// `:` is UTC; `[:]NAME` a zone of the bundled database (also as
    /// `/usr/share/zoneinfo/NAME` or `posix/NAME`); otherwise a POSIX TZ string;
    /// otherwise, as glibc, offset zero named by the string's leading letters.
    pub fn from_tz(tz: Option<&str>) -> Zone {
        let Some(tz) = tz else {
            return Zone::utc();
        };
        if let Some(z) = LAST.with(|l| {
            l.borrow()
                .as_ref()
                .filter(|last| last.0 == tz)
                .map(|last| last.1.clone())
        }) {
            return z;
        }
        let z = Zone::resolve(tz);
        LAST.with(|l| *l.borrow_mut() = Some(Box::new((tz.to_owned(), z.clone()))));
        z
    }

    fn resolve(tz: &str) -> Zone {
        let name = tz.strip_prefix(':').unwrap_or(tz);
        if name.is_empty() {
            return Zone::utc();
        }
        let db_name = name
            .strip_prefix("/usr/share/zoneinfo/")
            .or_else(|| name.strip_prefix("posix/"))
            .unwrap_or(name);
        // Names with `..` would climb out of a zoneinfo directory: glibc refuses them.
        if !db_name.contains("..")
            && !db_name.starts_with('/')
            && let Ok(z) = jiff::tz::TimeZoneDatabase::bundled().get(db_name)
        {
            return Zone(ZoneKind::Rules(z));
        }
        if !tz.starts_with(':')
            && let Ok(z) = jiff::tz::TimeZone::posix(name)
        {
            return Zone(ZoneKind::Rules(z));
        }
        // glibc: a standard-time name is three or more letters (or `<...>`).
        let letters: String = name
            .chars()
            .take_while(|c| c.is_ascii_alphabetic())
            .collect();
        let abbr = if letters.len() >= 3 {
            letters
        } else {
            String::new()
        };
        Zone(ZoneKind::Unread(abbr))
    }

    /// Offset east of UTC (seconds) and abbreviation in force at `secs`.
    pub fn offset_at(&self, secs: i64) -> (i64, String) {
        match &self.0 {
            ZoneKind::Utc => (0, "UTC".to_owned()),
            ZoneKind::Unread(abbr) => (0, abbr.clone()),
            ZoneKind::Rules(z) => match jiff::Timestamp::from_second(secs) {
                Ok(ts) => {
                    let info = z.to_offset_info(ts);
                    (
                        i64::from(info.offset().seconds()),
                        info.abbreviation().to_owned(),
                    )
                }
                Err(_) => (0, "UTC".to_owned()),
            },
        }
    }

    /// Offset east of UTC (seconds) in force at `secs`.
    pub fn offset(&self, secs: i64) -> i64 {
        match &self.0 {
            ZoneKind::Rules(z) => jiff::Timestamp::from_second(secs)
                .map_or(0, |ts| i64::from(z.to_offset(ts).seconds())),
            ZoneKind::Utc | ZoneKind::Unread(_) => 0,
        }
    }

    /// The instant a local wall-clock time names: `local` counts seconds since
    /// 1970-01-01 00:00 as if local time were UTC. A time skipped by a change of
    /// offset is `None` (GNU date rejects it); a repeated one is its first instant.
    pub fn to_utc(&self, local: i64) -> Option<i64> {
        use jiff::tz::AmbiguousOffset;
        let ZoneKind::Rules(z) = &self.0 else {
            // UTC, or glibc's fallback: offset zero.
            return Some(local);
        };
        let t = gmtime(local);
        let civil = i16::try_from(t.year).ok().and_then(|y| {
            jiff::civil::DateTime::new(
                y,
                t.month as i8,
                t.day as i8,
                t.hour as i8,
                t.min as i8,
                t.sec as i8,
                0,
            )
            .ok()
        });
        let off = match civil.map(|dt| z.to_ambiguous_timestamp(dt).offset()) {
            Some(AmbiguousOffset::Unambiguous { offset }) => i64::from(offset.seconds()),
            Some(AmbiguousOffset::Fold { before, .. }) => i64::from(before.seconds()),
            Some(AmbiguousOffset::Gap { .. }) => return None,
            // A year jiff cannot hold takes the offset at that instant.
            None => self.offset(local),
        };
        local.checked_sub(off)
    }

    /// Formats `secs` in this zone with strftime conversions.
    pub fn strftime(&self, fmt: &str, secs: i64, nanos: u32) -> String {
        let (offset, abbr) = self.offset_at(secs);
        format(fmt, secs, nanos, offset, &abbr)
    }

    /// Broken-down local time at `secs`.
    pub fn local(&self, secs: i64) -> Tm {
        gmtime(secs.saturating_add(self.offset(secs)))
    }
}

/// `+hhmm` (with `colons` = 1, 2 or 3: `+hh:mm`, `+hh:mm:ss`, the shortest of
/// `+hh`, `+hh:mm`, `+hh:mm:ss` that is exact).
pub fn numeric_zone(offset: i64, colons: usize) -> String {
    let sign = if offset < 0 { '-' } else { '+' };
    let a = offset.unsigned_abs();
    let (h, m, s) = (a / 3600, a % 3600 / 60, a % 60);
    match colons {
        0 => format!("{sign}{h:02}{m:02}"),
        1 => format!("{sign}{h:02}:{m:02}"),
        2 => format!("{sign}{h:02}:{m:02}:{s:02}"),
        _ if s != 0 => format!("{sign}{h:02}:{m:02}:{s:02}"),
        _ if m != 0 => format!("{sign}{h:02}:{m:02}"),
        _ => format!("{sign}{h:02}"),
    }
}

/// Formats `secs` (UTC) with strftime conversions.
pub fn strftime(fmt: &str, secs: i64, nanos: u32) -> String {
    format(fmt, secs, nanos, 0, "UTC")
}

/// strftime of `secs` seen at `offset` seconds east of UTC, in a zone called `abbr`.
fn format(fmt: &str, secs: i64, nanos: u32, offset: i64, abbr: &str) -> String {
    let t = gmtime(secs.saturating_add(offset));
    let mut out = String::new();
    let mut cs = fmt.chars().peekable();
    while let Some(c) = cs.next() {
        if c != '%' {
            out.push(c);
            continue;
        }
        // Optional flag (`-` no padding, `_` space padding, `0` zero padding).
        let mut pad: Option<char> = None;
        if let Some(&f) = cs.peek()
            && matches!(f, '-' | '_' | '0' | '^' | '#')
        {
            pad = Some(f);
            cs.next();
        }
        // Optional field width (`%10s`, `%010d`).
        let mut width: Option<usize> = None;
        while let Some(d) = cs.peek().and_then(|c| c.to_digit(10)) {
            width = Some(
                width
                    .unwrap_or(0)
                    .saturating_mul(10)
                    .saturating_add(d as usize),
            );
            cs.next();
        }
        let Some(conv) = cs.next() else {
            out.push('%');
            break;
        };
        let num = |v: i64, width: usize, default_pad: char| -> String {
            match pad {
                Some('-') => v.to_string(),
                Some('_') => format!("{v:>width$}"),
                Some('0') => format!("{v:0>width$}"),
                _ => {
                    if default_pad == ' ' {
                        format!("{v:>width$}")
                    } else {
                        format!("{v:0>width$}")
                    }
                }
            }
        };
        let hour12 = if t.hour.is_multiple_of(12) {
            12
        } else {
            t.hour % 12
        };
        let s = match conv {
            'Y' => t.year.to_string(),
            'C' => num(t.year / 100, 2, '0'),
            'y' => num(t.year % 100, 2, '0'),
            'm' => num(t.month as i64, 2, '0'),
            'd' => num(t.day as i64, 2, '0'),
            'e' => num(t.day as i64, 2, ' '),
            'H' => num(t.hour as i64, 2, '0'),
            'k' => num(t.hour as i64, 2, ' '),
            'I' => num(hour12 as i64, 2, '0'),
            'l' => num(hour12 as i64, 2, ' '),
            'M' => num(t.min as i64, 2, '0'),
            'S' => num(t.sec as i64, 2, '0'),
            'N' => format!("{nanos:09}"),
            'j' => num(t.yday as i64 + 1, 3, '0'),
            'a' => DAYS[t.wday as usize][..3].to_owned(),
            'A' => DAYS[t.wday as usize].to_owned(),
            'b' | 'h' => MONTHS[(t.month - 1) as usize][..3].to_owned(),
            'B' => MONTHS[(t.month - 1) as usize].to_owned(),
            'p' => if t.hour < 12 { "AM" } else { "PM" }.to_owned(),
            'P' => if t.hour < 12 { "am" } else { "pm" }.to_owned(),
            'Z' => abbr.to_owned(),
            'z' => numeric_zone(offset, 0),
            's' => secs.to_string(),
            'u' => (if t.wday == 0 { 7 } else { t.wday }).to_string(),
            'w' => t.wday.to_string(),
            'F' => format!("{}-{:02}-{:02}", t.year, t.month, t.day),
            'T' => format!("{:02}:{:02}:{:02}", t.hour, t.min, t.sec),
            'R' => format!("{:02}:{:02}", t.hour, t.min),
            'D' | 'x' => format!("{:02}/{:02}/{:02}", t.month, t.day, t.year % 100),
            'X' => format!("{:02}:{:02}:{:02}", t.hour, t.min, t.sec),
            'r' => format!(
                "{:02}:{:02}:{:02} {}",
                hour12,
                t.min,
                t.sec,
                if t.hour < 12 { "AM" } else { "PM" }
            ),
            'c' => format!(
                "{} {} {:>2} {:02}:{:02}:{:02} {}",
                &DAYS[t.wday as usize][..3],
                &MONTHS[(t.month - 1) as usize][..3],
                t.day,
                t.hour,
                t.min,
                t.sec,
                t.year
            ),
            'U' => num(((t.yday + 7 - t.wday) / 7) as i64, 2, '0'),
            'W' => num(((t.yday + 7 - (t.wday + 6) % 7) / 7) as i64, 2, '0'),
            'V' => num(iso_week(&t) as i64, 2, '0'),
            'G' => iso_year(&t).to_string(),
            'g' => num(iso_year(&t).rem_euclid(100), 2, '0'),
            'n' => "\n".to_owned(),
            't' => "\t".to_owned(),
            '%' => "%".to_owned(),
            other => format!("%{other}"),
        };
        let s = match pad {
            Some('^') => s.to_uppercase(),
            // `#` swaps the case: lower for the zone and am/pm, upper for names.
            Some('#') if matches!(conv, 'Z' | 'p') => s.to_lowercase(),
            Some('#') if matches!(conv, 'a' | 'A' | 'b' | 'B' | 'h') => s.to_uppercase(),
            _ => s,
        };
        let s = match width {
            Some(w) if s.chars().count() < w && pad != Some('-') => {
                let numeric = s.starts_with(|c: char| c.is_ascii_digit() || c == '-');
                let fill = match pad {
                    Some('_') => ' ',
                    Some('0') => '0',
                    _ if numeric && !"eklP".contains(conv) => '0',
                    _ => ' ',
                };
                let n = w - s.chars().count();
                match s.strip_prefix('-') {
                    Some(rest) if fill == '0' => format!("-{}{rest}", "0".repeat(n)),
                    _ => format!("{}{s}", fill.to_string().repeat(n)),
                }
            }
            _ => s,
        };
        out.push_str(&s);
    }
    out
}

fn is_leap(y: i64) -> bool {
    (y % 4 == 0 && y % 100 != 0) || y % 400 == 0
}

/// ISO weeks in year `y` whose January 1st falls on weekday `jan1` (0 = Sunday).
fn iso_weeks_in(y: i64, jan1: i64) -> i64 {
    if jan1 == 4 || (is_leap(y) && jan1 == 3) {
        53
    } else {
        52
    }
}

/// The ISO 8601 week-based year and week number (the week of the Thursday).
fn iso_year_week(t: &Tm) -> (i64, u32) {
    let yday = i64::from(t.yday);
    let wday = i64::from((t.wday + 6) % 7); // Monday = 0
    let week = (yday - wday + 10) / 7;
    let jan1 = (i64::from(t.wday) - yday).rem_euclid(7);
    if week < 1 {
        let prev_len = if is_leap(t.year - 1) { 366 } else { 365 };
        let prev_jan1 = (jan1 - prev_len).rem_euclid(7);
        (t.year - 1, iso_weeks_in(t.year - 1, prev_jan1) as u32)
    } else if week > iso_weeks_in(t.year, jan1) {
        (t.year + 1, 1)
    } else {
        (t.year, week as u32)
    }
}

fn iso_year(t: &Tm) -> i64 {
    iso_year_week(t).0
}

fn iso_week(t: &Tm) -> u32 {
    iso_year_week(t).1
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn epoch_and_leap_years() {
        assert_eq!(
            strftime("%Y-%m-%d %H:%M:%S %a", 0, 0),
            "1970-01-01 00:00:00 Thu"
        );
        assert_eq!(
            strftime("%F %T %j", 951782400, 0),
            "2000-02-29 00:00:00 060"
        );
        assert_eq!(days_from_civil(2000, 3, 1), 11017);
    }
}
