//! `xz --list`: what the container of an .xz file records, read from its stream
//! footers and indexes (and, at `-vv`, its block headers) without decompressing, in
//! xz-utils 5.4's tables, verbose report and `--robot` lines.

use std::fmt::Write as _;

/// One stream of a file, in file order.
pub(super) struct Stream {
    check: u8,
    comp_offset: u64,
    uncomp_offset: u64,
    comp_size: u64,
    uncomp_size: u64,
    /// Stream padding after this stream.
    padding: u64,
    blocks: Vec<Block>,
}

struct Block {
    total_size: u64,
    unpadded_size: u64,
    uncomp_size: u64,
    comp_file_offset: u64,
}

/// What `-vv` reads from a block's header and check field.
struct Detail {
    check_value: String,
    header_size: u64,
    flags: String,
    comp_size: u64,
    memusage: u64,
    filters: String,
    has_sizes: bool,
    /// The oldest xz-utils able to decode the block, as xz encodes versions.
    min_version: u32,
}

const MAGIC: &[u8] = &[0xfd, b'7', b'z', b'X', b'Z', 0];
const HEADER: u64 = 12;
const VERSION_5_0_0: u32 = 50000002;

fn check_name(id: u8) -> String {
    match id {
        0 => "None".to_owned(),
        1 => "CRC32".to_owned(),
        4 => "CRC64".to_owned(),
        10 => "SHA-256".to_owned(),
        n => format!("Unknown-{n}"),
    }
}

/// The size of a check field: xz groups unknown IDs in threes.
fn check_size(id: u8) -> u64 {
    match id {
        0 => 0,
        1..=3 => 4,
        4..=6 => 8,
        7..=9 => 16,
        10..=12 => 32,
        _ => 64,
    }
}

fn crc32(b: &[u8]) -> u32 {
    let mut c = flate2::Crc::new();
    c.update(b);
    c.sum()
}

fn le32(b: &[u8]) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(..4)?.try_into().ok()?))
}

/// Reads one variable-length integer at `*pos`.
fn vli(b: &[u8], pos: &mut usize) -> Option<u64> {
    let mut v = 0u64;
    for i in 0..9 {
        let byte = *b.get(*pos)?;
        *pos += 1;
        v |= u64::from(byte & 0x7f) << (7 * i);
        if byte & 0x80 == 0 {
            // A continued number may not end in a zero byte.
            return (i == 0 || byte != 0).then_some(v);
        }
    }
    None
}

fn round4(n: u64) -> Option<u64> {
    n.checked_add(3).map(|n| n & !3)
}

/// Why a file cannot be listed, in xz's words.
pub(super) type Bad = &'static str;
const CORRUPT: Bad = "Compressed data is corrupt";

/// Reads the streams of `data`, last to first, as liblzma's file-info decoder does.
pub(super) fn parse(data: &[u8]) -> Result<Vec<Stream>, Bad> {
    if data.is_empty() {
        return Err("File is empty");
    }
    if data.len() < 2 * HEADER as usize {
        return Err("Too small to be a valid .xz file");
    }
    if !data.starts_with(MAGIC) {
        return Err("File format not recognized");
    }
    if !data.len().is_multiple_of(4) {
        return Err(CORRUPT);
    }
    let mut streams = Vec::new();
    let mut pos = data.len();
    while pos > 0 {
        let mut padding = 0u64;
        while pos >= 4 && data.get(pos - 4..pos) == Some(&[0u8; 4][..]) {
            pos -= 4;
            padding += 4;
        }
        let (stream, start) = parse_stream(data, pos, padding)?;
        streams.push(stream);
        pos = start;
    }
    streams.reverse();
    // Offsets run from the front.
    let (mut comp, mut uncomp) = (0u64, 0u64);
    for s in &mut streams {
        s.comp_offset = comp;
        s.uncomp_offset = uncomp;
        let mut at = comp + HEADER;
        for b in &mut s.blocks {
            b.comp_file_offset = at;
            at = at.saturating_add(b.total_size);
        }
        comp = comp.saturating_add(s.comp_size).saturating_add(s.padding);
        uncomp = uncomp.saturating_add(s.uncomp_size);
    }
    Ok(streams)
}

