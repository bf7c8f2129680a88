"use strict";
// Loads the native addon built from this repository (`npm run build` puts it in
// ../native). Nothing is downloaded: without a build, importing shellbox says how
// to make one.
const path = require("node:path");

const file = path.join(__dirname, "..", "native", "shellbox.node");
let native;
try {
  native = require(file);
} catch (e) {
  const err = new Error(
    `shellbox: the native addon is missing or does not load (${file}): ${e.message}. ` +
      "Build it from the repository with `cd bindings/node && npm ci && npm run build`.",
  );
  err.code = "ERR_SHELLBOX_NATIVE";
  err.cause = e;
  throw err;
}
module.exports = native;
