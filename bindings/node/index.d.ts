// Types of the npm package `shellbox`: a simulated GNU bash 5.2 over an in-memory
// filesystem, running natively in the Node process.

/** Bytes or text (text is encoded as UTF-8). */
export type FileContent = string | Uint8Array;

/** An initial file: its content, with an optional mode and modification time. */
export interface FileInit {
  content: FileContent;
  mode?: number;
  mtime?: Date;
}

/** A file whose content is computed when the sandbox is made. */
export type LazyFileProvider = () => FileContent | Promise<FileContent>;

/** Initial files by path (absolute, or relative to `/`). */
export type InitialFiles = Record<string, FileContent | FileInit | LazyFileProvider>;

/** What a custom command returns. `stdoutKind: "bytes"` marks `stdout` as a latin1 byte string. */
export interface CommandResult {
  stdout?: string | Uint8Array;
  stderr?: string | Uint8Array;
  exitCode?: number;
  stdoutKind?: "text" | "bytes";
}

/** What a custom command sees. */
export interface CommandContext {
  /** The command's working directory. */
  cwd: string;
  /** Its exported environment. */
  env: Map<string, string>;
  exportedEnv: Record<string, string>;
  /** Its standard input, read to the end, as UTF-8 text. */
  stdin: string;
  /** The same input as bytes. */
  stdinBytes: Uint8Array;
  /** The sandbox's filesystem. */
  fs: IFileSystem;
  /** Runs a shell command line in the same sandbox (same files, environment and limits). */
  exec(
    command: string,
    options?: { cwd?: string; env?: Record<string, string>; stdin?: string | Uint8Array },
  ): Promise<{ stdout: string; stderr: string; exitCode: number }>;
}

export type CommandFunction = (
  args: string[],
  ctx: CommandContext,
) => CommandResult | Promise<CommandResult>;

/** A command object, as just-bash's `defineCommand` makes them. */
export interface Command {
  name: string;
  execute: CommandFunction;
}

/** A command loaded on first use. */
export interface LazyCommand {
  name: string;
  load: () => Promise<Command>;
}

/** Custom commands: command objects, or functions by name. They may replace built-ins. */
export type CustomCommands = Array<Command | LazyCommand> | Record<string, CommandFunction>;

/** Makes a command object (as just-bash's `defineCommand`). */
export declare function defineCommand(name: string, execute: CommandFunction): Command;

/** just-bash's execution limits that shellbox enforces (others are accepted and ignored). */
export interface ExecutionLimits {
  maxCommandCount?: number;
  maxLoopIterations?: number;
  maxCallDepth?: number;
  maxSubstitutionDepth?: number;
  maxOutputSize?: number;
  maxStringLength?: number;
  maxArrayElements?: number;
  maxBraceExpansionResults?: number;
  maxGlobOperations?: number;
  maxSourceBytes?: number;
  maxHeredocSize?: number;
  maxFileSystemBytes?: number;
  maxExecutionTimeMs?: number;
  [other: string]: number | undefined;
}

/** shellbox's own limits (the Rust `Limits` fields in camelCase). */
export interface Limits {
  profile?: "default" | "hardened";
  maxCommands?: number;
  maxLoopIterations?: number;
  maxCallDepth?: number;
  maxSubshellDepth?: number;
  maxOutputBytes?: number;
  maxStringLen?: number;
  maxWords?: number;
  maxArrayLen?: number;
  maxBraceWords?: number;
  maxGlobReads?: number;
  maxParseDepth?: number;
  maxSourceBytes?: number;
  maxHeredocBytes?: number;
  maxThreads?: number;
  maxBackgroundJobs?: number;
  maxFileBytes?: number;
  maxFsBytes?: number;
  maxFiles?: number;
  /** Bytes the run may make the engine hold at once (values, words, files). */
  maxMemoryBytes?: number;
  /** Bytes the run's utilities read and write, all together. */
  maxIoBytes?: number;
  /** Wall-clock time for one run; `null` for none. */
  timeoutMs?: number | null;
}

export interface BashOptions {
  files?: InitialFiles;
  env?: Record<string, string>;
  /** The directory execs start in (default `/home/user`, or `/` when `files` are given, as in just-bash). */
  cwd?: string;
  executionLimits?: ExecutionLimits;
  executionLimitProfile?: "normal" | "hardened";
  customCommands?: CustomCommands;
  /** Keep variables, functions and the directory across execs (default: only files persist). */
  keepState?: boolean;
  /** @deprecated as in just-bash: use executionLimits. */
  maxCallDepth?: number;
  /** @deprecated as in just-bash: use executionLimits. */
  maxCommandCount?: number;
  /** @deprecated as in just-bash: use executionLimits. */
  maxLoopIterations?: number;
}

