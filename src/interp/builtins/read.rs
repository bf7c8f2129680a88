//! `read` and `mapfile`/`readarray`: reading lines or fields from a descriptor, with
//! bash's backslash and IFS rules.

use super::super::{Flow, Interp, R};
use crate::expand::Value;

/// Ends the run once one value read has grown past `max_string_len` bytes (an endless
/// line such as `/dev/zero` would otherwise grow without bound).
fn check_len(sh: &Interp, n: usize) -> Result<(), Flow> {
    let max = sh.budget.limits.max_string_len;
    if n > max {
        let m = format!("string length limit exceeded ({max} bytes)");
        sh.budget.trip(&m);
        return Err(Flow::Fatal(m));
    }
    Ok(())
}

/// Reads one byte from `fd`; `None` at end of input or on error.
fn read_byte(sh: &Interp, fd: i32) -> Option<u8> {
    read_byte_or_error(sh, fd, &mut None)
}

/// [`read_byte`], noting in `error` why a read failed (a directory, a descriptor open
/// only for writing) rather than ending the data.
fn read_byte_or_error(sh: &Interp, fd: i32, error: &mut Option<std::io::Error>) -> Option<u8> {
    let f = sh.fds.get(fd)?.clone();
    let mut b = [0u8; 1];
    match f.read(&sh.fs, &mut b, &sh.budget.cancel) {
        Ok(1) => Some(b[0]),
        Ok(_) => None,
        Err(e) => {
            *error = Some(e);
            None
        }
    }
}

/// Reads a line (without its newline) from `fd`; `None` at end of input.
pub fn read_line_fd(sh: &mut Interp, fd: i32) -> Option<String> {
    let mut buf = Vec::new();
    loop {
        match read_byte(sh, fd) {
            Some(b'\n') => break,
            Some(b) => buf.push(b),
            None => {
                if buf.is_empty() {
                    return None;
                }
                break;
            }
        }
    }
    Some(crate::text::decode(&buf))
}

