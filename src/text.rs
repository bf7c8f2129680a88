//! Lossless conversion between bytes (file contents, pipes) and the strings the shell
//! uses for words and variables.
//!
//! Valid UTF-8 passes through unchanged. Each byte that is not part of valid UTF-8 is
//! mapped to one character of the last 128 code points of Supplementary Private Use
//! Area-B (U+10FF80 + (byte - 0x80)), and mapped back when the string is written out, so
//! binary data survives a round trip through a variable.

/// First code point used to carry a raw byte 0x80..=0xFF.
const RAW_BASE: u32 = 0x10FF00;

/// Decodes bytes into a string, carrying invalid bytes as private-use characters.
pub fn decode(bytes: &[u8]) -> String {
    match std::str::from_utf8(bytes) {
        Ok(s) => s.to_owned(),
        Err(_) => decode_slow(bytes),
    }
}

fn decode_slow(mut bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len());
    loop {
        match std::str::from_utf8(bytes) {
            Ok(s) => {
                out.push_str(s);
                return out;
            }
            Err(e) => {
                let (good, rest) = bytes.split_at(e.valid_up_to());
                // `good` is valid by construction.
                out.push_str(std::str::from_utf8(good).unwrap_or_default());
                let bad = e.error_len().unwrap_or(rest.len());
                for &b in &rest[..bad] {
                    out.push(raw_char(b));
                }
                bytes = &rest[bad..];
            }
        }
    }
}

/// The character that carries raw byte `b` (only meaningful for `b >= 0x80`).
pub fn raw_char(b: u8) -> char {
    if b < 0x80 {
        return b as char;
    }
    char::from_u32(RAW_BASE + b as u32).unwrap_or(char::REPLACEMENT_CHARACTER)
}

/// Appends byte `b` from an escape sequence (`\xff`, `\377`) as a character, carrying
/// bytes above 0x7f as raw bytes.
pub fn push_byte(s: &mut String, b: u8) {
    s.push(raw_char(b));
}

/// Reads up to `max` digits of `radix` from `cs` at `*i` (advancing it), for escape
/// sequences: returns the value (wrapping) and how many digits were read.
pub fn take_digits(cs: &[char], i: &mut usize, radix: u32, max: usize) -> (u32, usize) {
    let mut v: u32 = 0;
    let mut n = 0;
    while n < max {
        match cs.get(*i).and_then(|c| c.to_digit(radix)) {
            Some(d) => {
                v = v.wrapping_mul(radix).wrapping_add(d);
                *i += 1;
                n += 1;
            }
            None => break,
        }
    }
    (v, n)
}

/// If `c` carries a raw byte, returns it.
pub fn raw_byte(c: char) -> Option<u8> {
    let v = c as u32;
    if (RAW_BASE + 0x80..=RAW_BASE + 0xFF).contains(&v) {
        Some((v - RAW_BASE) as u8)
    } else {
        None
    }
}

/// Whether `c` prints as itself in bash's C.UTF-8 locale: not a control character, a
/// raw byte, a line or paragraph separator, or one of Unicode's noncharacters.
pub fn is_printable(c: char) -> bool {
    let v = c as u32;
    !(c.is_control()
        || raw_byte(c).is_some()
        || matches!(c, '\u{2028}' | '\u{2029}')
        || (0xFDD0..=0xFDEF).contains(&v)
        || v & 0xFFFE == 0xFFFE)
}

/// Encodes a string back to bytes, turning carried raw bytes back into themselves.
pub fn encode(s: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(s.len());
    encode_into(s, &mut out);
    out
}

/// How many bytes `s` stands for (see [`encode`]): what C's `printf` widths count.
pub fn byte_len(s: &str) -> usize {
    if has_raw(s) {
        s.chars()
            .map(|c| raw_byte(c).map_or(c.len_utf8(), |_| 1))
            .sum()
    } else {
        s.len()
    }
}

