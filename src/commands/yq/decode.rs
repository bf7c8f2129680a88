//! `yq`'s decoders: YAML (through `saphyr-parser`'s event stream, resolved with the
//! YAML 1.2 core schema as go-yaml v3 resolves plain scalars), JSON (one or more
//! documents, as yq's NDJSON decoder reads them) and TOML (the `toml` crate), each into
//! jaq values with key order kept.

use jaq_json::{Num, Rc, Val};
use saphyr_parser::{Event, Parser, ScalarStyle, Tag};

/// Nesting deeper than this is refused, so neither the tree nor its printers can
/// exhaust the stack.
pub const MAX_DEPTH: usize = 512;

/// Builds the value of a plain scalar, as go-yaml v3 resolves it: null, booleans,
/// integers (decimal, `0x`, `0o`, `0b`), floats (kept as written) and `.inf`/`.nan`;
/// anything else is a string.
pub fn resolve_plain(s: &str) -> Val {
    match s {
        "" | "~" | "null" | "Null" | "NULL" => return Val::Null,
        "true" | "True" | "TRUE" => return Val::Bool(true),
        "false" | "False" | "FALSE" => return Val::Bool(false),
        ".inf" | ".Inf" | ".INF" | "+.inf" | "+.Inf" | "+.INF" => {
            return Val::Num(Num::Float(f64::INFINITY));
        }
        "-.inf" | "-.Inf" | "-.INF" => return Val::Num(Num::Float(f64::NEG_INFINITY)),
        ".nan" | ".NaN" | ".NAN" => return Val::Num(Num::Float(f64::NAN)),
        _ => {}
    }
    if let Some(n) = resolve_number(s) {
        return Val::Num(n);
    }
    Val::from(s.to_owned())
}

/// Whether a plain scalar with this text would read back as something other than a
/// string (so a string with this text must be quoted).
pub fn resolves_non_string(s: &str) -> bool {
    s == "<<" || !matches!(resolve_plain(s), Val::TStr(_))
}

fn resolve_number(s: &str) -> Option<Num> {
    let (neg, body) = match s.as_bytes().first()? {
        b'-' => (true, s.get(1..)?),
        b'+' => (false, s.get(1..)?),
        _ => (false, s),
    };
    let radix = |prefix: &str, radix: u32| -> Option<Num> {
        let digits = body.strip_prefix(prefix)?;
        if digits.is_empty() || !digits.chars().all(|c| c.is_digit(radix)) {
            return None;
        }
        let v = i64::from_str_radix(digits, radix).ok()?;
        let v = if neg { v.checked_neg()? } else { v };
        Some(Num::Int(isize::try_from(v).ok()?))
    };
    if let Some(n) = radix("0x", 16)
        .or_else(|| radix("0o", 8))
        .or_else(|| radix("0b", 2))
    {
        return Some(n);
    }
    if !body.is_empty() && body.bytes().all(|b| b.is_ascii_digit()) {
        return Some(match s.parse::<isize>() {
            // go-yaml reads a leading 0 as octal (`010` is 8).
            Ok(_) if body.len() > 1 && body.starts_with('0') => {
                match i64::from_str_radix(body, 8) {
                    Ok(v) => Num::Int(isize::try_from(if neg { -v } else { v }).ok()?),
                    Err(_) => Num::Dec(Rc::new(s.to_owned())),
                }
            }
            Ok(v) => Num::Int(v),
            Err(_) => Num::Dec(Rc::new(s.to_owned())),
        });
    }
    // `^[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?$`
    let b = body.as_bytes();
    let mut i = 0;
    let int_digits = b.iter().take_while(|c| c.is_ascii_digit()).count();
    i += int_digits;
    let mut frac_digits = 0;
    let mut dot = false;
    if b.get(i) == Some(&b'.') {
        dot = true;
        i += 1;
        frac_digits = b
            .get(i..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        i += frac_digits;
    }
    if int_digits == 0 && frac_digits == 0 {
        return None;
    }
    let mut exp = false;
    if matches!(b.get(i), Some(b'e' | b'E')) {
        exp = true;
        i += 1;
        if matches!(b.get(i), Some(b'+' | b'-')) {
            i += 1;
        }
        let d = b
            .get(i..)?
            .iter()
            .take_while(|c| c.is_ascii_digit())
            .count();
        if d == 0 {
            return None;
        }
        i += d;
    }
    if i != b.len() || !(dot || exp) {
        return None;
    }
    Some(Num::Dec(Rc::new(s.to_owned())))
}

/// A step of a path from a document's root.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Seg {
    Key(String),
    Index(usize),
}

