// Runs modproxy/, the Go program that writes module versions into a module proxy folder and hashes module zips with
// golang.org/x/mod, Go's own module library: the zip's files, its checks and its h1: hash are then the go command's.
// `go run` builds it once and keeps the executable in Go's build cache.
import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const PROGRAM = fileURLToPath(new URL("./modproxy/", import.meta.url));
const run = promisify(execFile);

/**
 * The proxies golang.org/x/mod itself comes from: the caller's, less file:// folders (the folder being published
 * to holds no golang.org/x/mod), else Go's default.
 */
function sourceProxies(value: string | undefined): string | undefined {
  const kept = (value ?? "").split(/[,|]/).filter((p) => p !== "" && !p.startsWith("file://"));
  return kept.length === 0 ? undefined : kept.join(",");
}

/**
 * `modproxy hash <zip>` or `modproxy add <proxy> <module folder> <module path> <version> <time>`; returns the h1: hash
 * it prints. Throws with the program's message when it fails, and says so when the go command is missing.
 */
export async function modproxy(args: readonly string[]): Promise<string> {
  const { GOPROXY, ...env } = process.env;
  const proxies = sourceProxies(GOPROXY);
  try {
    const { stdout } = await run("go", ["run", ".", ...args], {
      cwd: PROGRAM,
      // Its own module only, its go.sum as committed, no version control stamp.
      env: { ...env, ...(proxies === undefined ? {} : { GOPROXY: proxies }), GOWORK: "off", GOFLAGS: "-mod=readonly -buildvcs=false" },
      timeout: 600_000,
    });
    return stdout.trim();
  } catch (error) {
    const failed = error as { code?: unknown; stderr?: string; message: string };
    if (failed.code === "ENOENT")
      throw new Error(
        "go: the go command is not on PATH; publishing Go modules needs it (module zips and hashes come from golang.org/x/mod)",
      );
    // Without go's own lines around the program's message: its downloads and the exit status.
    const said = (failed.stderr ?? "")
      .split("\n")
      .filter((line) => line.trim() !== "" && !/^go: downloading |^exit status \d+$/.test(line))
      .map((line) => line.replace(/^modproxy: /, ""))
      .join("\n");
    throw new Error(`go: modproxy ${args[0] ?? ""}: ${said || failed.message}`);
  }
}
