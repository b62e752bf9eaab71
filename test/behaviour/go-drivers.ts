// The Go drivers (drivers/go: the behaviour driver at ".", the soak's at "./soak"), built once per test file against
// generated/go and the runtime module in a go.work of a temporary folder, so that nothing is fetched. A cold build
// also compiles the parts of the standard library the drivers use (net/http and what it needs): on a fresh, loaded
// 2-core machine that takes minutes, so the tests build in a hook with a limit of its own (GO_BUILD_LIMIT_MS)
// rather than inside a test's limit, and a build that fails says why.
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";

const root = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL("./", import.meta.url));

export const GO_BUILD_LIMIT_MS = 600_000;

export interface GoDriver {
  binary: string;
  env: NodeJS.ProcessEnv;
}

let folder: Promise<{ dir: string; env: NodeJS.ProcessEnv }> | undefined;
const builds = new Map<string, Promise<GoDriver>>();

function workspace(): Promise<{ dir: string; env: NodeJS.ProcessEnv }> {
  folder ??= (async () => {
    const dir = await mkdtemp(join(tmpdir(), "behaviour-go-"));
    const uses = [join(root, "generated", "go"), join(root, "targets", "go", "runtime"), join(here, "drivers", "go")];
    await writeFile(join(dir, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join("")})\n`);
    return { dir, env: { ...process.env, GOWORK: join(dir, "go.work"), GOPROXY: "off", GOFLAGS: "" } };
  })();
  return folder;
}

/** Builds the driver package once (later calls get the same binary). */
export function buildGoDriver(pkg: "." | "./soak"): Promise<GoDriver> {
  let build = builds.get(pkg);
  if (!build) {
    build = (async () => {
      const { dir, env } = await workspace();
      const binary = join(dir, pkg === "." ? "driver" : "soak");
      try {
        await promisify(execFile)("go", ["build", "-o", binary, pkg], {
          cwd: join(here, "drivers", "go"),
          env,
          timeout: GO_BUILD_LIMIT_MS - 10_000,
        });
      } catch (error) {
        const { killed, stderr } = error as { killed?: boolean; stderr?: string };
        const why = killed ? `still running after ${(GO_BUILD_LIMIT_MS - 10_000) / 1000} s` : (stderr ?? String(error));
        throw new Error(`go build of the Go driver ${pkg} failed: ${why}`);
      }
      return { binary, env };
    })();
    builds.set(pkg, build);
  }
  return build;
}

/** Removes the built drivers' folder. */
export async function removeGoDrivers(): Promise<void> {
  const made = folder;
  folder = undefined;
  builds.clear();
  if (made) await rm((await made).dir, { recursive: true, force: true });
}