/// How a string scalar was written.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Quote {
    Single,
    Double,
    Literal,
}

/// What yq keeps of one node's layout.
#[derive(Clone, Debug, Default)]
pub struct NodeMeta {
    /// The quoting of a string, with the string it applied to (kept for the
    /// reader of the layout; the style follows the node whatever its new value).
    pub quote: Option<(Quote, String)>,
    /// The text a null was written as (`~`, or nothing).
    pub null_text: Option<String>,
    /// A collection written in flow style (`[a, b]`, `{a: b}`).
    pub flow: bool,
    /// The quoting of the key of this map entry.
    pub key_quote: Option<Quote>,
    /// Whole-line comments before the node's entry.
    pub head: Vec<String>,
    /// The comment at the end of the node's (or its key's) line.
    pub line: Option<String>,
}

/// The layout of one document, by path.
#[derive(Clone, Debug, Default)]
pub struct DocMeta {
    pub nodes: std::collections::HashMap<Vec<Seg>, NodeMeta>,
    /// Comments after the last node.
    pub foot: Vec<String>,
    /// The mappings a TOML document gave a `[header]` of their own, by path.
    pub tables: std::collections::HashSet<Vec<Seg>>,
}

/// A collection being built, with its path.
enum Frame {
    Seq(Vec<Val>, usize, Vec<Seg>),
    Map(Vec<(Val, Val)>, Option<Val>, usize, Vec<Seg>),
}

/// A comment of the source: where it starts (in characters), its line, whether it
/// has the line to itself, and its text from `#`.
struct Comment {
    at: usize,
    line: usize,
    whole_line: bool,
    text: String,
}

/// The comments of `text`: each `#` outside the scalars' spans that starts the line's
/// text or follows a blank.
fn comments(text: &str, scalars: &[(usize, usize)]) -> Vec<Comment> {
    let chars: Vec<char> = text.chars().collect();
    let mut out = Vec::new();
    let mut line = 1;
    let mut line_start = 0;
    let mut i = 0;
    let mut span = 0;
    while let Some(&c) = chars.get(i) {
        while scalars.get(span).is_some_and(|&(_, end)| end <= i) {
            span += 1;
        }
        let inside = scalars
            .get(span)
            .is_some_and(|&(start, end)| start <= i && i < end);
        if c == '\n' {
            line += 1;
            line_start = i + 1;
        } else if c == '#'
            && !inside
            && (i == line_start
                || chars
                    .get(i.wrapping_sub(1))
                    .is_some_and(|p| p.is_whitespace()))
        {
            let end = chars
                .get(i..)
                .and_then(|r| r.iter().position(|&d| d == '\n'))
                .map_or(chars.len(), |p| i + p);
            let whole_line = chars
                .get(line_start..i)
                .is_some_and(|b| b.iter().all(|d| d.is_whitespace()));
            let body: String = chars.get(i..end).unwrap_or_default().iter().collect();
            out.push(Comment {
                at: i,
                line,
                whole_line,
                text: body.trim_end().to_owned(),
            });
            i = end;
            continue;
        }
        i += 1;
    }
    out
}

fn scalar_value(text: &str, style: ScalarStyle, tag: Option<&Tag>) -> Val {
    if let Some(tag) = tag
        && tag.handle == "tag:yaml.org,2002:"
    {
        return match tag.suffix.as_str() {
            "str" => Val::from(text.to_owned()),
            "null" => Val::Null,
            "bool" | "int" | "float" => resolve_plain(text),
            _ => Val::from(text.to_owned()),
        };
    }
    match style {
        ScalarStyle::Plain => resolve_plain(text),
        _ => Val::from(text.to_owned()),
    }
}

/// yq's reading of a `<<` merge key: the mapping (or each mapping of a sequence) is
/// merged under the keys already there.
fn merge_into(entries: &mut Vec<(Val, Val)>, src: &Val) {
    let mut add = |m: &Val| {
        if let Val::Obj(o) = m {
            for (k, v) in o.iter() {
                if !entries.iter().any(|(ek, _)| ek == k) {
                    entries.push((k.clone(), v.clone()));
                }
            }
        }
    };
    match src {
        Val::Arr(items) => items.iter().for_each(&mut add),
        other => add(other),
    }
}

