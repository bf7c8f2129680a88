//! Prompt string expansion (bash manual, "Controlling the Prompt"), used by `${x@P}` and
//! `PS4`: backslash escapes first, then parameter expansion and command substitution
//! (when `promptvars` is on).

use super::super::Interp;

/// Expands a prompt string.
pub fn expand_prompt(sh: &mut Interp, s: &str) -> String {
    let decoded = escapes(sh, s);
    if sh
        .shopt
        .has(const { crate::interp::Shopts::flag("promptvars") })
    {
        sh.expand_prompt_string(&decoded)
    } else {
        decoded
    }
}

/// Decodes the backslash escapes of a prompt string.
fn escapes(sh: &mut Interp, s: &str) -> String {
    let cs: Vec<char> = s.chars().collect();
    let now = sh.fs.lock().clock().now();
    let zone = sh.zone();
    let mut out = String::new();
    let mut i = 0;
    while i < cs.len() {
        let c = cs[i];
        i += 1;
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(&e) = cs.get(i) else {
            out.push('\\');
            break;
        };
        i += 1;
        match e {
            'u' => out.push_str("user"),
            'h' | 'H' => out.push_str("shellbox"),
            'w' | 'W' => {
                let home = sh.get_str("HOME").unwrap_or_default();
                let cwd = sh.get_str("PWD").unwrap_or_else(|| sh.cwd.clone());
                if e == 'W' {
                    if cwd == home {
                        out.push('~');
                    } else {
                        out.push_str(crate::fs::path::file_name(&cwd));
                    }
                } else {
                    out.push_str(&sh.polite_dir(&cwd));
                }
            }
            's' => out.push_str("bash"),
            'v' => out.push_str("5.2"),
            'V' => out.push_str("5.2.15"),
            '$' => out.push('$'),
            'n' => out.push('\n'),
            'r' => out.push('\r'),
            'a' => out.push('\x07'),
            'e' => out.push('\x1b'),
            '\\' => out.push('\\'),
            '[' | ']' => {}
            // The jobs still running (bash's count_all_jobs skips the dead ones).
            'j' => {
                let now = sh.fs.lock().clock().now();
                let jobs = sh.jobs.lock().unwrap_or_else(|e| e.into_inner());
                let live = jobs
                    .jobs
                    .iter()
                    .filter(|j| j.id != 0 && !j.finished_by(now));
                out.push_str(&live.count().to_string());
            }
            'l' => out.push_str("tty"),
            // `bash -c` reads no commands the way a script or terminal does: 0.
            '#' if sh.command_string_mode => out.push('0'),
            '#' => out.push_str(&sh.command_number.to_string()),
            // Without history on, bash shows 1.
            '!' if sh.set.history => out.push_str(&sh.history.current_number().to_string()),
            '!' => out.push('1'),
            't' => out.push_str(&zone.strftime("%H:%M:%S", now.secs, 0)),
            'T' => out.push_str(&zone.strftime("%I:%M:%S", now.secs, 0)),
            '@' => out.push_str(&zone.strftime("%I:%M %p", now.secs, 0)),
            'A' => out.push_str(&zone.strftime("%H:%M", now.secs, 0)),
            'd' => out.push_str(&zone.strftime("%a %b %d", now.secs, 0)),
            'D' if cs.get(i) == Some(&'{') => {
                let mut fmt = String::new();
                i += 1;
                while let Some(&d) = cs.get(i) {
                    i += 1;
                    if d == '}' {
                        break;
                    }
                    fmt.push(d);
                }
                let fmt = if fmt.is_empty() { "%X".to_owned() } else { fmt };
                out.push_str(&zone.strftime(&fmt, now.secs, 0));
            }
            '0'..='7' => {
                // Up to three octal digits, wrapped to a byte.
                let (rest, k) = crate::text::take_digits(&cs, &mut i, 8, 2);
                let v = (e as u32 - '0' as u32) * 8u32.pow(k as u32) + rest;
                let b = (v & 0xff) as u8;
                if b < 0x80 {
                    out.push(b as char);
                } else {
                    out.push(crate::text::raw_char(b));
                }
            }
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}
