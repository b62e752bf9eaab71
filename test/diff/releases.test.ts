/**
 * Releases: pinning (the generated client names its release and sends it), adding a new release from a URL served on
 * 127.0.0.1 (validated, written as a new file, generated), and refusing bad additions without touching spec/releases.
 */
import { createHash } from "node:crypto";
import { readdir, readFile, rm, writeFile, mkdir } from "node:fs/promises";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stringify } from "yaml";
import { createClient, DESCRIPTION_HASH, getJob, RELEASE } from "../../generated/index.js";
import { generate, writeFiles } from "../../generator/generate.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import { addRelease } from "../../generator/releases/add.js";
import { listReleases, releasesDir } from "../support/service-releases.js";
import { base, type Doc } from "./helpers.js";
import { cli, ROOT } from "./cli.js";

const work = join(ROOT, ".tmp", "releases-test");
const served = new Map<string, string>();
const seenAgents: string[] = [];
let server: http.Server;
let origin = "";

beforeAll(async () => {
  await rm(work, { recursive: true, force: true });
  await mkdir(join(work, "releases"), { recursive: true });
  server = http.createServer((req, res) => {
    seenAgents.push(String(req.headers["user-agent"]));
    const body = served.get(req.url ?? "");
    if (req.url?.startsWith("/latest/job/get/")) {
      res.writeHead(200, { "content-type": "application/json" });
      res.end(JSON.stringify({ status: "success", job_id: "j1", job_status: "completed", result: {}, processing_time: "1ms" }));
    } else if (body === undefined) {
      res.writeHead(404).end();
    } else {
      res.writeHead(200, { "content-type": "application/yaml" }).end(body);
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => server.close(resolve));
});

const release = async (version: string, change: (d: Doc) => void = () => {}): Promise<string> => {
  const document = structuredClone((await base()).document);
  (document.info as Doc).version = version;
  change(document);
  return stringify(document);
};

describe("pinning", { timeout: 60_000 }, () => {
  it("the committed client names the release and description it was generated from", async () => {
    const manifest = JSON.parse(await readFile(join(ROOT, "generated", "manifest.json"), "utf8")) as {
      release: string;
      descriptionHash: string;
    };
    expect(RELEASE).toBe(manifest.release);
    expect(DESCRIPTION_HASH).toBe(manifest.descriptionHash);
    const text = await readFile(join(releasesDir, `${RELEASE}.yaml`), "utf8");
    expect(createHash("sha256").update(text).digest("hex")).toBe(DESCRIPTION_HASH);
  });

  it("sends the release in its User-Agent", async () => {
    seenAgents.length = 0;
    const client = createClient({ baseUrl: `${origin}/latest`, token: "svc_sk_test" });
    await getJob(client, { job_id: "j1" });
    expect(seenAgents[0]).toMatch(new RegExp(`^document-automation-service-sdk-typescript/${RELEASE.replace(".", "\\.")}( |$)`));
  });

  it("generates a pinned release: `generate --release R...`", async () => {
    const out = join(work, "pinned");
    const run = await cli("generate", "--release", "R20261120.0900", "--out", out);
    expect(run.code).toBe(0);
    expect(await readFile(join(out, "model.ts"), "utf8")).toContain('export const RELEASE = "R20261120.0900";');
  });
});

describe("adding a release from a URL", () => {
  it("validates it, writes it as <id>.yaml without touching the others, and generates it", async () => {
    const dir = join(work, "releases/");
    await writeFile(join(dir, "R20261120.0900.yaml"), "kept as is\n");
    served.set("/latest/openapi.yaml", await release("R20261204.0900"));
    const added = await addRelease(`${origin}/latest/openapi.yaml`, dir);
    expect(added).toMatchObject({ id: "R20261204.0900", previous: "R20261120.0900", current: true });
    expect(listReleases(dir)).toEqual(["R20261120.0900", "R20261204.0900"]);
    expect(await readFile(join(dir, "R20261204.0900.yaml"), "utf8")).toBe(served.get("/latest/openapi.yaml"));
    expect(await readFile(join(dir, "R20261120.0900.yaml"), "utf8")).toBe("kept as is\n");

    const out = join(work, "generated");
    const { files, ir } = await generate(added.file, { ...withLocalRuntime(out) });
    await writeFiles(out, files);
    expect(ir.info.version).toBe("R20261204.0900");
    expect(await readFile(join(out, "model.ts"), "utf8")).toContain('export const RELEASE = "R20261204.0900";');
  });

  it("accepts an id older than the current one without making it current", async () => {
    const dir = join(work, "releases/");
    served.set("/older.yaml", await release("R20261110.0900"));
    expect(await addRelease(`${origin}/older.yaml`, dir)).toMatchObject({ id: "R20261110.0900", current: false });
  });
});

describe("refusing an addition: one line, exit 1, spec/releases untouched", { timeout: 60_000 }, () => {
  const cases: [string, () => Promise<string>, RegExp][] = [
    [
      "a bad release id",
      () => release("R2026-11-27"),
      /\/info\/version: "R2026-11-27" is neither a semver version \(such as 1\.2\.0\) nor a release id R<yyyymmdd>\.<hhmm>/,
    ],
    ["an id naming no date", () => release("R20261131.0900"), /names no calendar date/],
    ["an id already present", () => release("R20261120.0900"), /release R20261120\.0900 already exists/],
    [
      "an invalid description",
      () => release("R20261204.0900", (d) => delete (d.info as Doc).title),
      /\/info\/title: missing: a string is required/,
    ],
    ["an invalid variants extension", () => release("R20261204.0900", breakVariants), /x-paperoffice-variants/],
  ];
  it.each(cases)("%s", async (_, make, message) => {
    served.set("/bad.yaml", await make());
    const before = await snapshot();
    const run = await cli("generate", "--add", `${origin}/bad.yaml`, "--out", join(work, "never"));
    expect(run.code).toBe(1);
    expect(run.stderr).toMatch(message);
    expect(run.stderr).not.toMatch(/\n\s+at /);
    expect(run.stdout).toBe("");
    expect(await snapshot()).toEqual(before);
  });

  it("an unreachable URL", async () => {
    const run = await cli("generate", "--add", `${origin}/missing.yaml`);
    expect(run.code).toBe(1);
    expect(run.stderr).toBe(`error: ${origin}/missing.yaml: HTTP 404 when fetching the description\n`);
  });

  it("--add with --release", async () => {
    const run = await cli("generate", "--add", `${origin}/bad.yaml`, "--release", "R20261120.0900");
    expect(run.stderr).toBe("error: give one of --spec, --release and --add\nrun `paperoffice-sdk --help` for the usage\n");
    expect(run.code).toBe(1);
  });
});

function breakVariants(d: Doc): void {
  const op = ((d.paths as Doc)["/job/add/{pipeline}"] as Doc).post as Doc;
  const ext = op["x-paperoffice-variants"] as { pipelines: { variants: { request: unknown }[] }[] };
  ext.pipelines[0]!.variants[0]!.request = { $ref: "#/components/schemas/NoSuchRequest" };
}

async function snapshot(): Promise<Record<string, string>> {
  const names = (await readdir(releasesDir)).sort();
  return Object.fromEntries(
    await Promise.all(
      names.map(
        async (n) =>
          [
            n,
            createHash("sha256")
              .update(await readFile(join(releasesDir, n)))
              .digest("hex"),
          ] as const,
      ),
    ),
  );
}