/// Parses the stream that ends at `end`; returns it and where it starts.
fn parse_stream(data: &[u8], end: usize, padding: u64) -> Result<(Stream, usize), Bad> {
    let footer = end
        .checked_sub(HEADER as usize)
        .and_then(|s| data.get(s..end))
        .ok_or(CORRUPT)?;
    if footer.get(10..12) != Some(b"YZ") || le32(footer) != footer.get(4..10).map(crc32) {
        return Err(CORRUPT);
    }
    let flags = footer.get(8..10).ok_or(CORRUPT)?;
    if flags[0] != 0 || flags[1] & 0xf0 != 0 {
        return Err("Unsupported options");
    }
    let check = flags[1];
    let backward = (u64::from(le32(&footer[4..8]).ok_or(CORRUPT)?) + 1) * 4;
    let index_end = end - HEADER as usize;
    let index_start = usize::try_from(backward)
        .ok()
        .and_then(|b| index_end.checked_sub(b))
        .ok_or(CORRUPT)?;
    let index = &data[index_start..index_end];
    let mut p = 0usize;
    if index.first() != Some(&0) {
        return Err(CORRUPT);
    }
    p += 1;
    let count = vli(index, &mut p).ok_or(CORRUPT)?;
    let mut blocks = Vec::new();
    let (mut blocks_size, mut uncomp) = (0u64, 0u64);
    for _ in 0..count {
        let unpadded = vli(index, &mut p).ok_or(CORRUPT)?;
        let size = vli(index, &mut p).ok_or(CORRUPT)?;
        if unpadded < 5 {
            return Err(CORRUPT);
        }
        let total = round4(unpadded).ok_or(CORRUPT)?;
        blocks_size = blocks_size.checked_add(total).ok_or(CORRUPT)?;
        uncomp = uncomp.checked_add(size).ok_or(CORRUPT)?;
        blocks.push(Block {
            total_size: total,
            unpadded_size: unpadded,
            uncomp_size: size,
            comp_file_offset: 0,
        });
    }
    while !p.is_multiple_of(4) {
        if index.get(p) != Some(&0) {
            return Err(CORRUPT);
        }
        p += 1;
    }
    if p + 4 != index.len() || le32(&index[p..]) != Some(crc32(&index[..p])) {
        return Err(CORRUPT);
    }
    let start = usize::try_from(blocks_size.saturating_add(HEADER))
        .ok()
        .and_then(|n| index_start.checked_sub(n))
        .ok_or(CORRUPT)?;
    let header = &data[start..start + HEADER as usize];
    if !header.starts_with(MAGIC)
        || header.get(6..8) != Some(flags)
        || le32(&header[8..]) != Some(crc32(flags))
    {
        return Err(CORRUPT);
    }
    let stream = Stream {
        check,
        comp_offset: 0,
        uncomp_offset: 0,
        comp_size: (end - start) as u64,
        uncomp_size: uncomp,
        padding,
        blocks,
    };
    Ok((stream, start))
}

/// A dictionary size as liblzma's filter strings write it.
fn size_str(n: u64) -> String {
    if n != 0 && n.is_multiple_of(1 << 20) {
        format!("{}MiB", n >> 20)
    } else if n != 0 && n.is_multiple_of(1 << 10) {
        format!("{}KiB", n >> 10)
    } else {
        n.to_string()
    }
}

