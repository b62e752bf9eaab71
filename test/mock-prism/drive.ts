// The calls a developer's tests make against the mock, sent through Prism's proxy: every operation from its fixture
// request, every pipeline variant's job (held to its end, past the hold with a 202, asynchronous, failed) with its
// polls and downloads, and the documented error answers.
import type { MockServer } from "../../mock/index.js";
import { auth, fixtureCases, formOf, ir, jsonStringsOf, operation, sleep, TOKEN } from "../mock/helpers.js";
import type { Ledger } from "./ledger.js";

export const EXPIRED = "svc_sk_expired_0001";
export const REVOKED = "svc_sk_revoked_0001";
/** The mock's hold in these runs; a job meant to outlast it takes JOB_PAST_HOLD_MS. */
export const HOLD_MS = 300;
const JOB_PAST_HOLD_MS = 1200;
const POLL_EVERY_MS = 150;
const MAX_POLLS = 200;

export interface Variant {
  readonly pipeline: string;
  readonly variant: string;
}

export const VARIANTS: readonly Variant[] = operation("addJob").variants!.pipelines.flatMap((p) =>
  p.variants.map((v) => ({ pipeline: p.slug, variant: v.name })),
);

/** The ways a job is run: each gives a different first answer and its own polls. */
export const JOB_MODES = ["held", "past-hold", "async", "failed"] as const;
export type JobMode = (typeof JOB_MODES)[number];

type Json = Record<string, unknown>;

function pathOf(path: string, params: Readonly<Record<string, unknown>>): string {
  return path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`no value for path parameter ${name} of ${path}`);
    return encodeURIComponent(String(value));
  });
}

function queryOf(query: Readonly<Record<string, unknown>>): string {
  const q = new URLSearchParams(Object.entries(query).map(([k, v]) => [k, String(v)])).toString();
  return q === "" ? "" : `?${q}`;
}

/** Every string below a JSON value. */
function strings(value: unknown): string[] {
  if (typeof value === "string") return [value];
  if (Array.isArray(value)) return value.flatMap(strings);
  if (typeof value === "object" && value !== null) return Object.values(value).flatMap(strings);
  return [];
}

export class Driver {
  constructor(
    readonly prismUrl: string,
    readonly mock: MockServer,
    readonly ledger: Ledger,
  ) {}

  /** One call through Prism to a path below the base address. */
  send(label: string, method: string, path: string, init: RequestInit, expected: number | readonly number[]): Promise<Response> {
    return this.ledger.send(label, `${this.prismUrl}${path}`, { ...init, method }, expected);
  }

  async json(label: string, method: string, path: string, init: RequestInit, expected: number | readonly number[]): Promise<Json> {
    const response = await this.send(label, method, path, init, expected);
    const text = await response.text();
    try {
      return JSON.parse(text) as Json;
    } catch {
      throw new Error(
        `${label}: ${method} ${path} answered ${response.status} ${response.headers.get("content-type")}, not JSON: ${text.slice(0, 200)}`,
      );
    }
  }

  /** The fixture request of an operation other than addJob, as path and fetch options. */
  fixtureRequest(operationId: string, headers: Record<string, string>, body?: Json): { method: string; path: string; init: RequestInit } {
    const op = operation(operationId);
    const fixture = fixtureCases(operationId)[0];
    if (!fixture) throw new Error(`generated/fixtures has no case for ${operationId}`);
    const path = `${pathOf(op.path, fixture.request.path)}${queryOf(fixture.request.query)}`;
    const json = body ?? fixture.request.body;
    const init: RequestInit =
      json === undefined ? { headers } : { headers: { ...headers, "Content-Type": "application/json" }, body: JSON.stringify(json) };
    return { method: op.method.toUpperCase(), path, init };
  }

  /** A job submission of a variant's fixture body, with the mock's job headers. */
  submit(
    label: string,
    v: Variant,
    headers: Record<string, string>,
    expected: number | readonly number[],
    change: Json = {},
    slug = v.pipeline,
  ): Promise<Json> {
    const fixture = fixtureCases("addJob").find((c) => c.pipeline === v.pipeline && c.variant === v.variant);
    if (!fixture?.request.body) throw new Error(`generated/fixtures/operations/addJob.json has no case ${v.pipeline}/${v.variant}`);
    const body = formOf({ ...structuredClone(fixture.request.body), ...change }, jsonStringsOf(v.pipeline, v.variant));
    return this.json(label, "POST", pathOf(operation("addJob").path, { pipeline: slug }), { headers, body }, expected);
  }

