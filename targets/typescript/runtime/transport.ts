// One HTTP call with its retries, over the single openapi-fetch client of a Runtime, through openapi-fetch's public
// API: it builds the URL (path and query serialisation), merges headers, runs the body serializer and the middleware,
// builds the Request and hands it to fetch (with `{ dispatcher }` as openapi-fetch's requestInitExt when one is set).
// This file adds the deadline and abort wiring (call-deadline.ts), auth, pacing, retry decisions and error mapping.
import createClient, { type Client, type FetchOptions, type Middleware } from "openapi-fetch";
import type { AppliedCredentials, Auth } from "./auth.js";
import { type CallDeadline, callDeadline } from "./call-deadline.js";
import type { SendBody } from "./model.js";
import { type ErrorContext, errorFromBody, isErrorBody } from "./error-mapping.js";
import { hasHeader, setHeader } from "./headers.js";
import { loggedHeaders } from "./log.js";
import {
  AbortedError,
  ConnectionError,
  DeadlineExceededError,
  type JobMayExistError,
  MalformedResponseError,
  MayHaveBeenProcessedError,
  RequestEncodingError,
  SdkError,
  type ServiceError,
} from "./errors.js";
import { buildMeta, nextPossibleRequestSeconds, requestIdOf } from "./meta.js";
import type { ResponseMeta } from "./model.js";
import type { ResolvedOptions } from "./options.js";
import { checkPathValues } from "./path-template.js";
import { backoffDelay, retryDelay, verdictForNetwork, verdictForStatus, wasNotSent } from "./retry.js";
import { type Budget, checkBudget, jobOption, sleepWithin } from "./timing.js";

export interface SendRequest {
  method: string;
  /** Path template below the base address (or below `baseUrl` when given). */
  path: string;
  pathParams?: Record<string, string | number> | undefined;
  query?: Record<string, unknown> | undefined;
  /** The body as sent (serialised once, so that every attempt sends the same). */
  body?: SendBody | undefined;
  /** Its Content-Type, unless fetch sets it (FormData) or the headers carry it (a raw body). */
  contentType?: string | undefined;
  response: "json" | "binary";
  /** May be sent again after a failure that may have reached the server (see isResendable in retry.ts). */
  resendable: boolean;
  /**
   * A job submission: a failure after it may have arrived is a JobMayExistError. Its senders pass the class, so that
   * the bundles of other operations leave it out.
   */
  submission?: typeof JobMayExistError | undefined;
  /** The status of a job submission's answer when the hold ran out and the job goes on (its body is no error). */
  stillRunningStatus?: number | undefined;
  budget: Budget;
  headers?: Readonly<Record<string, string>> | undefined;
  /** Name for logs: the operationId or the path template, never the URL (queries may hold scoped tokens). */
  label: string;
  /** Instead of the client's base address: an operation's own server, or the origin of a signed download URL. */
  baseUrl?: string | undefined;
  /** baseUrl is another origin (a signed download URL): no credentials are sent there. */
  foreign?: boolean;
  /** The operation's security alternatives (see OperationSpec.security); undefined for raw requests. */
  security?: readonly (readonly string[])[] | undefined;
}

export interface SendResult {
  /** Parsed JSON, or the body stream for binary answers. */
  data: unknown;
  meta: ResponseMeta;
}

/**
 * The paths type of the runtime's openapi-fetch client: any path, any method, parameters and bodies as plain data.
 * The runtime serves every operation from the description's plain data; the generated functions carry the precise
 * types of each one.
 */
interface AnyOperation {
  parameters: { query?: Record<string, unknown> | undefined; path?: Record<string, string | number> | undefined };
  requestBody?: { content: { [mediaType: string]: SendBody } };
  responses: { [status: string]: unknown };
}
type Method = "get" | "put" | "post" | "delete" | "options" | "head" | "patch" | "trace";
type AnyPaths = Record<string, Record<Method, AnyOperation>>;

export class Transport {
  /** The runtime's one openapi-fetch client. */
  readonly client: Client<AnyPaths>;
  /** fetch as the runtime's own requests use it: they carry their operation's credentials already. */
  readonly #fetch: (request: Request, init?: RequestInit) => Promise<Response>;
  readonly #defaultCredentials: Middleware;
  #credentialsInstalled = false;
  /** The middleware in use, in order, so that a copy of the client starts with the same list. */
  readonly #middleware: Middleware[] = [];
  readonly #options: ResolvedOptions;
  readonly #errors: ErrorContext;
  readonly #auth: Auth;
  readonly #userAgent: string | undefined;
  /** 401 codes after which a token provider is asked again; undefined: after any 401. */
  readonly #renewOn: ReadonlySet<string | undefined> | undefined;
  /** Earliest time of the next request when pacing is on (per client, never shared). */
  #nextAllowedAt = 0;
  /** Lower-case names of the headers the description's API keys travel in: never logged. */
  readonly #keyHeaders: ReadonlySet<string>;