/// Reads a block's header and check field for `-vv`.
fn detail(data: &[u8], s: &Stream, b: &Block) -> Result<Detail, Bad> {
    let at = usize::try_from(b.comp_file_offset).map_err(|_| CORRUPT)?;
    let first = *data.get(at).ok_or(CORRUPT)?;
    if first == 0 {
        return Err(CORRUPT);
    }
    let header_size = (u64::from(first) + 1) * 4;
    let h = data.get(at..at + header_size as usize).ok_or(CORRUPT)?;
    let n = h.len();
    if le32(&h[n - 4..]) != Some(crc32(&h[..n - 4])) {
        return Err(CORRUPT);
    }
    let bflags = *h.get(1).ok_or(CORRUPT)?;
    if bflags & 0x3c != 0 {
        return Err("Unsupported options");
    }
    let mut p = 2usize;
    let has_comp = bflags & 0x40 != 0;
    let has_uncomp = bflags & 0x80 != 0;
    if has_comp {
        vli(h, &mut p).ok_or(CORRUPT)?;
    }
    if has_uncomp {
        vli(h, &mut p).ok_or(CORRUPT)?;
    }
    let mut names = Vec::new();
    let mut memusage = 0u64;
    let mut min_version = VERSION_5_0_0;
    let mut last_lzma2 = false;
    for _ in 0..=(bflags & 3) {
        let id = vli(h, &mut p).ok_or(CORRUPT)?;
        let len = usize::try_from(vli(h, &mut p).ok_or(CORRUPT)?).map_err(|_| CORRUPT)?;
        let props = p
            .checked_add(len)
            .and_then(|e| h.get(p..e))
            .ok_or(CORRUPT)?;
        p += len;
        last_lzma2 = id == 0x21;
        let bcj = |name: &str| match props {
            [] => Ok(format!("--{name}")),
            [a, b, c, d] => {
                let start = u32::from_le_bytes([*a, *b, *c, *d]);
                Ok(if start == 0 {
                    format!("--{name}")
                } else {
                    format!("--{name}=start={start}")
                })
            }
            _ => Err("Unsupported options"),
        };
        let name = match id {
            0x21 => {
                let &[d] = props else {
                    return Err("Unsupported options");
                };
                if d > 40 {
                    return Err("Unsupported options");
                }
                let dict = if d == 40 {
                    u64::from(u32::MAX)
                } else {
                    (2 | u64::from(d & 1)) << (d / 2 + 11)
                };
                memusage += dict + 65592;
                format!("--lzma2=dict={}", size_str(dict))
            }
            0x03 => {
                let &[d] = props else {
                    return Err("Unsupported options");
                };
                memusage += 352;
                format!("--delta=dist={}", u32::from(d) + 1)
            }
            0x04..=0x0b => {
                memusage += 1024;
                if id == 0x0a {
                    min_version = min_version.max(50040002);
                }
                if id == 0x0b {
                    min_version = min_version.max(50060002);
                }
                let names = [
                    "x86", "powerpc", "ia64", "arm", "armthumb", "sparc", "arm64", "riscv",
                ];
                bcj(names[(id - 4) as usize])?
            }
            _ => return Err("Unsupported options"),
        };
        names.push(name);
    }
    if last_lzma2 && b.uncomp_size == 0 {
        min_version = min_version.max(50000022);
    }
    let size = check_size(s.check) as usize;
    let check_value = if s.check == 0 {
        "---".to_owned()
    } else {
        let end = usize::try_from(b.total_size)
            .ok()
            .and_then(|t| at.checked_add(t))
            .ok_or(CORRUPT)?;
        let f = end
            .checked_sub(size)
            .and_then(|start| data.get(start..end))
            .ok_or(CORRUPT)?;
        match size {
            4 => format!("{:08x}", le32(f).unwrap_or(0)),
            8 => format!(
                "{:016x}",
                u64::from_le_bytes(f.try_into().unwrap_or([0; 8]))
            ),
            _ => f.iter().map(|b| format!("{b:02x}")).collect(),
        }
    };
    Ok(Detail {
        check_value,
        header_size,
        flags: format!(
            "{}{}",
            if has_comp { 'c' } else { '-' },
            if has_uncomp { 'u' } else { '-' }
        ),
        comp_size: b
            .unpadded_size
            .saturating_sub(header_size)
            .saturating_sub(size as u64),
        memusage,
        filters: names.join(" "),
        has_sizes: has_comp && has_uncomp,
        min_version,
    })
}

