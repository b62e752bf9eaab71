// The mock of the service over HTTP on 127.0.0.1: routes by the IR's operations, authenticates, counts request
// windows, injects faults, validates requests against the IR and every answer against its declared response.
import { createHash } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { answerProblem, declaredFileType } from "./answer-check.js";
import { bearerOf, checkToken } from "./auth.js";
import {
  type Call,
  emptyStats,
  type LoggedFile,
  type LoggedRequest,
  type MockContext,
  type MockOptions,
  type MockStats,
} from "./context.js";
import { billingOf, elapsed, errorReply, type Reply } from "./envelope.js";
import { type ChosenFault, type FaultRule, Faults, seededRandom } from "./faults.js";
import { mediaTypeOf, parseForm, parseJson, readForm } from "./form.js";
import { addJob, downloadJobFile, getJob } from "./job-routes.js";
import { JobStore } from "./jobs.js";
import { Ledger } from "./ledger.js";
import { clone, isFixtureFile, loadModel, matchRoute, type MockModel } from "./model.js";
import { type RateLimits, RateLimiter } from "./rate-limit.js";
import { RequestProblem, Validator } from "./validate.js";
import { deleteWebhook, eventNames, fixtureData, listWebhooks, subscribeWebhook, testWebhook, updateWebhook } from "./webhook-routes.js";
import { type DeliveryAttempt, type Subscription, type WebhookEvent, Webhooks } from "./webhooks.js";

export type { LoggedFile, LoggedRequest, MockOptions, MockStats } from "./context.js";
export type { FaultKind, FaultRule } from "./faults.js";
export { FAULT_KINDS } from "./faults.js";
export type { DeliveryAttempt, Subscription, WebhookEvent } from "./webhooks.js";

export const BASE_PATH = "/latest";
/** Mock-only endpoints below the base address (not part of the description). */
export const MOCK_PATH = "/_mock";

export interface MockServer {
  /** http://127.0.0.1:<port>/latest, the base address clients use. */
  url: string;
  origin: string;
  port: number;
  /** Live counters (the same object throughout the run). */
  stats: MockStats;
  /** The line the CLI prints at startup: the address and the webhook receiver rule in force. */
  startupLine: string;
  stop(): Promise<void>;
  /** The request log (options.recordRequests), in order of arrival; empty when the mock keeps none. */
  requestLog(): readonly LoggedRequest[];
  /** Replaces the run's fault rules. */
  setFaults(rules: readonly FaultRule[]): void;
  /** Sets the credit balance of a token. */
  setCredits(token: string, credits: number): void;
  /** Replaces the request limits (absent windows take the defaults) and starts every token's count anew. */
  setRateLimits(limits: RateLimits): void;
  /** The delivery log of a subscription (kept after its deletion), or of all subscriptions. */
  deliveries(subscriptionId?: number): DeliveryAttempt[];
  subscriptions(): Subscription[];
  /** Emits an event (for example a document action) to the matching subscriptions of a token, or of all tokens. */
  emit(eventType: string, data?: Record<string, unknown>, token?: string): WebhookEvent[];
  /** Resolves when every webhook delivery, retries included, has ended. */
  webhooksIdle(): Promise<void>;
}

type Handler = (ctx: MockContext, call: Call, body: Record<string, unknown>) => Reply | Promise<Reply>;

const HANDLERS: Readonly<Record<string, Handler>> = {
  addJob,
  getJob,
  downloadJobFile,
  subscribeWebhook,
  listWebhooks,
  updateWebhook,
  deleteWebhook,
  testWebhook,
};

/**
 * Any other operation answers its fixture's success body with real processing_time and _billing; a file or text
 * body goes out as it is, with the media type the description declares for it.
 */
