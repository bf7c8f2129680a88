"use strict";
// `shellbox/eve` for CommonJS: eve is an ES module, which Node 20.19+ can require.
const { defineSandboxProvider } = require("eve/sandbox/provider");
const provider = require("./lib/eve-provider.cjs");

module.exports = {
  ShellboxSandbox: provider.makeProvider(defineSandboxProvider),
  createShellboxProvider: provider.createShellboxProvider,
};