/// A size for people: bytes below 10,000, then KiB, MiB, ... with one decimal.
pub(super) fn nice(n: u64, also_bytes: bool) -> String {
    if n < 10000 {
        return format!("{n} B");
    }
    let units = ["KiB", "MiB", "GiB", "TiB"];
    let mut d = n as f64 / 1024.0;
    let mut u = 0;
    while u < units.len() - 1 && d > 9999.9 {
        d /= 1024.0;
        u += 1;
    }
    if also_bytes {
        format!("{d:.1} {} ({n} B)", units[u])
    } else {
        format!("{d:.1} {}", units[u])
    }
}

fn ratio(comp: u64, uncomp: u64) -> String {
    if uncomp == 0 {
        return "---".to_owned();
    }
    let r = comp as f64 / uncomp as f64;
    if r > 9.999 {
        "---".to_owned()
    } else {
        format!("{r:.3}")
    }
}

fn checks_str(mask: u32, sep: &str) -> String {
    let mask = if mask == 0 { 1 } else { mask };
    (0..16u8)
        .filter(|i| mask & (1 << i) != 0)
        .map(check_name)
        .collect::<Vec<_>>()
        .join(sep)
}

fn version_str(v: u32) -> String {
    let (major, minor, patch, stab) = (v / 10000000, v / 10000 % 1000, v / 10 % 1000, v % 10);
    let s = match stab {
        0 => "alpha",
        1 => "beta",
        _ => "",
    };
    format!("{major}.{minor}.{patch}{s}")
}

/// How to list: `--robot`, and the verbosity (0 plain, 1 `-v`, 2 `-vv`).
pub(super) struct Lister {
    robot: bool,
    verbose: u32,
    /// Operands in all, for the `(n/m)` headings.
    files: usize,
    headings_shown: bool,
    totals: Totals,
}

#[derive(Default)]
struct Totals {
    files: u64,
    sum: Summary,
    memusage: u64,
    min_version: u32,
    all_sizes: bool,
}

/// The whole file's figures.
#[derive(Default)]
struct Summary {
    streams: u64,
    blocks: u64,
    comp: u64,
    uncomp: u64,
    padding: u64,
    checks: u32,
}

fn summary(streams: &[Stream]) -> Summary {
    let mut s = Summary {
        streams: streams.len() as u64,
        blocks: 0,
        comp: 0,
        uncomp: 0,
        padding: 0,
        checks: 0,
    };
    for st in streams {
        s.blocks += st.blocks.len() as u64;
        s.comp = s
            .comp
            .saturating_add(st.comp_size)
            .saturating_add(st.padding);
        s.uncomp = s.uncomp.saturating_add(st.uncomp_size);
        s.padding += st.padding;
        s.checks |= 1 << st.check;
    }
    s
}

/// The colon labels of the verbose report, padded to the widest.
fn label(out: &mut String, name: &str, value: &str) {
    let _ = writeln!(out, "  {:<18} {value}", format!("{name}:"));
}

impl Lister {
    pub(super) fn new(robot: bool, verbose: u32, files: usize) -> Lister {
        Lister {
            robot,
            verbose,
            files,
            headings_shown: false,
            totals: Totals {
                min_version: VERSION_5_0_0,
                all_sizes: true,
                ..Totals::default()
            },
        }
    }

    /// The heading a verbose listing prints before each file, good or bad.
    pub(super) fn heading(&self, name: &str, number: usize) -> String {
        if self.robot || self.verbose == 0 {
            return String::new();
        }
        let blank = if number > 1 { "\n" } else { "" };
        format!("{blank}{name} ({number}/{})\n", self.files)
    }

