"use strict";
// Initial files cross to the engine as one batch: paths joined by NUL, contents
// concatenated into one buffer with their lengths (and modes and mtimes where given),
// instead of one object per file.
const nodePath = require("node:path").posix;
const { settle } = require("./errors.cjs");

/** `name` made absolute from `base`, as `path.resolve` would; names already in that
 * form (most seeded paths) are kept without the cost of resolving them. */
function absolute(base, name) {
  if (
    name.length > 1 &&
    name.charCodeAt(0) === 47 &&
    name.charCodeAt(name.length - 1) !== 47 &&
    !name.includes("//") &&
    !name.includes("/./") &&
    !name.includes("/../") &&
    !name.endsWith("/.") &&
    !name.endsWith("/..")
  ) {
    return name;
  }
  return nodePath.resolve(base, name);
}

/** Writes `records` (`{path, content: string | Buffer, mode?, mtime?}`) into native
 * sandbox `sb`, after making `cwd`. String contents are encoded as UTF-8 in one go. */
function seed(sb, records, cwd) {
  const lens = new Uint32Array(records.length);
  const chunks = new Array(records.length);
  let modes = null;
  let mtimes = null;
  let strings = true;
  records.forEach((r, i) => {
    if (r.path.includes("\0")) throw new TypeError(`file path ${JSON.stringify(r.path)} holds a NUL byte`);
    const c = r.content;
    chunks[i] = c;
    if (typeof c === "string") {
      lens[i] = Buffer.byteLength(c, "utf8");
    } else {
      strings = false;
      lens[i] = c.length;
    }
    if (r.mode !== undefined) {
      if (!Number.isInteger(r.mode) || r.mode < 0 || r.mode >= 0xffffffff) throw new TypeError(`files[${r.path}].mode must be a non-negative 32-bit integer`);
      modes ??= new Uint32Array(records.length).fill(0xffffffff);
      modes[i] = r.mode;
    }
    if (r.mtime !== undefined) {
      mtimes ??= new Float64Array(records.length).fill(Number.NaN);
      mtimes[i] = r.mtime;
    }
  });
  const data = strings
    ? Buffer.from(chunks.join(""), "utf8")
    : Buffer.concat(chunks.map((c) => (typeof c === "string" ? Buffer.from(c, "utf8") : c)));
  const paths = records.map((r) => r.path).join("\0");
  return settle(sb.seed(paths, data, lens, modes, mtimes, cwd ?? null));
}

/** The common case of just-bash's `files`, every value a string, seeded without a
 * record per file: `null` (nothing done) when some value is not a string. Paths are
 * resolved from `base` as in `absolute`. */
function seedStrings(sb, files, base, cwd) {
  const names = Object.keys(files);
  const texts = new Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const text = files[names[i]];
    if (typeof text !== "string") return null;
    texts[i] = text;
  }
  const lens = new Uint32Array(names.length);
  for (let i = 0; i < names.length; i++) {
    const name = absolute(base, names[i]);
    // Reported by the next call, as a failed seed is.
    if (name.includes("\0")) return Promise.reject(new TypeError(`file path ${JSON.stringify(name)} holds a NUL byte`));
    names[i] = name;
    lens[i] = Buffer.byteLength(texts[i], "utf8");
  }
  const data = Buffer.from(texts.join(""), "utf8");
  return settle(sb.seed(names.join("\0"), data, lens, null, null, cwd ?? null));
}

module.exports = { absolute, seed, seedStrings };
