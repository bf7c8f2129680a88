//! GNU backups for `cp`, `mv` and `ln`: `-b`, `--backup[=CONTROL]` and `-S`/`--suffix`
//! choose whether and how an existing destination is kept (renamed to `NAME~`, or to
//! the next `NAME.~N~`) before it is replaced; `VERSION_CONTROL` and
//! `SIMPLE_BACKUP_SUFFIX` give the defaults (gnulib's `backupfile.c`).

use super::Ctx;
use super::args::{HasArg, LongOpt, Parsed, argmatch, long, usage_error};
use crate::fs::{Errno, Fs, FsError};

/// `--backup[=CONTROL]`, for the long option table of a backing-up command.
pub const BACKUP: LongOpt = long("backup", HasArg::Optional, "backup");
/// `--suffix=SUFFIX` (`-S`).
pub const SUFFIX: LongOpt = long("suffix", HasArg::Required, "S");

/// GNU's refusal of backups (`-b`, `--backup` of any kind, `-S`) together with `-n`
/// when `-n` is the last of `-n` and the options in `resets` (mv's `-f -i`, cp's `-i`):
/// the usage error with status 1, before the backup type is read.
pub fn refuse_with_no_clobber(
    ctx: &mut Ctx,
    parsed: &Parsed,
    resets: &[&str],
) -> std::io::Result<Option<i32>> {
    let mut backups = false;
    let mut no_clobber = false;
    for (k, _) in &parsed.opts {
        match k.as_str() {
            "b" | "backup" | "S" => backups = true,
            "n" => no_clobber = true,
            k if resets.contains(&k) => no_clobber = false,
            _ => {}
        }
    }
    if backups && no_clobber {
        let msg = "options --backup and --no-clobber are mutually exclusive";
        return Ok(Some(usage_error(ctx, msg, 1)?));
    }
    Ok(None)
}

/// How backup names are chosen (`--backup=CONTROL`).
#[derive(Clone, Copy, PartialEq, Debug)]
enum Control {
    None,
    Simple,
    /// Numbered when a numbered backup of the file exists, else simple.
    Existing,
    Numbered,
}

/// The CONTROL words, synonyms next to each other as GNU lists them.
const CONTROLS: &[(&str, Control)] = &[
    ("none", Control::None),
    ("off", Control::None),
    ("simple", Control::Simple),
    ("never", Control::Simple),
    ("existing", Control::Existing),
    ("nil", Control::Existing),
    ("numbered", Control::Numbered),
    ("t", Control::Numbered),
];

/// The backups a command was asked to make.
pub struct Backup {
    control: Control,
    suffix: String,
}

impl Backup {
    /// Reads `-b`, `--backup[=CONTROL]` and `-S SUFFIX` from the parsed options (`-S`
    /// alone asks for backups too). `Ok(None)`: no backups. An invalid or ambiguous
    /// CONTROL (from the option, else `VERSION_CONTROL`) is diagnosed here, giving
    /// `Err(status)`.
    pub fn from_options(
        ctx: &mut Ctx,
        parsed: &Parsed,
    ) -> std::io::Result<Result<Option<Backup>, i32>> {
        let mut wanted = false;
        let mut control: Option<&str> = None;
        let mut suffix: Option<&str> = None;
        for (k, v) in &parsed.opts {
            match k.as_str() {
                "b" => wanted = true,
                "backup" => {
                    wanted = true;
                    if let Some(v) = v {
                        control = Some(v);
                    }
                }
                "S" => {
                    wanted = true;
                    suffix = v.as_deref();
                }
                _ => {}
            }
        }
        if !wanted {
            return Ok(Ok(None));
        }
        // An empty CONTROL counts as none given, as in gnulib's `get_version`.
        let env_control = ctx.env.get("VERSION_CONTROL").cloned();
        let (context, word) = match (control.filter(|c| !c.is_empty()), &env_control) {
            (Some(c), _) => ("backup type", c.to_owned()),
            (None, Some(e)) if !e.is_empty() => ("$VERSION_CONTROL", e.clone()),
            _ => ("", String::new()),
        };
        let control = if word.is_empty() {
            Control::Existing
        } else {
            match argmatch(ctx, context, &word, CONTROLS)? {
                Ok(c) => c,
                Err(status) => return Ok(Err(status)),
            }
        };
        if control == Control::None {
            return Ok(Ok(None));
        }
        // A suffix naming a directory (holding `/`) or empty falls back to `~`.
        let env_suffix = ctx.env.get("SIMPLE_BACKUP_SUFFIX").cloned();
        let suffix = suffix
            .map(str::to_owned)
            .or(env_suffix)
            .filter(|s| !s.is_empty() && !s.contains('/'))
            .unwrap_or_else(|| "~".to_owned());
        Ok(Ok(Some(Backup { control, suffix })))
    }

