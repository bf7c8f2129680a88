"use strict";
// Custom commands written in JavaScript, as just-bash takes them: `Command` objects
// (`{name, execute(args, ctx)}`, e.g. from `defineCommand`), lazy ones (`{name,
// load()}`), or a plain `{name: (args, ctx) => result}` map. Each runs as a real
// command of the shell (in pipelines, with redirections), replacing a built-in of the
// same name. The engine thread that runs the command waits while the function works;
// `ctx.exec` runs shell commands from inside it.

const native = require("./native.cjs");
const { settle } = require("./errors.cjs");
const { decode, toBuffer } = require("./bytes.cjs");

const NAME = /^[^\s/'"\\$`=|&;<>()]+$/;

/** The commands of `input` by name (a TypeError names what is wrong). */
function normalizeCommands(input, what = "customCommands") {
  const commands = new Map();
  if (input === undefined || input === null) return commands;
  const add = (name, execute) => {
    if (typeof name !== "string" || !NAME.test(name)) {
      throw new TypeError(`${what}: ${JSON.stringify(name)} is not a usable command name`);
    }
    commands.set(name, execute);
  };
  if (Array.isArray(input)) {
    for (const cmd of input) {
      if (cmd === null || typeof cmd !== "object") {
        throw new TypeError(`${what} must hold command objects ({name, execute})`);
      }
      if (typeof cmd.execute === "function") {
        add(cmd.name, (args, ctx) => cmd.execute(args, ctx));
      } else if (typeof cmd.load === "function") {
        let loaded;
        add(cmd.name, async (args, ctx) => {
          loaded ??= Promise.resolve(cmd.load());
          const real = await loaded;
          return real.execute(args, ctx);
        });
      } else {
        throw new TypeError(`${what}: command ${JSON.stringify(cmd.name)} has no execute function`);
      }
    }
  } else if (typeof input === "object") {
    for (const [name, fn] of Object.entries(input)) {
      if (typeof fn !== "function") throw new TypeError(`${what}.${name} must be a function`);
      add(name, fn);
    }
  } else {
    throw new TypeError(`${what} must be an array of commands or an object of functions`);
  }
  return commands;
}

/** A command's output field as bytes: text, a latin1 byte string, or bytes. */
function outputBytes(value, bytesKind, name) {
  if (value === undefined || value === null) return Buffer.alloc(0);
  if (typeof value === "string") return Buffer.from(value, bytesKind ? "latin1" : "utf8");
  if (value instanceof Uint8Array) return toBuffer(value);
  throw new TypeError(`${name} must be a string or a Uint8Array`);
}

function answer(id, result) {
  if (result === undefined || result === null || typeof result !== "object") {
    native.commandFailed(id, "the command returned no {stdout, stderr, exitCode} result");
    return;
  }
  const exitCode = result.exitCode ?? 0;
  if (!Number.isInteger(exitCode)) {
    native.commandFailed(id, `exitCode must be an integer, not ${String(exitCode)}`);
    return;
  }
  const bytes = result.stdoutKind === "bytes" || result.stdoutEncoding === "binary";
  native.commandDone(
    id,
    exitCode & 255,
    outputBytes(result.stdout, bytes, "stdout"),
    outputBytes(result.stderr, false, "stderr"),
  );
}

/**
 * The dispatcher the native sandbox calls for each custom command run; `fs()` is the
 * filesystem object commands see as `ctx.fs`.
 */
function dispatcher(commands, fs) {
  return (call) => {
    const execute = commands.get(call.name);
    const env = new Map(Object.entries(call.env));
    const ctx = {
      cwd: call.cwd,
      env,
      exportedEnv: { ...call.env },
      stdin: decode(call.stdin),
      stdinBytes: new Uint8Array(call.stdin.buffer, call.stdin.byteOffset, call.stdin.byteLength),
      fs: fs(),
      async exec(command, options = {}) {
        if (typeof command !== "string") throw new TypeError("command must be a string");
        const r = await settle(
          native.commandExec(call.id, command, toBuffer(options.stdin, "stdin"), options.cwd ?? null, options.env ?? null),
        );
        return { stdout: decode(r.stdout), stderr: decode(r.stderr), exitCode: r.exitCode };
      },
    };
    Promise.resolve()
      .then(() => execute(call.args, ctx))
      .then(
        (result) => {
          try {
            answer(call.id, result);
          } catch (e) {
            native.commandFailed(call.id, e instanceof Error ? e.message : String(e));
          }
        },
        (e) => native.commandFailed(call.id, e instanceof Error ? e.message : String(e)),
      );
  };
}

/** `defineCommand(name, execute)`, as just-bash exports it. */
function defineCommand(name, execute) {
  if (typeof name !== "string") throw new TypeError("name must be a string");
  if (typeof execute !== "function") throw new TypeError("execute must be a function");
  return { name, execute };
}

module.exports = { defineCommand, dispatcher, normalizeCommands };
