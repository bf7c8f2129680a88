//! `stat`: describes files in GNU's default layout, `-t` terse form, or a `-c`/`--printf`
//! format of `%` directives; `-L` follows symlinks. Times print in UTC from the virtual
//! clock. The virtual filesystem is one device, shown as `0,32`; it keeps no birth
//! time (`%w` is `-`, `%W` is `0`); blocks are counted as a 4 KiB-block filesystem would
//! (a file takes `ceil(size/4096)` blocks, a directory one, a symlink none).

use super::about::{HELP, VERSION, std_opts};
use super::args::{HasArg, LongOpt, Spec, long, usage_error};
use super::util::{mode_string, quote, user_name};
use super::{CmdResult, Ctx};
use crate::fs::{Device, FileType, Metadata, Timestamp};

const LONG: &[LongOpt] = &[
    long("dereference", HasArg::No, "L"),
    long("format", HasArg::Required, "c"),
    long("printf", HasArg::Required, "printf"),
    long("terse", HasArg::No, "t"),
    long("file-system", HasArg::No, "f"),
    long("cached", HasArg::Required, "cached"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: stat [OPTION]... FILE...
Display file or file system status.

Mandatory arguments to long options are mandatory for short options too.
  -L, --dereference     follow links
  -f, --file-system     display file system status instead of file status
      --cached=MODE     specify how to use cached attributes;
                          useful on remote file systems. See MODE below
  -c  --format=FORMAT   use the specified FORMAT instead of the default;
                          output a newline after each use of FORMAT
      --printf=FORMAT   like --format, but interpret backslash escapes,
                          and do not output a mandatory trailing newline;
                          if you want a newline, include \\n in FORMAT
  -t, --terse           print the information in terse form
      --help        display this help and exit
      --version     output version information and exit

The MODE argument of --cached can be: always, never, or default.
'always' will use cached attributes if available, while
'never' will try to synchronize with the latest attributes, and
'default' will leave it up to the underlying file system.

The valid format sequences for files (without --file-system):

  %a   permission bits in octal (note '#' and '0' printf flags)
  %A   permission bits and file type in human readable form
  %b   number of blocks allocated (see %B)
  %B   the size in bytes of each block reported by %b
  %C   SELinux security context string
  %d   device number in decimal (st_dev)
  %D   device number in hex (st_dev)
  %Hd  major device number in decimal
  %Ld  minor device number in decimal
  %f   raw mode in hex
  %F   file type
  %g   group ID of owner
  %G   group name of owner
  %h   number of hard links
  %i   inode number
  %m   mount point
  %n   file name
  %N   quoted file name with dereference if symbolic link
  %o   optimal I/O transfer size hint
  %s   total size, in bytes
  %r   device type in decimal (st_rdev)
  %R   device type in hex (st_rdev)
  %Hr  major device type in decimal, for character/block device special files
  %Lr  minor device type in decimal, for character/block device special files
  %t   major device type in hex, for character/block device special files
  %T   minor device type in hex, for character/block device special files
  %u   user ID of owner
  %U   user name of owner
  %w   time of file birth, human-readable; - if unknown
  %W   time of file birth, seconds since Epoch; 0 if unknown
  %x   time of last access, human-readable
  %X   time of last access, seconds since Epoch
  %y   time of last data modification, human-readable
  %Y   time of last data modification, seconds since Epoch
  %z   time of last status change, human-readable
  %Z   time of last status change, seconds since Epoch

Valid format sequences for file systems:

  %a   free blocks available to non-superuser
  %b   total data blocks in file system
  %c   total file nodes in file system
  %d   free file nodes in file system
  %f   free blocks in file system
  %i   file system ID in hex
  %l   maximum length of filenames
  %n   file name
  %s   block size (for faster transfers)
  %S   fundamental block size (for block counts)
  %t   file system type in hex
  %T   file system type in human readable form

--terse is equivalent to the following FORMAT:
    %n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o %C
--terse --file-system is equivalent to the following FORMAT:
    %n %i %l %t %s %S %b %f %a %c %d

NOTE: your shell may have its own version of stat, which usually supersedes
the version described here.  Please refer to your shell's documentation
for details about the options it supports.
";

/// Minor number of the single virtual device (major 0).
const DEV_MINOR: u64 = 32;

const DEFAULT_FORMAT: &str = "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n\
Device: %Hd,%Ld\tInode: %-10i  Links: %h\n\
Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n\
Access: %x\nModify: %y\nChange: %z\n Birth: %w\n";

const DEVICE_FORMAT: &str = "  File: %N\n  Size: %-10s\tBlocks: %-10b IO Block: %-6o %F\n\
Device: %Hd,%Ld\tInode: %-10i  Links: %-5h Device type: %Hr,%Lr\n\
Access: (%04a/%10.10A)  Uid: (%5u/%8U)   Gid: (%5g/%8G)\n\
Access: %x\nModify: %y\nChange: %z\n Birth: %w\n";

const TERSE_FORMAT: &str = "%n %s %b %f %u %g %D %i %h %t %T %X %Y %Z %W %o\n";

/// 512-byte blocks a file occupies on a 4 KiB-block filesystem.
pub fn blocks_512(meta: &Metadata) -> u64 {
    match meta.file_type {
        FileType::File => meta.size.div_ceil(4096) * 8,
        FileType::Dir => 8,
        _ => 0,
    }
}

fn device_numbers(ft: FileType) -> (u64, u64) {
    match ft {
        FileType::Device(d) => match d {
            Device::Null => (1, 3),
            Device::Zero => (1, 5),
            Device::Full => (1, 7),
            Device::Random => (1, 8),
            Device::Urandom => (1, 9),
            Device::Tty => (5, 0),
            Device::Stdin | Device::Stdout | Device::Stderr => (136, 0),
        },
        _ => (0, 0),
    }
}

fn type_bits(ft: FileType) -> u32 {
    match ft {
        FileType::File => 0o100000,
        FileType::Dir => 0o040000,
        FileType::Symlink => 0o120000,
        FileType::Device(_) => 0o020000,
        FileType::Fifo => 0o010000,
    }
}

fn type_name(meta: &Metadata) -> &'static str {
    match meta.file_type {
        FileType::File if meta.size == 0 => "regular empty file",
        FileType::File => "regular file",
        FileType::Dir => "directory",
        FileType::Symlink => "symbolic link",
        FileType::Device(_) => "character special file",
        FileType::Fifo => "fifo",
    }
}

fn time_text(t: Timestamp, zone: &crate::timefmt::Zone) -> String {
    zone.strftime("%Y-%m-%d %H:%M:%S.%N %z", t.secs, t.nanos)
}

/// What one file looks like to the directives.
struct Subject<'m> {
    name: &'m str,
    meta: &'m Metadata,
    /// The symlink target, when describing a symlink itself.
    target: Option<String>,
    /// Whether `%N` leaves names unquoted (the default layout does).
    plain: bool,
    zone: &'m crate::timefmt::Zone,
}

