//! `yq`'s encoders: YAML as go-yaml v3 writes it for yq (block style, sequences
//! indented under their key, strings quoted only when a plain scalar would read back
//! differently, multi-line strings as literal blocks), JSON (Go's encoder with yq's
//! indent, `-I 0` compact), Java properties, CSV, TSV and TOML.

use jaq_json::{Num, Val};

use super::decode::{DocMeta, NodeMeta, Quote, Seg, key_seg, resolves_non_string};

fn text(v: &Val) -> String {
    match v {
        Val::TStr(s) | Val::BStr(s) => String::from_utf8_lossy(s).into_owned(),
        _ => String::new(),
    }
}

/// A number as yq prints it: as written when it came from a document, else the
/// shortest text that reads back.
pub fn num_text(n: &Num) -> String {
    match n {
        Num::Int(i) => i.to_string(),
        Num::BigInt(b) => b.to_string(),
        Num::Dec(d) => d.to_string(),
        Num::Float(f) => float_text(*f),
    }
}

fn float_text(f: f64) -> String {
    if f.is_nan() {
        ".nan".to_owned()
    } else if f.is_infinite() {
        if f > 0.0 { "+Inf" } else { "-Inf" }.to_owned()
    } else if f != 0.0 && (f.abs() >= 1e21 || f.abs() < 1e-4) {
        // Go's %v: exponent form for very large and small values.
        let s = format!("{f:e}");
        match s.split_once('e') {
            Some((m, e)) if !e.starts_with('-') => format!("{m}e+{e:0>2}"),
            Some((m, e)) => format!("{m}e-{:0>2}", e.trim_start_matches('-')),
            None => s,
        }
    } else {
        format!("{f}")
    }
}

/// The text of a scalar when yq unwraps it (`-r`): strings bare.
pub fn scalar_text(v: &Val) -> Option<String> {
    Some(match v {
        Val::Null => "null".to_owned(),
        Val::Bool(b) => b.to_string(),
        Val::Num(n) => num_text(n),
        Val::TStr(_) | Val::BStr(_) => text(v),
        Val::Arr(_) | Val::Obj(_) => return None,
    })
}

/// How a string is written in block context.
enum Style {
    Plain,
    Single,
    Double,
    Literal,
}

fn printable(c: char) -> bool {
    matches!(c, '\n' | '\u{85}' | ' '..='~' | '\u{a0}'..='\u{d7ff}' | '\u{e000}'..='\u{fffd}' | '\u{10000}'..)
        && c != '\u{feff}'
}

/// libyaml's `yaml_emitter_analyze_scalar` and `select_scalar_style`, for the
/// cases go-yaml v3 reaches from yq.
fn select_style(s: &str, is_key: bool) -> Style {
    if s.is_empty() || resolves_non_string(s) {
        return Style::Double;
    }
    if s.contains('\n') && !is_key {
        let space_break = s.contains(" \n");
        let special = s.chars().any(|c| !printable(c));
        if space_break || special || s.ends_with(' ') {
            return Style::Double;
        }
        return Style::Literal;
    }
    if s.contains('\n') {
        return Style::Double;
    }
    let chars: Vec<char> = s.chars().collect();
    if chars.iter().any(|&c| !printable(c)) {
        return Style::Double;
    }
    let mut plain = true;
    if s.starts_with("---") || s.starts_with("...") {
        plain = false;
    }
    if chars.first() == Some(&' ') || chars.last() == Some(&' ') {
        plain = false;
    }
    for (i, &c) in chars.iter().enumerate() {
        let next_blank = chars.get(i + 1).is_none_or(|n| *n == ' ');
        let prev_blank = i > 0 && chars.get(i - 1) == Some(&' ');
        if i == 0 {
            match c {
                '#' | ',' | '[' | ']' | '{' | '}' | '&' | '*' | '!' | '|' | '>' | '\'' | '"'
                | '%' | '@' | '`' => plain = false,
                '?' | ':' | '-' if next_blank => plain = false,
                _ => {}
            }
        } else {
            match c {
                ':' if next_blank => plain = false,
                '#' if prev_blank => plain = false,
                _ => {}
            }
        }
    }
    if plain { Style::Plain } else { Style::Single }
}

