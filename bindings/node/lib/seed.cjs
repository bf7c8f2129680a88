"use strict";
// Initial files cross to the engine as one batch: paths joined by NUL, contents
// concatenated into one buffer with their lengths (and modes and mtimes where given),
// instead of one object per file.
const { settle } = require("./errors.cjs");

/** Writes `records` (`{path, content: Buffer, mode?, mtime?}`) into native sandbox `sb`, after making `cwd`. */
function seed(sb, records, cwd) {
  const lens = new Array(records.length);
  const chunks = new Array(records.length);
  let modes = null;
  let mtimes = null;
  records.forEach((r, i) => {
    if (r.path.includes("\0")) throw new TypeError(`file path ${JSON.stringify(r.path)} holds a NUL byte`);
    chunks[i] = r.content;
    lens[i] = r.content.length;
    if (r.mode !== undefined) {
      if (!Number.isInteger(r.mode) || r.mode < 0) throw new TypeError(`files[${r.path}].mode must be a non-negative integer`);
      modes ??= new Array(records.length).fill(0xffffffff);
      modes[i] = r.mode;
    }
    if (r.mtime !== undefined) {
      mtimes ??= new Array(records.length).fill(Number.NaN);
      mtimes[i] = r.mtime;
    }
  });
  const paths = records.map((r) => r.path).join("\0");
  return settle(sb.seed(paths, Buffer.concat(chunks), lens, modes, mtimes, cwd ?? null));
}

module.exports = { seed };