/// A key's text as a path step.
pub fn key_seg(k: &Val) -> Seg {
    Seg::Key(match k {
        Val::TStr(s) | Val::BStr(s) => String::from_utf8_lossy(s).into_owned(),
        other => super::encode::scalar_text(other).unwrap_or_default(),
    })
}

/// Parses a YAML stream into its documents.
pub fn yaml(text: &str) -> Result<Vec<Val>, String> {
    Ok(yaml_meta(text)?.into_iter().map(|(v, _)| v).collect())
}

/// Parses a YAML stream into its documents, each with its layout.
pub fn yaml_meta(text: &str) -> Result<Vec<(Val, DocMeta)>, String> {
    let chars: Vec<char> = text.chars().collect();
    let mut events = Vec::new();
    for ev in Parser::new_from_str(text) {
        let (ev, span) =
            ev.map_err(|e| format!("yaml: line {}: {}", e.marker().line(), e.info()))?;
        events.push((ev, span));
    }
    // The parser's span of a quoted scalar can run on over a trailing comment; the
    // closing quote ends it.
    for (ev, span) in &mut events {
        if let Event::Scalar(
            _,
            style @ (ScalarStyle::DoubleQuoted | ScalarStyle::SingleQuoted),
            ..,
        ) = ev
        {
            let start = span.start.index();
            let mut i = start + 1;
            while let Some(&c) = chars.get(i) {
                if *style == ScalarStyle::DoubleQuoted && c == '\\' {
                    i += 2;
                    continue;
                }
                let quote = if *style == ScalarStyle::DoubleQuoted {
                    '"'
                } else {
                    '\''
                };
                if c == quote {
                    if quote == '\'' && chars.get(i + 1) == Some(&'\'') {
                        i += 2;
                        continue;
                    }
                    break;
                }
                i += 1;
            }
            if i < span.end.index() {
                let line = span.start.line()
                    + chars
                        .get(start..i)
                        .map_or(0, |r| r.iter().filter(|&&c| c == '\n').count());
                span.end = saphyr_parser::Marker::new(i + 1, line, 0);
            }
        }
    }
    let scalars: Vec<(usize, usize)> = events
        .iter()
        .filter(|(ev, _)| matches!(ev, Event::Scalar(..)))
        .map(|(_, sp)| (sp.start.index(), sp.end.index()))
        .collect();
    let comments = if text.contains('#') {
        comments(text, &scalars)
    } else {
        Vec::new()
    };
    let mut next_comment = 0;
    let mut docs = Vec::new();
    let mut meta = DocMeta::default();
    let mut stack: Vec<Frame> = Vec::new();
    let mut anchors: std::collections::HashMap<usize, Val> = std::collections::HashMap::new();
    let mut doc: Option<Val> = None;
    // (end of a node's text, its line, its path): where line comments go.
    let mut ends: Vec<(usize, usize, Vec<Seg>)> = Vec::new();
    let mut pending_head: Vec<String> = Vec::new();
    for (ev, span) in events {
        // Whole-line comments before this event wait for the next entry.
        while let Some(c) = comments.get(next_comment) {
            if c.at >= span.start.index() {
                break;
            }
            if c.whole_line {
                pending_head.push(c.text.clone());
            } else if let Some((_, _, path)) = ends
                .iter()
                .rev()
                .find(|(end, line, _)| *line == c.line && *end <= c.at)
            {
                meta.nodes.entry(path.clone()).or_default().line = Some(c.text.clone());
            }
            next_comment += 1;
        }
        // The path of a node starting here, and whether it is a map key.
        let (path, is_key) = match stack.last() {
            None => (Vec::new(), false),
            Some(Frame::Seq(items, _, p)) => {
                let mut p = p.clone();
                p.push(Seg::Index(items.len()));
                (p, false)
            }
            Some(Frame::Map(_, key, _, p)) => match key {
                None => (p.clone(), true),
                Some(k) => {
                    let mut p = p.clone();
                    p.push(key_seg(k));
                    (p, false)
                }
            },
        };
        let starts_node = matches!(
            ev,
            Event::Scalar(..)
                | Event::SequenceStart(..)
                | Event::MappingStart(..)
                | Event::Alias(_)
        );
        let in_seq = matches!(stack.last(), Some(Frame::Seq(..)));
        if starts_node && in_seq && !pending_head.is_empty() {
            meta.nodes.entry(path.clone()).or_default().head = std::mem::take(&mut pending_head);
        }
        let flow = span.end.index() > span.start.index()
            && chars
                .get(span.start.index())
                .is_some_and(|&c| c == '[' || c == '{');
        let (value, anchor) = match ev {
            Event::DocumentStart(_) => {
                doc = None;
                continue;
            }
            Event::DocumentEnd => {
                meta.foot = std::mem::take(&mut pending_head);
                docs.push((doc.take().unwrap_or(Val::Null), std::mem::take(&mut meta)));
                ends.clear();
                continue;
            }
            Event::SequenceStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err("yaml: exceeded max depth".to_owned());
                }
                if flow {
                    meta.nodes.entry(path.clone()).or_default().flow = true;
                }
                stack.push(Frame::Seq(Vec::new(), anchor, path));
                continue;
            }
            Event::MappingStart(anchor, _) => {
                if stack.len() >= MAX_DEPTH {
                    return Err("yaml: exceeded max depth".to_owned());
                }
                if flow {
                    meta.nodes.entry(path.clone()).or_default().flow = true;
                }
                stack.push(Frame::Map(Vec::new(), None, anchor, path));
                continue;
            }
            Event::SequenceEnd | Event::MappingEnd => {
                let (value, anchor, empty, p) = match stack.pop() {
                    Some(Frame::Seq(items, anchor, p)) => {
                        let empty = items.is_empty();
                        (items.into_iter().collect::<Val>(), anchor, empty, p)
                    }
                    Some(Frame::Map(entries, _, anchor, p)) => {
                        let empty = entries.is_empty();
                        (Val::obj(entries.into_iter().collect()), anchor, empty, p)
                    }
                    None => continue,
                };
                // yq writes what is added to an empty `{}` document in block style.
                if empty && p.is_empty() {
                    meta.nodes.entry(p).or_default().flow = false;
                }
                (value, anchor)
            }
            Event::Scalar(text, style, anchor, tag) => {
                let v = scalar_value(&text, style, tag.as_deref());
                if is_key {
                    let mut p = path.clone();
                    p.push(key_seg(&v));
                    let key_quote = match style {
                        ScalarStyle::SingleQuoted => Some(Quote::Single),
                        ScalarStyle::DoubleQuoted => Some(Quote::Double),
                        _ => None,
                    };
                    if key_quote.is_some() {
                        meta.nodes.entry(p.clone()).or_default().key_quote = key_quote;
                    }
                    if !pending_head.is_empty() {
                        meta.nodes.entry(p.clone()).or_default().head =
                            std::mem::take(&mut pending_head);
                    }
                    ends.push((span.end.index(), span.end.line(), p));
                } else {
                    ends.push((span.end.index(), span.end.line(), path.clone()));
                    let quote = match style {
                        ScalarStyle::SingleQuoted => Some(Quote::Single),
                        ScalarStyle::DoubleQuoted => Some(Quote::Double),
                        ScalarStyle::Literal => Some(Quote::Literal),
                        _ => None,
                    };
                    if let (Some(q), Val::TStr(_)) = (quote, &v) {
                        meta.nodes.entry(path.clone()).or_default().quote =
                            Some((q, text.to_string()));
                    }
                    if matches!(v, Val::Null) && style == ScalarStyle::Plain {
                        meta.nodes.entry(path.clone()).or_default().null_text =
                            Some(text.to_string());
                    }
                }
                (v, anchor)
            }
            Event::Alias(id) => (anchors.get(&id).cloned().unwrap_or(Val::Null), 0),
            _ => continue,
        };
        if anchor > 0 {
            anchors.insert(anchor, value.clone());
        }
        match stack.last_mut() {
            None => doc = Some(value),
            Some(Frame::Seq(items, _, _)) => items.push(value),
            Some(Frame::Map(entries, key, _, _)) => match key.take() {
                None => *key = Some(value),
                Some(k) => {
                    if matches!(&k, Val::TStr(s) if &***s == b"<<") {
                        merge_into(entries, &value);
                    } else if let Some(slot) = entries.iter_mut().find(|(ek, _)| *ek == k) {
                        slot.1 = value;
                    } else {
                        entries.push((k, value));
                    }
                }
            },
        }
    }
    // Comments after the last document.
    if let Some((_, last)) = docs.last_mut() {
        for c in comments.get(next_comment..).unwrap_or_default() {
            if c.whole_line {
                last.foot.push(c.text.clone());
            } else if let Some((_, _, path)) = ends
                .iter()
                .rev()
                .find(|(end, line, _)| *line == c.line && *end <= c.at)
            {
                last.nodes.entry(path.clone()).or_default().line = Some(c.text.clone());
            }
        }
    }
    Ok(docs)
}

