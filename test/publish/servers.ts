// Local package registries for the publish tests, each started on 127.0.0.1 by the test that needs it and stopped
// with it: a pypiserver from the repository's Python tool environment, and (npm.ts) a Verdaccio.
import { type ChildProcess, spawn } from "node:child_process";
import { mkdir, writeFile } from "node:fs/promises";
import { createServer } from "node:net";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { venvBin } from "../../targets/python/test/package.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** A port free on 127.0.0.1 when asked (the server started next takes it). */
export async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

export interface LocalRegistry {
  /** The registry's base URL (ending in `/`). */
  readonly url: string;
  readonly stop: () => Promise<void>;
}

/** Waits until `url` answers (any status), or fails with what the process printed. */
export async function waitFor(url: string, child: ChildProcess, output: () => string, limit = 60_000): Promise<void> {
  const started = Date.now();
  while (Date.now() - started < limit) {
    if (child.exitCode !== null) throw new Error(`the server exited (${child.exitCode}) before answering ${url}:\n${output()}`);
    try {
      await fetch(url);
      return;
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  throw new Error(`no answer from ${url} within ${limit} ms:\n${output()}`);
}

/** Stops a child process and waits for it to exit. */
export function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => {
    child.once("exit", () => resolve());
    child.kill("SIGTERM");
  });
}

/** A pypiserver on a free port of 127.0.0.1 keeping its packages in `dir/packages`, uploads open to anyone (no auth); like PyPI, it refuses a file it already holds. */
export async function startPypiServer(dir: string): Promise<LocalRegistry> {
  const packages = join(dir, "packages");
  await mkdir(packages, { recursive: true });
  const port = await freePort();
  const child = spawn(`${venvBin}pypi-server`, ["run", "-i", "127.0.0.1", "-p", String(port), "-a", ".", "-P", ".", packages], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  child.stderr?.on("data", (d: Buffer) => {
    output += d.toString();
  });
  const url = `http://127.0.0.1:${port}/`;
  await waitFor(url, child, () => output);
  return { url, stop: () => stopChild(child) };
}

/**
 * A Verdaccio on a free port of 127.0.0.1, its configuration, storage and users (htpasswd) in `dir`, with no uplink:
 * it holds only what the test publishes. Returns the registry and a token of a user created through its API.
 */
export async function startVerdaccio(dir: string): Promise<LocalRegistry & { readonly token: string }> {
  await mkdir(join(dir, "storage"), { recursive: true });
  const port = await freePort();
  const config = join(dir, "config.yaml");
  await writeFile(
    config,
    [
      `storage: ${JSON.stringify(join(dir, "storage"))}`,
      "auth:",
      "  htpasswd:",
      `    file: ${JSON.stringify(join(dir, "htpasswd"))}`,
      "uplinks: {}",
      "packages:",
      "  '**':",
      "    access: $all",
      "    publish: $authenticated",
      "log: { type: stdout, format: pretty, level: warn }",
      "",
    ].join("\n"),
  );
  const bin = join(ROOT, "node_modules", ".bin", "verdaccio");
  const child = spawn(bin, ["--config", config, "--listen", `127.0.0.1:${port}`], { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  for (const stream of [child.stdout, child.stderr])
    stream?.on("data", (d: Buffer) => {
      output += d.toString();
    });
  const url = `http://127.0.0.1:${port}/`;
  await waitFor(`${url}-/ping`, child, () => output);
  // A user of this registry only, made for the test.
  const response = await fetch(`${url}-/user/org.couchdb.user:publisher`, {
    method: "PUT",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ name: "publisher", password: "local-test-password" }),
  });
  const { token } = (await response.json()) as { token?: string };
  if (!response.ok || token === undefined) throw new Error(`Verdaccio made no user (${response.status}):\n${output}`);
  return { url, token, stop: () => stopChild(child) };
}
