// The Python section of `npm run bench` (`--only=python`, quick): every figure measured and printed beside its peer.
// Speed is never asserted; the connection count is a property, not a speed: 100 sequential calls on one socket.
import { execFile } from "node:child_process";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

describe("npm run bench -- --quick --only=python", () => {
  it("prints the SDK's import time beside httpx's, per-request times beside httpx alone's, and the connections", {
    timeout: 400_000,
  }, async () => {
    const { stdout } = await run(join(root, "node_modules/.bin/tsx"), [join(root, "scripts/bench/index.ts"), "--quick", "--only=python"], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
    const row = (label: string) => stdout.split("\n").find((line) => line.startsWith(`| ${label}`));
    expect(row("Python: import time of the SDK")).toMatch(/\| [\d.]+ ms \| httpx alone [\d.]+ ms \| [\d.]+x \|/);
    expect(row("Python: `python -c 'import ")).toMatch(/\| [\d.]+ (ms|s) \| httpx alone [\d.]+ (ms|s) \| [\d.]+x \|/);
    for (const flavor of ["sync", "async"]) {
      expect(row(`Python: per-request time, loopback GET, ${flavor}`)).toMatch(
        /\| [\d.]+ µs \| httpx alone [\d.]+ µs \| [\d.]+x \| <= 1\.15x \|/,
      );
      expect(row(`Python: client CPU per request, ${flavor}`)).toMatch(/\| [\d.]+ µs \| httpx alone [\d.]+ µs \| [\d.]+x \|/);
      expect(row(`Python: connections opened for 100 sequential calls, ${flavor}`)).toMatch(/\| 1 \| httpx alone 1 \|\s+\| 1 \| met \|$/);
    }
    // The detail tables: three import commands with wall and CPU, four clients.
    expect(stdout).toMatch(/^\| `pass` \(interpreter start-up, no import\) \| — \| [\d.]+ (ms|s) \(/m);
    expect(stdout.split("\n").filter((line) => /^\| (our SDK|httpx alone), (sync|async)/.test(line))).toHaveLength(4);
  });
});