/// Parses one or more JSON documents (yq's `-p json` reads NDJSON and concatenated
/// documents alike).
pub fn json(text: &[u8]) -> Result<Vec<Val>, String> {
    let mut out = Vec::new();
    for v in jaq_json::read::parse_many(text) {
        match v {
            Ok(v) => out.push(v),
            Err(e) => return Err(format!("bad json: {e}")),
        }
    }
    Ok(out)
}

fn from_toml(v: toml::Value, depth: usize) -> Result<Val, String> {
    if depth > MAX_DEPTH {
        return Err("toml: exceeded max depth".to_owned());
    }
    Ok(match v {
        toml::Value::String(s) => Val::from(s),
        toml::Value::Integer(i) => match isize::try_from(i) {
            Ok(i) => Val::from(i),
            Err(_) => Val::Num(Num::Dec(Rc::new(i.to_string()))),
        },
        // yq keeps a float's text; TOML writes an integral one with `.0`.
        toml::Value::Float(f) if f.is_finite() && f.fract() == 0.0 && f.abs() < 1e16 => {
            Val::Num(Num::Dec(Rc::new(format!("{f:.1}"))))
        }
        toml::Value::Float(f) => Val::from(f),
        toml::Value::Boolean(b) => Val::Bool(b),
        toml::Value::Datetime(d) => Val::from(d.to_string()),
        toml::Value::Array(items) => items
            .into_iter()
            .map(|i| from_toml(i, depth + 1))
            .collect::<Result<Val, String>>()?,
        toml::Value::Table(t) => {
            let mut entries = Vec::new();
            for (k, v) in t {
                entries.push((Val::from(k), from_toml(v, depth + 1)?));
            }
            Val::obj(entries.into_iter().collect())
        }
    })
}

