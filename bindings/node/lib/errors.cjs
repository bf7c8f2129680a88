"use strict";
// The one place native failures become JavaScript errors. The addon starts each
// message with a bracketed code (`[ENOENT] read /workspace/x: ...`): errnos and
// LIMIT_EXCEEDED become `Error`s with that `code` (Node's `code: message` form),
// bad arguments `TypeError`s, and agent-tool failures carry the tool's kind and path.

const CODED = /^\[([A-Za-z_]+)\] ([\s\S]*)$/;

function fromNative(e) {
  if (!(e instanceof Error)) return e;
  const m = CODED.exec(e.message);
  if (m === null) return e;
  const [, code, message] = m;
  if (code === "TypeError") return new TypeError(message);
  if (code === "ETOOL") return toolError(message);
  return codedError(code, message);
}

function codedError(code, message, extra) {
  const err = new Error(`${code}: ${message}`);
  err.code = code;
  if (extra !== undefined) Object.assign(err, extra);
  return err;
}

function toolError(body) {
  let parsed;
  try {
    parsed = JSON.parse(body);
  } catch {
    return codedError("ETOOL", body);
  }
  const err = new Error(parsed.message);
  err.code = String(parsed.kind).toUpperCase();
  err.kind = parsed.kind;
  if (parsed.path !== undefined) err.path = parsed.path;
  return err;
}

/** Awaits a native promise, turning its rejection into a JavaScript error. */
async function settle(promise) {
  try {
    return await promise;
  } catch (e) {
    throw fromNative(e);
  }
}

/** Calls a synchronous native function, turning its error into a JavaScript error. */
function sync(fn) {
  try {
    return fn();
  } catch (e) {
    throw fromNative(e);
  }
}

function abortError(signal) {
  if (signal !== undefined && signal.reason !== undefined) return signal.reason;
  return new DOMException("The operation was aborted.", "AbortError");
}

// Argument checks: a bad argument is a TypeError naming it, before anything runs.
function expectString(value, name) {
  if (typeof value !== "string") {
    throw new TypeError(`${name} must be a string, not ${describe(value)}`);
  }
  return value;
}

function expectOptionalString(value, name) {
  return value === undefined || value === null ? undefined : expectString(value, name);
}

function expectObject(value, name) {
  if (value === undefined || value === null) return {};
  if (typeof value !== "object" || Array.isArray(value)) {
    throw new TypeError(`${name} must be an object, not ${describe(value)}`);
  }
  return value;
}

function expectEnv(value, name) {
  const env = expectObject(value, name);
  for (const [k, v] of Object.entries(env)) {
    if (typeof v !== "string") {
      throw new TypeError(`${name}.${k} must be a string, not ${describe(v)}`);
    }
  }
  return env;
}

function expectSignal(value, name) {
  if (value === undefined || value === null) return undefined;
  if (typeof value !== "object" || typeof value.aborted !== "boolean") {
    throw new TypeError(`${name} must be an AbortSignal, not ${describe(value)}`);
  }
  return value;
}

function expectStringArray(value, name) {
  if (value === undefined || value === null) return undefined;
  if (!Array.isArray(value) || value.some((v) => typeof v !== "string")) {
    throw new TypeError(`${name} must be an array of strings`);
  }
  return value;
}

function describe(value) {
  if (value === null) return "null";
  if (Array.isArray(value)) return "an array";
  return typeof value === "object" ? "an object" : `${typeof value} ${String(value)}`;
}

module.exports = {
  abortError,
  codedError,
  expectEnv,
  expectObject,
  expectOptionalString,
  expectSignal,
  expectString,
  expectStringArray,
  fromNative,
  settle,
  sync,
};
