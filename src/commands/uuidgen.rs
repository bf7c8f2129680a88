//! `uuidgen` (util-linux): a random (version 4, the default and `-r`) UUID from the
//! session's seeded generator, a time-based one (version 1, `-t`) from the virtual
//! clock with a random multicast node, or a name-based one from `-n NAMESPACE -N NAME`
//! with `-m` (version 3, MD5) or `-s` (version 5, SHA-1); `-x` reads the name as hex.

use super::about::{write_help, write_version};
use super::args::{HasArg, LongOpt, Spec, long};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("random", HasArg::No, "r"),
    long("time", HasArg::No, "t"),
    long("namespace", HasArg::Required, "n"),
    long("name", HasArg::Required, "N"),
    long("md5", HasArg::No, "m"),
    long("sha1", HasArg::No, "s"),
    long("hex", HasArg::No, "x"),
    long("help", HasArg::No, "h"),
    long("version", HasArg::No, "V"),
];

const USAGE: &str = "
Usage:
 uuidgen [options]

Create a new UUID value.

Options:
 -r, --random        generate random-based uuid
 -t, --time          generate time-based uuid
 -n, --namespace ns  generate hash-based uuid in this namespace
                       available namespaces: @dns @url @oid @x500
 -N, --name name     generate hash-based uuid from this name
 -m, --md5           generate md5 hash
 -s, --sha1          generate sha1 hash
 -x, --hex           interpret name as hex string

 -h, --help          display this help
 -V, --version       display version

For more details see uuidgen(1).
";

fn format(u: &[u8; 16]) -> String {
    let hex: String = u.iter().map(|b| format!("{b:02x}")).collect();
    format!(
        "{}-{}-{}-{}-{}",
        &hex[..8],
        &hex[8..12],
        &hex[12..16],
        &hex[16..20],
        &hex[20..]
    )
}

fn parse_uuid(s: &str) -> Option<[u8; 16]> {
    let hex: String = s.chars().filter(|&c| c != '-').collect();
    if hex.len() != 32 || s.len() != 36 {
        return None;
    }
    let mut out = [0u8; 16];
    for (i, b) in out.iter_mut().enumerate() {
        *b = u8::from_str_radix(hex.get(2 * i..2 * i + 2)?, 16).ok()?;
    }
    Some(out)
}

fn random_bytes(ctx: &mut Ctx) -> [u8; 16] {
    let mut out = [0u8; 16];
    for chunk in out.chunks_mut(8) {
        let v = ctx.host.random().to_be_bytes();
        chunk.copy_from_slice(&v[..chunk.len()]);
    }
    out
}

fn usage(ctx: &mut Ctx, msg: &str) -> CmdResult {
    ctx.err(msg)?;
    writeln!(ctx.stderr, "Try 'uuidgen --help' for more information.")?;
    Ok(1)
}

pub fn uuidgen(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("rtn:N:msxhV", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage(ctx, &msg),
    };
    if parsed.has("h") {
        write_help(ctx, USAGE)?;
        return Ok(0);
    }
    if parsed.has("V") {
        write_version(ctx)?;
        return Ok(0);
    }
    let hashed = parsed.has("m") || parsed.has("s");
    let uuid = if hashed || parsed.has("n") || parsed.has("N") {
        if !hashed {
            return usage(ctx, "--namespace requires --md5 or --sha1");
        }
        let (Some(ns), Some(name)) = (parsed.last("n"), parsed.last("N")) else {
            return usage(ctx, "--md5 or --sha1 requires --namespace argument");
        };
        let ns = match ns {
            "@dns" => parse_uuid("6ba7b810-9dad-11d1-80b4-00c04fd430c8"),
            "@url" => parse_uuid("6ba7b811-9dad-11d1-80b4-00c04fd430c8"),
            "@oid" => parse_uuid("6ba7b812-9dad-11d1-80b4-00c04fd430c8"),
            "@x500" => parse_uuid("6ba7b814-9dad-11d1-80b4-00c04fd430c8"),
            other => parse_uuid(other),
        };
        let Some(ns) = ns else {
            return usage(ctx, "failed to parse namespace");
        };
        let name = if parsed.has("x") {
            let hex = name.as_bytes();
            let bytes: Option<Vec<u8>> = hex
                .chunks(2)
                .map(|p| {
                    std::str::from_utf8(p)
                        .ok()
                        .filter(|p| p.len() == 2)
                        .and_then(|p| u8::from_str_radix(p, 16).ok())
                })
                .collect();
            let Some(bytes) = bytes else {
                return usage(ctx, "not a valid hex string");
            };
            bytes
        } else {
            name.as_bytes().to_vec()
        };
        let mut data = ns.to_vec();
        data.extend_from_slice(&name);
        let mut u = [0u8; 16];
        let version = if parsed.has("s") {
            u.copy_from_slice(&super::digest::sha1(&data)[..16]);
            0x50
        } else {
            u = super::digest::md5(&data);
            0x30
        };
        u[6] = (u[6] & 0x0f) | version;
        u[8] = (u[8] & 0x3f) | 0x80;
        u
    } else if parsed.has("t") {
        // 100 ns intervals since 1582-10-15.
        let now = ctx.fs.lock().clock().now().as_nanos();
        let t = (now / 100).wrapping_add(0x01b2_1dd2_1381_4000) as u64;
        let r = random_bytes(ctx);
        let mut u = [0u8; 16];
        u[..4].copy_from_slice(&(t as u32).to_be_bytes());
        u[4..6].copy_from_slice(&((t >> 32) as u16).to_be_bytes());
        u[6..8].copy_from_slice(&((((t >> 48) as u16) & 0x0fff) | 0x1000).to_be_bytes());
        u[8] = (r[0] & 0x3f) | 0x80;
        u[9] = r[1];
        u[10..].copy_from_slice(&r[2..8]);
        u[10] |= 0x01;
        u
    } else {
        let mut u = random_bytes(ctx);
        u[6] = (u[6] & 0x0f) | 0x40;
        u[8] = (u[8] & 0x3f) | 0x80;
        u
    };
    writeln!(ctx.stdout, "{}", format(&uuid))?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, run};

    #[test]
    fn name_based_match_util_linux() {
        check(
            &[],
            "uuidgen -s -n @dns -N example.com",
            "",
            ("cfbff0d1-9375-5685-968c-48ce8b15ae17\n", "", 0),
        );
        check(
            &[],
            "uuidgen -m -n @url -N https://example.com",
            "",
            ("68794df6-5e20-385f-ab08-bb73f8a433cb\n", "", 0),
        );
    }

    #[test]
    fn random_and_time_have_their_versions() {
        let (out, _, status) = run(&[], "uuidgen", "");
        assert_eq!(status, 0);
        assert_eq!(out.len(), 37);
        assert_eq!(out.as_bytes()[14], b'4');
        let (out, _, _) = run(&[], "uuidgen -t", "");
        assert_eq!(out.as_bytes()[14], b'1');
    }
}