fn double_quoted(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\0' => out.push_str("\\0"),
            '\x07' => out.push_str("\\a"),
            '\x08' => out.push_str("\\b"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            '\x0b' => out.push_str("\\v"),
            '\x0c' => out.push_str("\\f"),
            '\r' => out.push_str("\\r"),
            '\x1b' => out.push_str("\\e"),
            '\u{85}' => out.push_str("\\N"),
            '\u{a0}' => out.push_str("\\_"),
            '\u{2028}' => out.push_str("\\L"),
            '\u{2029}' => out.push_str("\\P"),
            c if !printable(c) => {
                let n = c as u32;
                if n <= 0xff {
                    out.push_str(&format!("\\x{n:02X}"));
                } else if n <= 0xffff {
                    out.push_str(&format!("\\u{n:04X}"));
                } else {
                    out.push_str(&format!("\\U{n:08X}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

/// Writes a string scalar; `col` is the indentation of a literal block's lines.
fn string_scalar(out: &mut String, s: &str, col: usize, is_key: bool) {
    match select_style(s, is_key) {
        Style::Plain => out.push_str(s),
        Style::Single => {
            out.push('\'');
            out.push_str(&s.replace('\'', "''"));
            out.push('\'');
        }
        Style::Double => double_quoted(out, s),
        Style::Literal => {
            out.push('|');
            if s.starts_with(' ') {
                out.push_str(&(col.max(1)).to_string());
            }
            let body = s.trim_end_matches('\n');
            let trailing = s.len() - body.len();
            match trailing {
                0 => out.push('-'),
                1 => {}
                _ => out.push('+'),
            }
            let lines: Vec<&str> = if trailing > 1 {
                s.strip_suffix('\n').unwrap_or(s).split('\n').collect()
            } else {
                body.split('\n').collect()
            };
            for line in lines {
                out.push('\n');
                if !line.is_empty() {
                    out.push_str(&" ".repeat(col));
                    out.push_str(line);
                }
            }
        }
    }
}

/// The layout recorded for the node at `path`, if any.
fn node<'m>(meta: Option<&'m DocMeta>, path: &[Seg]) -> Option<&'m NodeMeta> {
    meta.and_then(|m| m.nodes.get(path))
}

/// Writes a scalar (or an empty collection) as the value at `path`.
fn yaml_scalar(out: &mut String, v: &Val, col: usize, is_key: bool, nm: Option<&NodeMeta>) {
    match v {
        Val::TStr(_) | Val::BStr(_) => {
            let s = text(v);
            // A node keeps its style when its value is replaced, as yq's assignments
            // keep it.
            match nm.and_then(|n| n.quote.as_ref()) {
                Some((Quote::Double, _)) => double_quoted(out, &s),
                Some((Quote::Single, _)) if !s.contains('\n') => {
                    out.push('\'');
                    out.push_str(&s.replace('\'', "''"));
                    out.push('\'');
                }
                _ => string_scalar(out, &s, col, is_key),
            }
        }
        Val::Null => match nm.and_then(|n| n.null_text.as_deref()) {
            Some("") => {
                // An empty null: `key:` with nothing after it.
                if out.ends_with(' ') {
                    out.pop();
                }
            }
            Some(t) => out.push_str(t),
            None => out.push_str("null"),
        },
        Val::Arr(_) => out.push_str("[]"),
        Val::Obj(_) => out.push_str("{}"),
        other => out.push_str(&scalar_text(other).unwrap_or_default()),
    }
}

/// libyaml's test for a plain scalar inside a flow collection.
fn flow_plain(s: &str) -> bool {
    matches!(select_style(s, true), Style::Plain)
        && !s.contains([',', '[', ']', '{', '}'])
        && !s.contains(": ")
        && !s.ends_with(':')
}

fn flow_scalar(out: &mut String, v: &Val, nm: Option<&NodeMeta>) {
    match v {
        Val::TStr(_) | Val::BStr(_) => {
            let s = text(v);
            match nm.and_then(|n| n.quote.as_ref()) {
                Some((Quote::Single, _)) if !s.contains('\n') => {
                    out.push('\'');
                    out.push_str(&s.replace('\'', "''"));
                    out.push('\'');
                }
                Some(_) => double_quoted(out, &s),
                _ if flow_plain(&s) => out.push_str(&s),
                _ if s.contains('\n') || s.chars().any(|c| !printable(c)) => {
                    double_quoted(out, &s);
                }
                _ if s.is_empty() || resolves_non_string(&s) => double_quoted(out, &s),
                _ => {
                    out.push('\'');
                    out.push_str(&s.replace('\'', "''"));
                    out.push('\'');
                }
            }
        }
        other => yaml_scalar(out, other, 0, true, nm),
    }
}

/// A collection in flow style, as go-yaml writes one: `[a, b]`, `{a: b}`.
fn yaml_flow(out: &mut String, v: &Val, meta: Option<&DocMeta>, path: &mut Vec<Seg>) {
    match v {
        Val::Arr(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                path.push(Seg::Index(k));
                yaml_flow(out, item, meta, path);
                path.pop();
            }
            out.push(']');
        }
        Val::Obj(map) => {
            out.push('{');
            for (k, (key, val)) in map.iter().enumerate() {
                if k > 0 {
                    out.push_str(", ");
                }
                path.push(key_seg(key));
                match node(meta, path).and_then(|n| n.key_quote) {
                    Some(_) => write_key(out, key, node(meta, path)),
                    None => flow_scalar(out, key, None),
                }
                out.push_str(": ");
                yaml_flow(out, val, meta, path);
                path.pop();
            }
            out.push('}');
        }
        scalar => flow_scalar(out, scalar, node(meta, path)),
    }
}

/// A map key, in the quotes it was written in.
fn write_key(out: &mut String, key: &Val, nm: Option<&NodeMeta>) {
    let s = text(key);
    match (nm.and_then(|n| n.key_quote), key) {
        (Some(Quote::Single), Val::TStr(_) | Val::BStr(_)) if !s.contains('\n') => {
            out.push('\'');
            out.push_str(&s.replace('\'', "''"));
            out.push('\'');
        }
        (Some(_), Val::TStr(_) | Val::BStr(_)) => double_quoted(out, &s),
        _ => yaml_scalar(out, key, 0, true, None),
    }
}

fn is_block(v: &Val, nm: Option<&NodeMeta>) -> bool {
    if nm.is_some_and(|n| n.flow) {
        return false;
    }
    match v {
        Val::Arr(a) => !a.is_empty(),
        Val::Obj(o) => !o.is_empty(),
        _ => false,
    }
}

fn head_comments(out: &mut String, nm: Option<&NodeMeta>, col: usize) {
    for c in nm.map(|n| n.head.as_slice()).unwrap_or_default() {
        out.push_str(&" ".repeat(col));
        out.push_str(c);
        out.push('\n');
    }
}

fn line_comment(out: &mut String, nm: Option<&NodeMeta>) {
    if let Some(c) = nm.and_then(|n| n.line.as_deref()) {
        out.push(' ');
        out.push_str(c);
    }
}

/// Writes the value of a map entry or sequence item after its `key:` or `-`: inline
/// for a scalar or flow collection, else on the lines below at `inner`.
fn yaml_value(
    out: &mut String,
    v: &Val,
    inner: usize,
    indent: usize,
    meta: Option<&DocMeta>,
    path: &mut Vec<Seg>,
) {
    let nm = node(meta, path);
    if nm.is_some_and(|n| n.flow) && matches!(v, Val::Arr(_) | Val::Obj(_)) {
        out.push(' ');
        yaml_flow(out, v, meta, path);
        line_comment(out, nm);
    } else if is_block(v, nm) {
        line_comment(out, nm);
        out.push('\n');
        yaml_block(out, v, inner, indent, false, meta, path);
    } else {
        out.push(' ');
        yaml_scalar(out, v, inner, false, nm);
        line_comment(out, nm);
    }
}

/// Writes `v` as a block node whose lines start at column `col`; when `inline`, the
/// start of the first line is written already (after `- `).
fn yaml_block(
    out: &mut String,
    v: &Val,
    col: usize,
    indent: usize,
    inline: bool,
    meta: Option<&DocMeta>,
    path: &mut Vec<Seg>,
) {
    match v {
        Val::Obj(map) if !map.is_empty() => {
            for (k, (key, val)) in map.iter().enumerate() {
                path.push(key_seg(key));
                let nm = node(meta, path);
                if k > 0 {
                    out.push('\n');
                }
                if k > 0 || !inline {
                    head_comments(out, nm, col);
                    out.push_str(&" ".repeat(col));
                }
                write_key(out, key, nm);
                out.push(':');
                yaml_value(out, val, col + indent, indent, meta, path);
                path.pop();
            }
        }
        Val::Arr(items) if !items.is_empty() => {
            for (k, item) in items.iter().enumerate() {
                path.push(Seg::Index(k));
                let nm = node(meta, path);
                if k > 0 {
                    out.push('\n');
                }
                if k > 0 || !inline {
                    head_comments(out, nm, col);
                    out.push_str(&" ".repeat(col));
                }
                out.push('-');
                if is_block(item, nm) {
                    out.push(' ');
                    yaml_block(out, item, col + 2, indent, true, meta, path);
                } else {
                    yaml_value(out, item, col + indent.max(2), indent, meta, path);
                }
                path.pop();
            }
        }
        other => {
            if !inline {
                out.push_str(&" ".repeat(col));
            }
            let nm = node(meta, path);
            if nm.is_some_and(|n| n.flow) && matches!(other, Val::Arr(_) | Val::Obj(_)) {
                yaml_flow(out, other, meta, path);
            } else {
                yaml_scalar(out, other, col + indent, false, nm);
            }
            line_comment(out, nm);
        }
    }
}

/// One document of YAML output, ending in a newline.
pub fn yaml(v: &Val, indent: usize, unwrap: bool) -> String {
    yaml_doc(v, indent, unwrap, None, Vec::new())
}

/// One document of YAML output with the layout of the node at `base` of its source.
pub fn yaml_doc(
    v: &Val,
    indent: usize,
    unwrap: bool,
    meta: Option<&DocMeta>,
    mut base: Vec<Seg>,
) -> String {
    let mut out = String::new();
    if unwrap && let Some(s) = scalar_text(v) {
        out.push_str(&s);
    } else if node(meta, &base).is_some_and(|n| n.flow) && matches!(v, Val::Arr(_) | Val::Obj(_)) {
        yaml_flow(&mut out, v, meta, &mut base);
    } else {
        yaml_block(&mut out, v, 0, indent.max(1), false, meta, &mut base);
    }
    out.push('\n');
    if base.is_empty()
        && let Some(m) = meta
    {
        for c in &m.foot {
            out.push_str(c);
            out.push('\n');
        }
    }
    out
}

fn json_string(out: &mut String, s: &str) {
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{2028}' => out.push_str("\\u2028"),
            '\u{2029}' => out.push_str("\\u2029"),
            c if (c as u32) < 0x20 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push(c),
        }
    }
    out.push('"');
}

fn json_val(out: &mut String, v: &Val, indent: usize, level: usize) {
    let nl = |out: &mut String, level: usize| {
        if indent > 0 {
            out.push('\n');
            out.push_str(&" ".repeat(indent * level));
        }
    };
    match v {
        Val::Null => out.push_str("null"),
        Val::Bool(b) => out.push_str(if *b { "true" } else { "false" }),
        Val::Num(n) => out.push_str(&num_text(n)),
        Val::TStr(_) | Val::BStr(_) => json_string(out, &text(v)),
        Val::Arr(items) if items.is_empty() => out.push_str("[]"),
        Val::Obj(map) if map.is_empty() => out.push_str("{}"),
        Val::Arr(items) => {
            out.push('[');
            for (k, item) in items.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                nl(out, level + 1);
                json_val(out, item, indent, level + 1);
            }
            nl(out, level);
            out.push(']');
        }
        Val::Obj(map) => {
            out.push('{');
            for (k, (key, val)) in map.iter().enumerate() {
                if k > 0 {
                    out.push(',');
                }
                nl(out, level + 1);
                json_string(out, &scalar_text(key).unwrap_or_default());
                out.push(':');
                if indent > 0 {
                    out.push(' ');
                }
                json_val(out, val, indent, level + 1);
            }
            nl(out, level);
            out.push('}');
        }
    }
}