pub fn read(sh: &mut Interp, args: &[String]) -> R {
    let mut raw = false;
    let mut array: Option<String> = None;
    let mut delim: Option<u8> = Some(b'\n');
    let mut nchars: Option<usize> = None;
    let mut exact = false;
    let mut fd = 0;
    let mut timeout: Option<f64> = None;
    let mut i = 1;
    while i < args.len() {
        let a = &args[i];
        if a == "--" {
            i += 1;
            break;
        }
        if !a.starts_with('-') || a.len() < 2 {
            break;
        }
        let cs: Vec<char> = a[1..].chars().collect();
        let mut k = 0;
        while k < cs.len() {
            let c = cs[k];
            let takes = matches!(c, 'a' | 'd' | 'n' | 'N' | 'p' | 't' | 'u' | 'i');
            let val = if takes {
                if k + 1 < cs.len() {
                    let v: String = cs[k + 1..].iter().collect();
                    k = cs.len();
                    Some(v)
                } else {
                    i += 1;
                    match args.get(i) {
                        Some(v) => Some(v.clone()),
                        None => {
                            sh.builtin_error("read", &format!("-{c}: option requires an argument"));
                            sh.errln("read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]");
                            return Ok(2);
                        }
                    }
                }
            } else {
                None
            };
            match (c, val) {
                ('r', _) => raw = true,
                ('s' | 'e', _) => {}
                ('a', Some(v)) => array = Some(v),
                ('d', Some(v)) => delim = v.bytes().next().or(Some(0)),
                ('n', Some(v)) | ('N', Some(v)) => {
                    match v.parse::<usize>() {
                        Ok(n) => nchars = Some(n),
                        Err(_) => {
                            sh.builtin_error("read", &format!("{v}: invalid number"));
                            return Ok(1);
                        }
                    }
                    exact = c == 'N';
                }
                ('p', Some(_)) | ('i', Some(_)) => {}
                ('t', Some(v)) => match v.parse::<f64>() {
                    Ok(t) if t >= 0.0 => timeout = Some(t),
                    _ => {
                        sh.builtin_error("read", &format!("{v}: invalid timeout specification"));
                        return Ok(1);
                    }
                },
                ('u', Some(v)) => match v.parse::<i32>() {
                    Ok(n) if sh.fds.get(n).is_some() => fd = n,
                    Ok(n) if n >= 0 => {
                        sh.builtin_error(
                            "read",
                            &format!("{v}: invalid file descriptor: Bad file descriptor"),
                        );
                        return Ok(1);
                    }
                    _ => {
                        sh.builtin_error(
                            "read",
                            &format!("{v}: invalid file descriptor specification"),
                        );
                        return Ok(1);
                    }
                },
                _ => {
                    sh.builtin_error("read", &format!("-{c}: invalid option"));
                    sh.errln("read: usage: read [-ers] [-a array] [-d delim] [-i text] [-n nchars] [-N nchars] [-p prompt] [-t timeout] [-u fd] [name ...]");
                    return Ok(2);
                }
            }
            k += 1;
        }
        i += 1;
    }
    let names: Vec<String> = args[i..].to_vec();
    for n in &names {
        if !crate::syntax::is_name(n) && !crate::interp::host::valid_array_reference(n) {
            sh.builtin_error("read", &format!("`{n}': not a valid identifier"));
            return Ok(1);
        }
    }
    if timeout == Some(0.0) {
        return Ok(if sh.fds.get(fd).is_some() { 0 } else { 1 });
    }
    if sh.fds.get(fd).is_none() {
        // Only a `-u` descriptor is checked up front; a closed stdin fails the read.
        sh.builtin_error("read", &format!("read error: {fd}: Bad file descriptor"));
        return Ok(1);
    }
    // Read the raw text, tracking which characters were escaped by a backslash.
    let byte_locale = sh.byte_locale();
    let mut buf: Vec<u8> = Vec::new();
    let mut escaped: Vec<bool> = Vec::new();
    let mut eof = false;
    let mut count = 0usize;
    let mut seen = 0usize;
    let mut error = None;
    loop {
        if let Some(n) = nchars
            && count >= n
        {
            break;
        }
        seen += 1;
        check_len(sh, seen)?;
        let Some(b) = read_byte_or_error(sh, fd, &mut error) else {
            eof = true;
            break;
        };
        if b == 0 && delim != Some(0) {
            continue;
        }
        if !exact && Some(b) == delim {
            break;
        }
        if !raw && b == b'\\' {
            match read_byte_or_error(sh, fd, &mut error) {
                None => {
                    eof = true;
                    break;
                }
                Some(b'\n') => continue,
                Some(n) => {
                    buf.push(n);
                    escaped.push(true);
                    count += 1;
                    continue;
                }
            }
        }
        buf.push(b);
        escaped.push(false);
        count += 1;
        // -n counts characters: the rest of a multibyte one is read with its first
        // byte (in a UTF-8 locale; the C locale counts bytes).
        let more = match b {
            0xC0..=0xDF => 1,
            0xE0..=0xEF => 2,
            0xF0..=0xF7 => 3,
            _ => 0,
        };
        if more > 0 && nchars.is_some() && !byte_locale {
            for _ in 0..more {
                let Some(c) = read_byte_or_error(sh, fd, &mut error) else {
                    eof = true;
                    break;
                };
                buf.push(c);
                escaped.push(false);
            }
            if eof {
                break;
            }
        }
    }
    // bash reports a failed read (a directory, a write-only descriptor) and assigns
    // nothing.
    if let Some(e) = error {
        let text = crate::interp::exec::io_error_text(&e);
        sh.builtin_error("read", &format!("read error: {fd}: {text}"));
        return Ok(1);
    }
    let text = crate::text::decode(&buf);
    // Map escape flags from bytes to chars.
    let mut esc_chars = Vec::new();
    {
        let mut bi = 0;
        for c in text.chars() {
            esc_chars.push(escaped.get(bi).copied().unwrap_or(false));
            bi += match crate::text::raw_byte(c) {
                Some(_) => 1,
                None => c.len_utf8(),
            };
        }
    }
    let status = if eof { 1 } else { 0 };
    // Unset IFS, or IFS declared without a value, is space, tab and newline.
    let ifs = sh
        .vars
        .get("IFS")
        .and_then(|v| v.ifs_text())
        .unwrap_or_else(|| " \t\n".to_owned());
    if let Some(arr) = array {
        let fields = split_fields(&text, &esc_chars, &ifs, usize::MAX);
        let mut m = imbl::OrdMap::new();
        for (k, f) in fields.into_iter().enumerate() {
            m.insert(k as i64, f);
        }
        // The name is checked once the line is read (it is consumed either way).
        if !array_target_ok(sh, "read", &arr) {
            return Ok(1);
        }
        if let Err(e) = store_array(sh, &arr, m) {
            sh.assign_error("read", &e);
            return Ok(1);
        }
        return Ok(status);
    }
    if names.is_empty() {
        if let Err(e) = sh.assign_scalar("REPLY", text, false) {
            sh.assign_error("read", &e);
            return Ok(1);
        }
        return Ok(status);
    }
    // `-N` reads an exact count of characters that is never split into fields.
    let fields = if exact {
        vec![text]
    } else {
        split_fields(&text, &esc_chars, &ifs, names.len())
    };
    for (k, n) in names.iter().enumerate() {
        let v = fields.get(k).cloned().unwrap_or_default();
        if let Err(e) = sh.assign_scalar(n, v, false) {
            sh.assign_error("read", &e);
            return Ok(1);
        }
    }
    Ok(status)
}

