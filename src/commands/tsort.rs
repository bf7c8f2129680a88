//! `tsort` (GNU coreutils): a topological sort of the pairs of tokens in its input, in
//! GNU's order (Knuth's algorithm T over names kept sorted, successors taken newest
//! first); a loop is reported on stderr, member by member, then broken and the sort
//! goes on, with status 1.

use std::collections::BTreeMap;

use super::about::{HELP, VERSION, parse_std};
use super::args::{Spec, usage_error};
use super::util::{lq, quotef};
use super::{CmdResult, Ctx};

const USAGE: &str = "\
Usage: tsort [OPTION] [FILE]
Write totally ordered list consistent with the partial ordering in FILE.

With no FILE, or when FILE is -, read standard input.

      --help        display this help and exit
      --version     output version information and exit
";

struct Node {
    count: usize,
    /// Successors, newest first (GNU pushes each at the head of its list).
    succ: Vec<usize>,
}

/// The node of token `t`, made on first sight.
fn id<'d>(
    t: &'d [u8],
    index: &mut BTreeMap<&'d [u8], usize>,
    nodes: &mut Vec<Node>,
    names: &mut Vec<&'d [u8]>,
) -> usize {
    if let Some(&i) = index.get(t) {
        return i;
    }
    nodes.push(Node {
        count: 0,
        succ: Vec::new(),
    });
    names.push(t);
    index.insert(t, nodes.len() - 1);
    nodes.len() - 1
}

pub fn tsort(ctx: &mut Ctx) -> CmdResult {
    let parsed = match parse_std(ctx, &Spec::new("", &[HELP, VERSION]), 1, USAGE)? {
        Ok(p) => p,
        Err(s) => return Ok(s),
    };
    if let Some(extra) = parsed.operands.get(1) {
        return usage_error(ctx, &format!("extra operand {}", lq(extra)), 1);
    }
    let name = parsed.operands.first().map_or("-", String::as_str);
    let data = match ctx.read_input(name)? {
        Ok(d) => d,
        Err(e) => {
            ctx.err(format!("{}: {e}", quotef(name)))?;
            return Ok(1);
        }
    };
    let tokens: Vec<&[u8]> = data
        .split(|b| b.is_ascii_whitespace())
        .filter(|t| !t.is_empty())
        .collect();
    if tokens.len() % 2 == 1 {
        ctx.err(format!(
            "{}: input contains an odd number of tokens",
            quotef(name)
        ))?;
        return Ok(1);
    }
    let mut index: BTreeMap<&[u8], usize> = BTreeMap::new();
    let mut nodes: Vec<Node> = Vec::new();
    let mut names: Vec<&[u8]> = Vec::new();
    for pair in tokens.chunks(2) {
        let (&[a, b], _) = (pair, ()) else { continue };
        let ia = id(a, &mut index, &mut nodes, &mut names);
        let ib = id(b, &mut index, &mut nodes, &mut names);
        if ia != ib {
            if let Some(n) = nodes.get_mut(ib) {
                n.count += 1;
            }
            if let Some(n) = nodes.get_mut(ia) {
                n.succ.insert(0, ib);
            }
        }
    }
    // The names in sorted order, as GNU walks its tree.
    let mut sorted: Vec<usize> = (0..nodes.len()).collect();
    sorted.sort_by(|&x, &y| names[x].cmp(names[y]));
    let mut done = vec![false; nodes.len()];
    let mut out = Vec::new();
    let mut status = 0;
    let mut remaining = nodes.len();
    while remaining > 0 {
        ctx.host.check()?;
        let mut queue: std::collections::VecDeque<usize> = sorted
            .iter()
            .copied()
            .filter(|&n| !done[n] && nodes[n].count == 0)
            .collect();
        while let Some(n) = queue.pop_front() {
            done[n] = true;
            remaining -= 1;
            out.extend_from_slice(names[n]);
            out.push(b'\n');
            let succ = std::mem::take(&mut nodes[n].succ);
            for s in succ {
                nodes[s].count -= 1;
                if nodes[s].count == 0 {
                    queue.push_back(s);
                }
            }
        }
        if remaining == 0 {
            break;
        }
        // A loop: follow successors from the first node left until one repeats.
        status = 1;
        let Some(&start) = sorted.iter().find(|&&n| !done[n]) else {
            break;
        };
        // Depth first along the successors until one is on the path: that is a loop.
        let mut path = vec![start];
        let mut next_succ = vec![0usize];
        let mut seen = vec![false; nodes.len()];
        seen[start] = true;
        let mut cycle_start = None;
        while let (Some(&at), Some(k)) = (path.last(), next_succ.last_mut()) {
            let Some(&s) = nodes[at].succ.get(*k) else {
                path.pop();
                next_succ.pop();
                continue;
            };
            *k += 1;
            if done[s] {
                continue;
            }
            if let Some(p) = path.iter().position(|&x| x == s) {
                cycle_start = Some(p);
                break;
            }
            if !seen[s] {
                seen[s] = true;
                path.push(s);
                next_succ.push(0);
            }
        }
        ctx.stdout.write_all(&out)?;
        out.clear();
        ctx.err(format!("{}: input contains a loop:", quotef(name)))?;
        let members = match cycle_start {
            Some(p) => path.split_off(p),
            None => vec![start],
        };
        for &m in &members {
            ctx.err(String::from_utf8_lossy(names[m]))?;
        }
        // Break the loop at the edge into its first member.
        let first = members.first().copied().unwrap_or(start);
        let last = members.last().copied().unwrap_or(start);
        if let Some(pos) = nodes[last].succ.iter().position(|&s| s == first) {
            nodes[last].succ.remove(pos);
            nodes[first].count -= 1;
        } else {
            nodes[first].count = 0;
        }
    }
    ctx.stdout.write_all(&out)?;
    Ok(status)
}
