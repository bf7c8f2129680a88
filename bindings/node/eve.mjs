// `shellbox/eve`: shellbox as an eve sandbox provider (eve is an optional peer
// dependency, needed only for this entry point).
import { defineSandboxProvider } from "eve/sandbox/provider";
import provider from "./lib/eve-provider.cjs";

export const ShellboxSandbox = provider.makeProvider(defineSandboxProvider);
export const { createShellboxProvider } = provider;
export default ShellboxSandbox;
