//! `clear` (ncurses): writes the terminal's clear sequence for `$TERM` as terminfo
//! gives it (with the `E3` scrollback erase unless `-x`), or ncurses's error when
//! `TERM` is unset or unknown. Only the common terminal types are known.

use super::{CmdResult, Ctx};

/// The `clear` and `E3` capabilities of the terminal types scripts meet; `None` for a
/// type without `clear` (`dumb`).
fn capabilities(term: &str) -> Option<Option<(&'static str, &'static str)>> {
    const XTERM: (&str, &str) = ("\x1b[H\x1b[2J", "\x1b[3J");
    const VT: (&str, &str) = ("\x1b[H\x1b[J", "");
    const LINUX: (&str, &str) = ("\x1b[H\x1b[J", "\x1b[3J");
    let base = term.split('-').next().unwrap_or(term);
    Some(Some(match (term, base) {
        ("dumb", _) => return Some(None),
        (_, "xterm") if term.starts_with("xterm-color") => ("\x1b[H\x1b[2J", ""),
        (_, "xterm" | "putty" | "alacritty" | "kitty" | "foot" | "konsole" | "gnome") => XTERM,
        (_, "rxvt") => ("\x1b[H\x1b[2J", ""),
        (_, "screen" | "vt100" | "vt102" | "vt220" | "ansi") => VT,
        (_, "tmux" | "linux") => LINUX,
        _ => return None,
    }))
}

pub fn clear(ctx: &mut Ctx) -> CmdResult {
    let mut scrollback = true;
    let mut args = ctx.args.iter();
    while let Some(a) = args.next() {
        match a.as_str() {
            "-x" => scrollback = false,
            "-V" => {
                writeln!(ctx.stdout, "ncurses 6.4 (shellbox)")?;
                return Ok(0);
            }
            "-T" => {
                args.next();
            }
            _ => {
                writeln!(
                    ctx.stderr,
                    "Usage: clear [options]\n\nOptions:\n  -T TERM     use this instead of $TERM\n  -V          print curses-version\n  -x          do not try to clear scrollback"
                )?;
                return Ok(1);
            }
        }
    }
    let term = ctx
        .args
        .iter()
        .position(|a| a == "-T")
        .and_then(|i| ctx.args.get(i + 1))
        .or_else(|| ctx.env.get("TERM"));
    let Some(term) = term else {
        writeln!(ctx.stderr, "TERM environment variable not set.")?;
        return Ok(1);
    };
    match capabilities(term) {
        None => {
            writeln!(ctx.stderr, "'{term}': unknown terminal type.")?;
            Ok(1)
        }
        Some(None) => Ok(1),
        Some(Some((clear, e3))) => {
            ctx.stdout.write_all(clear.as_bytes())?;
            if scrollback {
                ctx.stdout.write_all(e3.as_bytes())?;
            }
            Ok(0)
        }
    }
}