/// The first `n` bytes of `s` (see [`encode`]), a character cut in two left as raw
/// bytes, as C's `%.Ns` cuts.
pub fn truncate_bytes(s: String, n: usize) -> String {
    if byte_len(&s) <= n {
        return s;
    }
    let bytes = encode(&s);
    decode(bytes.get(..n).unwrap_or(&bytes))
}

/// Appends the bytes of `s` to `out` (see [`encode`]).
pub fn encode_into(s: &str, out: &mut Vec<u8>) {
    if !has_raw(s) {
        out.extend_from_slice(s.as_bytes());
        return;
    }
    let mut buf = [0u8; 4];
    for c in s.chars() {
        match raw_byte(c) {
            Some(b) => out.push(b),
            None => out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes()),
        }
    }
}

/// `s` as a single-byte locale (`LC_ALL=C`) sees it: every byte above 0x7f one
/// character (its raw-byte carrier), so counting, slicing and matching characters
/// works on bytes. ASCII text is borrowed as it is.
pub fn byte_chars(s: &str) -> std::borrow::Cow<'_, str> {
    if s.is_ascii() {
        return std::borrow::Cow::Borrowed(s);
    }
    std::borrow::Cow::Owned(encode(s).into_iter().map(raw_char).collect())
}

/// Undoes [`byte_chars`]: raw bytes that make up valid UTF-8 again become the
/// characters they spell, so the result compares equal to text read normally.
pub fn from_byte_chars(s: String) -> String {
    if s.is_ascii() || !has_raw(&s) {
        return s;
    }
    decode(&encode(&s))
}

/// The characters of `s`, collected in one allocation (collecting `chars()` grows the
/// vector several times: its size hint is a quarter of the byte length).
pub fn char_vec(s: &str) -> Vec<char> {
    let mut v = Vec::with_capacity(s.len());
    if s.is_ascii() {
        // Byte by byte, with no decoding to branch on.
        v.extend(s.bytes().map(char::from));
    } else {
        v.extend(s.chars());
    }
    v
}

/// Whether `s` carries any raw byte (every such character starts with byte 0xF4).
pub fn has_raw(s: &str) -> bool {
    s.as_bytes().contains(&0xF4) && s.chars().any(|c| raw_byte(c).is_some())
}

/// Start offsets of the non-overlapping occurrences of `needle` in `haystack`, left to
/// right (none for an empty needle).
///
/// ```
/// use shellbox::text::occurrences;
/// assert_eq!(occurrences(b"aaaa", b"aa"), [0, 2]);
/// assert_eq!(occurrences(b"\xffab\xffab", b"\xffa"), [0, 3]);
/// assert!(occurrences(b"ab", b"abc").is_empty() && occurrences(b"ab", b"").is_empty());
/// ```
pub fn occurrences(haystack: &[u8], needle: &[u8]) -> Vec<usize> {
    if needle.is_empty() {
        return Vec::new();
    }
    if let (Ok(h), Ok(n)) = (std::str::from_utf8(haystack), std::str::from_utf8(needle)) {
        return h.match_indices(n).map(|(i, _)| i).collect();
    }
    let mut out = Vec::new();
    let mut i = 0;
    while i + needle.len() <= haystack.len() {
        if haystack.get(i..i + needle.len()) == Some(needle) {
            out.push(i);
            i += needle.len();
        } else {
            i += 1;
        }
    }
    out
}

/// Whether bash would refuse to run `content` as a script: a NUL byte on its first
/// line, within the first 80 bytes.
pub fn looks_binary(content: &[u8]) -> bool {
    content
        .iter()
        .take(80)
        .take_while(|&&b| b != b'\n')
        .any(|&b| b == 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trips_invalid_utf8() {
        let bytes = b"ok \xff\xfe mid \xc3\xa9 end \xc3";
        let s = decode(bytes);
        assert!(s.contains("ok "));
        assert!(s.contains('é'));
        assert_eq!(encode(&s), bytes);
    }

    #[test]
    fn valid_utf8_is_unchanged() {
        assert_eq!(decode("héllo".as_bytes()), "héllo");
        assert_eq!(encode("héllo"), "héllo".as_bytes());
    }
}
