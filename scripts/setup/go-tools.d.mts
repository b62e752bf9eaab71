// Types of go-tools.mjs.

/** The repository root. */
export declare const REPO_ROOT: string;

/** Where the Go tools are installed: .tools/go/bin of the repository. */
export declare const GO_TOOLS_BIN: string;

/** The tools, by command name, with the module version each is installed at. */
export declare const GO_TOOLS: Readonly<Record<string, string>>;

/** Installs each missing tool into GO_TOOLS_BIN and returns the path of each by command name. */
export declare function ensureGoTools(options?: { log?: (line: string) => void }): Promise<Record<string, string>>;