    /// Lists one file; `Err` is the error to report for it.
    pub(super) fn file(&mut self, name: &str, data: &[u8]) -> Result<String, Bad> {
        let streams = parse(data)?;
        let detailed = self.verbose >= 2;
        let mut details = Vec::new();
        if detailed {
            for s in &streams {
                for b in &s.blocks {
                    details.push(detail(data, s, b)?);
                }
            }
        }
        let memusage = details.iter().map(|d| d.memusage).max().unwrap_or(0);
        let all_sizes = details.iter().all(|d| d.has_sizes);
        let min_version = details
            .iter()
            .map(|d| d.min_version)
            .max()
            .unwrap_or(VERSION_5_0_0);
        let sum = summary(&streams);
        let out = if self.robot {
            self.robot_file(
                name,
                &streams,
                &sum,
                &details,
                (memusage, all_sizes, min_version),
            )
        } else if self.verbose == 0 {
            self.basic_file(name, &sum)
        } else {
            let mut out = String::new();
            adv_helper(&mut out, &sum);
            adv_tables(&mut out, &streams, &details, detailed);
            if detailed {
                label(&mut out, "Memory needed", &format!("{} MiB", mib(memusage)));
                label(
                    &mut out,
                    "Sizes in headers",
                    if all_sizes { "Yes" } else { "No" },
                );
                let _ = writeln!(
                    out,
                    "  Minimum XZ Utils version: {}",
                    version_str(min_version)
                );
            }
            out
        };
        let t = &mut self.totals;
        t.files += 1;
        t.sum.streams += sum.streams;
        t.sum.blocks += sum.blocks;
        t.sum.comp = t.sum.comp.saturating_add(sum.comp);
        t.sum.uncomp = t.sum.uncomp.saturating_add(sum.uncomp);
        t.sum.padding += sum.padding;
        t.sum.checks |= sum.checks;
        t.memusage = t.memusage.max(memusage);
        t.min_version = t.min_version.max(min_version);
        t.all_sizes &= all_sizes;
        Ok(out)
    }

    fn basic_file(&mut self, name: &str, s: &Summary) -> String {
        let mut out = String::new();
        if !self.headings_shown {
            self.headings_shown = true;
            out.push_str("Strms  Blocks   Compressed Uncompressed  Ratio  Check   Filename\n");
        }
        out.push_str(&basic_line(s, name));
        out
    }

    fn robot_file(
        &self,
        name: &str,
        streams: &[Stream],
        s: &Summary,
        details: &[Detail],
        (memusage, all_sizes, min_version): (u64, bool, u32),
    ) -> String {
        let mut out = format!(
            "name\t{name}\nfile\t{}\t{}\t{}\t{}\t{}\t{}\t{}\n",
            s.streams,
            s.blocks,
            s.comp,
            s.uncomp,
            ratio(s.comp, s.uncomp),
            checks_str(s.checks, ","),
            s.padding
        );
        if self.verbose == 0 {
            return out;
        }
        for (i, st) in streams.iter().enumerate() {
            let _ = writeln!(out, "stream\t{}", stream_row(i, st).join("\t"));
        }
        for (n, row) in block_rows(streams).into_iter().enumerate() {
            let _ = write!(out, "block\t{}\t{}\t{}", row[0], row[1], n + 1);
            for cell in &row[2..] {
                let _ = write!(out, "\t{cell}");
            }
            if let Some(d) = details.get(n) {
                let _ = write!(
                    out,
                    "\t{}\t{}\t{}\t{}\t{}\t{}",
                    d.check_value, d.header_size, d.flags, d.comp_size, d.memusage, d.filters
                );
            }
            out.push('\n');
        }
        if self.verbose >= 2 {
            let yes = if all_sizes { "yes" } else { "no" };
            let _ = writeln!(out, "summary\t{memusage}\t{yes}\t{min_version}");
        }
        out
    }

