// Credentials from the description's security schemes, token kinds and redaction. Secrets live only in private
// fields of Auth and in the requests that carry them; they are scrubbed from anything the runtime throws or logs.
import type { SchemeKind, SchemeKinds } from "./auth-schemes.js";
import { BrowserTokenError, SdkError } from "./errors.js";
import type { SecuritySchemeModel, TokenKindsModel } from "./model.js";
import { redactSecrets } from "./redact.js";

/** Returns the current token. Called before every request, and once more after a 401 that asks for a new token. */
export type TokenProvider = () => string | Promise<string>;

/** A user name and password for an HTTP basic scheme. */
export interface BasicCredentials {
  username: string;
  password: string;
}

/** The credential of one security scheme: a token or API key (or a function returning it), or basic credentials. */
export type Credential = string | TokenProvider | BasicCredentials;

/** A token kind's name from the description's token kinds (for example "secret"), or "unknown". */
export type TokenKind = string;

/** The kind of a token from its prefix `<brand><prefix>` as the description's token kinds state them. */
export function tokenKind(token: string, kinds: TokenKindsModel | undefined, brand = kinds?.brand): TokenKind {
  if (kinds === undefined || brand === undefined || !token.startsWith(brand)) return "unknown";
  const rest = token.slice(brand.length);
  return kinds.kinds.find((k) => rest.startsWith(k.prefix))?.name ?? "unknown";
}

/** True when browser globals are present (also true in web workers with a document shim, which is intended). */
export function isBrowser(): boolean {
  return (
    typeof (globalThis as { window?: unknown }).window !== "undefined" &&
    typeof (globalThis as { document?: unknown }).document !== "undefined"
  );
}

/** Thrown before sending when an operation needs credentials the client was not given. */
export class MissingCredentialsError extends SdkError {}

export interface AuthConfig {
  schemes: Readonly<Record<string, SecuritySchemeModel>>;
  /** The kinds of scheme besides bearer tokens that the schemes use (the generated createClient passes them). */
  kinds?: SchemeKinds | undefined;
  /** Bearer token (http bearer, oauth2, openIdConnect), and the API key when no apiKey is given. */
  token: string | TokenProvider | undefined;
  apiKey: string | TokenProvider | undefined;
  basic: BasicCredentials | undefined;
  /** Credentials by security scheme name; they win over the ones above. */
  credentials: Readonly<Record<string, Credential>>;
  /** Further strings to redact; not credentials. */
  secrets?: readonly string[] | undefined;
  /** The description's token kinds; without them no token prefix is checked or recognised. */
  tokens: TokenKindsModel | undefined;
  /** The brand part of token prefixes: the option's, else the token kinds'. */
  brand: string | undefined;
  /** In a browser without allowSecretTokenInBrowser: server-only tokens are refused. */
  refuseServerOnly: boolean;
}

/** What a request carries for its security: headers, query parameters and cookies. */
export interface AppliedCredentials {
  headers: Record<string, string>;
  query: Record<string, string>;
  cookies: string[];
  /**
   * Sends the query parameters and cookies, when a scheme put some there; the code is its kind's (an API key's), so
   * that a client without such a scheme carries none of it.
   */
  extra?: ExtraCredentials;
}

/** Puts credentials' query parameters and cookies on a request. */
export interface ExtraCredentials {
  /** On the runtime's own requests: the cookies into `headers` (changed in place); returns the query to send. */
  init(
    applied: AppliedCredentials,
    headers: Record<string, string>,
    query: Record<string, unknown> | undefined,
  ): Record<string, unknown> | undefined;
  /** On a Request of client.openapi's: the cookies into its headers (changed in place), and a new Request for the query. */
  request(applied: AppliedCredentials, request: Request): Request | undefined;
}

const NONE: AppliedCredentials = Object.freeze({ headers: {}, query: {}, cookies: [] }) as AppliedCredentials;

/** The cache key of requests without a stated security requirement. */
const ANY: object = {};

type Resolved = { scheme: string; model: SecuritySchemeModel | undefined; credential: Credential };

export class Auth {
  readonly #config: AuthConfig;
  /** Every secret seen, so that rotated ones are redacted too. */
  readonly #seen = new Set<string>();
  /**
   * Credentials without a provider by security requirement (the operation's own array, or ANY): what they carry never
   * changes, so each call reuses them instead of choosing and building them again.
   */
  readonly #fixed = new WeakMap<object, AppliedCredentials>();

