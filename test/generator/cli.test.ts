import { execFile } from "node:child_process";
import { mkdtemp, readFile, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";

// biome-ignore lint/suspicious/noExplicitAny: the mutations reach into arbitrary places of a parsed description
type Doc = Record<string, any>;

const root = fileURLToPath(new URL("../../", import.meta.url));
const run = promisify(execFile);

async function cli(...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await run(join(root, "node_modules/.bin/tsx"), [join(root, "generator/cli.ts"), ...args], { cwd: root });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

async function brokenCopy(mutate: (doc: Doc) => void): Promise<string> {
  const doc = parse(await readFile(join(root, "test/generator/cases/small/openapi.yaml"), "utf8")) as Doc;
  mutate(doc);
  const dir = await mkdtemp(join(tmpdir(), "cli-"));
  const file = join(dir, "openapi.yaml");
  await writeFile(file, stringify(doc));
  return file;
}

describe("the generate command", () => {
  it("prints a summary of what it wrote and exits 0", async () => {
    const out = await mkdtemp(join(tmpdir(), "out-"));
    const result = await cli("generate", "--spec", join(root, "test/generator/cases/small/openapi.yaml"), "--out", out);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/2 operations, 2 pipelines, 3 variants, 1 events, 1 error codes, 8 schemas/);
    expect(result.stdout).toMatch(/wrote operations\.ts \(\d+ bytes\)/);
    expect(await readFile(join(out, "index.ts"), "utf8")).toContain("export function createClient");
  });

  it("answers --help with its usage", async () => {
    const result = await cli("generate", "--help");
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("--spec");
  });

  it.each([
    [
      "a duplicate operationId",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post.operationId = "getItem";
      },
      '/paths/~1jobs~1{kind}/post/operationId: operationId "getItem" is also used at /paths/~1items~1{item_id}/get/operationId',
    ],
    [
      "a discriminator value the schema does not allow",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-variants"].pipelines[1].variants[0].discriminator.value = "splitter";
      },
      '/paths/~1jobs~1{kind}/post/x-paperoffice-variants/pipelines/1/variants/0/discriminator/value: "splitter" is not an allowed value',
    ],
    [
      "a variant pointing at a missing schema",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-variants"].pipelines[0].variants[0].request.$ref = "#/components/schemas/Gone";
      },
      '/paths/~1jobs~1{kind}/post/x-paperoffice-variants/pipelines/0/variants/0/request/$ref: points at "#/components/schemas/Gone", which does not exist',
    ],
    [
      "a webhook subscription mark on a body that is not JSON",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-webhook-subscription"] = "create";
      },
      "/paths/~1jobs~1{kind}/post/x-paperoffice-webhook-subscription: x-paperoffice-webhook-subscription needs a JSON request body; the body is multipart/form-data",
    ],
    [
      "a webhook subscription mark with an unknown value",
      (d: Doc) => {
        d.paths["/jobs/{kind}"].post["x-paperoffice-webhook-subscription"] = true;
      },
      '/paths/~1jobs~1{kind}/post/x-paperoffice-webhook-subscription: x-paperoffice-webhook-subscription must be "create" or "update", found true',
    ],
  ])("refuses %s with one line naming the JSON pointer, no stack trace, exit 1", async (_name, mutate, line) => {
    const result = await cli("generate", "--spec", await brokenCopy(mutate), "--out", await mkdtemp(join(tmpdir(), "out-")));
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(line);
    expect(result.stderr).not.toMatch(/\n\s+at /);
  });

  it("refuses an unknown release and a missing file with one clear line", async () => {
    const release = await cli("generate", "--release", "R19990101.0000");
    expect(release.code).toBe(1);
    expect(release.stderr.trim()).toMatch(/^error: release R19990101\.0000 is not in .*\(known: R\d{8}\.\d{4}/);
    const missing = await cli("generate", "--spec", "nope.yaml", "--out", await mkdtemp(join(tmpdir(), "out-")));
    expect(missing.code).toBe(1);
    expect(missing.stderr).toMatch(/^error: .*nope\.yaml/);
    expect(missing.stderr).not.toMatch(/\n\s+at /);
  });
});