function fixtureReply(ctx: MockContext, call: Call): Reply {
  const fixture = ctx.model.fixtures.get(call.operation.id)?.cases[0];
  const success = call.operation.responses.find((r) => /^2\d\d$/.test(r.status));
  const status = Number(success?.status ?? 200);
  const body = fixture?.responses[String(status)];
  const json = success?.contents.some((c) => c.encoding === "json") ?? true;
  if (!json && isFixtureFile(body)) {
    const { name, contentType, text } = body.$file;
    return { status, file: { name, contentType: declaredFileType(success, contentType), content: new TextEncoder().encode(text) } };
  }
  if (!json && typeof body === "string") return { status, text: { body, contentType: declaredFileType(success, "text/plain") } };
  const object = typeof body === "object" && body !== null ? (clone(body) as Record<string, unknown>) : {};
  Object.assign(object, { status: "success", processing_time: elapsed(call.startedAt), _billing: billingOf(call.account, call.windows) });
  return { status, json: object };
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** Default largest request body: bodies above it get 413 and are never held in memory whole. */
export const DEFAULT_MAX_BODY_BYTES = 16 * 1024 * 1024;

/** A request body over the limit, declared by Content-Length or found while reading. */
class BodyTooLarge extends Error {
  constructor(readonly limit: number) {
    super(`the request body is larger than the mock's limit of ${limit} bytes (maxBodyBytes)`);
  }
}

function readBody(req: http.IncomingMessage, limit: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const declared = Number(req.headers["content-length"] ?? Number.NaN);
    if (declared > limit) return reject(new BodyTooLarge(limit));
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.byteLength;
      if (size <= limit) return void chunks.push(chunk);
      req.off("data", onData);
      chunks.length = 0;
      reject(new BodyTooLarge(limit));
    };
    req.on("data", onData);
    req.on("end", () => resolve(new Uint8Array(Buffer.concat(chunks))));
    req.on("error", reject);
  });
}

/** Response headers the browser lets a page read across origins (the client reads these). */
const EXPOSED_HEADERS = "Retry-After, X-Request-Id, Content-Disposition, Content-Length, Content-Type";

/**
 * CORS for every answer, so that a page on another origin (the browser test, a local web app) calls the mock
 * directly. The mock is a local test service: any origin is allowed.
 */
function corsHeaders(req: http.IncomingMessage): Record<string, string> {
  const origin = req.headers.origin;
  return origin === undefined
    ? {}
    : { "access-control-allow-origin": origin, vary: "Origin", "access-control-expose-headers": EXPOSED_HEADERS };
}

function headersOf(req: http.IncomingMessage): Headers {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    for (const v of Array.isArray(value) ? value : [value]) headers.append(name, v);
  }
  return headers;
}

function count(record: Record<string, number>, key: string): void {
  record[key] = (record[key] ?? 0) + 1;
}

/**
 * Sends an answer. `trickleMs`: the headers at once, then the body in pieces spread over that time (the trickle
 * fault).
 */
function send(res: http.ServerResponse, reply: Reply, malformed: boolean, extra: Record<string, string> = {}, trickleMs = 0): void {
  const headers: Record<string, string | number> = { ...extra, ...reply.headers };
  let payload: Uint8Array | string;
  if (reply.file) {
    headers["content-type"] = reply.file.contentType;
    headers["content-disposition"] = `attachment; filename="${reply.file.name.replaceAll('"', "")}"`;
    payload = reply.file.content;
  } else if (reply.text) {
    headers["content-type"] = reply.text.contentType;
    payload = reply.text.body;
  } else {
    headers["content-type"] = "application/json";
    const text = JSON.stringify(reply.json ?? {});
    // The malformed-json fault: a JSON content type over a body cut in the middle.
    payload = malformed ? text.slice(0, Math.max(1, Math.floor(text.length / 2))) : text;
  }
  headers["content-length"] = typeof payload === "string" ? Buffer.byteLength(payload) : payload.byteLength;
  res.writeHead(reply.status, headers);
  if (trickleMs <= 0) {
    res.end(payload);
    return;
  }
  const bytes = typeof payload === "string" ? Buffer.from(payload) : payload;
  const pieces = Math.min(8, Math.max(1, bytes.byteLength));
  const size = Math.ceil(bytes.byteLength / pieces);
  res.flushHeaders();
  const next = (piece: number): void => {
    if (res.destroyed) return;
    if (piece >= pieces) {
      res.end();
      return;
    }
    res.write(bytes.subarray(piece * size, (piece + 1) * size));
    setTimeout(() => next(piece + 1), trickleMs / pieces);
  };
  next(0);
}

