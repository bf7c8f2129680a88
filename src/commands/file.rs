//! `file`: names a file's type from its content, with a small built-in magic set in
//! the wording of file 5.44: empty, directories and symlinks, ASCII/UTF-8/ISO-8859 text
//! (with its line-terminator notes), JSON, scripts by their `#!` line, PNG, JPEG, GIF,
//! gzip, ELF and plain `data`; `-b -L -h -i --mime-type`.

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::{CmdResult, Ctx};
use crate::fs::{FileType, Fs};

const LONG: &[LongOpt] = &[
    long("brief", HasArg::No, "b"),
    long("dereference", HasArg::No, "L"),
    long("no-dereference", HasArg::No, "h"),
    long("mime", HasArg::No, "i"),
    long("mime-type", HasArg::No, "mime-type"),
    long("mime-encoding", HasArg::No, "mime-encoding"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: file [OPTION...] [FILE...]
Determine type of FILEs.

      --help                 display this help and exit
  -v, --version              output version information and exit
  -m, --magic-file LIST      use LIST as a colon-separated list of magic
                               number files
  -z, --uncompress           try to look inside compressed files
  -Z, --uncompress-noreport  only print the contents of compressed files
  -b, --brief                do not prepend filenames to output lines
  -c, --checking-printout    print the parsed form of the magic file, use in
                               conjunction with -m to debug a new magic file
                               before installing it
  -e, --exclude TEST         exclude TEST from the list of test to be
                               performed for file. Valid tests are:
                               apptype, ascii, cdf, compress, csv, elf,
                               encoding, soft, tar, json, text,
                               tokens
      --exclude-quiet TEST   like exclude, but ignore unknown tests
  -f, --files-from FILE      read the filenames to be examined from FILE
  -F, --separator STRING     use string as separator instead of `:'
  -i, --mime                 output MIME type strings (--mime-type and
                               --mime-encoding)
      --apple                output the Apple CREATOR/TYPE
      --extension            output a slash-separated list of extensions
      --mime-type            output the MIME type
      --mime-encoding        output the MIME encoding
  -k, --keep-going           don't stop at the first match
  -l, --list                 list magic strength
  -L, --dereference          follow symlinks (default if POSIXLY_CORRECT is set)
  -h, --no-dereference       don't follow symlinks (default if POSIXLY_CORRECT is not set) (default)
  -n, --no-buffer            do not buffer output
  -N, --no-pad               do not pad output
  -0, --print0               terminate filenames with ASCII NUL
  -p, --preserve-date        preserve access times on files
  -P, --parameter            set file engine parameter limits
                                   bytes 7340032 max bytes to look inside file
                               elf_notes     256 max ELF notes processed
                               elf_phnum    2048 max ELF prog sections processed
                               elf_shnum   32768 max ELF sections processed
                                encoding   65536 max bytes to scan for encoding
                                   indir      50 recursion limit for indirection
                                    name      50 use limit for name/use magic
                                   regex    8192 length limit for REGEX searches
  -r, --raw                  don't translate unprintable chars to \\ooo
  -s, --special-files        treat special (block/char devices) files as
                             ordinary ones
  -S, --no-sandbox           disable system call sandboxing
  -C, --compile              compile file specified by -m
  -d, --debug                print debugging messages
";

/// A description and the MIME type and encoding that go with it.
struct Kind {
    text: String,
    mime: &'static str,
    charset: &'static str,
}

fn kind(text: impl Into<String>, mime: &'static str, charset: &'static str) -> Kind {
    Kind {
        text: text.into(),
        mime,
        charset,
    }
}

fn be32(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_be_bytes(d.get(at..at + 4)?.try_into().ok()?))
}

fn le16(d: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(d.get(at..at + 2)?.try_into().ok()?))
}

fn le32(d: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(d.get(at..at + 4)?.try_into().ok()?))
}

fn png(d: &[u8]) -> String {
    let mut s = "PNG image data".to_owned();
    if d.get(12..16) == Some(b"IHDR")
        && let (Some(w), Some(h), Some(&depth), Some(&color), Some(&inter)) =
            (be32(d, 16), be32(d, 20), d.get(24), d.get(25), d.get(28))
    {
        let color = match color {
            0 => "grayscale",
            2 => "/color RGB",
            3 => "colormap",
            4 => "gray+alpha",
            6 => "/color RGBA",
            _ => "",
        };
        let sep = if color.starts_with('/') { "" } else { " " };
        let inter = if inter == 1 {
            "interlaced"
        } else {
            "non-interlaced"
        };
        s.push_str(&format!(", {w} x {h}, {depth}-bit{sep}{color}, {inter}"));
    }
    s
}

fn gzip(d: &[u8]) -> String {
    let mut parts = vec!["gzip compressed data".to_owned()];
    let flags = d.get(3).copied().unwrap_or(0);
    let mtime = le32(d, 4).unwrap_or(0);
    if flags & 0x08 != 0 {
        let mut at = 10;
        if flags & 0x04 != 0 {
            at += 2 + usize::from(le16(d, 10).unwrap_or(0));
        }
        let name: Vec<u8> = d
            .get(at..)
            .unwrap_or(&[])
            .iter()
            .take_while(|&&b| b != 0)
            .copied()
            .collect();
        parts.push(format!("was \"{}\"", crate::text::decode(&name)));
    }
    if mtime != 0 {
        parts.push(format!(
            "last modified: {}",
            crate::timefmt::strftime("%a %b %e %H:%M:%S %Y", i64::from(mtime), 0)
        ));
    }
    match d.get(8) {
        Some(2) => parts.push("max compression".to_owned()),
        Some(4) => parts.push("max speed".to_owned()),
        _ => {}
    }
    if d.get(9) == Some(&3) {
        parts.push("from Unix".to_owned());
    }
    if d.len() >= 18
        && let Some(size) = le32(d, d.len() - 4)
    {
        parts.push(format!("original size modulo 2^32 {size}"));
    }
    parts.join(", ")
}

fn elf(d: &[u8]) -> String {
    let class = match d.get(4) {
        Some(1) => "32-bit",
        Some(2) => "64-bit",
        _ => "invalid class",
    };
    let little = d.get(5) != Some(&2);
    let mut s = format!("ELF {class} {}", if little { "LSB" } else { "MSB" });
    let half = |at: usize| -> Option<u16> {
        let b: [u8; 2] = d.get(at..at + 2)?.try_into().ok()?;
        Some(if little {
            u16::from_le_bytes(b)
        } else {
            u16::from_be_bytes(b)
        })
    };
    if let (Some(ty), Some(machine)) = (half(16), half(18)) {
        let ty = match ty {
            1 => "relocatable",
            2 => "executable",
            3 => "shared object",
            4 => "core file",
            _ => "unknown type",
        };
        let machine = match machine {
            3 => "Intel 80386",
            0x28 => "ARM",
            0x3e => "x86-64",
            0xb7 => "ARM aarch64",
            0xf3 => "UCB RISC-V",
            _ => "unknown arch",
        };
        s.push_str(&format!(", {ty}, {machine}, version 1 (SYSV)"));
    }
    s
}

fn script(first_line: &str) -> Option<String> {
    let cmd = first_line.strip_prefix("#!")?.trim();
    let mut words = cmd.split_whitespace();
    let mut prog = words.next()?;
    if prog.ends_with("/env") {
        prog = words.find(|w| !w.starts_with('-'))?;
    }
    let base = prog.rsplit('/').next().unwrap_or(prog);
    Some(match base {
        "bash" => "Bourne-Again shell script".to_owned(),
        "sh" | "dash" => "POSIX shell script".to_owned(),
        "zsh" => "Paul Falstad's zsh script".to_owned(),
        b if b.starts_with("python") => "Python script".to_owned(),
        "perl" => "Perl script".to_owned(),
        "ruby" => "Ruby script".to_owned(),
        "node" | "nodejs" => "Node.js script".to_owned(),
        "awk" | "gawk" => "awk script".to_owned(),
        _ => format!("a {cmd} script"),
    })
}

fn is_text_byte(b: u8) -> bool {
    matches!(b, 7..=13 | 27 | 0x20..=0x7e) || b >= 0x80
}

fn classify(d: &[u8]) -> Kind {
    if d.is_empty() {
        return kind("empty", "inode/x-empty", "binary");
    }
    if d.starts_with(b"\x89PNG\r\n\x1a\n") && d.get(12..16) == Some(b"IHDR") {
        return kind(png(d), "image/png", "binary");
    }
    if d.starts_with(b"GIF87a") || d.starts_with(b"GIF89a") {
        let v = crate::text::decode(d.get(3..6).unwrap_or(&[]));
        let (w, h) = (le16(d, 6).unwrap_or(0), le16(d, 8).unwrap_or(0));
        return kind(
            format!("GIF image data, version {v}, {w} x {h}"),
            "image/gif",
            "binary",
        );
    }
    if d.starts_with(b"\xff\xd8\xff") {
        let mut s = "JPEG image data".to_owned();
        if d.get(6..11) == Some(b"JFIF\0")
            && let (Some(&maj), Some(&min)) = (d.get(11), d.get(12))
        {
            s.push_str(&format!(", JFIF standard {maj}.{min:02}"));
        }
        return kind(s, "image/jpeg", "binary");
    }
    if d.starts_with(b"\x1f\x8b") {
        return kind(gzip(d), "application/gzip", "binary");
    }
    if d.starts_with(b"\x7fELF") {
        return kind(elf(d), "application/x-executable", "binary");
    }
    if d.starts_with(b"%PDF-") {
        return kind("PDF document", "application/pdf", "binary");
    }
    if d.starts_with(b"PK\x03\x04") {
        return kind("Zip archive data", "application/zip", "binary");
    }
    if d.get(257..262) == Some(b"ustar") {
        return kind("POSIX tar archive", "application/x-tar", "binary");
    }
    if !d.iter().all(|&b| is_text_byte(b)) {
        return kind("data", "application/octet-stream", "binary");
    }
    let (encoding, charset) = if d.is_ascii() {
        ("ASCII text", "us-ascii")
    } else if let Some(rest) = d.strip_prefix(b"\xef\xbb\xbf")
        && std::str::from_utf8(rest).is_ok()
    {
        ("Unicode text, UTF-8 (with BOM) text", "utf-8")
    } else if std::str::from_utf8(d).is_ok() {
        ("Unicode text, UTF-8 text", "utf-8")
    } else {
        ("ISO-8859 text", "iso-8859-1")
    };
    let first_line = crate::text::decode(d.split(|&b| b == b'\n').next().unwrap_or(&[]));
    let trimmed = d.iter().position(|b| !b.is_ascii_whitespace());
    let json = trimmed
        .and_then(|i| d.get(i))
        .is_some_and(|b| *b == b'{' || *b == b'[')
        && serde_json::from_slice::<serde_json::Value>(d).is_ok();
    let mut s = String::new();
    let mut mime = "text/plain";
    if let Some(sc) = script(&first_line) {
        s.push_str(&sc);
        s.push_str(", ");
        s.push_str(encoding);
        s.push_str(" executable");
        mime = if sc.starts_with("Python") {
            "text/x-script.python"
        } else if sc.contains("shell") {
            "text/x-shellscript"
        } else {
            "text/plain"
        };
    } else if json {
        return kind("JSON text data", "application/json", charset);
    } else {
        s.push_str(encoding);
    }
    // Line terminators and lengths, as file notes them.
    let (mut crlf, mut lf, mut cr) = (0, 0, 0);
    let mut longest = 0;
    let mut cur = 0;
    let mut i = 0;
    while let Some(&b) = d.get(i) {
        match b {
            b'\r' if d.get(i + 1) == Some(&b'\n') => {
                crlf += 1;
                i += 1;
                longest = longest.max(cur);
                cur = 0;
            }
            b'\r' => {
                cr += 1;
                longest = longest.max(cur);
                cur = 0;
            }
            b'\n' => {
                lf += 1;
                longest = longest.max(cur);
                cur = 0;
            }
            _ => cur += 1,
        }
        i += 1;
    }
    longest = longest.max(cur);
    if longest > 300 {
        s.push_str(&format!(", with very long lines ({longest})"));
    }
    let kinds: Vec<&str> = [(crlf, "CRLF"), (cr, "CR"), (lf, "LF")]
        .iter()
        .filter(|(n, _)| *n > 0)
        .map(|(_, k)| *k)
        .collect();
    if kinds.is_empty() {
        s.push_str(", with no line terminators");
    } else if kinds != ["LF"] {
        s.push_str(&format!(", with {} line terminators", kinds.join(", ")));
    }
    kind(s, mime, charset)
}

/// Bytes of standard input looked at (GNU file reads about this much too).
const HEAD_BYTES: usize = 1 << 20;

/// The first [`HEAD_BYTES`] of standard input (what is left after is not read).
fn read_head(ctx: &mut Ctx) -> std::io::Result<Vec<u8>> {
    let mut head = vec![0u8; HEAD_BYTES];
    let mut got = 0;
    while got < head.len() {
        let n = ctx.stdin.read(head.get_mut(got..).unwrap_or_default())?;
        if n == 0 {
            break;
        }
        got += n;
        ctx.host.check()?;
    }
    head.truncate(got);
    Ok(head)
}

fn describe(fs: &Fs, path: &str, name: &str, deref: bool) -> Kind {
    let meta = if deref { fs.stat(path) } else { fs.lstat(path) };
    let meta = match meta {
        Ok(m) => m,
        Err(e) => {
            return kind(format!("cannot open `{name}' ({e})"), "cannot open", "");
        }
    };
    match meta.file_type {
        FileType::Dir => kind("directory", "inode/directory", "binary"),
        FileType::Symlink => {
            let target = fs.readlink(path).unwrap_or_default();
            if fs.stat(path).is_ok() {
                kind(
                    format!("symbolic link to {target}"),
                    "inode/symlink",
                    "binary",
                )
            } else {
                kind(
                    format!("broken symbolic link to {target}"),
                    "inode/symlink",
                    "binary",
                )
            }
        }
        FileType::Fifo => kind("fifo (named pipe)", "inode/fifo", "binary"),
        FileType::Device(d) => {
            let (maj, min) = super::util::device_numbers(d);
            kind(
                format!("character special ({maj}/{min})"),
                "inode/chardevice",
                "binary",
            )
        }
        FileType::File => match fs.read_file(path) {
            Ok(d) => classify(&d),
            Err(e) => kind(format!("cannot open `{name}' ({e})"), "cannot open", ""),
        },
    }
}