/// Parses a TOML document.
pub fn toml_doc(text: &str) -> Result<Val, String> {
    let table: toml::Table = toml::from_str(text).map_err(|e| {
        let msg = e.to_string();
        format!("toml: {}", msg.lines().last().unwrap_or("").trim())
    })?;
    from_toml(toml::Value::Table(table), 0)
}

/// The keys of a TOML table header (`[a."b.c"]`, `[[x.y]]  # note`), unquoted.
fn header_keys(inner: &str) -> Vec<String> {
    let mut keys = Vec::new();
    let mut cur = String::new();
    let mut quote: Option<char> = None;
    for c in inner.chars() {
        match (quote, c) {
            (Some(q), c) if c == q => quote = None,
            (Some(_), c) => cur.push(c),
            (None, '"' | '\'') => quote = Some(c),
            (None, ']') => break,
            (None, '.') => keys.push(std::mem::take(&mut cur).trim().to_owned()),
            (None, c) => cur.push(c),
        }
    }
    keys.push(cur.trim().to_owned());
    keys
}

/// The paths of a TOML document's `[table]` headers, with the index of the last
/// element injected where a key names an array of tables (`[[a]]` then `[a.b]` is
/// `a[last].b`), as yq's decoder places them.
pub fn toml_tables(text: &str) -> std::collections::HashSet<Vec<Seg>> {
    let mut tables = std::collections::HashSet::new();
    let mut arrays: std::collections::HashMap<Vec<String>, usize> = Default::default();
    let mut in_multiline: Option<&str> = None;
    for line in text.lines() {
        let t = line.trim_start();
        if let Some(delim) = in_multiline {
            if t.matches(delim).count() % 2 == 1 {
                in_multiline = None;
            }
            continue;
        }
        for delim in ["\"\"\"", "'''"] {
            if t.matches(delim).count() % 2 == 1 {
                in_multiline = Some(delim);
            }
        }
        let (inner, array) = if let Some(r) = t.strip_prefix("[[") {
            (r, true)
        } else if let Some(r) = t.strip_prefix('[') {
            (r, false)
        } else {
            continue;
        };
        let keys = header_keys(inner);
        let mut path = Vec::new();
        for (i, k) in keys.iter().enumerate() {
            path.push(Seg::Key(k.clone()));
            let last = i + 1 == keys.len();
            if !last && let Some(&n) = arrays.get(&keys[..=i]) {
                path.push(Seg::Index(n.saturating_sub(1)));
            }
        }
        if array {
            *arrays.entry(keys).or_default() += 1;
        } else {
            tables.insert(path);
        }
    }
    tables
}