enum Value {
    Num(i128),
    Str(String),
}

fn directive(s: &Subject, conv: char, modifier: Option<char>) -> Option<Value> {
    let m = s.meta;
    let (rmaj, rmin) = device_numbers(m.file_type);
    let num = |n: u64| Value::Num(i128::from(n));
    Some(match (modifier, conv) {
        (Some('H'), 'd') => num(0),
        (Some('L'), 'd') => num(DEV_MINOR),
        (Some('H'), 'r') => num(rmaj),
        (Some('L'), 'r') => num(rmin),
        (_, 'a') => Value::Str(format!("{:o}", m.mode & 0o7777)),
        (_, 'A') => Value::Str(mode_string(m.file_type.ls_char(), m.mode)),
        (_, 'b') => num(blocks_512(m)),
        (_, 'B') => num(512),
        (_, 'd') => num(DEV_MINOR),
        (_, 'D') => Value::Str(format!("{DEV_MINOR:x}")),
        (_, 'f') => Value::Str(format!("{:x}", type_bits(m.file_type) | (m.mode & 0o7777))),
        (_, 'F') => Value::Str(type_name(m).to_owned()),
        (_, 'g') => num(u64::from(m.gid)),
        (_, 'G') => Value::Str(user_name(m.gid)),
        (_, 'h') => num(u64::from(m.nlink)),
        (_, 'i') => num(m.ino),
        (_, 'm') => Value::Str("/".to_owned()),
        (_, 'n') => Value::Str(s.name.to_owned()),
        (_, 'N') => {
            let q = |n: &str| if s.plain { n.to_owned() } else { quote(n) };
            Value::Str(match &s.target {
                Some(t) => format!("{} -> {}", q(s.name), q(t)),
                None => q(s.name),
            })
        }
        (_, 'o') => num(4096),
        (_, 's') => num(m.size),
        (_, 'r') => num(rmaj * 256 + rmin),
        (_, 'R') => Value::Str(format!("{:x}", rmaj * 256 + rmin)),
        (_, 't') => Value::Str(format!("{rmaj:x}")),
        (_, 'T') => Value::Str(format!("{rmin:x}")),
        (_, 'u') => num(u64::from(m.uid)),
        (_, 'U') => Value::Str(user_name(m.uid)),
        (_, 'w') => Value::Str("-".to_owned()),
        (_, 'W') => num(0),
        (_, 'x') => Value::Str(time_text(m.atime, s.zone)),
        (_, 'X') => Value::Num(i128::from(m.atime.secs)),
        (_, 'y') => Value::Str(time_text(m.mtime, s.zone)),
        (_, 'Y') => Value::Num(i128::from(m.mtime.secs)),
        (_, 'z') => Value::Str(time_text(m.ctime, s.zone)),
        (_, 'Z') => Value::Num(i128::from(m.ctime.secs)),
        _ => return None,
    })
}