export interface ExecOptions {
  /** Variables for this exec, on top of the constructor's. */
  env?: Record<string, string>;
  /** Start from an empty environment (then `env`) instead of the constructor's. */
  replaceEnv?: boolean;
  /** The directory for this exec (relative ones start at the default). */
  cwd?: string;
  stdin?: string | Uint8Array;
  /** `"bytes"`: a string `stdin` is latin1 bytes, not text. */
  stdinKind?: "text" | "bytes";
  /** Stops the exec at its next command; it resolves with exit code 124. */
  signal?: AbortSignal;
  /** Words appended, unparsed, to the first command the script runs. */
  args?: string[];
  /** Accepted for just-bash compatibility: scripts always run exactly as given. */
  rawScript?: boolean;
}

/** Why a run ended early. */
export interface Stopped {
  kind: "limit" | "cancelled" | "internal";
  /** The limit, for `kind: "limit"` (`max_commands`, ...). */
  limit?: string;
  message?: string;
}

export interface BashExecResult {
  stdout: string;
  stderr: string;
  exitCode: number;
  /** The shell's variables when the exec ended. */
  env: Record<string, string>;
  /** The output as bytes (not enumerable). */
  readonly stdoutBytes: Uint8Array;
  readonly stderrBytes: Uint8Array;
  /** Set when a limit, an abort or an internal error ended the exec (not enumerable). */
  readonly stopped?: Stopped;
}

export interface FsStat {
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
  mode: number;
  size: number;
  mtime: Date;
  atime: Date;
  ctime: Date;
  ino: number;
  nlink: number;
  uid: number;
  gid: number;
}

export interface DirentEntry {
  name: string;
  isFile: boolean;
  isDirectory: boolean;
  isSymbolicLink: boolean;
}

export type BufferEncoding = "utf8" | "utf-8" | "ascii" | "binary" | "base64" | "hex" | "latin1";

/** The filesystem, as just-bash's `IFileSystem`. Errors carry Node's errno `code`. */
export interface IFileSystem {
  readFile(path: string, options?: { encoding?: BufferEncoding | null } | BufferEncoding): Promise<string>;
  readFileBuffer(path: string): Promise<Uint8Array>;
  readFileBytes(path: string): Promise<string>;
  writeFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void>;
  appendFile(path: string, content: FileContent, options?: { encoding?: BufferEncoding } | BufferEncoding): Promise<void>;
  exists(path: string): Promise<boolean>;
  stat(path: string): Promise<FsStat>;
  lstat(path: string): Promise<FsStat>;
  mkdir(path: string, options?: { recursive?: boolean }): Promise<void>;
  readdir(path: string): Promise<string[]>;
  readdirWithFileTypes(path: string): Promise<DirentEntry[]>;
  rm(path: string, options?: { recursive?: boolean; force?: boolean }): Promise<void>;
  cp(src: string, dest: string, options?: { recursive?: boolean }): Promise<void>;
  mv(src: string, dest: string): Promise<void>;
  resolvePath(base: string, path: string): string;
  getAllPaths(): string[];
  chmod(path: string, mode: number): Promise<void>;
  symlink(target: string, linkPath: string): Promise<void>;
  link(existingPath: string, newPath: string): Promise<void>;
  readlink(path: string): Promise<string>;
  realpath(path: string): Promise<string>;
  utimes(path: string, atime: Date, mtime: Date): Promise<void>;
}

/** A drop-in for just-bash's `Bash`: each exec a fresh shell over a persistent filesystem. */
export declare class Bash {
  constructor(options?: BashOptions);
  readonly fs: IFileSystem;
  exec(commandLine: string, options?: ExecOptions): Promise<BashExecResult>;
  registerCommand(command: Command | LazyCommand): void;
  readFile(path: string): Promise<string>;
  writeFile(path: string, content: FileContent): Promise<void>;
  getCwd(): string;
  getEnv(): Record<string, string>;
}

export interface ProcessOptions {
  command: string;
  /** Relative to the base directory (`/workspace` by default). */
  workingDirectory?: string;
  env?: Record<string, string>;
  /** Kills the command; `run` and `wait()` reject with the signal's reason. */
  abortSignal?: AbortSignal;
}

