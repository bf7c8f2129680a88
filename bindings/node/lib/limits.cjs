"use strict";
// Limits: shellbox's own (`limits: {maxCommands, ..., timeoutMs, profile}`, the Rust
// `Limits` fields in camelCase) and just-bash's `executionLimits`, translated where
// shellbox has the same bound. just-bash limits shellbox has no counterpart for (its
// awk/sed/jq iteration counters, ...) are accepted and have no effect: shellbox bounds
// that work through its command, time and memory limits instead.

const OURS = {
  maxCommands: "max_commands",
  maxLoopIterations: "max_loop_iterations",
  maxCallDepth: "max_call_depth",
  maxSubshellDepth: "max_subshell_depth",
  maxOutputBytes: "max_output_bytes",
  maxStringLen: "max_string_len",
  maxWords: "max_words",
  maxArrayLen: "max_array_len",
  maxBraceWords: "max_brace_words",
  maxGlobReads: "max_glob_reads",
  maxParseDepth: "max_parse_depth",
  maxSourceBytes: "max_source_bytes",
  maxHeredocBytes: "max_heredoc_bytes",
  maxThreads: "max_threads",
  maxBackgroundJobs: "max_background_jobs",
  maxFileBytes: "max_file_bytes",
  maxFsBytes: "max_fs_bytes",
  maxFiles: "max_files",
  maxMemoryBytes: "max_memory_bytes",
  maxIoBytes: "max_io_bytes",
};

const JUST_BASH = {
  maxCommandCount: "max_commands",
  maxLoopIterations: "max_loop_iterations",
  maxCallDepth: "max_call_depth",
  maxSubstitutionDepth: "max_subshell_depth",
  maxOutputSize: "max_output_bytes",
  maxStringLength: "max_string_len",
  maxArrayElements: "max_array_len",
  maxBraceExpansionResults: "max_brace_words",
  maxGlobOperations: "max_glob_reads",
  maxSourceBytes: "max_source_bytes",
  maxHeredocSize: "max_heredoc_bytes",
  maxFileSystemBytes: "max_fs_bytes",
};

const JUST_BASH_WITHOUT_COUNTERPART = new Set([
  "maxExecDepth", "maxAwkIterations", "maxSedIterations", "maxJqIterations", "maxQueryTokens",
  "maxQueryDepth", "maxQueryElements", "maxAwkParserTokens", "maxAwkParserDepth",
  "maxAwkParserOperations", "maxCsvRows", "maxCsvCells", "maxWorkUnits", "maxTraversalEntries",
  "maxTraversalDepth", "maxTraversalWork", "maxLiveBytes", "maxInputBytes", "maxDatabaseBytes",
  "maxDatabaseResultBytes", "maxArchiveBytes", "maxArchiveCompressedBytes", "maxArchiveEntryBytes",
  "maxArchiveEntries", "maxWorkerMessageBytes", "maxExtensionCleanupTimeMs", "maxSqliteTimeoutMs",
  "maxPythonTimeoutMs", "maxJsTimeoutMs", "maxFileDescriptors", "maxSourceDepth",
]);

function checkNumber(name, value) {
  if (typeof value !== "number" || !Number.isInteger(value) || value < 0) {
    throw new TypeError(`limit ${name} must be a whole number of 0 or more`);
  }
  return value;
}

/** shellbox's `limits` option, for the native layer (or undefined). */
function fromOurs(limits) {
  if (limits === undefined || limits === null) return undefined;
  if (typeof limits !== "object") throw new TypeError("limits must be an object");
  const out = {};
  for (const [k, v] of Object.entries(limits)) {
    if (k === "profile") {
      if (v !== "default" && v !== "hardened") throw new TypeError('limits.profile must be "default" or "hardened"');
      out.profile = v;
    } else if (k === "timeoutMs") {
      out.timeoutMs = v === null ? null : checkNumber(k, v);
    } else if (k in OURS) {
      out[OURS[k]] = checkNumber(k, v);
    } else {
      throw new TypeError(`unknown limit ${JSON.stringify(k)}`);
    }
  }
  return out;
}

/** just-bash's `executionLimits` (and its deprecated top-level options). */
function fromJustBash(options) {
  const limits = options.executionLimits;
  const out = {};
  if (options.executionLimitProfile === "hardened") out.profile = "hardened";
  const legacy = { maxCallDepth: options.maxCallDepth, maxCommandCount: options.maxCommandCount, maxLoopIterations: options.maxLoopIterations };
  const all = { ...Object.fromEntries(Object.entries(legacy).filter(([, v]) => v !== undefined)), ...(limits ?? {}) };
  if (limits !== undefined && (limits === null || typeof limits !== "object")) {
    throw new TypeError("executionLimits must be an object");
  }
  for (const [k, v] of Object.entries(all)) {
    if (v === undefined) continue;
    if (k === "maxExecutionTimeMs") out.timeoutMs = checkNumber(k, v);
    else if (k in JUST_BASH) out[JUST_BASH[k]] = checkNumber(k, v);
    else if (!JUST_BASH_WITHOUT_COUNTERPART.has(k)) throw new TypeError(`unknown execution limit ${JSON.stringify(k)}`);
  }
  return Object.keys(out).length === 0 ? undefined : out;
}

module.exports = { fromJustBash, fromOurs };