    /// What follows the last file: totals when more than one file was listed (always
    /// with `--robot`).
    pub(super) fn totals(&self) -> String {
        let t = &self.totals;
        let mut out = String::new();
        if self.robot {
            let _ = write!(
                out,
                "totals\t{}\t{}\t{}\t{}\t{}\t{}\t{}\t{}",
                t.sum.streams,
                t.sum.blocks,
                t.sum.comp,
                t.sum.uncomp,
                ratio(t.sum.comp, t.sum.uncomp),
                checks_str(t.sum.checks, ","),
                t.sum.padding,
                t.files
            );
            if self.verbose >= 2 {
                let yes = if t.all_sizes { "yes" } else { "no" };
                let _ = write!(out, "\t{}\t{yes}\t{}", t.memusage, t.min_version);
            }
            out.push('\n');
            return out;
        }
        if t.files <= 1 {
            return out;
        }
        let sum = &t.sum;
        if self.verbose == 0 {
            out.push_str(&"-".repeat(79));
            out.push('\n');
            out.push_str(&basic_line(sum, &format!("{} files", t.files)));
        } else {
            out.push_str("\nTotals:\n");
            label(&mut out, "Number of files", &t.files.to_string());
            adv_helper(&mut out, sum);
            if self.verbose >= 2 {
                label(
                    &mut out,
                    "Memory needed",
                    &format!("{} MiB", mib(t.memusage)),
                );
                label(
                    &mut out,
                    "Sizes in headers",
                    if t.all_sizes { "Yes" } else { "No" },
                );
                let _ = writeln!(
                    out,
                    "  Minimum XZ Utils version: {}",
                    version_str(t.min_version)
                );
            }
        }
        out
    }
}

/// A line of the plain table: a file's figures, or the totals'.
fn basic_line(s: &Summary, name: &str) -> String {
    format!(
        "{:>5} {:>7}  {:>11}  {:>11}  {:>5}  {:<7} {name}\n",
        s.streams,
        s.blocks,
        nice(s.comp, false),
        nice(s.uncomp, false),
        ratio(s.comp, s.uncomp),
        checks_str(s.checks, ",")
    )
}

fn mib(n: u64) -> u64 {
    n.div_ceil(1 << 20)
}

fn adv_helper(out: &mut String, s: &Summary) {
    label(out, "Streams", &s.streams.to_string());
    label(out, "Blocks", &s.blocks.to_string());
    label(out, "Compressed size", &nice(s.comp, true));
    label(out, "Uncompressed size", &nice(s.uncomp, true));
    label(out, "Ratio", &ratio(s.comp, s.uncomp));
    label(out, "Check", &checks_str(s.checks, ", "));
    label(out, "Stream Padding", &nice(s.padding, true));
}

fn adv_tables(out: &mut String, streams: &[Stream], details: &[Detail], detailed: bool) {
    out.push_str("  Streams:\n");
    let _ = writeln!(
        out,
        "    {:>6} {:>9} {:>15} {:>15} {:>15} {:>15}  {:>5}  {:<10} {:>7}",
        "Stream",
        "Blocks",
        "CompOffset",
        "UncompOffset",
        "CompSize",
        "UncompSize",
        "Ratio",
        "Check",
        "Padding"
    );
    for (i, s) in streams.iter().enumerate() {
        let c = stream_row(i, s);
        let _ = writeln!(
            out,
            "    {:>6} {:>9} {:>15} {:>15} {:>15} {:>15}  {:>5}  {:<10} {:>7}",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7], c[8]
        );
    }
    if streams.iter().all(|s| s.blocks.is_empty()) {
        return;
    }
    let check_max = streams
        .iter()
        .map(|s| check_size(s.check))
        .max()
        .unwrap_or(0);
    let checkval_width = (2 * check_max as usize).max(8);
    let check_width = if detailed { 10 } else { 1 };
    out.push_str("  Blocks:\n");
    let _ = write!(
        out,
        "    {:>6} {:>9} {:>15} {:>15} {:>15} {:>15}  {:>5}  {:<check_width$}",
        "Stream",
        "Block",
        "CompOffset",
        "UncompOffset",
        "TotalSize",
        "UncompSize",
        "Ratio",
        "Check"
    );
    if detailed {
        let _ = write!(
            out,
            " {:<checkval_width$}  {:>6}  {:<5} {:>15} {:>11}  Filters",
            "CheckVal", "Header", "Flags", "CompSize", "MemUsage"
        );
    }
    out.push('\n');
    for (n, c) in block_rows(streams).into_iter().enumerate() {
        let _ = write!(
            out,
            "    {:>6} {:>9} {:>15} {:>15} {:>15} {:>15}  {:>5}  {:<check_width$}",
            c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]
        );
        if let Some(d) = details.get(n).filter(|_| detailed) {
            let _ = write!(
                out,
                " {:<checkval_width$}  {:>6}  {:<5} {:>15} {:>7} MiB  {}",
                d.check_value,
                d.header_size,
                d.flags,
                d.comp_size,
                mib(d.memusage),
                d.filters
            );
        }
        out.push('\n');
    }
}

