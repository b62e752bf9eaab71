// The benchmark harness itself: whole-process measurement, and `npm run bench -- --quick` end to end. Speed is never
// asserted; what is checked is that every figure is measured and printed with its peer, the load and the versions.
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { measureProcess } from "../../scripts/bench/processes.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

/** Node code that keeps the CPU busy for `ms` of wall time, then allocates `mib` MiB and touches it. */
const busy = (ms: number, mib: number) =>
  `const end = Date.now() + ${ms}; while (Date.now() < end) {} const b = Buffer.alloc(${mib} * 1048576, 1); console.log(b[0]);`;

describe("measureProcess", () => {
  it("reports the CPU time, peak RSS and wall time of a node process", async () => {
    const r = await measureProcess(process.execPath, ["-e", busy(400, 64)]);
    expect(r.code).toBe(0);
    expect(r.processes).toBe(1);
    // A busy loop of 400 ms of wall time gets at least some of it as CPU even on a loaded machine.
    expect(r.cpuMs).toBeGreaterThan(100);
    expect(r.wallMs).toBeGreaterThanOrEqual(400);
    expect(r.peakRssMiB).toBeGreaterThan(64);
    expect(r.load).toBeGreaterThanOrEqual(0);
  });

  it("adds up the CPU time of the node processes a command starts, and takes the largest peak RSS", async () => {
    const child = JSON.stringify(busy(300, 96));
    const parent = `require("node:child_process").execFileSync(process.execPath, ["-e", ${child}], { stdio: "inherit" }); ${busy(300, 8)}`;
    const r = await measureProcess(process.execPath, ["-e", parent]);
    expect(r.code).toBe(0);
    expect(r.processes).toBe(2);
    expect(r.cpuMs).toBeGreaterThan(200);
    expect(r.peakRssMiB).toBeGreaterThan(96);
    expect(r.userMs + r.systemMs).toBeCloseTo(r.cpuMs, 5);
  });

  it("reports a failing command's exit code", async () => {
    const r = await measureProcess(process.execPath, ["-e", "process.exit(3)"]);
    expect(r.code).toBe(3);
  });
});

describe("npm run bench -- --quick", () => {
  it("prints generation, requests and bundles with their peers, the load average and the versions", { timeout: 400_000 }, async () => {
    const { stdout } = await run(join(root, "node_modules/.bin/tsx"), [join(root, "scripts/bench/index.ts"), "--quick"], {
      cwd: root,
      maxBuffer: 16 * 1024 * 1024,
    });
    const installed = (name: string) =>
      (JSON.parse(readFileSync(join(root, "node_modules", name, "package.json"), "utf8")) as { version: string }).version;
    expect(stdout).toMatch(/^Load average \(1 \/ 5 \/ 15 min\): [\d.]+ \/ [\d.]+ \/ [\d.]+ at the start/m);
    expect(stdout).toContain(`openapi-typescript ${installed("openapi-typescript")}`);
    expect(stdout).toContain(`@hey-api/openapi-ts ${installed("@hey-api/openapi-ts")}`);
    const summaryRow = (label: string) => stdout.split("\n").find((line) => line.startsWith(`| ${label}`));
    // Each row: a measured figure (a number with its unit), and where the goal has a peer, the peer's figure.
    expect(summaryRow("generation, the service's own, `npm run generate` (wall)")).toMatch(/\| [\d.]+ (ms|s) \|/);
    expect(summaryRow("per-request time, loopback GET, sequential")).toMatch(/\| [\d.]+ µs \| raw fetch [\d.]+ µs \| [\d.]+x \|/);
    expect(summaryRow("per-request time, loopback GET, 64 in flight")).toMatch(/\| [\d.]+ µs \| raw fetch [\d.]+ µs \| [\d.]+x \|/);
    expect(summaryRow("bundle, one operation (min + gzip)")).toMatch(/\| [\d.]+ kB/);
    expect(summaryRow("bundle, whole client (min + gzip)")).toMatch(/\| [\d.]+ kB/);
    // The whole-process table: our command and openapi-typescript's CLI, each with CPU time, peak RSS and load.
    const tableRow = (label: string) => stdout.split("\n").find((line) => line.startsWith(`| ${label}`));
    for (const label of ["`npm run generate` (tsx, sources)", "openapi-typescript CLI"]) {
      expect(tableRow(label)).toMatch(
        /^\| [^|]+ \| [\d.]+ (ms|s) \| [\d.]+ (ms|s) \| [\d.]+ (ms|s) \/ [\d.]+ (ms|s) \| \d+ MiB \(worst \d+ MiB\) \| [\d.]+x \| [\d.]+x \| \d+ \| [\d.]+\.\.[\d.]+ \|$/,
      );
    }
  });
});
