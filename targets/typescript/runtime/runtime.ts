// The object the generated client wraps: one per client, holding the only openapi-fetch client it uses.
import { Auth, isBrowser } from "./auth.js";
import { environmentVariable } from "./base-url.js";
import { downloadTarget, type Download, toDownload } from "./download.js";
import {
  type BodyEncoding,
  encodingFor,
  type PreparedBody,
  parameterHeaders,
  prepareBody,
  prepareRawBody,
  rawContentType,
} from "./encode.js";
import type { ErrorContext } from "./error-mapping.js";
import { SdkError, type ServiceErrorClass } from "./errors.js";
import { type JobHandle, type JobOptions, type JobResult, Jobs, type WaitOptions } from "./jobs.js";
import type { ApiResult, BillingData, CallInput, OperationSpec, RequestMediaType, RequestOptions, ServiceModel } from "./model.js";
import { basicCredentials, type ClientOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { type PaginateOptions, paginate } from "./paginate.js";
import { templateParameters } from "./path-template.js";
import { priceJob } from "./pricing.js";
import { isResendable } from "./retry.js";
import { budgetFor } from "./timing.js";
import { Transport } from "./transport.js";
import type { Client, Middleware } from "openapi-fetch";
import { typedClient } from "./typed-client.js";
import { userAgentOf } from "./user-agent.js";

export interface RawInit extends Omit<RequestOptions, "mediaType"> {
  query?: Record<string, unknown>;
  /** A form body is an object of fields; a JSON body may be any JSON value. */
  body?: unknown;
  /** Body encoding (default multipart/form-data, the service's default). */
  mediaType?: RequestMediaType;
  jsonStrings?: readonly string[];
  /**
   * May be sent again after a failure that may have reached the server. Default: true for GET, HEAD, PUT, DELETE,
   * OPTIONS and TRACE, so that an unknown POST or PATCH is never sent twice by mistake.
   */
  idempotent?: boolean;
  response?: "json" | "binary";
}

/**
 * One client of a description. `B` is the type of the envelope's billing object in each answer's meta: the generated
 * client sets it to the description's billing schema; the runtime itself only knows it as a JSON object. `Paths` is
 * the description's paths type, which types `openapi`.
 */
export class Runtime<B extends BillingData = BillingData, Paths extends object = object> {
  readonly model: ServiceModel;
  /**
   * openapi-fetch itself, typed with the description's paths (the generated createClient passes them): the client's
   * base address, fetch, middleware and credentials (of the first scheme by name it has one for), with openapi-fetch's
   * semantics: `{ data, error, response }`, no retries, deadlines or typed errors. The operation functions are the
   * ones to use for all of that.
   */
  readonly openapi: Client<Paths>;
  readonly #options: ResolvedOptions;
  readonly #transport: Transport;
  /** The job helpers' engine; JobRuntime exposes it as methods, for descriptions that state job operations. */
  protected readonly jobRunner: Jobs;
  /** The options as given (a copy), for withOptions. */
  readonly #given: ClientOptions;
  readonly #errorClasses: Readonly<Record<string, ServiceErrorClass>>;

  constructor(model: ServiceModel, options: ClientOptions = {}, errorClasses: Readonly<Record<string, ServiceErrorClass>> = {}) {
    this.model = model;
    this.#given = { ...options, ...(options.retry && { retry: { ...options.retry } }) };
    this.#errorClasses = errorClasses;
    this.#options = resolveOptions(options, model);
    const browser = isBrowser();
    const auth = new Auth({
      schemes: model.securitySchemes ?? {},
      token: options.token ?? environmentVariable(model.env?.token),
      apiKey: options.apiKey,
      basic: basicCredentials(options),
      credentials: options.credentials ?? {},
      secrets: options.secrets,
      tokens: model.conventions?.tokens,
      brand: options.tokenBrand,
      browser,
      allowSecretTokenInBrowser: options.allowSecretTokenInBrowser ?? false,
    });
    const errors: ErrorContext = { model, classes: errorClasses, auth };
    // Browsers do not let scripts set User-Agent.
    const userAgent = browser ? undefined : userAgentOf(model, options.userAgentSuffix);
    this.#transport = new Transport(this.#options, errors, auth, userAgent);
    this.openapi = typedClient<Paths>(this.#options, auth, userAgent);
    this.jobRunner = new Jobs(this.#transport, this.#options, model, errors);
  }

  /**
   * Adds openapi-fetch middleware. It sees every request this client sends, retries, polls and downloads included,
   * as a Request it may change or replace, and every response.
   */
  use(...middleware: Middleware[]): void {
    this.#transport.use(...middleware);
    this.openapi.use(...middleware);
  }

  /** Removes middleware added with use. */
  eject(...middleware: Middleware[]): void {
    this.#transport.eject(...middleware);
    this.openapi.eject(...middleware);
  }

  /**
   * A copy of this client with some options changed (`retry` is merged member by member). The copy has its own
   * state (pacing, middleware list, token checks); it starts with this client's middleware.
   */
  withOptions(options: ClientOptions): this {
    const merged: ClientOptions = {
      ...this.#given,
      ...options,
      ...((this.#given.retry !== undefined || options.retry !== undefined) && { retry: { ...this.#given.retry, ...options.retry } }),
    };
    // The copy is of this client's own class, so a JobRuntime's copy keeps its job helpers.
    const Class = this.constructor as new (
      model: ServiceModel,
      options: ClientOptions,
      errorClasses: Readonly<Record<string, ServiceErrorClass>>,
    ) => this;
    const copy = new Class(this.model, merged, this.#errorClasses);
    copy.use(...this.#transport.middleware);
    return copy;
  }

  /** One operation of the description. */
  async call<T>(op: OperationSpec, input: CallInput, options: RequestOptions = {}): Promise<ApiResult<T, B>> {
    const selector = op.job === "submit" ? this.model.jobs?.submit.pipelineParameter : undefined;
    if (selector !== undefined && input.path?.[selector] !== undefined) this.jobRunner.checkPipeline(String(input.path[selector]));
    const result = await this.#transport.send({
      method: op.method,
      path: op.path,
      pathParams: input.path,
      query: input.query,
      ...(await this.#body(op, input, options)),
      response: op.response,
      resendable: isResendable(op),
      jobSubmission: op.job === "submit",
      budget: budgetFor(options, this.#options.deadlineMs),
      label: op.operationId,
      security: op.security,
    });
    return result as ApiResult<T, B>;
  }

  /**
   * A file: the body of any operation whose answer is binary, through its own path and parameters; or, with a
   * download token or a full URL taken from a result, through the description's download operation.
   */
  download(tokenOrUrl: string, options?: RequestOptions): Promise<Download<B>>;
  download(op: OperationSpec, input: CallInput, options?: RequestOptions): Promise<Download<B>>;
  async download(first: string | OperationSpec, second?: CallInput | RequestOptions, third?: RequestOptions): Promise<Download<B>> {
    if (typeof first !== "string") return this.#downloadOperation(first, (second as CallInput | undefined) ?? {}, third ?? {});
    const options = (second as RequestOptions | undefined) ?? {};
    const download = this.model.jobs?.download;
    const target = downloadTarget(first, this.#options.baseUrl, download);
    const b = budgetFor(options, this.#options.deadlineMs);
    const common = { method: "GET", response: "binary", resendable: true, budget: b, headers: options.headers } as const;
    const result =
      target.kind === "token" && download !== undefined
        ? await this.#transport.send({
            ...common,
            method: download.operation.method,
            path: download.operation.path,
            pathParams: { [download.tokenParameter]: target.token },
            label: download.operation.operationId,
            security: download.operation.security,
          })
        : await this.#transport.send({
            ...common,
            path: target.kind === "foreign" ? target.path : "",
            ...(target.kind === "foreign" && { foreignBaseUrl: target.origin }),
            label: "download",
          });
    return toDownload(
      result.data as ReadableStream<Uint8Array>,
      result.meta,
      target.kind === "foreign" ? target.fallbackName : undefined,
      b,
    ) as Download<B>;
  }

  async #downloadOperation(op: OperationSpec, input: CallInput, options: RequestOptions): Promise<Download<B>> {
    const missing = templateParameters(op.path).filter((name) => input.path?.[name] === undefined || input.path[name] === "");
    if (missing.length > 0) {
      throw new SdkError(
        `${op.operationId}: path parameter ${missing.map((m) => JSON.stringify(m)).join(", ")} is missing; nothing was sent`,
      );
    }
    const b = budgetFor(options, this.#options.deadlineMs);
    const result = await this.#transport.send({
      method: op.method,
      path: op.path,
      pathParams: input.path,
      query: input.query,
      ...(await this.#body(op, input, options)),
      response: "binary",
      resendable: isResendable(op),
      jobSubmission: op.job === "submit",
      budget: b,
      label: op.operationId,
      security: op.security,
    });
    return toDownload(result.data as ReadableStream<Uint8Array>, result.meta, undefined, b) as Download<B>;
  }

  /** An operation's body, its encoding and its headers: a raw body carries its media type as Content-Type. */
  async #body(
    op: OperationSpec,
    input: CallInput,
    options: RequestOptions,
  ): Promise<{ body: PreparedBody | undefined; encoding: BodyEncoding; headers: Record<string, string> }> {
    const encoding = encodingFor(op.requestMediaType, options.mediaType);
    // A JSON operation asks for JSON first: a server that also offers another representation (GitHub's
    // application/vnd.github.object) then answers with the one the client parses.
    const accept = op.response === "json" ? { Accept: "application/json, */*;q=0.8" } : undefined;
    const headers = { ...accept, ...parameterHeaders(input.header, input.cookie, options.headers) };
    if (input.body === undefined) return { body: undefined, encoding, headers };
    if (encoding !== "raw")
      return { body: await prepareBody(input.body, input.jsonStrings, this.model.conventions?.form?.arrays), encoding, headers };
    const body = await prepareRawBody(input.body);
    return { body, encoding, headers: { "Content-Type": rawContentType(op.requestMediaType ?? "", body), ...headers } };
  }

  /** A request to a path below the base address that the description does not list; same auth, retries and errors. */
  async raw<T = unknown>(method: string, path: string, init: RawInit = {}): Promise<ApiResult<T, B>> {
    if (!path.startsWith("/")) throw new SdkError("raw paths start with / and are relative to the base address");
    const upper = method.toUpperCase();
    const result = await this.#transport.send({
      method: upper,
      path,
      query: init.query,
      body: init.body === undefined ? undefined : await prepareBody(init.body, init.jsonStrings, this.model.conventions?.form?.arrays),
      encoding: encodingFor(undefined, init.mediaType),
      response: init.response ?? "json",
      resendable: isResendable({ method: upper, idempotent: init.idempotent }),
      budget: budgetFor(init, this.#options.deadlineMs),
      headers: init.headers,
      label: `${upper} ${path}`,
    });
    return result as ApiResult<T, B>;
  }

  /** Items of a read that pages as its description states (`x-paperoffice-pagination`), page after page. */
  paginate<T>(op: OperationSpec, input: CallInput, options: PaginateOptions = {}): AsyncIterable<T> {
    return paginate<T>((o, i, r) => this.call(o, i, r), op, input, options);
  }
}

/**
 * A client of a description that states job operations (`x-paperoffice-job`): the generated createClient returns
 * one only then, so a plain description's client has no job helpers at all.
 */
export class JobRuntime<B extends BillingData = BillingData, Paths extends object = object> extends Runtime<B, Paths> {
  /** Submits a job and waits for its payload: hold first, then polling while it runs. Works for any valid slug. */
  submitJob<T>(
    pipeline: string,
    body: Record<string, unknown>,
    options?: JobOptions & { jsonStrings?: readonly string[] },
  ): Promise<JobResult<T, B>> {
    return this.jobRunner.submit<T>(pipeline, body, options) as Promise<JobResult<T, B>>;
  }

  /** Submits with the description's no-wait field set and returns a handle at once. */
  startJob(
    pipeline: string,
    body: Record<string, unknown>,
    options?: RequestOptions & { jsonStrings?: readonly string[] },
  ): Promise<JobHandle<B>> {
    return this.jobRunner.start(pipeline, body, options) as Promise<JobHandle<B>>;
  }

  /** Waits for a job by id, from any process. */
  waitJob<T>(jobId: string, options?: WaitOptions & { pipeline?: string }): Promise<JobResult<T, B>> {
    return this.jobRunner.wait<T>(jobId, options) as Promise<JobResult<T, B>>;
  }

  /** Credits a job costs: base credits x lane multiplier, at least the minimum charge. */
  priceJob(pipeline: string, lane?: string): number {
    return priceJob(this.model, pipeline, lane);
  }
}