/// A stream's cells: number, blocks, offsets, sizes, ratio, check, padding.
fn stream_row(i: usize, s: &Stream) -> [String; 9] {
    [
        (i + 1).to_string(),
        s.blocks.len().to_string(),
        s.comp_offset.to_string(),
        s.uncomp_offset.to_string(),
        s.comp_size.to_string(),
        s.uncomp_size.to_string(),
        ratio(s.comp_size, s.uncomp_size),
        check_name(s.check),
        s.padding.to_string(),
    ]
}

/// Every block's cells in file order: stream, number in it, offsets, sizes, ratio,
/// check.
fn block_rows(streams: &[Stream]) -> Vec<[String; 8]> {
    let mut rows = Vec::new();
    let mut uncomp_at = 0u64;
    for (i, s) in streams.iter().enumerate() {
        for (j, b) in s.blocks.iter().enumerate() {
            rows.push([
                (i + 1).to_string(),
                (j + 1).to_string(),
                b.comp_file_offset.to_string(),
                uncomp_at.to_string(),
                b.total_size.to_string(),
                b.uncomp_size.to_string(),
                ratio(b.total_size, b.uncomp_size),
                check_name(s.check),
            ]);
            uncomp_at = uncomp_at.saturating_add(b.uncomp_size);
        }
    }
    rows
}

#[cfg(test)]
#[allow(clippy::unwrap_used)]
mod tests {
    use super::{Lister, nice, ratio, vli};
    use std::io::Write;

    #[test]
    fn sizes_and_ratios_read_as_xz_writes_them() {
        assert_eq!(nice(9999, true), "9999 B");
        assert_eq!(nice(47552, true), "46.4 KiB (47552 B)");
        assert_eq!(nice(30_000_000, false), "28.6 MiB");
        assert_eq!(ratio(64, 6), "---");
        assert_eq!(ratio(56, 6), "9.333");
        assert_eq!(ratio(1, 0), "---");
    }

    #[test]
    fn a_continued_number_may_not_end_in_zero() {
        let mut p = 0;
        assert_eq!(vli(&[0x80, 0x01], &mut p), Some(128));
        let mut p = 0;
        assert_eq!(vli(&[0x80, 0x00], &mut p), None);
        let mut p = 0;
        assert_eq!(vli(&[0xff; 12], &mut p), None);
    }

    #[test]
    fn damaged_files_are_refused_without_panicking() {
        let mut w =
            lzma_rust2::XzWriter::new(Vec::new(), lzma_rust2::XzOptions::with_preset(1)).unwrap();
        w.write_all(b"hello hello hello\n").unwrap();
        let good = w.finish().unwrap();
        let mut lister = Lister::new(true, 2, 1);
        assert!(lister.file("good", &good).is_ok());
        for i in 0..good.len() {
            for v in [0u8, 1, 0x7f, 0x80, 0xff] {
                let mut bad = good.clone();
                bad[i] = v;
                let _ = Lister::new(false, 2, 1).file("bad", &bad);
            }
            let _ = Lister::new(false, 2, 1).file("cut", &good[..i]);
        }
    }
}
