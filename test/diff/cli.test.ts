import { mkdir, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { at, base } from "./helpers.js";
import { cli, ROOT } from "./cli.js";

const work = join(ROOT, ".tmp", "diff-cli");
const breakingFile = join(work, "breaking.yaml");
const warningFile = join(work, "warning.yaml");

beforeAll(async () => {
  await mkdir(work, { recursive: true });
  const document = structuredClone((await base()).document);
  at(document, "/components/schemas/Severity").enum = ["low", "medium", "high"];
  await writeFile(breakingFile, stringify(document));
  const unreadable = structuredClone((await base()).document);
  at(unreadable, "/components/schemas/WebhookUrl").pattern = "^(?=h)https?://";
  await writeFile(warningFile, stringify(unreadable));
});

// Each case starts its own commands: side by side, they use both cores of a small machine and take a larger share
// of a loaded one.
describe("npm run diff", { timeout: 300_000, concurrent: true }, () => {
  it("prints the changelog section of two releases and exits 0 when nothing breaks", async () => {
    const run = await cli("diff", "R20261120.0900", "R20261127.0900", "--no-types");
    expect(run.stderr).not.toMatch(/error/);
    expect(run.code).toBe(0);
    expect(run.stdout).toMatch(/^## R20261127\.0900 \(package 2026\.1127\.900\), from R20261120\.0900\n/);
    expect(run.stdout).toContain("`variants.field.added`");
  });

  it("prints JSON with --format json", async () => {
    const run = await cli("diff", "R20261120.0900", "R20261127.0900", "--format", "json", "--no-types");
    expect(run.code).toBe(0);
    const report = JSON.parse(run.stdout) as { from: string; to: string; breaking: number; changes: { rule: string; pointer: string }[] };
    expect(report).toMatchObject({ from: "R20261120.0900", to: "R20261127.0900", breaking: 0 });
    expect(report.changes.map((c) => c.rule)).toEqual(["variants.field.added", "variants.field.added"]);
  });

  it("exits 1 when something breaks, 0 with --allow-breaking; a file path works as a release", async () => {
    const run = await cli("diff", "R20261127.0900", breakingFile, "--no-types");
    expect(run.code).toBe(1);
    expect(run.stdout).toContain("### Breaking");
    expect(run.stdout).toMatch(/`request\.enum\.value-removed` \(new `\/components\/schemas\/Severity`\)/);
    const allowed = await cli("diff", "R20261127.0900", breakingFile, "--no-types", "--allow-breaking", "--format", "json");
    expect(allowed.code).toBe(0);
    expect(JSON.parse(allowed.stdout)).toMatchObject({
      breaking: 1,
      changes: [{ rule: "request.enum.value-removed", severity: "breaking" }],
    });
  });

  it("lists a change that may break under its own heading; exits 0 unless --fail-on warning", async () => {
    const run = await cli("diff", "R20261127.0900", warningFile, "--no-types");
    expect(run.code).toBe(0);
    expect(run.stdout).toContain("1 change, 0 breaking, 1 that may break.");
    expect(run.stdout).toContain("### May break (not proven either way)");
    const strict = await cli("diff", "R20261127.0900", warningFile, "--no-types", "--fail-on", "warning", "--format", "json");
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({
      breaking: 0,
      warnings: 1,
      changes: [{ rule: "request.pattern.changed", severity: "warning" }],
    });
  });

  it("reports wrong input on one line, without a stack trace, and exits 1", async () => {
    const inputs = [
      ["diff", "R20261120.0900"],
      ["diff", "R20261120.0900", "R29990101.0000", "--no-types"],
      ["diff", "R20261120.0900", "R20261127.0900", "--format", "xml"],
      ["diff", "R20261120.0900", "R20261127.0900", "--fail-on", "info"],
      ["diff", "R20261120.0900", join(work, "missing.yaml"), "--no-types"],
    ];
    // In parallel: each is a process start-up and one line, and the machine may be busy.
    const runs = await Promise.all(inputs.map((args) => cli(...args)));
    for (const [i, run] of runs.entries()) {
      expect(run.code, inputs[i]!.join(" ")).toBe(1);
      expect(run.stderr).toMatch(/^error: /);
      expect(run.stderr).not.toMatch(/\n\s+at /);
    }
  });
});
