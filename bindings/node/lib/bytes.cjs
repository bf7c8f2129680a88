"use strict";
// Bytes in and out: the engine's streams are bytes; text is decoded only where an API
// promises text, and explicitly (UTF-8 unless an encoding is named).

const TEXT_ENCODINGS = new Set(["utf8", "utf-8"]);
const BUFFER_ENCODINGS = new Set(["ascii", "binary", "latin1", "base64", "hex", "ucs2", "utf16le"]);
const utf8 = new TextDecoder("utf-8");

/** Bytes as a Buffer view (no copy for Buffers and Uint8Arrays). */
function toBuffer(value, name, encoding) {
  if (value === undefined || value === null) return Buffer.alloc(0);
  if (typeof value === "string") return Buffer.from(value, encodingOf(encoding, name));
  if (Buffer.isBuffer(value)) return value;
  if (value instanceof Uint8Array) return Buffer.from(value.buffer, value.byteOffset, value.byteLength);
  if (value instanceof ArrayBuffer) return Buffer.from(value);
  throw new TypeError(`${name} must be a string or a Uint8Array`);
}

/** A Node encoding name, checked (`undefined` is UTF-8). */
function encodingOf(encoding, name) {
  if (encoding === undefined || encoding === null) return "utf8";
  const e = String(encoding).toLowerCase();
  if (TEXT_ENCODINGS.has(e)) return "utf8";
  if (BUFFER_ENCODINGS.has(e)) return e;
  throw new TypeError(`${name}: unknown encoding ${JSON.stringify(encoding)}`);
}

/** Bytes as text in `encoding` (UTF-8 by default, invalid sequences replaced). */
function decode(bytes, encoding, name = "encoding") {
  const e = encodingOf(encoding, name);
  if (e === "utf8") return utf8.decode(bytes);
  return toBuffer(bytes).toString(e);
}

/** A ReadableStream of one chunk. */
function streamOf(bytes) {
  return new ReadableStream({
    start(controller) {
      if (bytes.byteLength > 0) controller.enqueue(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength));
      controller.close();
    },
  });
}

/** Everything a ReadableStream of Uint8Arrays yields, as one Buffer. */
async function collect(stream, name) {
  if (stream === null || typeof stream !== "object" || typeof stream.getReader !== "function") {
    throw new TypeError(`${name} must be a ReadableStream of Uint8Array chunks`);
  }
  const reader = stream.getReader();
  const chunks = [];
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    if (!(value instanceof Uint8Array)) {
      throw new TypeError(`${name} yielded a chunk that is not a Uint8Array`);
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

module.exports = { collect, decode, encodingOf, streamOf, toBuffer };