/** The string fields of a form body, in the request log (a body that is not a form, or not valid, adds none). */
async function logFields(entry: LoggedRequest, headers: Headers, raw: Uint8Array): Promise<void> {
  const contentType = headers.get("content-type") ?? "";
  const mediaType = mediaTypeOf(contentType);
  if (mediaType !== "multipart/form-data" && mediaType !== "application/x-www-form-urlencoded") return;
  try {
    const form = await parseForm(raw, contentType);
    entry.fields = Object.fromEntries(Object.entries(form).filter((e): e is [string, string] => typeof e[1] === "string"));
    const files: LoggedFile[] = [];
    for (const [field, value] of (await readForm(raw, contentType)).entries()) {
      if (typeof value === "string") continue;
      const bytes = new Uint8Array(await value.arrayBuffer());
      files.push({
        field,
        name: value.name,
        type: value.type,
        size: bytes.length,
        sha256: createHash("sha256").update(bytes).digest("hex"),
      });
    }
    if (files.length > 0) entry.files = files;
  } catch {
    // The operation answers the broken body; the log just has no fields for it.
  }
}

class MockHttp {
  readonly ctx: MockContext;
  readonly faults: Faults;
  limiter: RateLimiter;
  readonly log: LoggedRequest[] = [];
  #seq = 0;

  constructor(ctx: MockContext) {
    this.ctx = ctx;
    this.faults = new Faults(ctx.options.faults ?? [], ctx.random);
    this.limiter = new RateLimiter(ctx.options.rateLimits ?? {});
  }

