//! Prompt string expansion (bash manual, "Controlling the Prompt"), used by `${x@P}` and
//! `PS4`.

use super::super::Interp;

/// Expands backslash escapes of a prompt string.
pub fn expand_prompt(sh: &mut Interp, s: &str) -> String {
    let mut out = String::new();
    let mut cs = s.chars().peekable();
    while let Some(c) = cs.next() {
        if c != '\\' {
            out.push(c);
            continue;
        }
        let Some(e) = cs.next() else {
            out.push('\\');
            break;
        };
        match e {
            'u' => out.push_str("user"),
            'h' | 'H' => out.push_str("shellbox"),
            'w' | 'W' => {
                let home = sh.get_str("HOME").unwrap_or_default();
                let cwd = sh.cwd.clone();
                if e == 'W' {
                    if cwd == home {
                        out.push('~');
                    } else {
                        out.push_str(crate::fs::path::file_name(&cwd));
                    }
                } else if !home.is_empty() && (cwd == home || cwd.starts_with(&format!("{home}/")))
                {
                    out.push('~');
                    out.push_str(&cwd[home.len()..]);
                } else {
                    out.push_str(&cwd);
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
            'j' => out.push('0'),
            'l' => out.push_str("tty"),
            '#' | '!' => out.push('1'),
            other => {
                out.push('\\');
                out.push(other);
            }
        }
    }
    out
}
