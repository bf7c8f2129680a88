//! `read_file`: a text file as numbered lines (`N: text`, as eve numbers them), a window of at most 2,000
//! lines and 50 KiB from a 1-based offset; images and PDFs, recognised by their first
//! bytes, come back whole as base64. Every successful read records a read stamp.

use serde::{Deserialize, Serialize};
use serde_json::{Value, json};

use super::{ErrorKind, ToolError, ToolHost, at_least_one, cut_line, is_binary, object_schema};

/// Lines returned when the call gives no `limit`.
pub const DEFAULT_LIMIT: u64 = 2000;
/// Most bytes of numbered text one call returns.
pub const MAX_CONTENT_BYTES: usize = 50 * 1024;
/// Largest image returned.
pub const MAX_IMAGE_BYTES: usize = 3 * 1024 * 1024;
/// Largest image side, in pixels.
pub const MAX_IMAGE_SIDE: u32 = 8000;
/// Largest PDF returned.
pub const MAX_PDF_BYTES: usize = 20 * 1024 * 1024;

pub(super) const DESCRIPTION: &str = "\
Read a file from the sandbox. Text comes back with a line number before each line.

- filePath: an absolute path, a path relative to /workspace, or one starting with $HOME/.
- Each line of content reads `<number>: <text>`; the number and the `: ` are not part of the file.
- At most 2000 lines (or `limit` lines) starting at line `offset` (1-based, default 1), and at most 50 KiB. When the file goes on, `truncated` is true and `nextOffset` is the line to continue from.
- `totalLines` is the number of lines in the whole file.
- Lines longer than 2000 characters are cut there and end in ` [truncated]`.
- Images (PNG, JPEG, GIF, WebP; at most 3 MiB and 8000x8000 pixels) and PDF documents (at most 20 MiB) are recognised by their first bytes, whatever the file is called, and returned whole as base64 `data` with their `mediaType`.
- Other files with NUL bytes are refused as binary. Bytes that are not valid UTF-8 are shown as U+FFFD.
- Reading a file is required before replacing it with write_file or changing it with edit_file.
- Prefer one large read to many small slices, and read several files in parallel when you need them all.";

pub(super) fn schema() -> Value {
    object_schema(
        json!({
            "filePath": {
                "type": "string",
                "description": "The file to read: absolute, relative to /workspace, or starting with $HOME/."
            },
            "offset": {
                "type": "integer",
                "minimum": 1,
                "description": "The first line to return, counting from 1. Default 1."
            },
            "limit": {
                "type": "integer",
                "minimum": 1,
                "description": "How many lines to return at most. Default 2000."
            }
        }),
        &["filePath"],
    )
}

/// The input of `read_file`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ReadFileInput {
    pub file_path: String,
    #[serde(default)]
    pub offset: Option<u64>,
    #[serde(default)]
    pub limit: Option<u64>,
}

/// A window of a text file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct TextRead {
    /// Numbered lines `N: text`, joined by newlines (none after the last).
    pub content: String,
    /// The resolved path.
    pub path: String,
    /// Lines in the whole file (a final newline ends the last line; empty file: 0).
    pub total_lines: u64,
    /// Whether lines after the window were left out.
    pub truncated: bool,
    /// Where the next window starts, when `truncated`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub next_offset: Option<u64>,
}

/// An image or PDF, whole.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MediaRead {
    pub path: String,
    /// `image/png`, `image/jpeg`, `image/gif`, `image/webp` or `application/pdf`.
    pub media_type: String,
    /// The file's bytes in base64.
    pub data: String,
    /// The file's size in bytes.
    pub size: u64,
}

/// The output of `read_file`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum ReadFileOutput {
    Text(TextRead),
    Media(MediaRead),
}

/// Reads a file (see the module docs for the rules).
pub fn read_file(host: &dyn ToolHost, input: ReadFileInput) -> Result<ReadFileOutput, ToolError> {
    at_least_one("offset", input.offset)?;
    at_least_one("limit", input.limit)?;
    let path = super::resolve(&input.file_path, host.home())?;
    let data = {
        let fs = host.fs().lock();
        let meta = fs.stat(&path).map_err(|e| ToolError::fs(&path, &e))?;
        if meta.is_dir() {
            return Err(ToolError::at(
                ErrorKind::IsDirectory,
                &path,
                format!("{path} is a directory; list it with glob, or with ls in bash"),
            ));
        }
        if !meta.is_file() {
            return Err(ToolError::at(
                ErrorKind::NotAFile,
                &path,
                format!("{path} is not a regular file"),
            ));
        }
        fs.read_file(&path).map_err(|e| ToolError::fs(&path, &e))?
    };
    let output = match Media::sniff(&data) {
        Some(media) => ReadFileOutput::Media(media.read(&path, &data)?),
        None if is_binary(&data) => {
            return Err(ToolError::at(
                ErrorKind::BinaryFile,
                &path,
                format!(
                    "{path} is a binary file (it contains NUL bytes); inspect it with bash, \
                     for example `file {path}` or `od -c {path} | head`"
                ),
            ));
        }
        None => ReadFileOutput::Text(window(&path, &data, input.offset, input.limit)?),
    };
    host.stamps().record(&path, &data);
    Ok(output)
}