  async handle(req: http.IncomingMessage, res: http.ServerResponse): Promise<void> {
    const startedAt = Date.now();
    const url = new URL(req.url ?? "/", "http://127.0.0.1");
    const method = (req.method ?? "GET").toUpperCase();
    const { stats } = this.ctx;
    let entry: LoggedRequest | undefined;
    const finish = (reply: Reply, malformed = false, trickleMs = 0) => {
      if (entry) {
        entry.status = reply.status;
        entry.endedAt = Date.now();
        const retryAfter = Object.entries(reply.headers ?? {}).find(([name]) => name.toLowerCase() === "retry-after")?.[1];
        if (retryAfter !== undefined) entry.retryAfter = retryAfter;
      }
      count(stats.responses, String(reply.status));
      const code = reply.json?.code;
      if (typeof code === "string") count(stats.errors, code);
      this.ctx.options.log?.(`${method} ${url.pathname} -> ${reply.status}${typeof code === "string" ? ` ${code}` : ""}`);
      send(
        res,
        reply,
        malformed,
        {
          ...corsHeaders(req),
          // A body left unread (413) would be read by nobody: close the connection after the answer.
          ...(reply.status === 413 && { connection: "close" }),
        },
        trickleMs,
      );
    };
    const limit = this.ctx.options.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
    const readBodyOrReply = async (): Promise<Uint8Array | Reply> => {
      try {
        return await readBody(req, limit);
      } catch (error) {
        if (!(error instanceof BodyTooLarge)) throw error;
        return errorReply(413, "INVALID_REQUEST", error.message, startedAt);
      }
    };

    // A browser's preflight before a cross-origin request: answered for any path, before routing and auth.
    const preflightMethod = req.headers["access-control-request-method"];
    if (method === "OPTIONS" && typeof preflightMethod === "string" && req.headers.origin !== undefined) {
      count(stats.responses, "204");
      res.writeHead(204, {
        ...corsHeaders(req),
        "access-control-allow-methods": "GET, POST, PUT, PATCH, DELETE, OPTIONS",
        "access-control-allow-headers": req.headers["access-control-request-headers"] ?? "authorization, content-type",
        "access-control-max-age": "600",
        "content-length": 0,
      });
      res.end();
      return;
    }

    if (!url.pathname.startsWith(`${BASE_PATH}/`)) {
      const read = await readBodyOrReply();
      if (!(read instanceof Uint8Array)) return finish(read);
      return finish(errorReply(404, "NOT_FOUND", `No endpoint at ${url.pathname}; the base address ends in ${BASE_PATH}`, startedAt));
    }
    const path = url.pathname.slice(BASE_PATH.length);
    if (path.startsWith(`${MOCK_PATH}/`)) {
      const read = await readBodyOrReply();
      if (!(read instanceof Uint8Array)) return finish(read);
      return finish(await this.mockEndpoint(method, path.slice(MOCK_PATH.length), url, read, startedAt));
    }

    stats.requestsTotal++;
    const match = matchRoute(this.ctx.model, method, path);
    if (match === undefined || "methodMismatch" in match) {
      count(stats.requests, "unmatched");
      const read = await readBodyOrReply();
      if (!(read instanceof Uint8Array)) return finish(read);
      return finish(
        match === undefined
          ? errorReply(404, "NOT_FOUND", `No endpoint at ${path}`, startedAt)
          : errorReply(
              405,
              "INVALID_REQUEST",
              `Method ${method} is not allowed on ${path}; allowed: ${match.allow.join(", ")}`,
              startedAt,
              {
                Allow: match.allow.join(", "),
              },
            ),
      );
    }
    const { operation } = match;
    count(stats.requests, operation.id);
    const headers = headersOf(req);
    const authorization = headers.get("authorization") ?? undefined;
    const signature = headers.get("idempotency-key") ?? `${method} ${url.pathname}${url.search} ${authorization ?? ""}`;
    const fault: ChosenFault | undefined = this.faults.choose(operation.id, headers, signature);
    if (fault) count(stats.faults as Record<string, number>, fault.kind);
    if (this.ctx.options.recordRequests) {
      const key = headers.get("idempotency-key") ?? undefined;
      entry = { seq: ++this.#seq, at: startedAt, method, path: url.pathname, operationId: operation.id, params: { ...match.params } };
      if (key !== undefined) entry.idempotencyKey = key;
      if (fault) entry.fault = fault.kind;
      this.log.push(entry);
    }

    if (fault?.kind === "reset-before-body") {
      if (entry) entry.endedAt = Date.now();
      req.socket.destroy();
      return;
    }
    const raw = await readBodyOrReply();
    if (!(raw instanceof Uint8Array)) return finish(raw);
    if (operation.id === "addJob") stats.submissions++;
    if (entry) await logFields(entry, headers, raw);

    if (fault?.kind === "500") {
      return finish(this.checked(operation, errorReply(500, "INTERNAL_ERROR", "Injected fault: internal error", startedAt), startedAt));
    }
    // Not the service's answer but a gateway's in front of it, which no description declares: left unchecked.
    if (fault?.kind === "502") {
      return finish({ status: 502, text: { body: "<html><body><h1>502 Bad Gateway</h1></body></html>", contentType: "text/html" } });
    }
    if (fault?.kind === "429") {
      const limited = errorReply(429, "RATE_LIMIT_EXCEEDED", "Injected fault: too many requests; retry in 1 s", startedAt, {
        "Retry-After": "1",
      });
      return finish(this.checked(operation, limited, startedAt));
    }
    if (fault?.kind === "503") {
      const unavailable = errorReply(503, "SERVICE_UNAVAILABLE", "Injected fault: service unavailable", startedAt, { "Retry-After": "1" });
      return finish(this.checked(operation, unavailable, startedAt));
    }
    if (fault?.kind === "slow-headers") await sleep(fault.delayMs ?? this.ctx.options.slowHeadersMs ?? 1500);

    let reply = await this.process(
      match.params,
      url.searchParams,
      operation,
      headers,
      raw,
      startedAt,
      fault?.kind === "never-finishes",
      entry,
    );
    reply = this.checked(operation, reply, startedAt);
    if (fault?.kind === "reset-after-body") {
      // The request was processed (a job exists), but the answer is lost.
      if (entry) entry.endedAt = Date.now();
      res.socket?.destroy();
      return;
    }
    const trickleMs = fault?.kind === "trickle" ? (fault.delayMs ?? this.ctx.options.slowHeadersMs ?? 1500) : 0;
    finish(reply, fault?.kind === "malformed-json", trickleMs);
  }

  async process(
    pathParams: Record<string, string>,
    query: URLSearchParams,
    operation: Call["operation"],
    headers: Headers,
    raw: Uint8Array,
    startedAt: number,
    neverFinishes: boolean,
    log?: LoggedRequest,
  ): Promise<Reply> {
    const { ctx } = this;
    const token = bearerOf(headers.get("authorization") ?? undefined);
    const secured = operation.security.some((alternative) => alternative.length > 0);
    // Every secured operation needs its token, the job download too: the description requires bearerAuth on it.
    if (secured) {
      if (token === undefined && operation.id === "addJob") {
        return errorReply(403, "TIER_RESTRICTED", "Product APIs need a bearer token", startedAt);
      }
      const check = checkToken(token, ctx.options.tokens);
      if (!check.ok) return errorReply(401, check.code, check.message, startedAt);
    }
    const limit = this.limiter.hit(token ?? "anonymous");
    if (!limit.allowed) {
      return errorReply(429, "RATE_LIMIT_EXCEEDED", `Too many requests; retry in ${limit.retryAfterSeconds} s`, startedAt, {
        "Retry-After": String(limit.retryAfterSeconds),
      });
    }
    const call: Call = {
      operation,
      params: {},
      headers,
      raw,
      token,
      account: token === undefined ? undefined : ctx.ledger.account(token),
      windows: limit.windows,
      startedAt,
      neverFinishes,
      ...(log && { log }),
    };
    try {
      if (operation.variants && String(pathParams[operation.variants.selector] ?? "").includes(".")) {
        throw new RequestProblem(
          `Invalid pipeline ${JSON.stringify(pathParams[operation.variants.selector])}: dot notation is not accepted, use <handler>___<command>`,
          operation.variants.selector,
          "JOB_CONFIG_INVALID",
        );
      }
      call.params = ctx.validator.checkParameters(operation, pathParams, query);
      return await this.dispatch(call);
    } catch (error) {
      if (error instanceof RequestProblem) return errorReply(400, error.code, error.message, startedAt);
      const message = error instanceof Error ? error.message : String(error);
      return errorReply(500, "INTERNAL_ERROR", `Mock failure: ${message}`, startedAt);
    }
  }

  async dispatch(call: Call): Promise<Reply> {
    const { operation } = call;
    let body: Record<string, unknown> = {};
    const jsonContent = operation.requestBody?.contents.find((c) => c.mediaType === "application/json");
    if (operation.requestBody && jsonContent) {
      const mediaType = mediaTypeOf(call.headers.get("content-type") ?? undefined);
      if (mediaType !== "application/json") {
        throw new RequestProblem(`media type ${mediaType ?? "(none)"} is not accepted here; send application/json`, "Content-Type");
      }
      const parsed = parseJson(call.raw);
      this.ctx.validator.checkJsonBody(operation, jsonContent.schema, parsed);
      body = parsed as Record<string, unknown>;
    }
    const handler = HANDLERS[operation.id];
    return handler ? handler(this.ctx, call, body) : fixtureReply(this.ctx, call);
  }

  /**
   * Every answer of an operation is checked against the description (status, media type, headers, JSON body); a
   * mismatch is a bug of the mock and becomes a 500.
   */
  checked(operation: Call["operation"], reply: Reply, startedAt: number): Reply {
    if (this.ctx.options.validateResponses === false) return reply;
    const problem = answerProblem(this.ctx.model, this.ctx.validator, operation, reply);
    if (problem === undefined) return reply;
    const text = `${operation.id} ${reply.status}: ${problem}`;
    this.ctx.stats.invalidResponses.push(text);
    return errorReply(500, "INTERNAL_ERROR", `Mock answer does not match the description: ${text}`, startedAt);
  }

  async mockEndpoint(method: string, path: string, url: URL, raw: Uint8Array, startedAt: number): Promise<Reply> {
    if (method === "GET" && path === "/stats") return { status: 200, json: { ...this.ctx.stats } };
    if (method === "GET" && path === "/requests") return { status: 200, json: { requests: this.log } };
    if (method === "GET" && path === "/deliveries") {
      const id = url.searchParams.get("subscription_id");
      return { status: 200, json: { deliveries: this.ctx.webhooks.deliveries(id === null ? undefined : Number(id)) } };
    }
    if (method === "POST" && path === "/events") {
      let body: Record<string, unknown>;
      try {
        body = parseJson(raw) as Record<string, unknown>;
      } catch (error) {
        return errorReply(400, "INVALID_REQUEST", error instanceof Error ? error.message : String(error), startedAt);
      }
      const eventType = body.event_type;
      if (typeof eventType !== "string" || !eventNames(this.ctx).includes(eventType)) {
        return errorReply(400, "INVALID_REQUEST", `field "event_type" must be one of ${eventNames(this.ctx).join(", ")}`, startedAt);
      }
      const data =
        typeof body.data === "object" && body.data !== null ? (body.data as Record<string, unknown>) : fixtureData(this.ctx, eventType);
      const token = typeof body.token === "string" ? body.token : undefined;
      try {
        const events = this.ctx.webhooks.emit(token, eventType, data);
        return {
          status: 200,
          json: { status: "success", events: events.map((e) => ({ event_id: e.event_id, subscription_id: e.subscription_id })) },
        };
      } catch (error) {
        return errorReply(400, "INVALID_REQUEST", error instanceof Error ? error.message : String(error), startedAt);
      }
    }
    return errorReply(404, "NOT_FOUND", `No mock endpoint ${method} ${path}`, startedAt);
  }
}

function checkEvent(model: MockModel, validator: Validator) {
  return (event: WebhookEvent): string | undefined => {
    const hook = model.ir.webhooks.find((w) => w.event === event.event_type);
    if (!hook) return `unknown event ${event.event_type}`;
    const error = validator.check(`webhook:${hook.event}`, hook.body, event);
    return error === undefined ? undefined : `${error.instancePath} ${error.message ?? "is invalid"}`;
  };
}

/** Starts the mock on 127.0.0.1. */
export async function startMock(options: MockOptions = {}): Promise<MockServer> {
  const model = loadModel(options.generatedDir);
  const validator = new Validator(model);
  const signing = model.ir.conventions?.webhooks;
  if (signing === undefined) throw new Error("the description states no webhook signing (x-paperoffice-conventions.webhooks)");
  const webhooks = new Webhooks(options, checkEvent(model, validator), signing);
  const stats = emptyStats(webhooks.counters);
  const ctx: MockContext = {
    model,
    validator,
    ledger: new Ledger(options),
    webhooks,
    options,
    stats,
    baseUrl: "",
    random: options.seed === undefined ? Math.random : seededRandom(options.seed),
    jobs: new JobStore((job, state) => {
      const data = {
        job_id: job.id,
        pipeline: job.pipeline.slug,
        job_status: state,
        ...(state === "completed" && { result: job.payload }),
      };
      try {
        webhooks.emit(job.token, state === "completed" ? "job.completed" : "job.failed", data);
      } catch (error) {
        stats.invalidResponses.push(`webhook ${state}: ${error instanceof Error ? error.message : String(error)}`);
      }
    }),
  };
  const mock = new MockHttp(ctx);
  const server = http.createServer((req, res) => {
    mock.handle(req, res).catch((error: unknown) => {
      if (!res.headersSent) send(res, errorReply(500, "INTERNAL_ERROR", `Mock failure: ${String(error)}`, Date.now()), false);
      else res.destroy();
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(options.port ?? 0, "127.0.0.1", () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  ctx.baseUrl = `${origin}${BASE_PATH}`;
  const loopback = webhooks.allowLoopback
    ? "loopback webhook receivers allowed (mock mode only; the service refuses them)"
    : "loopback webhook receivers refused, as by the service";
  const startupLine = `Mock of ${model.ir.info.title} ${model.ir.info.version} listening on ${ctx.baseUrl}; ${loopback}`;
  options.log?.(startupLine);
  let stopped: Promise<void> | undefined;
  return {
    url: ctx.baseUrl,
    origin,
    port,
    stats,
    startupLine,
    stop() {
      stopped ??= new Promise<void>((resolve) => {
        ctx.jobs.stop();
        webhooks.stop();
        server.close(() => resolve());
        server.closeAllConnections();
      });
      return stopped;
    },
    requestLog: () => mock.log,
    setFaults: (rules) => mock.faults.set(rules),
    setCredits: (token, credits) => ctx.ledger.setCredits(token, credits),
    setRateLimits: (limits) => {
      mock.limiter = new RateLimiter(limits);
    },
    deliveries: (id) => webhooks.deliveries(id),
    subscriptions: () => webhooks.list(),
    emit: (eventType, data, token) => webhooks.emit(token, eventType, data ?? fixtureData(ctx, eventType)),
    webhooksIdle: () => webhooks.idle(),
  };
}
