//! `base64`: encodes to or (`-d`) decodes from base64 (RFC 4648), wrapping encoded lines
//! at 76 columns unless `-w` says otherwise; `-i` skips non-alphabet bytes when decoding.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{lq, quotef};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("decode", HasArg::No, "d"),
    long("ignore-garbage", HasArg::No, "i"),
    long("wrap", HasArg::Required, "w"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: base64 [OPTION]... [FILE]
Base64 encode or decode FILE, or standard input, to standard output.

  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help     display this help and exit
      --version  output version information and exit
";

const ALPHABET: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

/// Base64 of `data`, unwrapped.
pub fn encode(data: &[u8]) -> Vec<u8> {
    let mut out = Vec::with_capacity(data.len().div_ceil(3) * 4);
    for chunk in data.chunks(3) {
        let b = [
            chunk.first().copied().unwrap_or(0),
            chunk.get(1).copied().unwrap_or(0),
            chunk.get(2).copied().unwrap_or(0),
        ];
        let n = (u32::from(b[0]) << 16) | (u32::from(b[1]) << 8) | u32::from(b[2]);
        for i in 0..4 {
            if i <= chunk.len() {
                out.push(ALPHABET[((n >> (18 - 6 * i)) & 63) as usize]);
            } else {
                out.push(b'=');
            }
        }
    }
    out
}

fn value(c: u8) -> Option<u32> {
    Some(match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        b'/' => 63,
        _ => return None,
    } as u32)
}

/// Before reporting invalid input GNU writes the bytes a partial group holds: one for
/// two characters, two for three.
fn partial(mut out: Vec<u8>, quad: [u32; 4], n: usize) -> Vec<u8> {
    let v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6);
    if n >= 2 {
        out.push((v >> 16) as u8);
    }
    if n == 3 {
        out.push((v >> 8) as u8);
    }
    out
}

/// Decodes base64, ignoring newlines (and with `garbage`, anything not in the
/// alphabet). On invalid input returns what decoded before it as `Err`.
pub fn decode(data: &[u8], garbage: bool) -> Result<Vec<u8>, Vec<u8>> {
    let mut out = Vec::with_capacity(data.len() / 4 * 3);
    let mut quad = [0u32; 4];
    let mut n = 0;
    let mut pad = 0;
    for &c in data {
        if c == b'\n' {
            continue;
        }
        if c == b'=' {
            if n < 2 {
                if garbage {
                    continue;
                }
                return Err(partial(out, quad, n));
            }
            pad += 1;
            if n + pad == 4 {
                let v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6);
                out.push((v >> 16) as u8);
                if n == 3 {
                    out.push((v >> 8) as u8);
                }
                n = 0;
                pad = 0;
            }
            continue;
        }
        let Some(v) = value(c) else {
            if garbage {
                continue;
            }
            return Err(partial(out, quad, n));
        };
        if pad > 0 {
            return Err(partial(out, quad, n));
        }
        quad[n] = v;
        n += 1;
        if n == 4 {
            let v = (quad[0] << 18) | (quad[1] << 12) | (quad[2] << 6) | quad[3];
            out.extend_from_slice(&[(v >> 16) as u8, (v >> 8) as u8, v as u8]);
            n = 0;
        }
    }
    match (n, pad) {
        (0, 0) => Ok(out),
        (2 | 3, 0) if garbage => Ok(out),
        _ => Err(partial(out, quad, n)),
    }
}

pub fn base64(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("diw:", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut wrap = 76usize;
    if let Some(w) = parsed.last("w") {
        match w.parse::<usize>() {
            Ok(n) => wrap = n,
            Err(_) => {
                ctx.err(format!("invalid wrap size: {}", lq(w)))?;
                return Ok(1);
            }
        }
    }
    let data = match single_input(ctx, &parsed.operands)? {
        Ok(d) => d,
        Err(s) => return Ok(s),
    };
    if parsed.has("d") {
        return match decode(&data, parsed.has("i")) {
            Ok(out) => {
                ctx.stdout.write_all(&out)?;
                Ok(0)
            }
            Err(partial) => {
                ctx.stdout.write_all(&partial)?;
                ctx.err("invalid input")?;
                Ok(1)
            }
        };
    }
    write_wrapped(ctx, &encode(&data), wrap)?;
    Ok(0)
}

/// The one FILE operand (or stdin) of `base64`, `base32` and `basenc`, read whole;
/// `Err` is the status after GNU's message for an extra operand or a failed read.
pub(super) fn single_input(
    ctx: &mut Ctx,
    operands: &[String],
) -> std::io::Result<Result<std::sync::Arc<Vec<u8>>, i32>> {
    if let Some(extra) = operands.get(1) {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1).map(Err);
    }
    let name = operands.first().map_or("-", String::as_str);
    match ctx.read_input(name)? {
        Ok(d) => Ok(Ok(d)),
        Err(e) => {
            ctx.err(format!("{}: {e}", quotef(name)))?;
            Ok(Err(1))
        }
    }
}

/// Writes encoded text in lines of `wrap` columns (0: one unbroken line).
pub(super) fn write_wrapped(ctx: &mut Ctx, enc: &[u8], wrap: usize) -> std::io::Result<()> {
    let mut out = Vec::with_capacity(enc.len() + enc.len() / 76 + 1);
    if wrap == 0 {
        out.extend_from_slice(enc);
    } else {
        for line in enc.chunks(wrap) {
            out.extend_from_slice(line);
            out.push(b'\n');
        }
    }
    ctx.stdout.write_all(&out)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn base64_table() {
        for (line, stdin, out, err, status) in [
            ("base64", "hello\n", "aGVsbG8K\n", "", 0),
            ("base64", "", "", "", 0),
            ("base64", "a", "YQ==\n", "", 0),
            ("base64", "ab", "YWI=\n", "", 0),
            ("base64 -w 4", "hello\n", "aGVs\nbG8K\n", "", 0),
            ("base64 -w 0", "hello\n", "aGVsbG8K", "", 0),
            ("base64 -d", "aGVsbG8K\n", "hello\n", "", 0),
            ("base64 -d", "aGVs\nbG8K", "hello\n", "", 0),
            ("base64 -d", "YQ==", "a", "", 0),
            (
                "base64 -d",
                "aGVsbG8K!\n",
                "hello\n",
                "base64: invalid input\n",
                1,
            ),
            ("base64 -d -i", "aG!VsbG8K\n", "hello\n", "", 0),
            ("base64 -w x", "", "", "base64: invalid wrap size: 'x'\n", 1),
        ] {
            check(&[], line, stdin, (out, err, status));
        }
        let long = " ".repeat(100);
        let want = "ICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAg\nICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgICAgIA==\n";
        check(&[], "base64", &long, (want, "", 0));
    }
}
