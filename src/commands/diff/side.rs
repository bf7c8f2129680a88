//! `diff -y` (`--side-by-side`): GNU diffutils' two-column layout (its `side.c`), with
//! `-W`/`--width`, `--left-column`, `--suppress-common-lines`, `-t` and `--tabsize`.
//! Columns are laid out as GNU lays them, tabs and all: each half is cut to its width,
//! the gutter mark (`|`, `<`, `>`, and `(`/`)` for lines shown once) sits in the middle,
//! and a line missing its final newline turns `|` into `/` or `\`.

use super::Change;

/// GNU's least gutter between the columns.
const GUTTER_WIDTH_MINIMUM: usize = 3;

/// How the two columns are laid out.
pub struct Layout {
    /// Columns each half may fill.
    half_width: usize,
    /// Where the right column starts.
    column2_offset: usize,
    tabsize: usize,
    /// `-t`: spaces instead of tabs.
    expand_tabs: bool,
    /// `--left-column`: a common line is shown once, on the left, marked `(`.
    pub left_column: bool,
    /// `--suppress-common-lines`.
    pub suppress_common: bool,
    /// Characters are UTF-8 (a character's width counts, not its bytes).
    utf8: bool,
}

impl Layout {
    /// The layout for an output `width` (GNU's arithmetic from diff.c: the right
    /// column starts at a tab stop near the middle).
    pub fn new(width: usize, tabsize: usize, expand_tabs: bool, utf8: bool) -> Layout {
        let t = if expand_tabs { 1 } else { tabsize.max(1) };
        let off = (width + t + GUTTER_WIDTH_MINIMUM) / (2 * t) * t;
        let half_width = off
            .saturating_sub(GUTTER_WIDTH_MINIMUM)
            .min(width.saturating_sub(off));
        Layout {
            half_width,
            column2_offset: if half_width > 0 { off } else { width },
            tabsize: tabsize.max(1),
            expand_tabs,
            left_column: false,
            suppress_common: false,
            utf8,
        }
    }

    /// Blanks from column `from` to column `to`: tabs to each tab stop on the way
    /// (unless `-t`), then spaces. Returns `to`.
    fn tab_from_to(&self, out: &mut Vec<u8>, mut from: usize, to: usize) -> usize {
        if !self.expand_tabs {
            let mut tab = from + self.tabsize - from % self.tabsize;
            while tab <= to {
                out.push(b'\t');
                from = tab;
                tab += self.tabsize;
            }
        }
        while from < to {
            out.push(b' ');
            from += 1;
        }
        to
    }

    /// One line's text cut to `bound` columns (a tab only when its whole stop fits);
    /// returns the column the output reached.
    fn half_line(&self, out: &mut Vec<u8>, line: &[u8], indent: usize, bound: usize) -> usize {
        let (mut in_pos, mut out_pos) = (0usize, 0usize);
        let mut i = 0;
        while let Some(&c) = line.get(i) {
            i += 1;
            match c {
                b'\t' => {
                    let spaces = self.tabsize - in_pos % self.tabsize;
                    if in_pos == out_pos {
                        let mut tabstop = out_pos + spaces;
                        if self.expand_tabs {
                            tabstop = tabstop.min(bound);
                            while out_pos < tabstop {
                                out.push(b' ');
                                out_pos += 1;
                            }
                        } else if tabstop < bound {
                            out_pos = tabstop;
                            out.push(c);
                        }
                    }
                    in_pos += spaces;
                }
                b'\r' => {
                    out.push(c);
                    self.tab_from_to(out, 0, indent);
                    in_pos = 0;
                    out_pos = 0;
                }
                0x08 => {
                    if in_pos != 0 {
                        in_pos -= 1;
                        if in_pos < bound {
                            if out_pos <= in_pos {
                                // Spaces for a tab left out past the bound.
                                while out_pos < in_pos {
                                    out.push(b' ');
                                    out_pos += 1;
                                }
                            } else {
                                out_pos = in_pos;
                                out.push(c);
                            }
                        }
                    }
                }
                b'\n' => return out_pos,
                b' '..=b'~' => {
                    let fits = in_pos < bound;
                    in_pos += 1;
                    if fits {
                        out_pos = in_pos;
                        out.push(c);
                    }
                }
                0 | 0x0b | 0x0c => {
                    if in_pos < bound {
                        out.push(c);
                    }
                }
                _ => match self.character(line.get(i - 1..).unwrap_or(&[])) {
                    Some((ch, len)) => {
                        in_pos += super::super::util::char_width(ch);
                        if in_pos <= bound {
                            out_pos = in_pos;
                            out.extend_from_slice(line.get(i - 1..i - 1 + len).unwrap_or(&[]));
                        }
                        i += len - 1;
                    }
                    // A byte that is no character prints, taking no column.
                    None => {
                        if in_pos < bound {
                            out.push(c);
                        }
                    }
                },
            }
        }
        out_pos
    }