/// The numbered window of `data` the read asks for, built as eve builds it: the text
/// split at each `\n` (a final empty piece is no line), lines `N: text` joined by
/// `\n` with none after the last, and the window closed before a line that would take
/// the lines' bytes (each counted with one newline) past [`MAX_CONTENT_BYTES`] — the
/// first line always fits.
fn window(
    path: &str,
    data: &[u8],
    offset: Option<u64>,
    limit: Option<u64>,
) -> Result<TextRead, ToolError> {
    let text = String::from_utf8_lossy(data);
    let mut lines: Vec<&str> = text.split('\n').collect();
    if lines.last() == Some(&"") {
        lines.pop();
    }
    let total = lines.len() as u64;
    let offset = offset.unwrap_or(1);
    let limit = limit.unwrap_or(DEFAULT_LIMIT);
    if offset > total.max(1) {
        return Err(ToolError::at(
            ErrorKind::OffsetPastEnd,
            path,
            format!(
                "offset {offset} is past the end of {path}, which has {total} line{}",
                if total == 1 { "" } else { "s" }
            ),
        ));
    }
    let start = usize::try_from(offset - 1).unwrap_or(usize::MAX);
    let end = usize::try_from(offset.saturating_sub(1).saturating_add(limit))
        .unwrap_or(usize::MAX)
        .min(lines.len());
    let mut rows: Vec<String> = Vec::new();
    let mut bytes = 0usize;
    let mut capped = false;
    for (n, line) in (offset..).zip(lines.get(start..end).unwrap_or_default()) {
        let row = format!("{n}: {}", cut_line(line));
        if bytes + row.len() + 1 > MAX_CONTENT_BYTES && !rows.is_empty() {
            capped = true;
            break;
        }
        bytes += row.len() + 1;
        rows.push(row);
    }
    let last = offset + rows.len() as u64 - u64::from(!rows.is_empty());
    let truncated = capped || (!rows.is_empty() && last < total);
    Ok(TextRead {
        content: rows.join("\n"),
        path: path.to_owned(),
        total_lines: total,
        truncated,
        next_offset: truncated.then_some(last + 1),
    })
}

/// The file kinds `read_file` returns whole.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Media {
    Png,
    Jpeg,
    Gif,
    Webp,
    Pdf,
}

impl Media {
    /// The kind `data` is, by its magic bytes.
    fn sniff(data: &[u8]) -> Option<Media> {
        if data.starts_with(b"\x89PNG\r\n\x1a\n") {
            Some(Media::Png)
        } else if data.starts_with(&[0xff, 0xd8, 0xff]) {
            Some(Media::Jpeg)
        } else if data.starts_with(b"GIF87a") || data.starts_with(b"GIF89a") {
            Some(Media::Gif)
        } else if data.starts_with(b"RIFF") && data.get(8..12) == Some(b"WEBP") {
            Some(Media::Webp)
        } else if data.starts_with(b"%PDF-") {
            Some(Media::Pdf)
        } else {
            None
        }
    }