export interface SandboxProcess {
  readonly pid: number;
  readonly stdout: ReadableStream<Uint8Array>;
  readonly stderr: ReadableStream<Uint8Array>;
  wait(): Promise<{ exitCode: number }>;
  /** Stops the process; idempotent. */
  kill(): Promise<void>;
}

export interface WritableSandboxProcess extends SandboxProcess {
  /** Closing it gives the process end of file. */
  readonly stdin: WritableStream<Uint8Array>;
}

export interface PathOptions {
  path: string;
  abortSignal?: AbortSignal;
}

/** A snapshot of a session's files (`session.snapshot()`), for `restore`. */
export interface Snapshot {
  readonly __shellboxSnapshot?: never;
}

export interface SaveReport {
  seq: number;
  blobsWritten: number;
  bytesWritten: number;
}

/**
 * A sandbox session in the shape of the AI SDK's `Experimental_SandboxSession` (the
 * members eve uses) plus eve's and shellbox's own. Every member is an own property.
 */
export interface SandboxSession {
  readonly id: string;
  readonly description: string;
  run(options: ProcessOptions): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  spawn(options: ProcessOptions & { stdin: true }): Promise<WritableSandboxProcess>;
  spawn(options: ProcessOptions & { stdin?: false }): Promise<SandboxProcess>;
  spawn(options: ProcessOptions & { stdin?: boolean }): Promise<SandboxProcess | WritableSandboxProcess>;
  readFile(options: PathOptions): Promise<ReadableStream<Uint8Array> | null>;
  readBinaryFile(options: PathOptions): Promise<Uint8Array | null>;
  readTextFile(
    options: PathOptions & { encoding?: string; startLine?: number; endLine?: number },
  ): Promise<string | null>;
  writeFile(options: PathOptions & { content: ReadableStream<Uint8Array> }): Promise<void>;
  writeBinaryFile(options: PathOptions & { content: Uint8Array }): Promise<void>;
  writeTextFile(options: PathOptions & { content: string; encoding?: string }): Promise<void>;
  stat(options: PathOptions): Promise<{ type: "file" | "directory" | "other"; size: number } | null>;
  listDirectory(
    options: PathOptions,
  ): Promise<Array<{ name: string; type: "file" | "directory" | "symlink" | "other" }> | null>;
  deleteFile(options: PathOptions): Promise<boolean>;
  resolvePath(path: string): string;
  removePath(options: PathOptions & { recursive?: boolean; force?: boolean }): Promise<void>;
  /** Stops every running command; the files stay. */
  stop(): Promise<void>;
  delete(): Promise<void>;
  /** An O(1) snapshot of the files. */
  snapshot(): Snapshot;
  restore(snapshot: Snapshot): void;
  /** A new session over an O(1) copy of the files. */
  fork(): Promise<SandboxSession>;
  /**
   * Saves the session (files, id, environment, read stamps) to a store: a directory,
   * or `s3://bucket/prefix` (endpoint, region and credentials from the AWS_* variables).
   * Rejects with code `ECONFLICT`, writing nothing, when someone else saved `name`
   * there since this session was loaded from it or last saved to it.
   */
  save(storeDir: string, name: string): Promise<SaveReport>;
  /** Calls an agent tool: `read_file`, `write_file`, `edit_file`, `glob`, `grep`, `bash`. */
  callTool(name: ToolName, input: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** A persistent shell over the session's files. */
  shell(): {
    run(
      command: string,
      options?: { cwd?: string; env?: Record<string, string>; abortSignal?: AbortSignal },
    ): Promise<{ exitCode: number; stdout: string; stderr: string }>;
  };
  readonly fs: IFileSystem;
}

export type ToolName = "read_file" | "write_file" | "edit_file" | "glob" | "grep" | "bash";

export interface SandboxOptions {
  /** Initial files, relative to the base directory. */
  files?: Record<string, FileContent>;
  env?: Record<string, string>;
  /** The base directory (default `/workspace`). */
  cwd?: string;
  limits?: Limits;
  customCommands?: CustomCommands;
}

export declare function createSandbox(options?: SandboxOptions): Promise<SandboxSession>;

/** Session `name` of the store in `storeDir` (a directory or an `s3://` URL). */
export declare function loadSandbox(
  storeDir: string,
  name: string,
  options?: Omit<SandboxOptions, "files">,
): Promise<SandboxSession>;
