//! Calendar arithmetic and `strftime` formatting in UTC, for `date`, `printf %(fmt)T`,
//! `ls -l` and prompt strings. The sandbox has one time zone: UTC.

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

/// Formats `secs` (UTC) with strftime conversions.
pub fn strftime(fmt: &str, secs: i64, nanos: u32) -> String {
    let t = gmtime(secs);
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
            'Z' => "UTC".to_owned(),
            'z' => "+0000".to_owned(),
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
            'G' => t.year.to_string(),
            'n' => "\n".to_owned(),
            't' => "\t".to_owned(),
            '%' => "%".to_owned(),
            other => format!("%{other}"),
        };
        if pad == Some('^') {
            out.push_str(&s.to_uppercase());
        } else {
            out.push_str(&s);
        }
    }
    out
}

fn iso_week(t: &Tm) -> u32 {
    let wday = (t.wday + 6) % 7; // Monday = 0
    let week = (t.yday as i64 - wday as i64 + 10) / 7;
    week.clamp(1, 53) as u32
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
