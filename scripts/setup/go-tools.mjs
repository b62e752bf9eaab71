// Go tools the Go runtime's checks use, installed pinned into .tools/go/bin of the repository (ignored by git) so
// that nothing is installed system-wide. Importable (`await ensureGoTools()`) and runnable: `node scripts/setup/go-tools.mjs`.
import { execFile } from "node:child_process";
import { existsSync } from "node:fs";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const run = promisify(execFile);

/** The repository root: two folders above this file. */
export const REPO_ROOT = resolve(dirname(fileURLToPath(import.meta.url)), "..", "..");

/** Where the Go tools are installed. */
export const GO_TOOLS_BIN = join(REPO_ROOT, ".tools", "go", "bin");

/** The tools, by command name, with the module version each is installed at. */
export const GO_TOOLS = { staticcheck: "honnef.co/go/tools/cmd/staticcheck@v0.8.2" };

/**
 * Installs each missing tool with `go install` into GO_TOOLS_BIN and returns the path of each by command name. A
 * tool already there is kept. Throws with go's output when an install fails.
 * @param {{ log?: (line: string) => void }} [options]
 * @returns {Promise<Record<string, string>>}
 */
export async function ensureGoTools(options = {}) {
  const log = options.log ?? (() => {});
  /** @type {Record<string, string>} */
  const paths = {};
  for (const [name, module] of Object.entries(GO_TOOLS)) {
    const path = join(GO_TOOLS_BIN, process.platform === "win32" ? `${name}.exe` : name);
    if (!existsSync(path)) {
      log(`installing ${module} into ${GO_TOOLS_BIN}`);
      try {
        await run("go", ["install", module], { env: { ...process.env, GOBIN: GO_TOOLS_BIN }, timeout: 600_000 });
      } catch (error) {
        const detail = /** @type {{ stderr?: string; message?: string }} */ (error);
        throw new Error(`go install ${module} failed: ${detail.stderr || detail.message}`);
      }
    }
    paths[name] = path;
  }
  return paths;
}

if (process.argv[1] !== undefined && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const paths = await ensureGoTools({ log: (line) => console.log(line) });
  for (const [name, path] of Object.entries(paths)) console.log(`${name}: ${path}`);
}
