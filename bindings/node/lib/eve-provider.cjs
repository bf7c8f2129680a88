"use strict";
// The eve sandbox provider: `prepare` builds a template once (eve's workspace and
// skills resources written in, the authored `prepare(sandbox)` run) and freezes it in
// a shellbox store under eve's `storagePath`; `start` forks the template in O(1) and
// saves the new session; `resume` loads a session again, in this process or another;
// the handle's hooks save on stop, delete on delete, and stop running commands at
// shutdown. Artifacts and states are small JSON records naming store sessions.

const crypto = require("node:crypto");
const nodePath = require("node:path");
const native = require("./native.cjs");
const { createSandbox, loadSandbox, sessionOf, settingsOf } = require("./session.cjs");
const { settle, expectObject } = require("./errors.cjs");

const PROVIDER_NAME = "shellbox";
const VERSION = 1;

function digest(value) {
  return crypto.createHash("sha256").update(JSON.stringify(value)).digest("hex").slice(0, 24);
}

function storeDirOf(context) {
  return nodePath.join(context.storagePath, "shellbox");
}

/** The files eve's resources put in the sandbox (workspace and skills trees). */
function resourceFiles(resources) {
  const trees = [resources?.workspace, resources?.skills].filter((t) => t !== undefined);
  return trees.flatMap((tree) =>
    tree.files.map((f) => ({
      path: `${tree.targetPath.replace(/^\$HOME(?=\/|$)/, "/home/user")}/${f.relativePath}`,
      content: f.content,
    })),
  );
}

function artifactOf(value) {
  if (value === null || typeof value !== "object" || value.version !== VERSION || typeof value.template !== "string") {
    throw new Error("Invalid prepared shellbox artifact.");
  }
  return value;
}

function stateOf(value) {
  if (value === null || typeof value !== "object" || value.version !== VERSION || typeof value.session !== "string") {
    throw new Error("Invalid shellbox session state.");
  }
  return value;
}

/**
 * The provider's implementation for `environment(options)`: `{customCommands, limits,
 * env, prepare}`.
 */
function createShellboxProvider(options = {}) {
  const o = expectObject(options, "options");
  if (o.prepare !== undefined && typeof o.prepare !== "function") throw new TypeError("options.prepare must be a function");
  const settings = settingsOf({ customCommands: o.customCommands, limits: o.limits, env: o.env });
  // Templates loaded in this process, by store and name: sessions fork them in O(1).
  const templates = new Map();

  const template = (storeDir, name) => {
    const key = `${storeDir}\0${name}`;
    let t = templates.get(key);
    if (t === undefined) {
      t = loadSandbox(storeDir, name, { customCommands: o.customCommands, limits: o.limits, env: o.env });
      t.catch(() => templates.delete(key));
      templates.set(key, t);
    }
    return t;
  };

  const handleOf = (session, storeDir, name) => ({
    sandbox: session,
    async onSandboxStop() {
      await session.stop();
      await session.save(storeDir, name);
    },
    async onSandboxDelete() {
      await session.stop();
      await settle(native.storeDeleteSession(storeDir, name));
    },
    async onRuntimeShutdown() {
      await session.stop();
      await session.save(storeDir, name);
    },
  });

  return {
    async prepare(context) {
      const storeDir = storeDirOf(context);
      const key = digest({
        version: VERSION,
        resources: { workspace: context.resources?.workspace?.key, skills: context.resources?.skills?.key },
        sourceRevision: context.sourceRevision,
        env: o.env ?? {},
        prepare: o.prepare?.toString() ?? null,
      });
      const name = `template-${key}`;
      if (await settle(native.storeHasSession(storeDir, name))) {
        context.log?.("reusing the stored shellbox template");
        return { version: VERSION, template: name };
      }
      // Custom commands are the live sandbox's, not the template's (as with just-bash).
      const sandbox = await createSandbox({ env: o.env, limits: o.limits });
      for (const file of resourceFiles(context.resources)) {
        if (typeof file.content === "string") await sandbox.writeTextFile({ path: file.path, content: file.content });
        else await sandbox.writeBinaryFile({ path: file.path, content: file.content });
      }
      if (o.prepare !== undefined) {
        context.log?.("running sandbox preparation");
        await o.prepare(sandbox);
      }
      await sandbox.stop();
      await sandbox.save(storeDir, name);
      return { version: VERSION, template: name };
    },

    async start(context, _openOptions, artifact) {
      const { template: name } = artifactOf(artifact);
      const storeDir = storeDirOf(context);
      const base = await template(storeDir, name);
      const session = await base.fork();
      const sessionName = `session-${digest({ id: context.session.id, template: name })}`;
      await session.save(storeDir, sessionName);
      return {
        handle: handleOf(session, storeDir, sessionName),
        state: { version: VERSION, template: name, session: sessionName },
      };
    },

    async resume(context, _artifact, state) {
      const { session: name } = stateOf(state);
      const storeDir = storeDirOf(context);
      const session = await loadSandbox(storeDir, name, { customCommands: o.customCommands, limits: o.limits, env: o.env });
      return handleOf(session, storeDir, name);
    },

    async onSessionEnd(context, _artifact, state) {
      const { session: name } = stateOf(state);
      await settle(native.storeDeleteSession(storeDirOf(context), name));
    },
  };
}

/** `ShellboxSandbox`, made with the `defineSandboxProvider` of the eve it runs in. */
function makeProvider(defineSandboxProvider) {
  return defineSandboxProvider({
    name: PROVIDER_NAME,
    stateProtocolVersion: VERSION,
    environment: (options) => createShellboxProvider(options),
  });
}

module.exports = { createShellboxProvider, makeProvider, PROVIDER_NAME, sessionOf };
