"use strict";
// shellbox for Node: `Bash` (a drop-in for just-bash), `createSandbox`/`loadSandbox`
// (the sandbox session eve and the AI SDK use). The eve provider is `shellbox/eve`.
const { Bash } = require("./lib/bash.cjs");
const { createSandbox, loadSandbox } = require("./lib/session.cjs");
const { defineCommand } = require("./lib/commands.cjs");

module.exports = { Bash, createSandbox, defineCommand, loadSandbox };
