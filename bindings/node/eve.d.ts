// Types of `shellbox/eve`: shellbox as an eve sandbox provider.
import type { SandboxProvider, SandboxProviderImplementation } from "eve/sandbox/provider";
import type { SandboxSession as EveSandboxSession } from "eve/sandbox";
import type { CustomCommands, Limits, SandboxSession } from "./index.js";

export interface ShellboxEnvironmentOptions {
  /** Host commands in every live sandbox (not during preparation). */
  customCommands?: CustomCommands;
  limits?: Limits;
  env?: Record<string, string>;
  /** Idempotent setup, run once per template and frozen with it. */
  prepare?: (sandbox: SandboxSession) => Promise<void> | void;
}

export interface ShellboxArtifact {
  readonly version: 1;
  readonly template: string;
  readonly [key: string]: string | number;
}

export interface ShellboxState {
  readonly version: 1;
  readonly template: string;
  readonly session: string;
}

/** The eve sandbox provider: `ShellboxSandbox.environment({...}).open()`. */
export declare const ShellboxSandbox: SandboxProvider<ShellboxEnvironmentOptions | undefined, undefined, EveSandboxSession>;

/** The provider's implementation (what eve calls: prepare, start, resume, onSessionEnd). */
export declare function createShellboxProvider(
  options?: ShellboxEnvironmentOptions,
): SandboxProviderImplementation<undefined, ShellboxArtifact, ShellboxState, EveSandboxSession>;

export default ShellboxSandbox;