  constructor(config: AuthConfig) {
    this.#config = config;
    for (const secret of config.secrets ?? []) {
      if (typeof secret !== "string") throw new SdkError("options.secrets must hold strings");
      if (secret !== "") this.#seen.add(secret);
    }
    // A scheme of a kind the client was not given fails here, not at its first request.
    for (const model of Object.values(config.schemes)) this.#kind(model);
    for (const credential of [config.token, config.apiKey, config.basic, ...Object.values(config.credentials)]) {
      if (typeof credential === "string") this.#check(credential, credential === config.token);
      else if (credential !== undefined && typeof credential === "object") this.#noteBasic(credential);
    }
  }

  /** True when some credential comes from a provider that may return a new value when asked again. */
  get rotates(): boolean {
    const c = this.#config;
    return [c.token, c.apiKey, ...Object.values(c.credentials)].some((x) => typeof x === "function");
  }

  /**
   * The credentials of one request. `security` lists alternatives of scheme names, any one of which is enough (an
   * empty alternative, or an empty list, means none is needed); the first alternative whose credentials the client
   * has is used. Undefined security (raw requests) uses the first scheme (by name) the client has a credential for. Plain
   * strings cost no trip through the microtask queue.
   */
  apply(security: readonly (readonly string[])[] | undefined, operation: string): AppliedCredentials | Promise<AppliedCredentials> {
    const key = security ?? ANY;
    const cached = this.#fixed.get(key);
    if (cached !== undefined) return cached;
    const chosen = this.#choose(security, operation);
    if (chosen.length === 0) return this.#remember(key, NONE);
    const values = chosen.map((r) => this.#value(r));
    if (values.some((v) => typeof v === "object" && v instanceof Promise)) {
      return Promise.all(values).then((all) => this.#build(chosen, all as (string | BasicCredentials)[]));
    }
    // No provider among them: the same requirement gets the same credentials on every call.
    return this.#remember(key, Object.freeze(this.#build(chosen, values as (string | BasicCredentials)[])));
  }

  #remember(key: object, applied: AppliedCredentials): AppliedCredentials {
    this.#fixed.set(key, applied);
    return applied;
  }

  /** Removes secrets, bearer and basic credentials, and branded tokens from a text, never from inside a word. */
  redactText(text: string): string {
    return redactSecrets(text, this.#seen, this.#brandPattern());
  }

  /** Deep copy of a JSON value with every string redacted. */
  redactValue(value: unknown): unknown {
    if (typeof value === "string") return this.redactText(value);
    if (Array.isArray(value)) return value.map((item) => this.redactValue(item));
    if (value !== null && typeof value === "object") {
      const out: Record<string, unknown> = {};
      for (const [key, item] of Object.entries(value)) out[key] = this.redactValue(item);
      return out;
    }
    return value;
  }

  #brandPattern(): string | undefined {
    const tokens = this.#config.tokens;
    const brand = this.#config.brand;
    if (tokens === undefined || brand === undefined || tokens.kinds.length === 0) return undefined;
    return `${escapeRegExp(brand)}(?:${tokens.kinds.map((k) => escapeRegExp(k.prefix)).join("|")})[A-Za-z0-9._~-]+`;
  }

  #choose(security: readonly (readonly string[])[] | undefined, operation: string): Resolved[] {
    // No stated requirement: each scheme (by name) is an alternative of its own.
    const alternatives = security ?? Object.keys(this.#config.schemes).map((name) => [name]);
    // A credential given for its kind wins over the token standing in for an API key.
    for (const loose of [false, true]) {
      for (const alternative of alternatives) {
        if (alternative.length === 0) continue;
        const all = alternative.map((name) => this.#resolve(name, loose));
        if (all.every((r) => r !== undefined)) return all as Resolved[];
      }
    }
    if (security === undefined) {
      // No scheme with a credential: a bearer token when one is given.
      const token = this.#config.token;
      return token === undefined ? [] : [{ scheme: "", model: undefined, credential: token }];
    }
    // Optional security (an empty alternative, or none at all): sent when the client has it, never required.
    if (security.length === 0 || security.some((alternative) => alternative.length === 0)) return [];
    const wanted = security.map((alternative) => alternative.map((name) => this.#describe(name)).join(" and "));
    throw new MissingCredentialsError(
      `${operation} needs credentials: ${wanted.length === 1 ? wanted[0] : `one of ${wanted.join("; or ")}`}`,
    );
  }

  /** The credential the client has for a scheme, or undefined. */
  #resolve(name: string, loose: boolean): Resolved | undefined {
    const c = this.#config;
    const model = c.schemes[name];
    const own = c.credentials[name];
    if (own !== undefined) return { scheme: name, model, credential: own };
    const credential = model === undefined ? c.token : this.#byType(model, loose);
    return credential === undefined ? undefined : { scheme: name, model, credential };
  }

  /** `loose`: the token also stands in for an API key. */
  #byType(model: SecuritySchemeModel, loose: boolean): Credential | undefined {
    const kind = this.#kind(model);
    return kind === undefined ? this.#config.token : kind.credential(this.#config, loose);
  }

  /** The kind of a scheme; undefined for bearer tokens, which this class sends itself. */
  #kind(model: SecuritySchemeModel): SchemeKind | undefined {
    const name = schemeKindOf(model);
    if (name === undefined) return undefined;
    const kind = this.#config.kinds?.[name];
    if (kind === undefined) throw new SdkError(`this client was created without the ${name} security scheme kind`);
    return kind;
  }

  #describe(name: string): string {
    const model = this.#config.schemes[name];
    const how =
      model === undefined
        ? "pass options.token"
        : (this.#kind(model)?.how(model, name) ??
          `${model.type === "http" ? "bearer token" : `${model.type} token, sent as a bearer token`}: pass options.token`);
    return `security scheme ${JSON.stringify(name)} (${how}, or options.credentials[${JSON.stringify(name)}])`;
  }

