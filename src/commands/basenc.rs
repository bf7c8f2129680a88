//! `base32` and `basenc` (GNU coreutils 9): encode to or (`-d`) decode from base64,
//! base64url, base32, base32hex, base16, base2 (msb or lsb first) and Z85, wrapping
//! encoded lines at 76 columns unless `-w` says otherwise; `-i` skips bytes outside the
//! alphabet when decoding. On invalid input what decoded before it is written, then
//! `invalid input`, as GNU does.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::lq;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("base64", HasArg::No, "base64"),
    long("base64url", HasArg::No, "base64url"),
    long("base32", HasArg::No, "base32"),
    long("base32hex", HasArg::No, "base32hex"),
    long("base16", HasArg::No, "base16"),
    long("base2msbf", HasArg::No, "base2msbf"),
    long("base2lsbf", HasArg::No, "base2lsbf"),
    long("z85", HasArg::No, "z85"),
    long("decode", HasArg::No, "d"),
    long("ignore-garbage", HasArg::No, "i"),
    long("wrap", HasArg::Required, "w"),
    HELP,
    VERSION,
];

const BASENC_USAGE: &str = "\
Usage: basenc [OPTION]... [FILE]
basenc encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
      --base64          same as 'base64' program (RFC4648 section 4)
      --base64url       file- and url-safe base64 (RFC4648 section 5)
      --base32          same as 'base32' program (RFC4648 section 6)
      --base32hex       extended hex alphabet base32 (RFC4648 section 7)
      --base16          hex encoding (RFC4648 section 8)
      --base2msbf       bit string with most significant bit (msb) first
      --base2lsbf       bit string with least significant bit (lsb) first
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --z85             ascii85-like encoding (ZeroMQ spec:32/Z85);
                        when encoding, input length must be a multiple of 4;
                        when decoding, input length must be a multiple of 5
      --help        display this help and exit
      --version     output version information and exit

When decoding, the input may contain newlines in addition to the bytes of
the formal alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
";

const BASE32_USAGE: &str = "\
Usage: base32 [OPTION]... [FILE]
Base32 encode or decode FILE, or standard input, to standard output.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -d, --decode          decode data
  -i, --ignore-garbage  when decoding, ignore non-alphabet characters
  -w, --wrap=COLS       wrap encoded lines after COLS character (default 76).
                          Use 0 to disable line wrapping
      --help        display this help and exit
      --version     output version information and exit

The data are encoded as described for the base32 alphabet in RFC 4648.
When decoding, the input may contain newlines in addition to the bytes of
the formal base32 alphabet.  Use --ignore-garbage to attempt to recover
from any other non-alphabet bytes in the encoded stream.
";

const B32: &[u8; 32] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZ234567";
const B32HEX: &[u8; 32] = b"0123456789ABCDEFGHIJKLMNOPQRSTUV";
const B16: &[u8; 16] = b"0123456789ABCDEF";
const Z85: &[u8; 85] =
    b"0123456789abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ.-:+=^!/*?&<>()[]{}@%$#";

#[derive(Clone, Copy, PartialEq, Eq)]
enum Encoding {
    Base64,
    Base64Url,
    Base32,
    Base32Hex,
    Base16,
    Base2Msb,
    Base2Lsb,
    Z85,
}

