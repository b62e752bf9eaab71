// The kinds of security scheme other than bearer tokens, each one how it is given and sent. The generated
// createClient passes the runtime those its description uses, so that a bundle carries no other kind's code.
import type { AppliedCredentials, AuthConfig, Credential, ExtraCredentials } from "./auth.js";
import { setHeader } from "./headers.js";
import type { SecuritySchemeModel } from "./model.js";

/** How the options give a kind of scheme's credential, how a caller is told to, and how it is sent. */
export interface SchemeKind {
  /** The options' credential for a scheme of this kind; `loose`: the token stands in for an API key. */
  credential(config: AuthConfig, loose: boolean): Credential | undefined;
  /** What to pass, for the error of an operation whose credentials are missing. */
  how(model: SecuritySchemeModel, name: string): string;
  /** Puts a string credential on the request (basic credentials are encoded and sent by the client). */
  put(out: AppliedCredentials, model: SecuritySchemeModel, value: string): void;
}

/**
 * The kinds a client knows besides bearer tokens (http bearer, oauth2 and openIdConnect), by the name `schemeKindOf`
 * gives a scheme.
 */
export interface SchemeKinds {
  readonly apiKey?: SchemeKind;
  readonly basic?: SchemeKind;
  /** HTTP schemes other than basic and bearer (digest, a custom one). */
  readonly http?: SchemeKind;
  readonly mutualTLS?: SchemeKind;
}

/** The credential is the whole Authorization header value. */
function putHeader(out: AppliedCredentials, _model: SecuritySchemeModel, value: string): void {
  out.headers.Authorization = value;
}

/** API keys in the query or a cookie, after any the request has already. */
const queryAndCookies: ExtraCredentials = {
  init(applied, headers, query) {
    if (applied.cookies.length > 0) {
      const cookie = Object.keys(headers).find((k) => k.toLowerCase() === "cookie");
      const before = cookie === undefined ? undefined : headers[cookie];
      setHeader(headers, "Cookie", [...(before === undefined || before === "" ? [] : [before]), ...applied.cookies].join("; "));
    }
    // Merged only when a scheme put something there (a for-in that returns at its first key, without listing them).
    for (const _ in applied.query) return { ...query, ...applied.query };
    return query;
  },
  request(applied, request) {
    if (applied.cookies.length > 0) {
      const before = request.headers.get("cookie");
      request.headers.set("Cookie", [...(before ? [before] : []), ...applied.cookies].join("; "));
    }
    const query = Object.entries(applied.query);
    if (query.length === 0) return undefined;
    const url = new URL(request.url);
    for (const [name, value] of query) url.searchParams.set(name, value);
    return new Request(url, request);
  },
};

/** API keys in a header, the query or a cookie: options.apiKey, else the token. */
export const apiKeyScheme: SchemeKind = {
  credential: (c, loose) => c.apiKey ?? (loose ? c.token : undefined),
  how: (model) => (model.type === "apiKey" ? `API key in ${model.in} ${JSON.stringify(model.name)}: pass options.apiKey` : ""),
  put(out, model, value) {
    if (model.type !== "apiKey") return;
    if (model.in === "header") {
      out.headers[model.name] = value;
      return;
    }
    if (model.in === "query") out.query[model.name] = value;
    else out.cookies.push(`${encodeURIComponent(model.name)}=${encodeURIComponent(value)}`);
    out.extra = queryAndCookies;
  },
};

/** HTTP basic: options.username and options.password (a string credential by name is the header value). */
export const basicScheme: SchemeKind = {
  credential: (c) => c.basic,
  how: () => "HTTP basic: pass options.username and options.password",
  put: putHeader,
};

/** Another HTTP scheme: only a credential by name, the whole header value. */
export const httpScheme: SchemeKind = {
  credential: () => undefined,
  how: (model, name) =>
    `HTTP ${model.type === "http" ? model.scheme : ""}: pass options.credentials[${JSON.stringify(name)}] with the header value`,
  put: putHeader,
};

/**
 * The client certificate travels with the connection (a dispatcher), not with the request: nothing to send, and never
 * missing. `how` names it when another scheme of the same alternative is missing, as the bearer kinds are named.
 */
export const mutualTLSScheme: SchemeKind = {
  credential: () => "",
  how: () => "mutualTLS token, sent as a bearer token: pass options.token",
  put() {},
};
