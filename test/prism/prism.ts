// Prism (@stoplight/prism-cli) on a description, in mock mode or as a validating proxy in front of a server, on
// 127.0.0.1 and a free port, as a child process whose output is drained as it comes: only its tail is kept, for the
// error of a start that fails.
import { type ChildProcess, spawn } from "node:child_process";
import { createRequire } from "node:module";
import { createServer } from "node:net";
import { dirname, join } from "node:path";

const require = createRequire(import.meta.url);
const PRISM = join(dirname(require.resolve("@stoplight/prism-cli/package.json")), "dist", "index.js");
const TAIL = 4000;

export interface PrismServer {
  readonly url: string;
  /** Ends the process and waits for its exit. */
  stop(): Promise<void>;
}

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port from the system");
  return address.port;
}

function exited(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return Promise.resolve();
  return new Promise((resolve) => child.once("exit", () => resolve()));
}

/**
 * Proxy mode: every request is checked and forwarded to `upstream`, and every answer checked against the description
 * (its findings in the `sl-violations` header). With `errors`, an answer with an error-level finding becomes Prism's
 * 500 VIOLATIONS problem.
 */
export interface ProxyMode {
  readonly upstream: string;
  readonly errors?: boolean;
}

/** Mock mode; with `errors`, a request with an error-level finding is refused (422) rather than answered. */
export interface MockMode {
  readonly errors: boolean;
}

/**
 * Starts `prism mock` on the description (static answers: examples first, no random data), or `prism proxy` when a
 * proxy mode is given; resolves once it listens.
 */
export async function startPrism(description: string, startMs = 180_000, mode?: ProxyMode | MockMode): Promise<PrismServer> {
  const port = await freePort();
  // Errors only: its log of every request costs it time a large description's run does not have.
  const common = ["-h", "127.0.0.1", "-p", String(port), "-v", "error"];
  const errors = mode?.errors ? ["--errors"] : [];
  const args =
    mode !== undefined && "upstream" in mode
      ? ["proxy", ...common, description, mode.upstream, ...errors]
      : ["mock", ...common, description, ...errors];
  const child = spawn(process.execPath, [PRISM, ...args], { stdio: ["ignore", "pipe", "pipe"] });
  // Should the test process end without its afterAll (a filtered or interrupted run), Prism ends with it.
  const orphaned = () => child.kill("SIGKILL");
  process.once("exit", orphaned);
  let tail = "";
  const take = (chunk: Buffer) => {
    tail = (tail + chunk.toString("utf8")).slice(-TAIL);
  };
  child.stdout?.on("data", take);
  child.stderr?.on("data", take);
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill("SIGTERM");
      const killer = setTimeout(() => child.kill("SIGKILL"), 5000);
      await exited(child);
      clearTimeout(killer);
    }
    process.off("exit", orphaned);
  };
  const url = `http://127.0.0.1:${port}`;
  let timer: NodeJS.Timeout | undefined;
  let waiting = true;
  // Any HTTP answer means it listens (its start message is below the error level).
  const listening = (async () => {
    while (waiting) {
      if (
        await fetch(`${url}/`).then(
          () => true,
          () => false,
        )
      )
        return;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  })();
  try {
    await Promise.race([
      listening,
      exited(child).then(() => {
        throw new Error(`prism exited before listening (code ${child.exitCode}):\n${tail}`);
      }),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`prism did not listen within ${startMs} ms:\n${tail}`)), startMs);
      }),
    ]);
  } catch (error) {
    await stop();
    throw error;
  } finally {
    waiting = false;
    clearTimeout(timer);
  }
  return { url, stop };
}