    /// The name the backup of `path` (absolute) gets, as a suffix to append to it.
    pub fn suffix_for(&self, fs: &Fs, path: &str) -> String {
        if self.control == Control::Simple {
            return self.suffix.clone();
        }
        let base = crate::fs::path::file_name(path);
        let prefix = format!("{base}.~");
        let highest = fs
            .read_dir(crate::fs::path::parent(path))
            .unwrap_or_default()
            .iter()
            .filter_map(|e| {
                let n = e.name.strip_prefix(&prefix)?.strip_suffix('~')?;
                let numbered = n.starts_with(|c: char| ('1'..='9').contains(&c))
                    && n.bytes().all(|b| b.is_ascii_digit());
                if numbered {
                    n.parse::<u64>().ok()
                } else {
                    None
                }
            })
            .max();
        match highest {
            Some(n) => format!(".~{}~", n.saturating_add(1)),
            None if self.control == Control::Existing => self.suffix.clone(),
            None => ".~1~".to_owned(),
        }
    }

    /// Renames an existing `path` (absolute; `shown` is how the command names it) to its
    /// backup name, returning the backup's shown name; `Ok(None)` when there is nothing
    /// to back up.
    pub fn make(&self, fs: &mut Fs, path: &str, shown: &str) -> Result<Option<String>, FsError> {
        if fs.lstat(path).is_err() {
            return Ok(None);
        }
        let suffix = self.suffix_for(fs, path);
        let base = crate::fs::path::file_name(path);
        let name = backup_name(base, &suffix);
        let backup_path = format!("{}{name}", path.strip_suffix(base).unwrap_or(path));
        // A numbered backup never replaces a file (gnulib renames with
        // RENAME_NOREPLACE); a shortened name can collide.
        if suffix.starts_with(".~") && fs.lstat(&backup_path).is_ok() {
            return Err(Errno::EEXIST.into());
        }
        fs.rename(path, &backup_path)?;
        Ok(Some(match shown.strip_suffix(base) {
            Some(dir) if name.len() < base.len() + suffix.len() => format!("{dir}{name}"),
            _ => format!("{shown}{suffix}"),
        }))
    }
}

/// The longest backup file name gnulib makes; a longer one keeps at most
/// `MAX_NAME - 1` bytes of the name and ends in `~` instead of the suffix.
const MAX_NAME: usize = 254;

/// The backup file name for file name `base` with `suffix`.
fn backup_name(base: &str, suffix: &str) -> String {
    if base.len() + suffix.len() <= MAX_NAME {
        return format!("{base}{suffix}");
    }
    let mut keep = base.len().min(MAX_NAME - 1);
    while !base.is_char_boundary(keep) {
        keep -= 1;
    }
    format!("{}~", base.get(..keep).unwrap_or(base))
}

/// The ` (backup: 'NAME')` note `cp -v` and `mv -v` add.
pub fn verbose_note(backup: Option<&str>) -> String {
    backup
        .map(|b| format!(" (backup: {})", super::util::quote(b)))
        .unwrap_or_default()
}

/// The lines `--help` of `cp`, `mv` and `ln` ends with, about backups.
pub const HELP_TAIL: &str = "
The backup suffix is '~', unless set with --suffix or SIMPLE_BACKUP_SUFFIX.
The version control method may be selected via the --backup option or through
the VERSION_CONTROL environment variable.  Here are the values:

  none, off       never make backups (even if --backup is given)
  numbered, t     make numbered backups
  existing, nil   numbered if numbered backups exist, simple otherwise
  simple, never   always make simple backups
";
