//! `cksum`: the POSIX CRC and byte count of each input (`CRC SIZE NAME`), or with
//! `-a`/`--algorithm` the BSD or System V `sum` checksums or a message digest (tagged
//! `MD5 (f) = ...` lines by default, `--untagged` for `md5sum`'s layout, `-l` for
//! BLAKE2b's length; `-c` checks, taking the algorithm from each line's tag when no
//! `-a` is given). Follows GNU coreutils 9.1.

use super::about::{HELP, VERSION, write_help, write_version};
use super::args::{HasArg, LongOpt, Spec, argmatch_exact, long, parse_or_usage, usage_error};
use super::digest::{Algo, posix_crc};
use super::sum::{
    CHECK_HELP, Checker, LENGTH_HELP, Reader, check, length_bits, misused_option, operands,
    parse_length, sum_line, tag_name,
};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("algorithm", HasArg::Required, "a"),
    long("check", HasArg::No, "c"),
    long("length", HasArg::Required, "l"),
    long("tag", HasArg::No, "tag"),
    long("untagged", HasArg::No, "untagged"),
    long("zero", HasArg::No, "z"),
    long("ignore-missing", HasArg::No, "ignore-missing"),
    long("quiet", HasArg::No, "quiet"),
    long("status", HasArg::No, "status"),
    long("strict", HasArg::No, "strict"),
    long("warn", HasArg::No, "w"),
    HELP,
    VERSION,
];

fn usage() -> String {
    format!(
        "\
Usage: cksum [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.
  -c, --check           read checksums from the FILEs and check them
{LENGTH_HELP}      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type
{CHECK_HELP}
DIGEST determines the digest algorithm and default output format:
  sysv      (equivalent to sum -s)
  bsd       (equivalent to sum -r)
  crc       (equivalent to cksum)
  md5       (equivalent to md5sum)
  sha1      (equivalent to sha1sum)
  sha224    (equivalent to sha224sum)
  sha256    (equivalent to sha256sum)
  sha384    (equivalent to sha384sum)
  sha512    (equivalent to sha512sum)
  blake2b   (equivalent to b2sum)
  sm3       (only available through cksum)

When checking, the input should be a former output of this program,
or equivalent standalone program.
"
    )
}

/// What `-a` selects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bsd,
    Sysv,
    Crc,
    Digest(Algo),
}

const ALGORITHMS: &[(&str, Kind)] = &[
    ("bsd", Kind::Bsd),
    ("sysv", Kind::Sysv),
    ("crc", Kind::Crc),
    ("md5", Kind::Digest(Algo::Md5)),
    ("sha1", Kind::Digest(Algo::Sha1)),
    ("sha224", Kind::Digest(Algo::Sha224)),
    ("sha256", Kind::Digest(Algo::Sha256)),
    ("sha384", Kind::Digest(Algo::Sha384)),
    ("sha512", Kind::Digest(Algo::Sha512)),
    ("blake2b", Kind::Digest(Algo::Blake2b)),
    ("sm3", Kind::Digest(Algo::Sm3)),
];

pub fn cksum(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_or_usage(ctx, &Spec::new("a:l:bctwz", LONG), 1)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    // GNU acts on these as getopt meets them, so the first failure or `--help` wins.
    let (mut kind, mut specified) = (Kind::Crc, false);
    let (mut length, mut length_text) = (0, "");
    for (key, value) in &parsed.opts {
        match (key.as_str(), value) {
            ("help", _) => {
                write_help(ctx, &usage())?;
                return Ok(0);
            }
            ("version", _) => {
                write_version(ctx)?;
                return Ok(0);
            }
            ("a", Some(name)) => match argmatch_exact(ctx, "--algorithm", name, ALGORITHMS)? {
                Ok(k) => (kind, specified) = (k, true),
                Err(s) => return Ok(s),
            },
            ("l", Some(v)) => match parse_length(ctx, v)? {
                Ok(n) => (length, length_text) = (n, v.as_str()),
                Err(s) => return Ok(s),
            },
            // GNU 9.1's getopt string has them, but cksum has no case for them.
            ("b" | "t", _) => return usage_error(ctx, "", 1),
            _ => {}
        }
    }
    if length != 0 && kind != Kind::Digest(Algo::Blake2b) {
        ctx.err("--length is only supported with --algorithm=blake2b")?;
        return Ok(1);
    }
    let bits = match length_bits(ctx, length, length_text)? {
        Ok(0) => match kind {
            Kind::Bsd | Kind::Sysv => 16,
            Kind::Crc => 32,
            Kind::Digest(algo) => algo.bits(),
        },
        Ok(n) => n,
        Err(s) => return Ok(s),
    };
    let checking = parsed.has("c");
    if checking && specified && !matches!(kind, Kind::Digest(_)) {
        ctx.err("--check is not supported with --algorithm={bsd,sysv,crc}")?;
        return Ok(1);
    }
    if let Some(msg) = misused_option(&parsed, true) {
        return usage_error(ctx, msg, 1);
    }
    let files = operands(&parsed);
    if checking {
        let algo = match kind {
            Kind::Digest(algo) => Some(algo),
            _ => None,
        };
        return check(
            ctx,
            &mut Checker::new(Reader::Cksum, algo, bits),
            &parsed,
            &files,
        );
    }
    let tagged = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "tag" || k == "untagged")
        .is_none_or(|(k, _)| k == "tag");
    let zero = parsed.has("z");
    let end = if zero { '\0' } else { '\n' };
    ctx.each_input(&files, |ctx, name, data| {
        let sum = match kind {
            Kind::Digest(algo) => {
                let tag = tagged.then(|| tag_name(algo, bits));
                let hex = algo.hex_bits(data, bits);
                let line = sum_line(tag.as_deref(), &hex, name, false, zero);
                return ctx.stdout.write_all(&crate::text::encode(&line));
            }
            Kind::Bsd => format!("{:05} {:5}", bsd_sum(data), data.len().div_ceil(1024)),
            Kind::Sysv => format!("{} {}", sysv_sum(data), data.len().div_ceil(512)),
            Kind::Crc => format!("{} {}", posix_crc(data), data.len()),
        };
        let line = if parsed.operands.is_empty() {
            format!("{sum}{end}")
        } else {
            format!("{sum} {name}{end}")
        };
        ctx.stdout.write_all(&crate::text::encode(&line))
    })
}

/// The BSD `sum` checksum: a 16-bit sum rotated right before each byte is added.
pub(super) fn bsd_sum(data: &[u8]) -> u16 {
    data.iter().fold(0u16, |sum, &b| {
        sum.rotate_right(1).wrapping_add(u16::from(b))
    })
}

/// The System V `sum` checksum: the byte sum folded to 16 bits.
pub(super) fn sysv_sum(data: &[u8]) -> u32 {
    let s = data.iter().fold(0u64, |s, &b| s.wrapping_add(u64::from(b)));
    let r = (s & 0xffff) + ((s & 0xffff_ffff) >> 16);
    ((r & 0xffff) + (r >> 16)) as u32
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn cksum_table() {
        check(
            &[("h", "hello\n")],
            "cksum h",
            "",
            ("3015617425 6 h\n", "", 0),
        );
        check(&[], "cksum", "", ("4294967295 0\n", "", 0));
        check(
            &[],
            "cksum nope",
            "",
            ("", "cksum: nope: No such file or directory\n", 1),
        );
    }
}