/// One JSON document, ending in a newline.
pub fn json(v: &Val, indent: usize, unwrap: bool) -> String {
    let mut out = String::new();
    match v {
        Val::TStr(_) | Val::BStr(_) if unwrap => out.push_str(&text(v)),
        _ => json_val(&mut out, v, indent, 0),
    }
    out.push('\n');
    out
}

fn props_walk(out: &mut String, v: &Val, path: &str) {
    let join = |k: &str| {
        if path.is_empty() {
            k.to_owned()
        } else {
            format!("{path}.{k}")
        }
    };
    match v {
        Val::Obj(map) => {
            for (k, val) in map.iter() {
                props_walk(out, val, &join(&scalar_text(k).unwrap_or_default()));
            }
        }
        Val::Arr(items) => {
            for (i, val) in items.iter().enumerate() {
                props_walk(out, val, &join(&i.to_string()));
            }
        }
        scalar => {
            out.push_str(path);
            out.push_str(" = ");
            out.push_str(&scalar_text(scalar).unwrap_or_default());
            out.push('\n');
        }
    }
}

/// Java properties: one `path.to.key = value` line per scalar.
pub fn props(v: &Val) -> String {
    let mut out = String::new();
    match v {
        Val::Obj(_) | Val::Arr(_) => props_walk(&mut out, v, ""),
        scalar => {
            out.push_str(&scalar_text(scalar).unwrap_or_default());
            out.push('\n');
        }
    }
    out
}