    fn media_type(self) -> &'static str {
        match self {
            Media::Png => "image/png",
            Media::Jpeg => "image/jpeg",
            Media::Gif => "image/gif",
            Media::Webp => "image/webp",
            Media::Pdf => "application/pdf",
        }
    }

    /// Width and height in pixels, when the header says.
    fn dimensions(self, d: &[u8]) -> Option<(u32, u32)> {
        let be16 = |i: usize| Some(u32::from(u16::from_be_bytes([*d.get(i)?, *d.get(i + 1)?])));
        let le16 = |i: usize| Some(u32::from(u16::from_le_bytes([*d.get(i)?, *d.get(i + 1)?])));
        let le24 = |i: usize| {
            Some(u32::from_le_bytes([
                *d.get(i)?,
                *d.get(i + 1)?,
                *d.get(i + 2)?,
                0,
            ]))
        };
        match self {
            Media::Png => {
                let w = u32::from_be_bytes(d.get(16..20)?.try_into().ok()?);
                let h = u32::from_be_bytes(d.get(20..24)?.try_into().ok()?);
                Some((w, h))
            }
            Media::Gif => Some((le16(6)?, le16(8)?)),
            Media::Webp => match d.get(12..16)? {
                b"VP8 " => Some((le16(26)? & 0x3fff, le16(28)? & 0x3fff)),
                b"VP8L" => {
                    let b = d.get(21..25)?;
                    let (b0, b1, b2, b3) = (
                        u32::from(*b.first()?),
                        u32::from(*b.get(1)?),
                        u32::from(*b.get(2)?),
                        u32::from(*b.get(3)?),
                    );
                    let w = 1 + (b0 | ((b1 & 0x3f) << 8));
                    let h = 1 + ((b1 >> 6) | (b2 << 2) | ((b3 & 0x0f) << 10));
                    Some((w, h))
                }
                b"VP8X" => Some((1 + le24(24)?, 1 + le24(27)?)),
                _ => None,
            },
            Media::Jpeg => {
                // Walk the marker segments to the first start-of-frame.
                let mut i = 2;
                loop {
                    while *d.get(i)? == 0xff && *d.get(i + 1)? == 0xff {
                        i += 1;
                    }
                    if *d.get(i)? != 0xff {
                        return None;
                    }
                    let marker = *d.get(i + 1)?;
                    let len = usize::try_from(be16(i + 2)?).ok()?;
                    let is_sof =
                        (0xc0..=0xcf).contains(&marker) && !matches!(marker, 0xc4 | 0xc8 | 0xcc);
                    if is_sof {
                        return Some((be16(i + 7)?, be16(i + 5)?));
                    }
                    i += 2 + len;
                }
            }
            Media::Pdf => None,
        }
    }

    /// The whole file as base64, if it is within the limits.
    fn read(self, path: &str, data: &[u8]) -> Result<MediaRead, ToolError> {
        let max = if self == Media::Pdf {
            MAX_PDF_BYTES
        } else {
            MAX_IMAGE_BYTES
        };
        let too_large = |what: String| {
            ToolError::at(
                ErrorKind::TooLarge,
                path,
                format!(
                    "{path} is a {} file {what}; read_file returns images up to 3 MiB and \
                     {MAX_IMAGE_SIDE} pixels a side and PDFs up to 20 MiB",
                    self.media_type()
                ),
            )
        };
        if data.len() > max {
            return Err(too_large(format!("of {} bytes", data.len())));
        }
        if let Some((w, h)) = self.dimensions(data)
            && (w > MAX_IMAGE_SIDE || h > MAX_IMAGE_SIDE)
        {
            return Err(too_large(format!("of {w}x{h} pixels")));
        }
        let data_b64 = crate::commands::base64::encode(data);
        Ok(MediaRead {
            path: path.to_owned(),
            media_type: self.media_type().to_owned(),
            data: String::from_utf8_lossy(&data_b64).into_owned(),
            size: data.len() as u64,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn image_dimensions_come_from_headers() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend_from_slice(&9000u32.to_be_bytes());
        png.extend_from_slice(&20u32.to_be_bytes());
        let gif = b"GIF89a\x10\x00\x20\x00".to_vec();
        let mut jpeg = vec![0xff, 0xd8, 0xff, 0xe0, 0, 4, 0, 0];
        jpeg.extend_from_slice(&[0xff, 0xc0, 0, 17, 8, 0, 30, 0, 40]);
        let mut vp8x = b"RIFF\0\0\0\0WEBPVP8X\0\0\0\0\0\0\0\0".to_vec();
        vp8x.extend_from_slice(&[99, 0, 0, 49, 0, 0]);
        for (data, want) in [
            (png, Some((Media::Png, (9000, 20)))),
            (gif, Some((Media::Gif, (16, 32)))),
            (jpeg, Some((Media::Jpeg, (40, 30)))),
            (vp8x, Some((Media::Webp, (100, 50)))),
        ] {
            let got = Media::sniff(&data).and_then(|m| Some((m, m.dimensions(&data)?)));
            assert_eq!(got, want);
        }
        assert_eq!(Media::sniff(b"%PDF-1.7"), Some(Media::Pdf));
        assert_eq!(Media::sniff(b"plain"), None);
    }
}
