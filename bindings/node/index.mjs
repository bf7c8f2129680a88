// ES module entry: the same objects as the CommonJS one.
import shellbox from "./index.cjs";

export const { Bash, createSandbox, defineCommand, loadSandbox } = shellbox;
export default shellbox;
