// Calling every operation of a generated client with its fixture arguments, and what Prism said of each request.
import type { FixtureCase } from "../../generator/emit/fixtures/index.js";
import { tsNames } from "../../targets/typescript/emit/names.js";
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
  /** Of the request and of Prism's answer, from the header; and those of an invalid request Prism answered itself. */
  readonly violations: readonly Violation[];
  readonly problem?: PrismProblem;
}

export interface CallOutcome {
  readonly operationId: string;
  /** The requests the call sent, with Prism's answer to each. */
  readonly exchanges: readonly Exchange[];
  /** Why the client did not accept the answer; undefined when it did. */
  readonly failure?: string;
  /** The HTTP status of a failure that is an error answer. */
  readonly failureStatus?: number;
}

/** A fixture whose request may also hold header and cookie parameters, which the fixtures emitter leaves out. */
export interface CallFixture extends FixtureCase {
  readonly request: FixtureCase["request"] & {
    readonly header?: Readonly<Record<string, unknown>>;
    readonly cookie?: Readonly<Record<string, unknown>>;
  };
}

/** The fixture's parameter values by location; a parameter it leaves out is not sent. */
export function givenParameters(fixture: CallFixture): Readonly<Record<Parameter["in"], Readonly<Record<string, unknown>>>> {
  const { path, query, header = {}, cookie = {} } = fixture.request;
  return { path, query, header, cookie };
}

/** The generated function's arguments after the client: params (when it has parameters), body (when it has one). */
export function argumentsFor(op: Operation, fixture: CallFixture): unknown[] {
  const params: readonly Parameter[] = [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie];
  const args: unknown[] = [];
  if (params.length > 0) {
    // The same keys as the generated params type: a later parameter of a taken name gets a trailing `_`.
    const taken = new Set<string>();
    const values: Record<string, unknown> = {};
    const given = givenParameters(fixture);
    for (const p of params) {
      let key = p.name;
      while (taken.has(key)) key = `${key}_`;
      taken.add(key);
      const value = given[p.in][p.name];
      if (value !== undefined) values[key] = value;
    }
    args.push(values);
  }
  if (op.requestBody) args.push(withFiles(fixture.request.body));
  return args;
}

/** Fixture files (`{ $file }`) as the client takes them: bytes with a file name and a content type. */
function withFiles(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withFiles);
  if (typeof value !== "object" || value === null) return value;
  const file = (value as { $file?: { name: string; contentType: string; text: string } }).$file;
  if (file) return { data: new Blob([file.text], { type: file.contentType }), filename: file.name, contentType: file.contentType };
  return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, withFiles(v)]));
}

/** `Prefer: code=N` for the first declared 2xx status, so that Prism answers with success when it can. */
export function preferredStatus(op: Operation): string | undefined {
  return op.responses.find((r) => /^2\d\d$/.test(r.status))?.status;
}

const TOO_MANY = "Too many violations! ";
// An answer's own findings (media type, status) come without a code.
const ONE_VIOLATION = /\{"location":\[[^\]]*\],"severity":"[^"]*",(?:"code":(?:"[^"]*"|\d+),)?"message":"(?:[^"\\]|\\.)*"\}/g;

/**
 * Prism's `sl-violations` header: a JSON list. A long one is prefixed with a remark and cut at about 8 kB; its
 * whole entries are read one by one.
 */
export function headerViolations(response: Response): Violation[] {
  const header = response.headers.get("sl-violations");
  if (header === null || header === "") return [];
  if (!header.startsWith(TOO_MANY)) return JSON.parse(header) as Violation[];
  return [...header.matchAll(ONE_VIOLATION)].map((m) => JSON.parse(m[0]) as Violation);
}

/** An answer Prism made up itself (application/problem+json with a type below its errors page), not one of the description's. */
export interface PrismProblem {
  readonly type: string;
  readonly title: string;
  readonly validation?: readonly Violation[];
}

