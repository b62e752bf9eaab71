// What the Prism tests share: a description's clients generated into a folder with their fixtures, every operation
// called through each generated client in turn (TypeScript, then Python blocking and asyncio, then Go) over the same
// Prism servers, and the findings the tests judge: requests never sent, request violations, answers not accepted.
import { join } from "node:path";
import type { FixtureCase } from "../../generator/emit/fixtures/index.js";
import { generate, writeFiles } from "../../generator/generate.js";
import { operationFileNames } from "../../generator/emit/operation-files.js";
import { sample, seededRandom } from "../../generator/emit/fixtures/sample.js";
import type { IR, Operation, Parameter } from "../../generator/ir/types.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import { pythonNames } from "../../targets/python/emit/view.js";
import {
  type CallFixture,
  type CallOutcome,
  type Client,
  callOperation,
  freshConnections,
  pooled,
  preferredStatus,
  type Reach,
} from "./calls.js";
import { buildGoDriver, callGoOperations } from "./go.js";
import { callPythonOperations } from "./python.js";

/** The generated clients, each driven in turn over the same Prism servers. */
export const CLIENTS = ["typescript", "python", "python asyncio", "go"] as const;
export type ClientName = (typeof CLIENTS)[number];

export interface Generated {
  /** The folder the files were written to: the TypeScript client at its top, python/ and go/ below it. */
  readonly out: string;
  readonly ir: IR;
  /** The first fixture case of each operation, by operation id. */
  readonly fixtures: ReadonlyMap<string, CallFixture>;
}

/**
 * The fixture with a sampled value of each required header and cookie parameter, which the fixtures emitter leaves
 * out (seeded by the operation, so stable).
 */
function withHeaderParameters(ir: IR, op: Operation, fixture: FixtureCase): CallFixture {
  const scope = { named: new Map(ir.schemas.map((s) => [s.name, s])), random: seededRandom(`${op.id}/parameters`) };
  const values = (list: readonly Parameter[]) =>
    Object.fromEntries(list.filter((p) => p.required).map((p) => [p.name, sample(p.schema, scope, 0, p.name)]));
  return { ...fixture, request: { ...fixture.request, header: values(op.parameters.header), cookie: values(op.parameters.cookie) } };
}

/**
 * Generates the three clients and the fixtures of a description into `out`; with `headerParameters`, the fixtures
 * get values of the required header and cookie parameters too.
 */
export async function generateClients(description: string, out: string, headerParameters = false): Promise<Generated> {
  const generation = await generate(description, {
    ...withLocalRuntime(out),
    languages: ["typescript", "python", "go"],
    outputs: ["fixtures"],
  });
  await writeFiles(out, generation.files);
  const ir = generation.ir;
  // Named as the fixtures emitter names them (by the IR's identifiers), not as the TypeScript planner names its files.
  const names = operationFileNames(ir.operations, new Map(ir.operations.map((op) => [op.id, op.identifier])));
  const byPath = new Map(generation.files.map((f) => [f.path, f.content]));
  const fixtures = new Map(
    ir.operations.map((op) => {
      const text = byPath.get(`fixtures/operations/${names.get(op.id)}.json`);
      if (text === undefined) throw new Error(`no fixture for ${op.id}`);
      const fixture = (JSON.parse(text) as { cases: FixtureCase[] }).cases[0]!;
      return [op.id, headerParameters ? withHeaderParameters(ir, op, fixture) : fixture] as const;
    }),
  );
  return { out, ir, fixtures };
}

/** How each client reaches Prism and with which credentials. */
export interface Reaching {
  /** How the TypeScript client reaches Prism, given its address. */
  readonly reach: (url: string) => Reach;
  /** Keyword arguments of the Python client's constructor (its credentials). */
  readonly python?: Readonly<Record<string, unknown>>;
  /** Go expressions of the Go client's further options (its credentials), in the generated package `sdk`. */
  readonly go?: string;
}

/** Every operation called once through each client, the calls shared out over the Prism servers. */
export async function callEveryClient(
  { out, ir, fixtures }: Generated,
  prisms: readonly string[],
  reaching: Reaching,
): Promise<Map<ClientName, CallOutcome[]>> {
  const runs = new Map<ClientName, CallOutcome[]>();
  const client = (await import(join(out, "index.ts"))) as Client;
  const dispatcher = await freshConnections();
  const goRun = { out, ...(reaching.go && { options: reaching.go }), prisms, dispatcher };
  // The Go program compiles (once) while the other clients run; a failed build is reported when it is awaited.
  const goDriver = buildGoDriver(ir, fixtures, goRun);
  goDriver.catch(() => undefined);
  const reaches = prisms.map((url) => ({ ...reaching.reach(url), dispatcher }));
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
      ...(reaching.python && { options: reaching.python }),
      prisms,
      dispatcher,
      work: out,
    });
    runs.set(asyncio ? "python asyncio" : "python", outcomes);
  }
  runs.set("go", await callGoOperations(await goDriver, goRun));
  return runs;
}

/** Operations the client never sent a request for, nor gave a reason. */
export const unsent = (outcomes: readonly CallOutcome[]): string[] =>
  outcomes.filter((o) => o.exchanges.length === 0 && o.failure === undefined).map((o) => o.operationId);

/** One finding of Prism's on a request. */
export interface RequestFinding {
  readonly operationId: string;
  readonly code: string;
  /** The operation, the request and the finding, for a failure's message. */
  readonly text: string;
}

/** What Prism found wrong with each request: from its header, or from its refusal of the request. */
export const requestFindings = (outcomes: readonly CallOutcome[]): RequestFinding[] =>
  outcomes.flatMap((o) =>
    o.exchanges.flatMap((e) =>
      e.violations
        .filter((v) => v.location[0] === "request")
        .map((v) => ({
          operationId: o.operationId,
          code: String(v.code),
          text: `${o.operationId} ${e.method} ${e.url}: ${v.location.join(".")} ${v.message}`,
        })),
    ),
  );

/** A call whose answer the client did not accept, with its requests, for a failure's message. */
export interface Refusal {
  readonly operationId: string;
  readonly text: string;
}

/** The calls whose answer the client did not accept. */
export function refusals(ir: IR, outcomes: readonly CallOutcome[]): Refusal[] {
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
  return outcomes
    .filter((o) => !accepted(o))
    .map((o) => ({
      operationId: o.operationId,
      text: `${o.operationId} [${o.exchanges.map((e) => `${e.method} ${e.url} -> ${e.status}`).join(", ")}]: ${o.failure}`,
    }));
}

/** Operations Prism itself failed to answer (a 5xx problem of its own), sorted. */
export const prismFailures = (outcomes: readonly CallOutcome[]): string[] =>
  outcomes
    .filter((o) => o.exchanges.some((e) => e.status >= 500 && e.problem !== undefined))
    .map((o) => o.operationId)
    .sort();