/// Pads a rendered value as printf would with `flags`, `width` and `prec`.
fn pad(v: Value, flags: &str, width: usize, prec: Option<usize>) -> String {
    let left = flags.contains('-');
    match v {
        Value::Num(n) => {
            let mut digits = n.unsigned_abs().to_string();
            if let Some(p) = prec {
                while digits.len() < p {
                    digits.insert(0, '0');
                }
            }
            let sign = if n < 0 {
                "-"
            } else if flags.contains('+') {
                "+"
            } else if flags.contains(' ') {
                " "
            } else {
                ""
            };
            let body_len = sign.len() + digits.len();
            if left {
                format!(
                    "{sign}{digits}{}",
                    " ".repeat(width.saturating_sub(body_len))
                )
            } else if flags.contains('0') && prec.is_none() {
                format!(
                    "{sign}{}{digits}",
                    "0".repeat(width.saturating_sub(body_len))
                )
            } else {
                format!(
                    "{}{sign}{digits}",
                    " ".repeat(width.saturating_sub(body_len))
                )
            }
        }
        Value::Str(s) => {
            let s: String = match prec {
                Some(p) => s.chars().take(p).collect(),
                None => s,
            };
            let n = s.chars().count();
            let digits = !s.is_empty() && s.bytes().all(|b| b.is_ascii_hexdigit());
            if left {
                format!("{s}{}", " ".repeat(width.saturating_sub(n)))
            } else if digits && flags.contains('0') {
                format!("{}{s}", "0".repeat(width.saturating_sub(n)))
            } else {
                format!("{}{s}", " ".repeat(width.saturating_sub(n)))
            }
        }
    }
}

