"use strict";
// The filesystem as just-bash's `IFileSystem` offers it (`bash.fs`, and `ctx.fs` in
// custom commands): promise-returning methods over the sandbox's filesystem, run off
// the JavaScript thread. Relative paths start at `/`, as in just-bash; errors are
// `Error`s with Node's errno `code`s.

const nodePath = require("node:path").posix;
const { settle, sync, expectString, expectObject } = require("./errors.cjs");
const { decode, encodingOf, toBuffer } = require("./bytes.cjs");

function readOptionsEncoding(options) {
  if (typeof options === "string") return options;
  if (options === undefined || options === null) return undefined;
  return options.encoding ?? undefined;
}

function statOf(info) {
  return {
    isFile: info.kind === "file",
    isDirectory: info.kind === "directory",
    isSymbolicLink: info.kind === "symlink",
    mode: info.mode,
    size: info.size,
    mtime: new Date(info.mtimeMs),
    atime: new Date(info.atimeMs),
    ctime: new Date(info.ctimeMs),
    ino: info.ino,
    nlink: info.nlink,
    uid: info.uid,
    gid: info.gid,
  };
}

function notFound(op, path) {
  const err = new Error(`ENOENT: no such file or directory, ${op} '${path}'`);
  err.code = "ENOENT";
  err.path = path;
  return err;
}

class ShellboxFs {
  /**
   * `native()` is the sandbox the methods act on (it may be replaced); `ready()`, a
   * promise every call waits for first (the initial files being written).
   */
  constructor(native, ready = () => undefined) {
    Object.defineProperty(this, "_sandbox", { value: native });
    Object.defineProperty(this, "_ready", { value: ready });
  }

  /** The sandbox, once the initial files are in. */
  async _native_() {
    await this._ready();
    return this._sandbox();
  }

  _path(path, name = "path") {
    return nodePath.resolve("/", expectString(path, name));
  }

  async readFile(path, options) {
    const encoding = readOptionsEncoding(options);
    encodingOf(encoding, "readFile");
    const bytes = await settle((await this._native_()).readFile(this._path(path)));
    return decode(bytes, encoding, "readFile");
  }

  async readFileBuffer(path) {
    const bytes = await settle((await this._native_()).readFile(this._path(path)));
    return new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  }

  /** The bytes as a latin1 string (one char per byte), as just-bash's readFileBytes. */
  async readFileBytes(path) {
    const bytes = await settle((await this._native_()).readFile(this._path(path)));
    return bytes.toString("latin1");
  }

  async writeFile(path, content, options) {
    const data = toBuffer(content, "content", readOptionsEncoding(options));
    await settle((await this._native_()).writeFile(this._path(path), data, false, true));
  }

  async appendFile(path, content, options) {
    const data = toBuffer(content, "content", readOptionsEncoding(options));
    await settle((await this._native_()).writeFile(this._path(path), data, true, true));
  }

  async exists(path) {
    return (await settle((await this._native_()).stat(this._path(path), true))) !== null;
  }

  async stat(path) {
    const p = this._path(path);
    const info = await settle((await this._native_()).stat(p, true));
    if (info === null) throw notFound("stat", p);
    return statOf(info);
  }

  async lstat(path) {
    const p = this._path(path);
    const info = await settle((await this._native_()).stat(p, false));
    if (info === null) throw notFound("lstat", p);
    return statOf(info);
  }

  async mkdir(path, options) {
    const { recursive = false } = expectObject(options, "options");
    await settle((await this._native_()).mkdir(this._path(path), Boolean(recursive)));
  }

  async readdir(path) {
    const entries = await settle((await this._native_()).readDir(this._path(path)));
    return entries.map((e) => e.name);
  }

  async readdirWithFileTypes(path) {
    const entries = await settle((await this._native_()).readDir(this._path(path)));
    return entries.map((e) => ({
      name: e.name,
      isFile: e.kind === "file",
      isDirectory: e.kind === "directory",
      isSymbolicLink: e.kind === "symlink",
    }));
  }

  async rm(path, options) {
    const { recursive = false, force = false } = expectObject(options, "options");
    await settle((await this._native_()).remove(this._path(path), Boolean(recursive), Boolean(force)));
  }

  async cp(src, dest, options) {
    const { recursive = false } = expectObject(options, "options");
    await settle((await this._native_()).copy(this._path(src, "src"), this._path(dest, "dest"), Boolean(recursive)));
  }

  async mv(src, dest) {
    await settle((await this._native_()).rename(this._path(src, "src"), this._path(dest, "dest")));
  }

  resolvePath(base, path) {
    return nodePath.resolve("/", expectString(base, "base"), expectString(path, "path"));
  }

  getAllPaths() {
    return sync(() => this._sandbox().allPaths());
  }

  async chmod(path, mode) {
    if (!Number.isInteger(mode) || mode < 0) throw new TypeError("mode must be a non-negative integer");
    await settle((await this._native_()).chmod(this._path(path), mode));
  }

  async symlink(target, linkPath) {
    await settle((await this._native_()).symlink(expectString(target, "target"), this._path(linkPath, "linkPath")));
  }

  async link(existingPath, newPath) {
    await settle((await this._native_()).link(this._path(existingPath, "existingPath"), this._path(newPath, "newPath")));
  }

  async readlink(path) {
    return settle((await this._native_()).readlink(this._path(path)));
  }

  async realpath(path) {
    return settle((await this._native_()).realpath(this._path(path)));
  }

  async utimes(path, atime, mtime) {
    const ms = (t, name) => {
      if (t instanceof Date) return t.getTime();
      if (typeof t === "number") return t * 1000;
      throw new TypeError(`${name} must be a Date or seconds since the epoch`);
    };
    await settle((await this._native_()).utimes(this._path(path), ms(atime, "atime"), ms(mtime, "mtime")));
  }
}

module.exports = { ShellboxFs };