/// Splits `text` on IFS into at most `max` fields; the last field keeps the rest of the
/// line (minus trailing IFS whitespace). Escaped characters never split.
/// Whether `name` can take the indexed array `read -a` or `mapfile` makes: a valid
/// name, not readonly, not associative (bash's three errors, status 1).
fn array_target_ok(sh: &mut Interp, builtin: &str, name: &str) -> bool {
    if !crate::syntax::is_name(name) {
        sh.builtin_error(builtin, &format!("`{name}': not a valid identifier"));
        return false;
    }
    if let Some(v) = sh.vars.get(name) {
        if v.attrs.has(crate::expand::Attrs::READONLY) {
            sh.error(&format!("{name}: readonly variable"));
            return false;
        }
        if v.is_assoc() {
            sh.builtin_error(builtin, &format!("{name}: not an indexed array"));
            return false;
        }
    }
    true
}

fn split_fields(text: &str, esc: &[bool], ifs: &str, max: usize) -> Vec<String> {
    let cs: Vec<char> = text.chars().collect();
    let is_ws = |c: char| matches!(c, ' ' | '\t' | '\n') && ifs.contains(c);
    let is_sep = |i: usize| !esc.get(i).copied().unwrap_or(false) && ifs.contains(cs[i]);
    let mut fields = Vec::new();
    let mut i = 0;
    // Leading IFS whitespace.
    while i < cs.len() && is_sep(i) && is_ws(cs[i]) {
        i += 1;
    }
    while i < cs.len() {
        // Skips one delimiter: whitespace run, optional non-ws char, whitespace run.
        let skip_delim = |mut i: usize| {
            while i < cs.len() && is_sep(i) && is_ws(cs[i]) {
                i += 1;
            }
            if i < cs.len() && is_sep(i) && !is_ws(cs[i]) {
                i += 1;
                while i < cs.len() && is_sep(i) && is_ws(cs[i]) {
                    i += 1;
                }
            }
            i
        };
        let start = i;
        while i < cs.len() && !is_sep(i) {
            i += 1;
        }
        if fields.len() + 1 == max {
            // The last name takes the rest of the line, minus trailing IFS whitespace;
            // but when the rest is one word and its delimiter, just that word.
            if skip_delim(i) >= cs.len() {
                fields.push(cs[start..i].iter().collect());
                return fields;
            }
            let mut end = cs.len();
            while end > start && is_sep(end - 1) && is_ws(cs[end - 1]) {
                end -= 1;
            }
            fields.push(cs[start..end].iter().collect());
            return fields;
        }
        fields.push(cs[start..i].iter().collect());
        i = skip_delim(i);
    }
    fields
}

/// bash's `legal_number`: optional blanks, a sign and decimal digits, blanks.
pub(crate) fn legal_number(s: &str) -> Option<i64> {
    let t = s.trim_matches([' ', '\t', '\n']);
    let digits = t.strip_prefix(['-', '+']).unwrap_or(t);
    if digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    t.parse().ok()
}