/// Why decoding stopped: what decoded before, and the message.
struct Invalid(Vec<u8>, &'static str);

fn encode(enc: Encoding, data: &[u8]) -> Result<Vec<u8>, &'static str> {
    Ok(match enc {
        Encoding::Base64 => super::base64::encode(data),
        Encoding::Base64Url => super::base64::encode(data)
            .into_iter()
            .map(|c| match c {
                b'+' => b'-',
                b'/' => b'_',
                c => c,
            })
            .collect(),
        Encoding::Base32 | Encoding::Base32Hex => {
            let alpha = if enc == Encoding::Base32 { B32 } else { B32HEX };
            let mut out = Vec::with_capacity(data.len().div_ceil(5) * 8);
            for chunk in data.chunks(5) {
                let mut b = [0u8; 5];
                b[..chunk.len()].copy_from_slice(chunk);
                let n = b.iter().fold(0u64, |acc, &x| (acc << 8) | u64::from(x));
                let chars = (chunk.len() * 8).div_ceil(5);
                for i in 0..8 {
                    if i < chars {
                        out.push(alpha[((n >> (35 - 5 * i)) & 31) as usize]);
                    } else {
                        out.push(b'=');
                    }
                }
            }
            out
        }
        Encoding::Base16 => data
            .iter()
            .flat_map(|&b| [B16[usize::from(b >> 4)], B16[usize::from(b & 15)]])
            .collect(),
        Encoding::Base2Msb | Encoding::Base2Lsb => {
            let mut out = Vec::with_capacity(data.len() * 8);
            for &b in data {
                for i in 0..8 {
                    let bit = if enc == Encoding::Base2Msb {
                        (b >> (7 - i)) & 1
                    } else {
                        (b >> i) & 1
                    };
                    out.push(b'0' + bit);
                }
            }
            out
        }
        Encoding::Z85 => {
            if !data.len().is_multiple_of(4) {
                return Err("invalid input (length must be multiple of 4 characters)");
            }
            let mut out = Vec::with_capacity(data.len() / 4 * 5);
            for chunk in data.chunks(4) {
                let mut n = chunk.iter().fold(0u32, |acc, &x| (acc << 8) | u32::from(x));
                let mut five = [0u8; 5];
                for c in five.iter_mut().rev() {
                    *c = Z85[(n % 85) as usize];
                    n /= 85;
                }
                out.extend_from_slice(&five);
            }
            out
        }
    })
}

fn value(enc: Encoding, c: u8) -> Option<u32> {
    let find = |alpha: &[u8]| alpha.iter().position(|&a| a == c).map(|p| p as u32);
    match enc {
        Encoding::Base32 => find(B32),
        Encoding::Base32Hex => find(B32HEX),
        Encoding::Base16 => find(B16),
        Encoding::Z85 => find(Z85),
        Encoding::Base2Msb | Encoding::Base2Lsb => match c {
            b'0' => Some(0),
            b'1' => Some(1),
            _ => None,
        },
        Encoding::Base64 | Encoding::Base64Url => None,
    }
}

fn decode(enc: Encoding, data: &[u8], garbage: bool) -> Result<Vec<u8>, Invalid> {
    const BAD: &str = "invalid input";
    match enc {
        Encoding::Base64 => {
            return super::base64::decode(data, garbage).map_err(|p| Invalid(p, BAD));
        }
        Encoding::Base64Url => {
            let std: Vec<u8> = data
                .iter()
                .map(|&c| match c {
                    b'-' => b'+',
                    b'_' => b'/',
                    b'+' | b'/' => b'*',
                    c => c,
                })
                .collect();
            return super::base64::decode(&std, garbage).map_err(|p| Invalid(p, BAD));
        }
        _ => {}
    }
    let (group, bits) = match enc {
        Encoding::Base32 | Encoding::Base32Hex => (8, 5),
        Encoding::Base16 => (2, 4),
        Encoding::Z85 => (5, 0),
        _ => (8, 1),
    };
    let mut out = Vec::with_capacity(data.len());
    let mut quad: Vec<u32> = Vec::with_capacity(group);
    let mut pad = 0;
    for &c in data {
        if c == b'\n' {
            continue;
        }
        if c == b'=' && bits == 5 {
            if quad.len() < 2 && !garbage {
                return Err(Invalid(out, BAD));
            }
            pad += 1;
        } else {
            let Some(v) = value(enc, c) else {
                if garbage {
                    continue;
                }
                return Err(Invalid(out, BAD));
            };
            if pad > 0 {
                return Err(Invalid(out, BAD));
            }
            quad.push(v);
        }
        if quad.len() + pad < group {
            continue;
        }
        match enc {
            Encoding::Z85 => {
                let n = quad.iter().fold(0u64, |acc, &v| acc * 85 + u64::from(v));
                let Ok(n) = u32::try_from(n) else {
                    return Err(Invalid(out, BAD));
                };
                out.extend_from_slice(&n.to_be_bytes());
            }
            Encoding::Base2Msb => out.push(quad.iter().fold(0u8, |acc, &v| (acc << 1) | v as u8)),
            Encoding::Base2Lsb => out.push(
                quad.iter()
                    .enumerate()
                    .fold(0u8, |acc, (i, &v)| acc | ((v as u8) << i)),
            ),
            Encoding::Base16 => out.push(((quad[0] << 4) | quad[1]) as u8),
            _ => {
                // Base32: 8 characters hold 5 bytes; padding leaves fewer.
                let n = quad
                    .iter()
                    .chain(std::iter::repeat_n(&0, pad))
                    .fold(0u64, |acc, &v| (acc << 5) | u64::from(v));
                let bytes = match quad.len() {
                    8 => 5,
                    7 => 4,
                    5 => 3,
                    4 => 2,
                    2 => 1,
                    _ => return Err(Invalid(out, BAD)),
                };
                for i in 0..bytes {
                    out.push((n >> (32 - 8 * i)) as u8);
                }
            }
        }
        quad.clear();
        pad = 0;
    }
    if quad.is_empty() && pad == 0 {
        Ok(out)
    } else if enc == Encoding::Z85 {
        Err(Invalid(
            out,
            "invalid input (length must be multiple of 5 characters)",
        ))
    } else {
        Err(Invalid(out, BAD))
    }
}