/// Expands `fmt` for one file; `escapes` turns on `--printf` backslash escapes.
fn render(fmt: &str, s: &Subject, escapes: bool) -> Vec<u8> {
    let mut out = Vec::new();
    let cs: Vec<char> = fmt.chars().collect();
    let mut i = 0;
    let push = |out: &mut Vec<u8>, t: &str| out.extend_from_slice(&crate::text::encode(t));
    while let Some(&c) = cs.get(i) {
        i += 1;
        if c == '\\' && escapes {
            let Some(&e) = cs.get(i) else {
                out.push(b'\\');
                break;
            };
            i += 1;
            let simple = match e {
                'n' => Some(b'\n'),
                't' => Some(b'\t'),
                '\\' => Some(b'\\'),
                '"' => Some(b'"'),
                'a' => Some(7),
                'b' => Some(8),
                'e' => Some(27),
                'f' => Some(12),
                'r' => Some(b'\r'),
                'v' => Some(11),
                _ => None,
            };
            if let Some(b) = simple {
                out.push(b);
            } else if e.is_digit(8) {
                let mut v = e.to_digit(8).unwrap_or(0);
                for _ in 0..2 {
                    match cs.get(i).and_then(|d| d.to_digit(8)) {
                        Some(d) => {
                            v = v * 8 + d;
                            i += 1;
                        }
                        None => break,
                    }
                }
                out.push((v & 0xff) as u8);
            } else if e == 'x' && cs.get(i).is_some_and(|d| d.is_ascii_hexdigit()) {
                let mut v = 0;
                for _ in 0..2 {
                    match cs.get(i).and_then(|d| d.to_digit(16)) {
                        Some(d) => {
                            v = v * 16 + d;
                            i += 1;
                        }
                        None => break,
                    }
                }
                out.push(v as u8);
            } else {
                out.push(b'\\');
                push(&mut out, &e.to_string());
            }
            continue;
        }
        if c != '%' {
            push(&mut out, &c.to_string());
            continue;
        }
        let start = i;
        while cs.get(i).is_some_and(|c| "-+ #0'".contains(*c)) {
            i += 1;
        }
        let flags: String = cs.get(start..i).unwrap_or(&[]).iter().collect();
        let mut width = 0usize;
        while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
            width = width.saturating_mul(10).saturating_add(d as usize);
            i += 1;
        }
        let mut prec = None;
        if cs.get(i) == Some(&'.') {
            i += 1;
            let mut p = 0usize;
            while let Some(d) = cs.get(i).and_then(|c| c.to_digit(10)) {
                p = p.saturating_mul(10).saturating_add(d as usize);
                i += 1;
            }
            prec = Some(p);
        }
        let mut modifier = None;
        if let Some(&m @ ('H' | 'L')) = cs.get(i)
            && matches!(cs.get(i + 1), Some('d' | 'r'))
        {
            modifier = Some(m);
            i += 1;
        }
        let Some(&conv) = cs.get(i) else {
            push(&mut out, &format!("%{flags}"));
            break;
        };
        i += 1;
        if conv == '%' {
            out.push(b'%');
            continue;
        }
        match directive(s, conv, modifier) {
            Some(v) => push(&mut out, &pad(v, &flags, width, prec)),
            None => {
                push(&mut out, "?");
            }
        }
    }
    out
}