/// The synopsis after `usage: NAME` (bash names the builtin as it was invoked).
const MAPFILE_USAGE: &str =
    "[-d delim] [-n count] [-O origin] [-s count] [-t] [-u fd] [-C callback] [-c quantum] [array]";

/// `mapfile`/`readarray` (bash manual, "Bash Builtins"): options checked as bash's
/// `mapfile.c` checks them, `-C callback` run as `callback INDEX 'line'` every
/// `-c quantum` lines (5000 by default) before the line is stored.
pub fn mapfile(sh: &mut Interp, args: &[String]) -> R {
    let builtin = args[0].clone();
    let mut delim = b'\n';
    let mut count: Option<usize> = None;
    let mut origin: i64 = 0;
    let mut skip = 0usize;
    let mut strip = false;
    let mut fd = 0;
    let mut i = 1;
    let mut keep = false;
    let mut callback: Option<String> = None;
    let mut quantum: i64 = 5000;
    while i < args.len() && args[i].starts_with('-') && args[i].len() > 1 {
        let a = args[i].clone();
        if a == "--" {
            i += 1;
            break;
        }
        for (p, c) in a[1..].char_indices() {
            if c == 't' {
                strip = true;
                continue;
            }
            if !"dnOsuCc".contains(c) {
                sh.builtin_error(&builtin, &format!("-{c}: invalid option"));
                sh.errln(&format!("{builtin}: usage: {builtin} {MAPFILE_USAGE}"));
                return Ok(2);
            }
            let rest = &a[1 + p + c.len_utf8()..];
            let v = if rest.is_empty() {
                i += 1;
                match args.get(i) {
                    Some(v) => v.clone(),
                    None => {
                        sh.builtin_error(&builtin, &format!("-{c}: option requires an argument"));
                        sh.errln(&format!("{builtin}: usage: {builtin} {MAPFILE_USAGE}"));
                        return Ok(2);
                    }
                }
            } else {
                rest.to_owned()
            };
            let n = legal_number(&v);
            let bad = |sh: &mut Interp, what: &str| {
                sh.builtin_error(&builtin, &format!("{v}: {what}"));
                Ok(1)
            };
            match c {
                'd' => delim = v.bytes().next().unwrap_or(0),
                'n' => match n.filter(|&n| n >= 0) {
                    Some(n) => count = usize::try_from(n).ok().filter(|&n| n > 0),
                    None => return bad(sh, "invalid line count"),
                },
                'O' => match n.filter(|&n| n >= 0) {
                    Some(n) => {
                        origin = n;
                        keep = true;
                    }
                    None => return bad(sh, "invalid array origin"),
                },
                's' => match n.filter(|&n| n >= 0) {
                    Some(n) => skip = usize::try_from(n).unwrap_or(usize::MAX),
                    None => return bad(sh, "invalid line count"),
                },
                // bash checks the descriptor as it takes the option, before the
                // options after it and the array name.
                'u' => match n.filter(|&n| n >= 0).and_then(|n| i32::try_from(n).ok()) {
                    Some(n) if sh.fds.get(n).is_some() => fd = n,
                    Some(n) => {
                        sh.builtin_error(
                            &builtin,
                            &format!("{n}: invalid file descriptor: Bad file descriptor"),
                        );
                        return Ok(1);
                    }
                    None => return bad(sh, "invalid file descriptor specification"),
                },
                'C' => callback = Some(v),
                _ => match n.filter(|&n| n > 0) {
                    Some(n) => quantum = n,
                    None => return bad(sh, "invalid callback quantum"),
                },
            }
            break;
        }
        i += 1;
    }
    let name = args.get(i).cloned().unwrap_or_else(|| "MAPFILE".to_owned());
    if name.is_empty() {
        sh.builtin_error(&builtin, "empty array variable name");
        return Ok(2);
    }
    if !array_target_ok(sh, &builtin, &name) {
        return Ok(1);
    }
    // A closed stdin (without `-u`, which was checked above) reads as empty.
    let mut arr = if keep {
        match sh.vars.get(&name).and_then(|v| v.value.clone()) {
            Some(Value::Indexed(a)) => a,
            Some(Value::Str(s)) => imbl::OrdMap::unit(0, s),
            _ => imbl::OrdMap::new(),
        }
    } else {
        imbl::OrdMap::new()
    };
    // Lines to skip are read (and dropped) first.
    for _ in 0..skip {
        let mut got = false;
        while let Some(b) = read_byte(sh, fd) {
            got = true;
            if b == delim {
                break;
            }
        }
        if !got {
            break;
        }
    }
    let mut idx = origin;
    let mut n = 0usize;
    loop {
        if count.is_some_and(|c| n >= c) {
            break;
        }
        let mut line = Vec::new();
        let mut got = false;
        let mut ended = false;
        while let Some(b) = read_byte(sh, fd) {
            got = true;
            if b == delim {
                // A NUL delimiter cannot be kept: shell values end at NUL.
                if !strip && b != 0 {
                    line.push(b);
                }
                ended = true;
                break;
            }
            line.push(b);
            check_len(sh, line.len())?;
        }
        if !got {
            break;
        }
        n += 1;
        if let Some(cb) = &callback
            && (n as i64) % quantum == 0
        {
            // What is stored so far is visible to the callback, as bash binds as it goes.
            sh.vars.entry(&name, false).value = Some(Value::Indexed(arr.clone()));
            let text = crate::text::decode(&line);
            let call = format!("{cb} {idx} '{}'", text.replace('\'', "'\\''"));
            sh.run_source(&call, None)?;
        }
        // Elements are C strings in bash: a NUL ends one (unless it is the delimiter).
        if let Some(nul) = line.iter().position(|&b| b == 0)
            && delim != 0
        {
            line.truncate(nul);
        }
        arr.insert(idx, crate::text::decode(&line));
        let max = sh.budget.limits.max_array_len;
        if arr.len() > max {
            let m = format!("array size limit exceeded ({max} elements)");
            sh.budget.trip(&m);
            return Err(Flow::Fatal(m));
        }
        idx += 1;
        if !ended {
            break;
        }
    }
    if let Err(e) = store_array(sh, &name, arr) {
        sh.assign_error(&builtin, &e);
        return Ok(1);
    }
    Ok(0)
}