fn csv_field(out: &mut String, v: &Val, sep: char) {
    let s = match v {
        Val::Arr(_) | Val::Obj(_) => {
            let mut j = String::new();
            json_val(&mut j, v, 0, 0);
            j
        }
        other => scalar_text(other).unwrap_or_default(),
    };
    // Go's encoding/csv quotes a field with the separator, a quote, a line break, or
    // a leading space.
    if s.contains(sep)
        || s.contains('"')
        || s.contains('\n')
        || s.contains('\r')
        || s.starts_with(' ')
    {
        out.push('"');
        out.push_str(&s.replace('"', "\"\""));
        out.push('"');
    } else {
        out.push_str(&s);
    }
}

fn csv_row(out: &mut String, fields: &[&Val], sep: char) {
    for (k, f) in fields.iter().enumerate() {
        if k > 0 {
            out.push(sep);
        }
        csv_field(out, f, sep);
    }
    out.push('\n');
}

/// CSV/TSV: an array of arrays is one row each; an array of objects has a header row
/// of the first object's keys.
pub fn csv(v: &Val, sep: char) -> Result<String, String> {
    let mut out = String::new();
    let Val::Arr(rows) = v else {
        let fields = [v];
        csv_row(&mut out, &fields, sep);
        return Ok(out);
    };
    if let Some(Val::Obj(first)) = rows.first() {
        let header: Vec<&Val> = first.keys().collect();
        csv_row(&mut out, &header, sep);
        for row in rows.iter() {
            let Val::Obj(m) = row else {
                return Err("csv: expected an array of objects".to_owned());
            };
            let fields: Vec<&Val> = header
                .iter()
                .map(|k| m.get(*k).unwrap_or(&Val::Null))
                .collect();
            csv_row(&mut out, &fields, sep);
        }
        return Ok(out);
    }
    for row in rows.iter() {
        match row {
            Val::Arr(items) => {
                let fields: Vec<&Val> = items.iter().collect();
                csv_row(&mut out, &fields, sep);
            }
            other => csv_row(&mut out, &[other], sep),
        }
    }
    Ok(out)
}

