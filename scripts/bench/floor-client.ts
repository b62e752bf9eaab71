// The bundle benchmark's reference for the least one operation can weigh over openapi-fetch: `getJob` written by
// hand with only what any client of the service needs, a bearer token, the generated error classes, retries
// (429 and 5xx, Retry-After, backoff), a deadline and the answer's meta. No SDK ships it: it has none of the
// runtime's other behaviours (token providers, redaction of secrets in errors, the base address from the
// environment and the description's servers, checked; User-Agent; pacing; a second try after a refused token; telling
// a failure after sending from one before it), each of which the behaviour suite tests. It is measured, never run.
import createFetchClient from "openapi-fetch";
import { errorClasses } from "../../generated/errors.js";
import type { paths } from "../../generated/types.js";
import { SdkError, ServiceError, type ServiceErrorClass } from "../../targets/typescript/runtime/errors.js";

export interface FloorOptions {
  token?: string;
  baseUrl?: string;
  maxRetries?: number;
  deadlineMs?: number;
}

export interface FloorClient {
  readonly fetch: ReturnType<typeof createFetchClient<paths>>;
  readonly options: FloorOptions;
}

export function createClient(options: FloorOptions = {}): FloorClient {
  const headers: Record<string, string> = options.token === undefined ? {} : { Authorization: `Bearer ${options.token}` };
  return { fetch: createFetchClient<paths>({ baseUrl: options.baseUrl ?? "https://api.example.com/latest", headers }), options };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const backoff = (attempt: number) => 2 ** attempt * 500 * Math.random();

interface Envelope {
  status?: string;
  error?: { code?: string; message?: string };
  _billing?: unknown;
}

export async function getJob(client: FloorClient, params: { job_id: string }, call: { deadlineMs?: number } = {}) {
  const deadline = Date.now() + (call.deadlineMs ?? client.options.deadlineMs ?? 600_000);
  const maxRetries = client.options.maxRetries ?? 2;
  for (let attempt = 0; ; attempt++) {
    const signal = AbortSignal.timeout(Math.max(0, deadline - Date.now()));
    const sent = client.fetch.GET("/job/get/{job_id}", { params: { path: params }, signal });
    let outcome: Awaited<typeof sent>;
    try {
      outcome = await sent;
    } catch (cause) {
      if (attempt < maxRetries && Date.now() < deadline) {
        await sleep(backoff(attempt));
        continue;
      }
      throw new SdkError(`the request could not be completed (${String(cause)})`);
    }
    const { response } = outcome;
    const body = (response.ok ? outcome.data : outcome.error) as Envelope | undefined;
    if (response.ok && body?.status !== "error") {
      const requestId = response.headers.get("x-request-id") ?? undefined;
      return { data: outcome.data, meta: { status: response.status, requestId, billing: body?._billing, attempts: attempt + 1 } };
    }
    if ((response.status === 429 || response.status >= 500) && attempt < maxRetries) {
      const after = Number(response.headers.get("retry-after"));
      await sleep(after > 0 ? after * 1000 : backoff(attempt));
      continue;
    }
    const code = body?.error?.code;
    const Class: ServiceErrorClass =
      (code === undefined ? undefined : (errorClasses as Record<string, ServiceErrorClass>)[code]) ?? ServiceError;
    const message = body?.error?.message ?? `HTTP ${response.status}`;
    throw new Class({ status: response.status, message, body, ...(code === undefined ? {} : { code }) });
  }
}
