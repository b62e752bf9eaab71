// Calling every operation of a generated client with its fixture arguments, and what Prism said of each request.
import type { FixtureCase } from "../../generator/emit/fixtures/index.js";
import { tsNames } from "../../generator/emit/names/ts.js";
import type { IR, Operation, Parameter } from "../../generator/ir/types.js";

/** A violation as Prism reports it in the `sl-violations` header. */
export interface Violation {
  readonly location: readonly (string | number)[];
  readonly severity: string;
  readonly code?: string | number;
  readonly message: string;
}

export interface Exchange {
  readonly method: string;
  readonly url: string;
  readonly status: number;
  readonly violations: readonly Violation[];
}

export interface CallOutcome {
  readonly operationId: string;
  /** The requests the call sent, with Prism's answer to each. */
  readonly exchanges: readonly Exchange[];
  /** Why the client did not accept the answer; undefined when it did. */
  readonly failure?: string;
}

/** The generated function's arguments after the client: params (when it has parameters), body (when it has one). */
export function argumentsFor(op: Operation, fixture: FixtureCase): unknown[] {
  const params: readonly Parameter[] = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const args: unknown[] = [];
  if (params.length > 0) {
    // The same keys as the generated params type: a later parameter of a taken name gets a trailing `_`.
    const taken = new Set<string>();
    const values: Record<string, unknown> = {};
    // Fixtures hold the required path and query parameters (header and cookie ones are left out).
    const given: Partial<Record<Parameter["in"], Readonly<Record<string, unknown>>>> = {
      path: fixture.request.path,
      query: fixture.request.query,
    };
    for (const p of params) {
      let key = p.name;
      while (taken.has(key)) key = `${key}_`;
      taken.add(key);
      const value = given[p.in]?.[p.name];
      if (value !== undefined) values[key] = value;
    }
    args.push(values);
  }
  if (op.requestBody) args.push(fixture.request.body);
  return args;
}

/** `Prefer: code=N` for the first declared 2xx status, so that Prism answers with success when it can. */
export function preferredStatus(op: Operation): string | undefined {
  return op.responses.find((r) => /^2\d\d$/.test(r.status))?.status;
}

function violationsOf(response: Response): Violation[] {
  const header = response.headers.get("sl-violations");
  if (header === null || header === "") return [];
  return JSON.parse(header) as Violation[];
}

type Operate = (...args: unknown[]) => Promise<unknown>;

export interface Client {
  readonly createClient: (options: Record<string, unknown>) => unknown;
  readonly [name: string]: unknown;
}

/** Ways to reach the server that the generated client may not yet derive from the description by itself. */
export interface Reach {
  readonly baseUrl: string;
  readonly clientOptions?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One call through the generated function, with a client of its own whose fetch records Prism's answers. */
export async function callOperation(module: Client, ir: IR, op: Operation, fixture: FixtureCase, reach: Reach): Promise<CallOutcome> {
  const exchanges: Exchange[] = [];
  const recording = async (input: string, init: RequestInit): Promise<Response> => {
    const response = await fetch(input, init);
    exchanges.push({ method: init.method ?? "GET", url: input, status: response.status, violations: violationsOf(response) });
    return response;
  };
  const name = tsNames(ir).operation(op);
  const operate = module[name] as Operate | undefined;
  if (typeof operate !== "function") return { operationId: op.id, exchanges, failure: `no exported function ${name}` };
  const status = preferredStatus(op);
  const headers = { ...reach.headers, ...(status === undefined ? {} : { Prefer: `code=${status}` }) };
  const mediaType = fixture.request.mediaType;
  const options = {
    headers,
    deadlineMs: 60_000,
    ...(mediaType === "multipart/form-data" || mediaType === "application/x-www-form-urlencoded" ? { mediaType } : {}),
  };
  try {
    const client = module.createClient({ baseUrl: reach.baseUrl, ...reach.clientOptions, fetch: recording, retry: { maxRetries: 0 } });
    const result = await operate(client, ...argumentsFor(op, fixture), options);
    // A download's body is read to its end: the client accepted the answer only if it can be read.
    const stream = (result as { stream?: unknown } | undefined)?.stream;
    if (stream instanceof ReadableStream) await new Response(stream).arrayBuffer();
    return { operationId: op.id, exchanges };
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    return { operationId: op.id, exchanges, failure: text };
  }
}

/** Runs the tasks with at most `width` of them in flight; results in the tasks' order. */
export async function pooled<T>(tasks: readonly (() => Promise<T>)[], width: number): Promise<T[]> {
  const results: T[] = new Array(tasks.length);
  let next = 0;
  const worker = async () => {
    while (next < tasks.length) {
      const i = next++;
      results[i] = await tasks[i]!();
    }
  };
  await Promise.all(Array.from({ length: Math.min(width, tasks.length) }, worker));
  return results;
}
