// The client object: the client's options, its credentials and the one openapi-fetch client it sends through. It
// holds no code path: sending is done by functions (call.ts, download.ts, raw.ts, paginate.ts, job-functions.ts) that
// a generated operation imports one by one, so that a bundle carries only what its operations use.
import type { Client, Middleware } from "openapi-fetch";
import { Auth, isBrowser } from "./auth.js";
import type { SchemeKinds } from "./auth-schemes.js";
import { environmentVariable } from "./base-url.js";
import type { ErrorContext } from "./error-mapping.js";
import type { ServiceErrorClass } from "./errors.js";
import type { BillingData, ServiceModel } from "./model.js";
import { basicCredentials, type ClientOptions, type ResolvedOptions, resolveOptions } from "./options.js";
import { Transport } from "./transport.js";
import { userAgentOf } from "./user-agent.js";

/** The key of a client's inner parts, for the runtime's functions; not part of the public API. */
export const internals: unique symbol = Symbol("paperoffice.runtime");

/** What the runtime's functions read from a client. */
export interface Internals {
  readonly model: ServiceModel;
  readonly options: ResolvedOptions;
  readonly transport: Transport;
  readonly errors: ErrorContext;
  /**
   * The baseUrl option as given, unchecked (options.baseUrl is the address in use): when set, it applies to
   * operations with servers of their own too (see atOperationServer).
   */
  readonly baseUrl: string | undefined;
}

/**
 * One client of a description: pass it to the generated operation functions. `B` is the type of the envelope's
 * billing object in each answer's meta: the generated client sets it to the description's billing schema; the
 * runtime itself only knows it as a JSON object. `Paths` is the description's paths type, which types `openapi`.
 */
export class Runtime<B extends BillingData = BillingData, Paths extends object = object> {
  readonly model: ServiceModel;
  /**
   * openapi-fetch itself, typed with the description's paths (the generated createClient passes them): the client's
   * base address, fetch, middleware and credentials (of the first scheme by name it has one for), with openapi-fetch's
   * semantics: `{ data, error, response }`, no retries, deadlines or typed errors. It is the same openapi-fetch client
   * the operation functions send through; they add those.
   */
  get openapi(): Client<Paths> {
    return this[internals].transport.openapi as unknown as Client<Paths>;
  }

  /** The runtime's own parts (options, transport, error mapping), for its functions. */
  readonly [internals]: Internals;
  /** Type-level only: the billing type of this client's answers. */
  declare readonly billingType?: B;
  /** The options as given (a copy), for withOptions. */
  readonly #given: ClientOptions;
  readonly #errorClasses: Readonly<Record<string, ServiceErrorClass>>;
  readonly #schemeKinds: SchemeKinds;

  /**
   * `schemeKinds`: the kinds of security scheme besides bearer tokens that the model's schemes use (apiKeyScheme,
   * basicScheme, httpScheme, mutualTLSScheme); a scheme of another kind is refused here.
   */
  constructor(
    model: ServiceModel,
    options: ClientOptions = {},
    errorClasses: Readonly<Record<string, ServiceErrorClass>> = {},
    schemeKinds: SchemeKinds = {},
  ) {
    this.model = model;
    this.#given = { ...options, ...(options.retry && { retry: { ...options.retry } }) };
    this.#errorClasses = errorClasses;
    this.#schemeKinds = schemeKinds;
    const resolved = resolveOptions(options, model);
    const browser = isBrowser();
    const auth = new Auth({
      schemes: model.securitySchemes ?? {},
      kinds: schemeKinds,
      token: options.token ?? environmentVariable(model.env?.token),
      apiKey: options.apiKey,
      basic: basicCredentials(options),
      credentials: options.credentials ?? {},
      secrets: options.secrets,
      tokens: model.conventions?.tokens,
      brand: options.tokenBrand ?? model.conventions?.tokens?.brand,
      refuseServerOnly: browser && !options.allowSecretTokenInBrowser,
    });
    const errors: ErrorContext = { model, classes: errorClasses, auth };
    // Browsers do not let scripts set User-Agent.
    const userAgent = browser ? undefined : userAgentOf(model, options.userAgentSuffix);
    const transport = new Transport(resolved, errors, auth, userAgent);
    this[internals] = { model, options: resolved, transport, errors, baseUrl: options.baseUrl };
  }

  /**
   * Adds openapi-fetch middleware. It sees every request this client sends, retries, polls and downloads included,
   * as a Request it may change or replace, and every response.
   */
  use(...middleware: Middleware[]): void {
    this[internals].transport.use(...middleware);
  }

  /** Removes middleware added with use. */
  eject(...middleware: Middleware[]): void {
    this[internals].transport.eject(...middleware);
  }

  /**
   * A copy of this client with some options changed (`retry` and `headers` are merged member by member). The copy has
   * its own state (pacing, middleware list, token checks); it starts with this client's middleware.
   */
  withOptions(options: ClientOptions): this {
    const given = this.#given;
    const merged: ClientOptions = {
      ...given,
      ...options,
      ...((given.retry !== undefined || options.retry !== undefined) && { retry: { ...given.retry, ...options.retry } }),
      // openapi-fetch sets them in order, so a name in another case replaces the same header.
      ...(options.headers && { headers: { ...given.headers, ...options.headers } }),
    };
    // The copy is of this client's own class.
    const Class = this.constructor as new (
      model: ServiceModel,
      options: ClientOptions,
      errorClasses: Readonly<Record<string, ServiceErrorClass>>,
      schemeKinds: SchemeKinds,
    ) => this;
    const copy = new Class(this.model, merged, this.#errorClasses, this.#schemeKinds);
    copy.use(...this[internals].transport.middleware);
    return copy;
  }
}
