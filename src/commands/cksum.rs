//! `cksum`: the POSIX CRC and byte count of each input (`CRC SIZE NAME`), or with
//! `-a`/`--algorithm` the BSD or System V `sum` checksums or a message digest (tagged
//! `MD5 (f) = ...` lines by default, `--untagged` for `md5sum`'s layout; `-c` checks).

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, argmatch, long};
use super::digest::{Algo, posix_crc};
use super::util::quotef;
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("algorithm", HasArg::Required, "a"),
    long("check", HasArg::No, "c"),
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

const USAGE: &str = "\
Usage: cksum [OPTION]... [FILE]...
Print or verify checksums.
By default use the 32 bit CRC algorithm.

With no FILE, or when FILE is -, read standard input.

Mandatory arguments to long options are mandatory for short options too.
  -a, --algorithm=TYPE  select the digest type to use.  See DIGEST below.
  -c, --check           read checksums from the FILEs and check them
      --tag             create a BSD-style checksum (the default)
      --untagged        create a reversed style checksum, without digest type
  -z, --zero            end each output line with NUL, not newline,
                          and disable file name escaping
      --help     display this help and exit
      --version  output version information and exit

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
";

/// What `-a` selects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Kind {
    Bsd,
    Sysv,
    Crc,
    Digest(Algo),
    /// Offered by GNU but not implemented here (named for the message).
    Unsupported(&'static str),
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
    ("blake2b", Kind::Unsupported("blake2b")),
    ("sm3", Kind::Unsupported("sm3")),
];

pub fn cksum(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("a:cwz", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let kind = match parsed.last("a") {
        None => Kind::Crc,
        Some(name) => match argmatch(ctx, "--algorithm", name, ALGORITHMS)? {
            Ok(k) => k,
            Err(s) => return Ok(s),
        },
    };
    let stdin_only = parsed.operands.is_empty();
    let files = if stdin_only {
        vec!["-".to_owned()]
    } else {
        parsed.operands.clone()
    };
    if let Kind::Unsupported(name) = kind {
        ctx.err(format!("{name}: algorithm not supported here"))?;
        return Ok(1);
    }
    if parsed.has("c") {
        let Kind::Digest(algo) = kind else {
            ctx.err("--check is not supported with --algorithm={bsd,sysv,crc}")?;
            return Ok(1);
        };
        return super::sum::check(ctx, algo, &parsed, &files);
    }
    let tagged = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "tag" || k == "untagged")
        .is_none_or(|(k, _)| k == "tag");
    let end = if parsed.has("z") { '\0' } else { '\n' };
    let mut status = 0;
    for name in &files {
        let data = match ctx.read_input(name)? {
            Ok(d) => d,
            Err(e) => {
                ctx.err(format!("{}: {e}", quotef(name)))?;
                status = 1;
                continue;
            }
        };
        ctx.host.check()?;
        let sum = match kind {
            Kind::Digest(algo) if tagged => {
                format!("{} ({name}) = {}", algo.tag(), algo.hex(&data))
            }
            Kind::Digest(algo) => format!("{}  {name}", algo.hex(&data)),
            Kind::Bsd => format!("{:05} {:5}", bsd_sum(&data), data.len().div_ceil(1024)),
            Kind::Sysv => format!("{} {}", sysv_sum(&data), data.len().div_ceil(512)),
            Kind::Crc | Kind::Unsupported(_) => format!("{} {}", posix_crc(&data), data.len()),
        };
        let line = match kind {
            Kind::Digest(_) => format!("{sum}{end}"),
            _ if stdin_only => format!("{sum}{end}"),
            _ => format!("{sum} {name}{end}"),
        };
        ctx.stdout.write_all(&crate::text::encode(&line))?;
    }
    Ok(status)
}

/// The BSD `sum` checksum: a 16-bit sum rotated right before each byte is added.
fn bsd_sum(data: &[u8]) -> u16 {
    data.iter().fold(0u16, |sum, &b| {
        sum.rotate_right(1).wrapping_add(u16::from(b))
    })
}

/// The System V `sum` checksum: the byte sum folded to 16 bits.
fn sysv_sum(data: &[u8]) -> u32 {
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