  constructor(options: ResolvedOptions, errors: ErrorContext, auth: Auth, userAgent: string | undefined) {
    this.#options = options;
    this.#errors = errors;
    this.#auth = auth;
    this.#userAgent = userAgent;
    const renewOn = errors.model.conventions?.tokens?.renewOn;
    this.#renewOn = renewOn === undefined ? undefined : new Set(renewOn);
    this.#keyHeaders = new Set(
      Object.values(errors.model.securitySchemes ?? {}).flatMap((s) =>
        s.type === "apiKey" && s.in === "header" ? [s.name.toLowerCase()] : [],
      ),
    );
    const fetchImpl = options.fetch;
    // Called as a plain function, never as a method: browsers refuse a fetch whose `this` is not the window. Two
    // wrappers: the runtime's own requests pass theirs, so that a middleware can tell them from client.openapi's.
    this.#fetch = (request, init) => fetchImpl(request, init);
    this.client = createClient<AnyPaths>({
      baseUrl: options.baseUrl,
      fetch: (request: Request, init?: RequestInit) => fetchImpl(request, init),
      // The client's default headers: openapi-fetch lays each request's own over them, whatever their case.
      ...(options.headers && { headers: options.headers }),
      ...(options.dispatcher !== undefined && { requestInitExt: { dispatcher: options.dispatcher } }),
    });
    this.#defaultCredentials = defaultCredentials(auth, userAgent, this.#fetch);
  }

  /**
   * The openapi-fetch client for direct use (`client.openapi`): from the first call on, its requests get the default
   * credentials, ahead of every other middleware. Until then the runtime's requests run no middleware of its own.
   */
  get openapi(): Client<AnyPaths> {
    if (!this.#credentialsInstalled) {
      this.#credentialsInstalled = true;
      this.client.eject(...this.#middleware);
      this.client.use(this.#defaultCredentials, ...this.#middleware);
    }
    return this.client;
  }

  /** Adds middleware that sees every request this transport sends: retries, polls and downloads included. */
  use(...middleware: Middleware[]): void {
    this.client.use(...middleware);
    this.#middleware.push(...middleware);
  }

  eject(...middleware: Middleware[]): void {
    this.client.eject(...middleware);
    for (const m of middleware) {
      const at = this.#middleware.indexOf(m);
      if (at !== -1) this.#middleware.splice(at, 1);
    }
  }

  /** The middleware in use, in order (a copy). */
  get middleware(): readonly Middleware[] {
    return [...this.#middleware];
  }

  /** The call's answer; a budget already spent or an empty or dot path parameter rejects it before anything is sent. */
  send(req: SendRequest): Promise<SendResult> {
    try {
      checkPathValues(req.label, req.pathParams);
      checkBudget(req.budget);
    } catch (spent) {
      return Promise.reject(spent);
    }
    return this.#loop(req, callDeadline(req.budget));
  }

  async #loop(req: SendRequest, deadline: CallDeadline): Promise<SendResult> {
    const { budget: b, resendable } = req;
    const submission = req.submission;
    const jobSubmission = submission !== undefined;
    const MayHaveBeenProcessed = submission ?? MayHaveBeenProcessedError;
    const retry = this.#options.retry;
    const log = this.#options.logger;
    let attempts = 0;
    let retries = 0;
    let rotated = false;
    for (;;) {
      checkBudget(b);
      if (this.#options.pacing) await this.#pace(b);
      // Plain string credentials are used as they are, without a trip through the microtask queue.
      const pending = req.foreign ? undefined : this.#auth.apply(req.security, req.label);
      const credentials = pending instanceof Promise ? await pending : pending;
      checkBudget(b);
      attempts++;
      const where = { op: req.label, method: req.method, path: req.path, attempt: attempts };
      const sentAt = log === undefined ? 0 : Date.now();
      let outcome: { data?: unknown; error?: unknown; response: Response };
      try {
        // Only the members this request needs: openapi-fetch copies the object twice and takes it apart once per call.
        const headers = this.#headers(req, credentials);
        log?.debug?.("request", { ...where, headers: this.#logged(Object.entries(headers)) });
        const query = credentials?.extra === undefined ? req.query : credentials.extra.init(credentials, headers, req.query);
        const init: FetchOptions<AnyOperation> = {
          fetch: this.#fetch,
          params: { path: req.pathParams, query },
          parseAs: req.response === "binary" ? "stream" : "text",
          headers,
          // Undefined keeps the client's base address, as an absent one does (openapi-fetch reads it only when set).
          baseUrl: req.baseUrl as string,
        };
        if (req.body !== undefined) {
          init.body = req.body;
          init.bodySerializer = asIs;
        }
        if (deadline.signal !== undefined) init.signal = deadline.signal;
        outcome = await deadline.settle(this.client.request(req.method.toLowerCase() as Method, req.path, init));
      } catch (thrown) {
        const failure = this.#networkFailure(thrown, deadline.signal, b);
        if (failure instanceof RequestEncodingError) throw failure;
        // Stopped in flight: the body may have reached the server, so a write may have been carried out.
        if (failure instanceof AbortedError || failure instanceof DeadlineExceededError) {
          if (resendable) throw failure;
          const why = failure instanceof AbortedError ? "aborted by the caller" : "the deadline passed";
          const what = jobSubmission ? "the submission" : "the request";
          throw new MayHaveBeenProcessed(`${why} while ${what} was in flight`, { cause: failure, ...jobOption(b) });
        }
        const causeCode = failure instanceof ConnectionError ? failure.causeCode : undefined;
        if (verdictForNetwork(causeCode, resendable) === "may-have-been-processed") {
          throw new MayHaveBeenProcessed(`the connection failed after the request was sent (${causeCode ?? "unknown cause"})`, {
            cause: failure,
          });
        }
        if (retries >= (b.maxRetries ?? retry.maxRetries)) throw failure;
        const delayMs = backoffDelay(retries++, retry);
        log?.warn?.("retrying after a connection error", { ...where, reason: causeCode ?? "connection failed", delayMs });
        await this.#sleepOrThrow(b, delayMs, failure);
        continue;
      }

      const { response } = outcome;
      if (log !== undefined) {
        const answer = {
          ...where,
          status: response.status,
          requestId: requestIdOf(response.headers, this.#errors.model),
          durationMs: Date.now() - sentAt,
        };
        log.info?.("answer", answer);
        log.debug?.("answer headers", { ...where, status: response.status, headers: this.#logged(response.headers.entries()) });
      }
      if (response.ok) {
        // openapi-fetch hands back no body for a 204 or a Content-Length of 0 (Prism's empty text/event-stream): the
        // download is then a stream that has ended, not one that never does, which a reader would wait on until the deadline.
        const data = req.response === "binary" ? (outcome.data ?? endedStream()) : this.#parseJson(outcome.data, response, submission);
        this.#notePacing(data);
        // A job still running after the hold is the job's answer, not an error, whatever its body holds.
        const stillRunning = jobSubmission && response.status === req.stillRunningStatus;
        if (req.response === "json" && !stillRunning && isErrorBody(data, this.#errors.model.conventions?.envelope)) {
          throw errorFromBody(this.#errors, response.status, data, response.headers);
        }
        return { data, meta: buildMeta(response, data, attempts, this.#errors.model) };
      }

      this.#notePacing(outcome.error);
      const error = errorFromBody(this.#errors, response.status, outcome.error, response.headers);
      if (response.status === 401 && this.#auth.rotates && !rotated && (this.#renewOn?.has(error.code) ?? true)) {
        // The service refused the token before doing anything: ask the provider again, once.
        rotated = true;
        log?.info?.("token refused, asking the token provider again", { op: req.label, code: error.code });
        continue;
      }
      const verdict = verdictForStatus(response.status, resendable);
      if (verdict === "fail") throw error;
      if (verdict === "may-have-been-processed") {
        // The server answered: the error is its ServiceError (an InternalServerError) as well as MayHaveBeenProcessed.
        throw MayHaveBeenProcessed.answered(error, `HTTP ${response.status}${error.code === undefined ? "" : ` ${error.code}`}`);
      }
      if (retries >= (b.maxRetries ?? retry.maxRetries)) throw error;
      const delayMs = retryDelay(retries++, response.headers.get("retry-after"), retry);
      const reason = `HTTP ${response.status}${error.code === undefined ? "" : ` ${error.code}`}`;
      log?.warn?.("retrying", { ...where, reason, status: response.status, code: error.code, delayMs });
      await this.#sleepOrThrow(b, delayMs, error);
    }
  }

  #headers(req: SendRequest, credentials: AppliedCredentials | undefined): Record<string, string> {
    const headers: Record<string, string> = { ...req.headers };
    // A header parameter named User-Agent is sent as the caller gave it.
    if (this.#userAgent !== undefined && !hasHeader(headers, "User-Agent")) headers["User-Agent"] = this.#userAgent;
    const contentType = req.body === undefined ? undefined : req.contentType;
    if (contentType !== undefined) headers["Content-Type"] = contentType;
    if (credentials === undefined) return headers;
    // Credentials win over caller headers of the same name, whatever their case.
    for (const name in credentials.headers) setHeader(headers, name, credentials.headers[name] as string);
    return headers;
  }

  #logged(headers: Iterable<[string, string]>): Record<string, string> {
    return loggedHeaders(headers, (text) => this.#auth.redactText(text), this.#keyHeaders);
  }

  #parseJson(text: unknown, response: Response, submission: typeof JobMayExistError | undefined): unknown {
    if (typeof text !== "string" || text === "") return undefined;
    try {
      return JSON.parse(text);
    } catch {
      const error = new MalformedResponseError({
        status: response.status,
        message: `HTTP ${response.status} with a body that is not JSON`,
        body: this.#auth.redactText(text.slice(0, 2000)),
      });
      // The service answered with success: a submission was taken, but its job id is unreadable.
      throw submission === undefined
        ? error
        : new submission("the success answer was not readable", { cause: error, status: response.status });
    }
  }

  /** Errors from the network, or why the call was stopped: its deadline, or the caller's signal (ours or theirs in fetch). */
  #networkFailure(thrown: unknown, signal: AbortSignal | undefined, b: Budget): SdkError {
    if (b.signal?.aborted) return new AbortedError(jobOption(b));
    // Not the caller's: the call's own signal fired, which only its deadline does.
    if (signal?.aborted) return new DeadlineExceededError(b.deadlineMs, jobOption(b));
    if (thrown instanceof SdkError) return thrown;
    const causeCode = errorCode(thrown);
    const sent = !wasNotSent(causeCode);
    const message = `the request could not be completed (${causeCode ?? (thrown instanceof Error ? thrown.message : "unknown error")})`;
    return new ConnectionError(this.#auth.redactText(message), {
      sent,
      cause: thrown,
      ...(causeCode === undefined ? {} : { causeCode }),
      ...jobOption(b),
    });
  }

  /** Sleeps before a retry; when the deadline would pass first, the last failure is what the caller gets. */
  async #sleepOrThrow(b: Budget, delayMs: number, failure: SdkError | ServiceError): Promise<void> {
    try {
      await sleepWithin(b, delayMs);
    } catch (stopped) {
      throw stopped instanceof DeadlineExceededError ? failure : stopped;
    }
  }

  async #pace(b: Budget): Promise<void> {
    const wait = this.#nextAllowedAt - Date.now();
    if (wait <= 0) return;
    this.#options.logger?.debug?.("pacing", { waitMs: wait });
    await sleepWithin(b, wait);
  }

  #notePacing(body: unknown): void {
    if (!this.#options.pacing) return;
    const seconds = nextPossibleRequestSeconds(body, this.#errors.model.conventions?.envelope);
    if (seconds !== undefined) this.#nextAllowedAt = Math.max(this.#nextAllowedAt, Date.now() + seconds * 1000);
  }
}

/** The body is serialised before the first attempt (encode.ts); openapi-fetch sends it as it is. */
/** A body stream with nothing in it, closed already. */
function endedStream(): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>({ start: (controller) => controller.close() });
}

function asIs(body: SendBody | undefined): SendBody | undefined {
  return body;
}

/** The system or undici code of a fetch failure (fetch wraps it in `cause`, sometimes in an AggregateError). */
function errorCode(thrown: unknown): string | undefined {
  let current: unknown = thrown;
  for (let depth = 0; depth < 4 && typeof current === "object" && current !== null; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === "string") return code;
    const errors = (current as { errors?: unknown }).errors;
    current = Array.isArray(errors) && errors.length > 0 ? errors[0] : (current as { cause?: unknown }).cause;
  }
  return undefined;
}

/**
 * The credentials of the client's own openapi-fetch calls (`client.openapi`): the User-Agent, and the credentials of
 * the first security scheme (by name) the client has one for, since openapi-fetch does not know each operation's
 * requirements (the generated functions do). The runtime's own requests, which carry their operation's credentials
 * already, are told apart by the fetch they pass (openapi-fetch shows a middleware the request's options).
 */
function defaultCredentials(auth: Auth, userAgent: string | undefined, ownFetch: unknown): Middleware {
  return {
    async onRequest({ request, schemaPath, options }) {
      if (options.fetch === ownFetch) return undefined;
      const applied = await auth.apply(undefined, `${request.method} ${schemaPath}`);
      if (userAgent !== undefined) request.headers.set("User-Agent", userAgent);
      for (const [name, value] of Object.entries(applied.headers)) request.headers.set(name, value);
      // API keys in the query or a cookie: their kind's code, absent from clients without such a scheme.
      return applied.extra?.request(applied, request);
    },
  };
}