  #value(r: Resolved): string | BasicCredentials | Promise<string> {
    const credential = r.credential;
    if (typeof credential === "function") {
      return Promise.resolve(credential()).then((token) => this.#check(token, credential === this.#config.token));
    }
    return credential;
  }

  #build(chosen: readonly Resolved[], values: readonly (string | BasicCredentials)[]): AppliedCredentials {
    const out: AppliedCredentials = { headers: {}, query: {}, cookies: [] };
    chosen.forEach((r, i) => {
      const value = values[i];
      const model = r.model;
      if (value === undefined || model?.type === "mutualTLS") return;
      if (typeof value === "object") {
        out.headers.Authorization = `Basic ${this.#noteBasic(value)}`;
      } else {
        const kind = model === undefined ? undefined : this.#kind(model);
        if (kind === undefined) out.headers.Authorization = `Bearer ${value}`;
        else kind.put(out, model as SecuritySchemeModel, value);
      }
    });
    return out;
  }

  /** base64 of `user:password`, remembered with its parts for redaction. */
  #noteBasic(basic: BasicCredentials): string {
    if (typeof basic.username !== "string" || typeof basic.password !== "string") {
      throw new SdkError("basic credentials need a string username and password");
    }
    const encoded = base64(`${basic.username}:${basic.password}`);
    if (basic.password !== "") this.#seen.add(basic.password);
    this.#seen.add(encoded);
    return encoded;
  }

  #check(token: string, bearer: boolean): string {
    if (typeof token !== "string" || token.length === 0) throw new SdkError("the token provider returned no token");
    this.#seen.add(token);
    const encoded = encodeURIComponent(token);
    if (encoded !== token) this.#seen.add(encoded);
    const tokens = this.#config.tokens;
    if (bearer && tokens !== undefined && this.#config.refuseServerOnly) {
      const brand = this.#config.brand;
      const kind = tokens.kinds.find((k) => token.startsWith(`${brand}${k.prefix}`));
      if (kind?.serverOnly) {
        const publishable = tokens.kinds.filter((k) => !k.serverOnly).map((k) => `a ${k.name} token (${brand}${k.prefix}...)`);
        throw new BrowserTokenError(
          `a ${kind.name} token must not be used in a browser: use ${publishable.length > 0 ? publishable.join(" or ") : "another token"}, ` +
            "or set allowSecretTokenInBrowser: true if this code never reaches end users",
        );
      }
    }
    return token;
  }
}

/** The name of a scheme's kind in SchemeKinds; undefined for bearer tokens (http bearer, oauth2, openIdConnect). */
export function schemeKindOf(model: SecuritySchemeModel): keyof SchemeKinds | undefined {
  if (model.type === "http") return model.scheme === "bearer" ? undefined : model.scheme === "basic" ? "basic" : "http";
  return model.type === "oauth2" || model.type === "openIdConnect" ? undefined : model.type;
}

function base64(text: string): string {
  const bytes = new TextEncoder().encode(text);
  let binary = "";
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

export function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