    /// The character at the start of `bytes` and its length, as mbrtowc reads it.
    fn character(&self, bytes: &[u8]) -> Option<(char, usize)> {
        let first = *bytes.first()?;
        if first.is_ascii() {
            return Some((char::from(first), 1));
        }
        if !self.utf8 {
            return None;
        }
        let chunk = bytes.get(..bytes.len().min(4)).unwrap_or(bytes);
        let valid = match std::str::from_utf8(chunk) {
            Ok(s) => s,
            Err(e) => std::str::from_utf8(chunk.get(..e.valid_up_to()).unwrap_or(&[])).ok()?,
        };
        valid.chars().next().map(|ch| (ch, ch.len_utf8()))
    }

    /// One output line: the left text, the gutter mark, the right text.
    fn line(&self, out: &mut Vec<u8>, left: Option<&[u8]>, sep: u8, right: Option<&[u8]>) {
        let hw = self.half_width;
        let c2o = self.column2_offset;
        let mut col = 0;
        let mut put_newline = false;
        if let Some(l) = left {
            put_newline |= l.ends_with(b"\n");
            col = self.half_line(out, l, 0, hw);
        }
        let mut sep = sep;
        if sep != b' ' {
            col = self.tab_from_to(out, col, (hw + c2o).saturating_sub(1) / 2) + 1;
            if sep == b'|' && right.is_some_and(|r| put_newline != r.ends_with(b"\n")) {
                sep = if put_newline { b'/' } else { b'\\' };
            }
            out.push(sep);
        }
        if let Some(r) = right {
            put_newline |= r.ends_with(b"\n");
            if r.first() != Some(&b'\n') {
                col = self.tab_from_to(out, col, c2o);
                self.half_line(out, r, col, hw);
            }
        }
        if put_newline {
            out.push(b'\n');
        }
    }

    /// Lines both files share, from `la[i0..end0]` and `lb[i1..end1]`.
    fn common(&self, out: &mut Vec<u8>, la: &[&[u8]], lb: &[&[u8]], a: Span, b: Span) {
        if self.suppress_common {
            return;
        }
        let (mut i0, mut i1) = (a.0, b.0);
        if !self.left_column {
            while i0 < a.1 && i1 < b.1 {
                self.line(out, la.get(i0).copied(), b' ', lb.get(i1).copied());
                i0 += 1;
                i1 += 1;
            }
            while i1 < b.1 {
                self.line(out, None, b')', lb.get(i1).copied());
                i1 += 1;
            }
        }
        while i0 < a.1 {
            self.line(out, la.get(i0).copied(), b'(', None);
            i0 += 1;
        }
    }

    /// The whole comparison: common stretches, then each change as `|` pairs and the
    /// lines left over as `>` (new) and `<` (old).
    pub fn render(&self, la: &[&[u8]], lb: &[&[u8]], changes: &[Change]) -> Vec<u8> {
        let mut out = Vec::new();
        let (mut next0, mut next1) = (0, 0);
        for (ra, rb) in changes {
            self.common(&mut out, la, lb, (next0, ra.start), (next1, rb.start));
            let paired = ra.len().min(rb.len());
            for k in 0..paired {
                let (l, r) = (la.get(ra.start + k), lb.get(rb.start + k));
                self.line(&mut out, l.copied(), b'|', r.copied());
            }
            for r in lb.get(rb.start + paired..rb.end).unwrap_or(&[]) {
                self.line(&mut out, None, b'>', Some(r));
            }
            for l in la.get(ra.start + paired..ra.end).unwrap_or(&[]) {
                self.line(&mut out, Some(l), b'<', None);
            }
            (next0, next1) = (ra.end, rb.end);
        }
        self.common(&mut out, la, lb, (next0, la.len()), (next1, lb.len()));
        out
    }
}

/// A range of line indexes, start and end.
type Span = (usize, usize);