/// yq's TOML encoder: a root mapping as attributes, `[table]` sections and `[[array]]`
/// tables, in document order. A mapping is a section of its own when the TOML it came
/// from gave it a header (`tables`, by path); otherwise it is an inline table unless
/// it holds such sections or arrays of mappings. A bare scalar prints as its text;
/// anything else at the root is an error, as in yq.
pub fn toml(
    v: &Val,
    tables: &std::collections::HashSet<Vec<Seg>>,
    base: &[Seg],
) -> Result<String, String> {
    let mut enc = Toml {
        out: String::new(),
        wrote_attr: false,
        tables,
    };
    match v {
        Val::Obj(map) => {
            let mut path = base.to_vec();
            for (k, val) in map.iter() {
                path.push(key_seg(k));
                enc.top_entry(&mut path, &text_key(k), val);
                path.pop();
            }
            Ok(enc.out)
        }
        Val::Arr(_) => Err("TOML encoder expects a mapping at the root level".to_owned()),
        scalar => Ok(format!("{}\n", scalar_text(scalar).unwrap_or_default())),
    }
}

fn text_key(k: &Val) -> String {
    match key_seg(k) {
        Seg::Key(s) => s,
        Seg::Index(i) => i.to_string(),
    }
}

/// Go's `strconv.Quote`, which yq's `%q` writes TOML strings with.
fn go_quote(s: &str) -> String {
    let mut out = String::with_capacity(s.len() + 2);
    out.push('"');
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\u{7}' => out.push_str("\\a"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{b}' => out.push_str("\\v"),
            c if c < ' ' || c == '\u{7f}' => out.push_str(&format!("\\x{:02x}", c as u32)),
            c if c == ' ' || (c != '\n' && printable(c) && !c.is_whitespace()) => out.push(c),
            c if (c as u32) < 0x10000 => out.push_str(&format!("\\u{:04x}", c as u32)),
            c => out.push_str(&format!("\\U{:08x}", c as u32)),
        }
    }
    out.push('"');
    out
}

