//! `id`: user and group ids of the acting user or a named one. The sandbox knows two
//! users, `root` (0) and `user` (1000), each in its own group of the same id.

use super::about::{HELP, VERSION, parse_std};
use super::args::{HasArg, LongOpt, Spec, long};
use super::util::{lq, user_name};
use super::{CmdResult, Ctx};

const LONG: &[LongOpt] = &[
    long("context", HasArg::No, "Z"),
    long("group", HasArg::No, "g"),
    long("groups", HasArg::No, "G"),
    long("name", HasArg::No, "n"),
    long("real", HasArg::No, "r"),
    long("user", HasArg::No, "u"),
    long("zero", HasArg::No, "z"),
    HELP,
    VERSION,
];

const USAGE: &str = "\
Usage: id [OPTION]... [USER]...
Print user and group information for each specified USER,
or (when USER omitted) for the current process.

  -a             ignore, for compatibility with other versions
  -g, --group    print only the effective group ID
  -G, --groups   print all group IDs
  -n, --name     print a name instead of a number, for -ugG
  -r, --real     print the real ID instead of the effective ID, with -ugG
  -u, --user     print only the effective user ID
  -z, --zero     delimit entries with NUL characters, not whitespace;
                   not permitted in default format
      --help     display this help and exit
      --version  output version information and exit
";

/// The uid of a known user name or number.
fn lookup(user: &str) -> Option<u32> {
    match user {
        "root" => Some(0),
        "user" => Some(1000),
        _ => match user.parse::<u32>() {
            Ok(n @ (0 | 1000)) => Some(n),
            _ => None,
        },
    }
}

pub fn id(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("agGnruzZ", LONG), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    let only = ["u", "g", "G"].iter().filter(|k| parsed.has(k)).count();
    if only > 1 {
        ctx.err("cannot print \"only\" of more than one choice")?;
        return Ok(1);
    }
    let (name, zero) = (parsed.has("n"), parsed.has("z"));
    if only == 0 && (name || parsed.has("r")) {
        ctx.err("cannot print only names or real IDs in default format")?;
        return Ok(1);
    }
    if only == 0 && zero {
        ctx.err("option --zero not permitted in default format")?;
        return Ok(1);
    }
    if parsed.has("Z") {
        ctx.err("--context (-Z) works only on an SELinux-enabled kernel")?;
        return Ok(1);
    }
    let users: Vec<Option<String>> = if parsed.operands.is_empty() {
        vec![None]
    } else {
        parsed.operands.iter().cloned().map(Some).collect()
    };
    let (me, my_gid) = ctx.fs.lock().user();
    let mut status = 0;
    let mut out = String::new();
    for user in users {
        let (uid, gid) = match &user {
            None => (me, my_gid),
            Some(u) => match lookup(u) {
                Some(id) => (id, id),
                None => {
                    ctx.err(format!("{}: no such user", lq(u)))?;
                    status = 1;
                    continue;
                }
            },
        };
        let show = |id: u32| if name { user_name(id) } else { id.to_string() };
        let end = if zero { '\0' } else { '\n' };
        if parsed.has("u") {
            out.push_str(&format!("{}{end}", show(uid)));
        } else if parsed.has("g") {
            out.push_str(&format!("{}{end}", show(gid)));
        } else if parsed.has("G") {
            out.push_str(&show(gid));
            out.push(end);
        } else {
            out.push_str(&format!(
                "uid={uid}({}) gid={gid}({}) groups={gid}({})\n",
                user_name(uid),
                user_name(gid),
                user_name(gid)
            ));
        }
    }
    ctx.stdout.write_all(out.as_bytes())?;
    Ok(status)
}

#[cfg(test)]
mod tests {
    use crate::commands::testing::check;

    #[test]
    fn id_table() {
        for (line, out, err, status) in [
            (
                "id",
                "uid=1000(user) gid=1000(user) groups=1000(user)\n",
                "",
                0,
            ),
            ("id root", "uid=0(root) gid=0(root) groups=0(root)\n", "", 0),
            ("id -u", "1000\n", "", 0),
            ("id -un", "user\n", "", 0),
            ("id -g -n", "user\n", "", 0),
            ("id -G", "1000\n", "", 0),
            ("id -Gn root", "root\n", "", 0),
            ("id -uz", "1000\0", "", 0),
            (
                "id -n",
                "",
                "id: cannot print only names or real IDs in default format\n",
                1,
            ),
            (
                "id -u -g",
                "",
                "id: cannot print \"only\" of more than one choice\n",
                1,
            ),
            (
                "id -z",
                "",
                "id: option --zero not permitted in default format\n",
                1,
            ),
            ("id nosuchuser", "", "id: 'nosuchuser': no such user\n", 1),
        ] {
            check(&[], line, "", (out, err, status));
        }
    }
}