/// Makes `name` the indexed array `arr` (for `read -a` and `mapfile`). Each element is
/// assigned as `name[i]=v` would be, so an integer or case attribute applies to it;
/// without one the values are stored as they are.
fn store_array(
    sh: &mut Interp,
    name: &str,
    arr: imbl::OrdMap<i64, String>,
) -> Result<(), crate::interp::AssignError> {
    use crate::expand::Attrs;
    let transforms = Attrs::INTEGER | Attrs::LOWER | Attrs::UPPER | Attrs::CAPITALIZE;
    let attrs = sh.vars.get(name).map(|v| v.attrs.0).unwrap_or(0);
    if attrs & transforms == 0 {
        sh.vars.entry(name, false).value = Some(Value::Indexed(arr));
        return Ok(());
    }
    sh.vars.entry(name, false).value = Some(Value::Indexed(imbl::OrdMap::new()));
    for (k, v) in arr {
        sh.assign_element(name, &k.to_string(), v, false)?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::split_fields;

    fn check(text: &str, ifs: &str, max: usize, want: &[&str]) {
        let esc = vec![false; text.chars().count()];
        assert_eq!(split_fields(text, &esc, ifs, max), want, "{text:?}");
    }

    #[test]
    fn ifs_splitting_for_read() {
        check("  a  b  c  ", " \t\n", 2, &["a", "b  c"]);
        check("a:b:c", ":", 2, &["a", "b:c"]);
        check("a::b", ":", 3, &["a", "", "b"]);
        check(" x ", " ", 1, &["x"]);
        // The last field drops one trailing delimiter only when it ends the line.
        check("xx", "x ", 2, &["", ""]);
        check("xxx", "x ", 2, &["", "xx"]);
        check("a:b:", ":", 2, &["a", "b"]);
        check("a:b:c:", ":", 2, &["a", "b:c:"]);
    }
}