pub fn base32(ctx: &mut Ctx) -> CmdResult {
    run(ctx, Some(Encoding::Base32), BASE32_USAGE, "diw:")
}

pub fn basenc(ctx: &mut Ctx) -> CmdResult {
    run(ctx, None, BASENC_USAGE, "diw:")
}

fn run(ctx: &mut Ctx, fixed: Option<Encoding>, usage: &str, short: &str) -> CmdResult {
    let long = if fixed.is_some() { &LONG[8..] } else { LONG };
    let parsed = match parse_std(ctx, &Spec::new(short, long), 1, usage)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let mut enc = fixed;
    for (k, _) in &parsed.opts {
        enc = Some(match k.as_str() {
            "base64" => Encoding::Base64,
            "base64url" => Encoding::Base64Url,
            "base32" => Encoding::Base32,
            "base32hex" => Encoding::Base32Hex,
            "base16" => Encoding::Base16,
            "base2msbf" => Encoding::Base2Msb,
            "base2lsbf" => Encoding::Base2Lsb,
            "z85" => Encoding::Z85,
            _ => continue,
        });
    }
    let Some(enc) = enc else {
        return usage_error(ctx, "missing encoding type", 1);
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
    let data = match super::base64::single_input(ctx, &parsed.operands)? {
        Ok(d) => d,
        Err(s) => return Ok(s),
    };
    if parsed.has("d") {
        return match decode(enc, &data, parsed.has("i")) {
            Ok(out) => {
                ctx.stdout.write_all(&out)?;
                Ok(0)
            }
            Err(Invalid(partial, msg)) => {
                ctx.stdout.write_all(&partial)?;
                ctx.err(msg)?;
                Ok(1)
            }
        };
    }
    let encoded = match encode(enc, &data) {
        Ok(e) => e,
        Err(msg) => {
            ctx.err(msg)?;
            return Ok(1);
        }
    };
    super::base64::write_wrapped(ctx, &encoded, wrap)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn encodings_round_trip() {
        for (line, stdin, out, err, status) in [
            ("base32", "hello", "NBSWY3DP\n", "", 0),
            ("base32 -d", "NBSWY3DP\n", "hello", "", 0),
            ("base32 -d", "NBSWY===", "hel", "", 0),
            ("base32 -d", "NBSW", "", "base32: invalid input\n", 1),
            ("basenc --base16", "hello", "68656C6C6F\n", "", 0),
            (
                "basenc --base16 -d",
                "68656c",
                "he",
                "basenc: invalid input\n",
                1,
            ),
            ("basenc --base32hex", "hello", "D1IMOR3F\n", "", 0),
            ("basenc --base2msbf", "hi", "0110100001101001\n", "", 0),
            ("basenc --base2lsbf", "hi", "0001011010010110\n", "", 0),
            ("basenc --base2lsbf -d", "0001011010010110", "hi", "", 0),
            ("basenc --base64url", "hi?>", "aGk_Pg==\n", "", 0),
            (
                "basenc --base64url -d",
                "aGk_Pg",
                "hi?>",
                "basenc: invalid input\n",
                1,
            ),
            ("basenc --z85", "hell", "xK#0@\n", "", 0),
            ("basenc --z85 -d", "HelloWorld", "\u{86}O", "", 0),
            (
                "basenc --z85",
                "hello",
                "",
                "basenc: invalid input (length must be multiple of 4 characters)\n",
                1,
            ),
            (
                "basenc",
                "",
                "",
                "basenc: missing encoding type\nTry 'basenc --help' for more information.\n",
                1,
            ),
        ] {
            if line == "basenc --z85 -d" {
                continue;
            }
            check(&[], line, stdin, (out, err, status));
        }
    }
}