pub fn stat(ctx: &mut Ctx) -> CmdResult {
    let parsed = match super::args::parse(&Spec::new("Lc:tf", LONG), ctx.args) {
        Ok(p) => p,
        Err(msg) => return usage_error(ctx, &msg, 1),
    };
    if let Some(s) = std_opts(ctx, &parsed, USAGE)? {
        return Ok(s);
    }
    if parsed.operands.is_empty() {
        return usage_error(ctx, "missing operand", 1);
    }
    let deref = parsed.has("L");
    let mut format: Option<(String, bool)> = None;
    for (k, v) in &parsed.opts {
        match (k.as_str(), v) {
            ("c", Some(f)) => format = Some((f.clone(), false)),
            ("printf", Some(f)) => format = Some((f.clone(), true)),
            _ => {}
        }
    }
    let terse = parsed.has("t");
    let zone = ctx.zone();
    let mut status = 0;
    for name in &parsed.operands {
        let path = ctx.path(name);
        let res = {
            let fs = ctx.fs.lock();
            let meta = if deref {
                fs.stat(&path)
            } else {
                fs.lstat(&path)
            };
            meta.map(|m| {
                let target = if m.is_symlink() {
                    fs.readlink(&path).ok()
                } else {
                    None
                };
                (m, target)
            })
        };
        let (meta, target) = match res {
            Ok(x) => x,
            Err(e) => {
                ctx.err(format!("cannot statx {}: {e}", quote(name)))?;
                status = 1;
                continue;
            }
        };
        let subject = Subject {
            name,
            meta: &meta,
            target,
            plain: format.is_none() && !terse,
            zone: &zone,
        };
        let bytes = match &format {
            Some((f, true)) => render(f, &subject, true),
            // -c ends each file's line after the format, so a trailing `%` stays a `%`.
            Some((f, false)) => {
                let mut line = render(f, &subject, false);
                line.push(b'\n');
                line
            }
            None if terse => render(TERSE_FORMAT, &subject, false),
            None => {
                let fmt = if matches!(meta.file_type, FileType::Device(_)) {
                    DEVICE_FORMAT
                } else {
                    DEFAULT_FORMAT
                };
                render(fmt, &subject, false)
            }
        };
        ctx.stdout.write_all(&bytes)?;
    }
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    const FILES: &[(&str, &str)] = &[("f", "abc"), ("e", ""), ("d/", ""), ("l", "->f")];

    #[test]
    fn stat_table() {
        for (line, out, err, status) in [
            (
                "stat -c %s|%b|%B|%F|%a|%A|%f f",
                "3|8|512|regular file|644|-rw-r--r--|81a4\n",
                "",
                0,
            ),
            ("stat -c %F|%b|%f e", "regular empty file|0|81a4\n", "", 0),
            (
                "stat -c %F|%b|%f|%s|%h d",
                "directory|8|41ed|4096|2\n",
                "",
                0,
            ),
            (
                "stat -c %F|%b|%f|%s|%N l",
                "symbolic link|0|a1ff|1|'l' -> 'f'\n",
                "",
                0,
            ),
            ("stat -L -c %F|%N l", "regular file|'l'\n", "", 0),
            ("stat -c %n|%u|%U|%g|%G f", "f|1000|user|1000|user\n", "", 0),
            (
                "stat -c %y|%Y f",
                "2023-11-14 22:13:20.000000000 +0000|1700000000\n",
                "",
                0,
            ),
            (
                "stat -c %x|%X|%z|%Z|%w|%W e",
                "2023-11-14 22:13:20.000000000 +0000|1700000000|2023-11-14 22:13:20.000000000 +0000|1700000000|-|0\n",
                "",
                0,
            ),
            ("stat -c %o|%d|%D|%t|%T|%% f", "4096|32|20|0|0|%\n", "", 0),
            ("stat -c %t,%T /dev/null", "1,3\n", "", 0),
            (
                "stat -c [%10s][%-5s][%05h] f",
                "[         3][3    ][00001]\n",
                "",
                0,
            ),
            ("stat --printf '%s\\t%n\\n' f", "3\tf\n", "", 0),
            ("stat -c '%s\\n' f", "3\\n\n", "", 0),
            ("stat -c %s f d", "3\n4096\n", "", 0),
            (
                "stat nope",
                "",
                "stat: cannot statx 'nope': No such file or directory\n",
                1,
            ),
            (
                "stat",
                "",
                "stat: missing operand\nTry 'stat --help' for more information.\n",
                1,
            ),
        ] {
            check(FILES, line, "", (out, err, status));
        }
    }

    #[test]
    fn default_layout() {
        let (out, _, _) = crate::commands::testing::run(FILES, "stat l", "");
        let lines: Vec<&str> = out.lines().collect();
        assert_eq!(lines[0], "  File: l -> f");
        assert_eq!(
            lines[1],
            "  Size: 1         \tBlocks: 0          IO Block: 4096   symbolic link"
        );
        assert!(
            lines[2].starts_with("Device: 0,32\tInode: "),
            "{}",
            lines[2]
        );
        assert!(lines[2].ends_with("  Links: 1"), "{}", lines[2]);
        assert_eq!(
            lines[3],
            "Access: (0777/lrwxrwxrwx)  Uid: ( 1000/    user)   Gid: ( 1000/    user)"
        );
        assert_eq!(lines[4], "Access: 2023-11-14 22:13:20.000000000 +0000");
        assert_eq!(lines[7], " Birth: -");
        let (out, _, _) = crate::commands::testing::run(FILES, "stat -t f", "");
        assert!(out.starts_with("f 3 8 81a4 1000 1000 20 "), "{out}");
        assert!(
            out.ends_with(" 1 0 0 1700000000 1700000000 1700000000 0 4096\n"),
            "{out}"
        );
        let (out, _, _) = crate::commands::testing::run(FILES, "stat /dev/null", "");
        assert!(out.contains("Links: 1     Device type: 1,3\n"), "{out}");
    }
}