pub fn file(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("bLhi", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    if parsed.operands.is_empty() {
        writeln!(
            ctx.stderr,
            "Usage: file [-bcCdEhikLlNnprsSvzZ0] [--apple] [--extension] [--mime-encoding] [--mime-type] [-e <testname>] [-F <separator>]  [-f <namefile>] [-m <magicfiles>] [-P <parameter=value>] [--exclude-quiet] <file> ..."
        )?;
        writeln!(ctx.stderr, "       file -C [-m <magicfiles>]")?;
        writeln!(ctx.stderr, "       file [--help]")?;
        return Ok(1);
    }
    let deref = parsed
        .opts
        .iter()
        .rev()
        .find(|(k, _)| k == "L" || k == "h")
        .is_some_and(|(k, _)| k == "L");
    let brief = parsed.has("b");
    // `-` is standard input, named as GNU file names it.
    let shown = |n: &str| if n == "-" { "/dev/stdin" } else { n }.to_owned();
    let width = parsed
        .operands
        .iter()
        .map(|n| shown(n).chars().count())
        .max()
        .unwrap_or(0)
        + 1;
    let fs = ctx.fs.snapshot();
    for operand in &parsed.operands {
        ctx.host.check()?;
        let name = &shown(operand);
        let k = if operand == "-" {
            classify(&read_head(ctx)?)
        } else {
            describe(&fs, &ctx.path(name), name, deref)
        };
        let body = if k.mime == "cannot open" {
            k.text
        } else if parsed.has("i") {
            format!("{}; charset={}", k.mime, k.charset)
        } else if parsed.has("mime-type") {
            k.mime.to_owned()
        } else if parsed.has("mime-encoding") {
            k.charset.to_owned()
        } else {
            k.text
        };
        let line = if brief {
            body
        } else {
            format!("{:<width$} {body}", format!("{name}:"))
        };
        ctx.stdout.write_all(&crate::text::encode(&line))?;
        ctx.stdout.write_all(b"\n")?;
    }
    Ok(0)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::{check, fs_with, run_in};

    #[test]
    fn file_table() {
        let files: &[(&str, &str)] = &[
            ("e", ""),
            ("a", "hi\n"),
            ("n", "hi"),
            ("c", "h\r\ni\r\n"),
            ("u", "h\u{e9}\n"),
            ("s1", "#!/bin/bash\necho\n"),
            ("s2", "#!/bin/sh\necho\n"),
            ("s3", "#!/usr/bin/env python3\nx\n"),
            ("s4", "#!/usr/bin/env bash\nx\n"),
            ("j.json", "{\"a\":1}\n"),
            ("d/", ""),
            ("l", "->a"),
            ("bl", "->nope"),
        ];
        for (line, out) in [
            (
                "file e a n c u d l bl",
                "e:  empty\na:  ASCII text\nn:  ASCII text, with no line terminators\n\
                 c:  ASCII text, with CRLF line terminators\nu:  Unicode text, UTF-8 text\n\
                 d:  directory\nl:  symbolic link to a\nbl: broken symbolic link to nope\n",
            ),
            (
                "file s1 s2 s3 s4 j.json",
                "s1:     Bourne-Again shell script, ASCII text executable\n\
                 s2:     POSIX shell script, ASCII text executable\n\
                 s3:     Python script, ASCII text executable\n\
                 s4:     Bourne-Again shell script, ASCII text executable\n\
                 j.json: JSON text data\n",
            ),
            ("file -b a", "ASCII text\n"),
            (
                "file nope",
                "nope: cannot open `nope' (No such file or directory)\n",
            ),
            (
                "file -L l bl",
                "l:  ASCII text\nbl: cannot open `bl' (No such file or directory)\n",
            ),
            (
                "file --mime-type a d e",
                "a: text/plain\nd: inode/directory\ne: inode/x-empty\n",
            ),
            (
                "file -i a u",
                "a: text/plain; charset=us-ascii\nu: text/plain; charset=utf-8\n",
            ),
        ] {
            check(files, line, "", (out, "", 0));
        }
    }

    #[test]
    fn dash_is_standard_input() {
        check(
            &[("a", "x\n")],
            "file - a",
            "hello",
            (
                "/dev/stdin: ASCII text, with no line terminators\na:          ASCII text\n",
                "",
                0,
            ),
        );
        check(&[], "file -b -", "", ("empty\n", "", 0));
        check(
            &[],
            "file -",
            "\0\u{1}\u{2}\u{3}",
            ("/dev/stdin: data\n", "", 0),
        );
    }

    #[test]
    fn binary_magic() {
        let fs = fs_with(&[]);
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
        png.extend_from_slice(&[0, 0, 0, 3, 0, 0, 0, 2, 8, 6, 0, 0, 0]);
        let mut gz = vec![0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 3];
        gz.extend_from_slice(&[
            0x4b, 0x4c, 0x4a, 0x06, 0, 0xc2, 0x41, 0x24, 0x35, 3, 0, 0, 0,
        ]);
        let cases: Vec<(&str, Vec<u8>, &str)> = vec![
            (
                "p",
                png,
                "PNG image data, 3 x 2, 8-bit/color RGBA, non-interlaced",
            ),
            (
                "g",
                b"GIF89a\x05\0\x07\0".to_vec(),
                "GIF image data, version 89a, 5 x 7",
            ),
            (
                "j",
                b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01".to_vec(),
                "JPEG image data, JFIF standard 1.01",
            ),
            (
                "z",
                gz,
                "gzip compressed data, from Unix, original size modulo 2^32 3",
            ),
            ("elf", b"\x7fELF\x02\x01\x01".to_vec(), "ELF 64-bit LSB"),
            ("b", b"\0\x01\xff".to_vec(), "data"),
        ];
        for (name, data, want) in cases {
            let wrote = fs.lock().write_file(&format!("/workspace/{name}"), &data);
            assert!(wrote.is_ok());
            let (out, _, st) = run_in(&fs, &format!("file -b {name}"), b"");
            assert_eq!((String::from_utf8_lossy(&out).trim_end(), st), (want, 0));
        }
    }
}