  /** Every operation but the job ones from its fixture request; the webhook ones on a subscription made here. */
  async everyOperation(): Promise<void> {
    const reads = ir.operations.filter((o) => o.method === "get" && o.job === undefined && !o.path.startsWith("/webhooks"));
    for (const op of reads) {
      const { method, path, init } = this.fixtureRequest(op.id, auth());
      await this.send(op.id, method, path, init, 200).then((r) => r.arrayBuffer());
    }
    const subscribe = fixtureCases("subscribeWebhook")[0]?.request.body ?? {};
    const created = this.fixtureRequest("subscribeWebhook", auth(), { ...subscribe, url: "https://hooks.example.invalid/h" });
    const subscription = await this.json("subscribeWebhook", created.method, created.path, created.init, 200);
    const list = this.fixtureRequest("listWebhooks", auth());
    await this.json("listWebhooks", list.method, list.path, list.init, 200);
    for (const id of ["updateWebhook", "testWebhook", "deleteWebhook"]) {
      const body = { ...(fixtureCases(id)[0]?.request.body ?? {}), subscription_id: subscription.subscription_id };
      const call = this.fixtureRequest(id, auth(), body);
      await this.json(id, call.method, call.path, call.init, 200);
    }
  }

  /** Polls a job until it is neither queued nor running; the last answer. */
  async poll(label: string, jobId: string): Promise<Json> {
    for (let i = 0; i < MAX_POLLS; i++) {
      const answer = await this.json(`${label} poll`, "GET", `/job/get/${encodeURIComponent(jobId)}`, { headers: auth() }, 200);
      if (answer.job_status !== "queued" && answer.job_status !== "running") return answer;
      await sleep(POLL_EVERY_MS);
    }
    throw new Error(`${label}: job ${jobId} still running after ${MAX_POLLS} polls`);
  }

  /** Downloads every file an answer links to, through Prism instead of the mock's own address. */
  async downloads(label: string, answer: Json): Promise<number> {
    const prefix = `${this.mock.url}/job/download/`;
    const links = [...new Set(strings(answer).filter((s) => s.startsWith(prefix)))];
    for (const link of links) {
      const response = await this.send(`${label} download`, "GET", link.slice(this.mock.url.length), { headers: auth() }, 200);
      await response.arrayBuffer();
    }
    return links.length;
  }

  /** One job of a variant run in one mode, with its polls and downloads; the number of files downloaded. */
  async job(v: Variant, mode: JobMode): Promise<number> {
    const label = `addJob ${v.pipeline}/${v.variant} ${mode}`;
    const headers: Record<string, string> = {
      ...auth(),
      "x-mock-job-duration-ms": String(mode === "past-hold" ? JOB_PAST_HOLD_MS : 0),
      ...(mode === "failed" && { "x-mock-job-outcome": "fail" }),
    };
    const fixture = fixtureCases("addJob").find((c) => c.pipeline === v.pipeline && c.variant === v.variant);
    // Asynchronous where the variant takes client_wait; elsewhere it is held like the first mode.
    const change: Json = mode === "async" && fixture?.request.body && "client_wait" in fixture.request.body ? { client_wait: false } : {};
    const first = await this.submit(label, v, headers, mode === "past-hold" ? [200, 202] : 200, change);
    const jobId = first.job_id;
    if (typeof jobId !== "string") throw new Error(`${label}: no job_id in ${JSON.stringify(first).slice(0, 300)}`);
    let files = await this.downloads(label, first);
    const finished = first.result !== undefined || first.job_result !== undefined;
    if (!finished || mode === "failed") {
      const last = await this.poll(label, jobId);
      const wanted = mode === "failed" ? "failed" : "completed";
      if (last.job_status !== wanted) throw new Error(`${label}: job ended ${String(last.job_status)}, meant ${wanted}`);
      files += await this.downloads(label, last);
    }
    return files;
  }

  /** Every documented error answer the mock gives: bad credentials and injected faults on every operation, and the rest. */
  async errors(): Promise<void> {
    for (const op of ir.operations) {
      for (const [what, token, status] of [
        ["revoked token", REVOKED, 401],
        ["expired token", EXPIRED, 401],
      ] as const) {
        if (op.id === "addJob") await this.submit(`addJob ${what}`, VARIANTS[0]!, auth(token), status);
        else {
          const { method, path, init } = this.fixtureRequest(op.id, auth(token));
          await this.json(`${op.id} ${what}`, method, path, init, status);
        }
      }
      for (const fault of ["500", "503"] as const) {
        const headers = { ...auth(), "x-mock-fault": fault };
        if (op.id === "addJob") await this.submit(`addJob fault ${fault}`, VARIANTS[0]!, headers, Number(fault));
        else {
          const { method, path, init } = this.fixtureRequest(op.id, headers);
          await this.json(`${op.id} fault ${fault}`, method, path, init, Number(fault));
        }
      }
    }
    await this.json("getJob unknown job", "GET", "/job/get/job_000000000000000000000000", { headers: auth() }, 404);
    await this.json("downloadJobFile unknown token", "GET", "/job/download/0000000000000000", { headers: auth() }, 404);
    await this.submit("addJob unknown pipeline", VARIANTS[0]!, auth(), 400, {}, "nothing___here");
    // Out of credits: a token of its own, so that the other calls keep theirs.
    const poor = `${TOKEN}_poor`;
    this.mock.setCredits(poor, 0);
    await this.submit("addJob insufficient credits", VARIANTS[0]!, auth(poor), 402);
  }
}