fn is_table_array(v: &Val) -> bool {
    matches!(v, Val::Arr(items) if !items.is_empty() && items.iter().all(|i| matches!(i, Val::Obj(_))))
}

struct Toml<'t> {
    out: String,
    /// Whether attributes were written since the last section header (a blank line
    /// goes before the next header).
    wrote_attr: bool,
    tables: &'t std::collections::HashSet<Vec<Seg>>,
}

impl Toml<'_> {
    fn separate(&self, path: &[Seg]) -> bool {
        self.tables.contains(path)
    }

    fn scalar(v: &Val) -> String {
        match v {
            Val::TStr(_) | Val::BStr(_) => go_quote(&text(v)),
            // TOML has no null: yq writes an empty string.
            Val::Null => "\"\"".to_owned(),
            other => scalar_text(other).unwrap_or_default(),
        }
    }

    fn inline(&self, v: &Val) -> String {
        match v {
            Val::Arr(items) => {
                let parts: Vec<String> = items.iter().map(|i| self.inline(i)).collect();
                format!("[{}]", parts.join(", "))
            }
            Val::Obj(map) => {
                let parts: Vec<String> = map
                    .iter()
                    .map(|(k, v)| format!("{} = {}", text_key(k), self.inline(v)))
                    .collect();
                format!("{{ {} }}", parts.join(", "))
            }
            s => Self::scalar(s),
        }
    }

    fn attribute(&mut self, key: &str, v: &Val) {
        // An inline table does not count as an attribute before the next header.
        if !matches!(v, Val::Obj(_)) {
            self.wrote_attr = true;
        }
        self.out.push_str(key);
        self.out.push_str(" = ");
        let value = self.inline(v);
        self.out.push_str(&value);
        self.out.push('\n');
    }

    fn header(&mut self, path: &[String]) {
        if std::mem::take(&mut self.wrote_attr) {
            self.out.push('\n');
        }
        self.out.push('[');
        self.out.push_str(&path.join("."));
        self.out.push_str("]\n");
    }

    fn top_entry(&mut self, path: &mut Vec<Seg>, key: &str, v: &Val) {
        match v {
            Val::Arr(items) if is_table_array(v) => {
                for (i, item) in items.iter().enumerate() {
                    self.out.push_str(&format!("[[{key}]]\n"));
                    path.push(Seg::Index(i));
                    self.body(path, &[key.to_owned()], item);
                    path.pop();
                }
            }
            Val::Obj(map) => {
                let structural = map.iter().any(|(k, c)| {
                    path.push(key_seg(k));
                    let sep = matches!(c, Val::Obj(_)) && self.separate(path);
                    path.pop();
                    sep || is_table_array(c)
                });
                if self.separate(path) || structural {
                    self.separate_mapping(path, &[key.to_owned()], v);
                } else {
                    self.attribute(key, v);
                }
            }
            _ => self.attribute(key, v),
        }
    }

    fn separate_mapping(&mut self, path: &mut Vec<Seg>, names: &[String], v: &Val) {
        let Val::Obj(map) = v else { return };
        let has_attrs = map.iter().any(|(_, c)| {
            !matches!(c, Val::Obj(_) | Val::Arr(_))
                || matches!(c, Val::Arr(_)) && !is_table_array(c)
        });
        if has_attrs || map.is_empty() {
            self.header(names);
            self.body(path, names, v);
            return;
        }
        for (k, c) in map.iter() {
            let name = text_key(k);
            let mut child_names = names.to_vec();
            child_names.push(name.clone());
            path.push(key_seg(k));
            match c {
                Val::Obj(_) => {
                    self.header(&child_names);
                    self.body(path, &child_names, c);
                }
                Val::Arr(items) if is_table_array(c) => {
                    let dotted = child_names.join(".");
                    for (i, item) in items.iter().enumerate() {
                        self.out.push_str(&format!("[[{dotted}]]\n"));
                        path.push(Seg::Index(i));
                        self.body(path, &child_names, item);
                        path.pop();
                    }
                }
                _ => self.attribute(&name, c),
            }
            path.pop();
        }
    }

    /// A section's body: attributes, then arrays of tables under their dotted path,
    /// then mappings without a header of their own as inline tables (one with a header
    /// is left out here, as yq leaves it).
    fn body(&mut self, path: &mut Vec<Seg>, names: &[String], v: &Val) {
        let Val::Obj(map) = v else { return };
        for (k, c) in map.iter() {
            match c {
                Val::Obj(_) => {}
                Val::Arr(_) if is_table_array(c) => {}
                _ => self.attribute(&text_key(k), c),
            }
        }
        for (k, c) in map.iter() {
            if let Val::Arr(items) = c
                && is_table_array(c)
            {
                let mut child_names = names.to_vec();
                child_names.push(text_key(k));
                let dotted = child_names.join(".");
                path.push(key_seg(k));
                for (i, item) in items.iter().enumerate() {
                    self.out.push_str(&format!("[[{dotted}]]\n"));
                    path.push(Seg::Index(i));
                    self.body(path, &child_names, item);
                    path.pop();
                }
                path.pop();
            }
        }
        for (k, c) in map.iter() {
            if matches!(c, Val::Obj(_)) {
                path.push(key_seg(k));
                let sep = self.separate(path);
                path.pop();
                if !sep {
                    self.attribute(&text_key(k), c);
                }
            }
        }
    }
}