export async function prismProblem(response: Response): Promise<PrismProblem | undefined> {
  if (!response.headers.get("content-type")?.includes("application/problem+json")) return undefined;
  // The answer to a HEAD request has the problem's content type but no body.
  const text = await response.clone().text();
  if (text === "") return undefined;
  const body = JSON.parse(text) as Partial<PrismProblem>;
  return typeof body.type === "string" && body.type.startsWith("https://stoplight.io/prism/errors#")
    ? { type: body.type, title: String(body.title), ...(body.validation && { validation: body.validation }) }
    : undefined;
}

/** One request and Prism's answer, with what Prism said of both. */
export async function exchangeOf(method: string, url: string, response: Response): Promise<Exchange> {
  const problem = await prismProblem(response);
  // Prism answers an invalid request itself (422 or the description's 400/422) with the violations in the body; with
  // --errors, a mock answer of its own that breaks the description is a 500 whose violations are the response's.
  const invalid = (problem?.validation ?? []).map((v) =>
    v.location[0] === "response" ? v : { ...v, location: ["request", ...v.location] },
  );
  return { method, url, status: response.status, violations: [...headerViolations(response), ...invalid], ...(problem && { problem }) };
}

type Operate = (...args: unknown[]) => Promise<unknown>;

export interface Client {
  readonly createClient: (options: Record<string, unknown>) => unknown;
  readonly [name: string]: unknown;
}

/** How a client reaches Prism: its address, credentials, and the connection pool its fetch uses. */
export interface Reach {
  readonly baseUrl: string;
  /** An undici dispatcher handed to fetch. */
  readonly dispatcher?: unknown;
  readonly clientOptions?: Readonly<Record<string, unknown>>;
  readonly headers?: Readonly<Record<string, string>>;
}

/** One call through the generated function, with a client of its own whose fetch records Prism's answers. */
export async function callOperation(module: Client, ir: IR, op: Operation, fixture: CallFixture, reach: Reach): Promise<CallOutcome> {
  const exchanges: Exchange[] = [];
  const recording = async (request: Request, init?: RequestInit): Promise<Response> => {
    const input = request.url;
    // A redirect is handed to the client as it is: its target (GitHub's log and archive hosts) is not on this machine.
    const response = await fetch(new Request(request, { redirect: "manual" }), init);
    exchanges.push(await exchangeOf(request.method, input, response));
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
    const client = module.createClient({
      baseUrl: reach.baseUrl,
      ...reach.clientOptions,
      fetch: recording,
      dispatcher: reach.dispatcher,
      retry: { maxRetries: 0 },
    });
    const result = await operate(client, ...argumentsFor(op, fixture), options);
    // A download's body is read to its end: the client accepted the answer only if it can be read.
    const stream = (result as { stream?: unknown } | undefined)?.stream;
    if (stream instanceof ReadableStream) await new Response(stream).arrayBuffer();
    return { operationId: op.id, exchanges };
  } catch (error) {
    const text = error instanceof Error ? `${error.name}: ${error.message}` : String(error);
    const status = (error as { status?: unknown }).status;
    return { operationId: op.id, exchanges, failure: text, ...(typeof status === "number" && { failureStatus: status }) };
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

const GLOBAL_DISPATCHER = Symbol.for("undici.globalDispatcher.1");

/**
 * A connection per request (undici's pipelining 0): Prism's event loop stalls on large answers, and a kept-alive
 * socket it closes meanwhile would reset a request that has nothing to do with the client under test.
 */
export async function freshConnections(): Promise<unknown> {
  await fetch("http://127.0.0.1:1/").catch(() => undefined);
  const dispatcher = (globalThis as { [GLOBAL_DISPATCHER]?: object })[GLOBAL_DISPATCHER];
  const Agent = Object.getPrototypeOf(dispatcher)?.constructor as new (options: { pipelining: number }) => unknown;
  return new Agent({ pipelining: 0 });
}
