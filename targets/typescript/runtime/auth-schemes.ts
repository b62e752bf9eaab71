// The kinds of security scheme other than bearer tokens, each one how it is given and sent. The generated
// createClient passes the runtime those its description uses, so that a bundle carries no other kind's code.
import type { AppliedCredentials, AuthConfig, Credential } from "./auth.js";
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

/** API keys in a header, the query or a cookie: options.apiKey, else the token. */
export const apiKeyScheme: SchemeKind = {
  credential: (c, loose) => c.apiKey ?? (loose ? c.token : undefined),
  how: (model) => (model.type === "apiKey" ? `API key in ${model.in} ${JSON.stringify(model.name)}: pass options.apiKey` : ""),
  put(out, model, value) {
    if (model.type !== "apiKey") return;
    if (model.in === "header") out.headers[model.name] = value;
    else if (model.in === "query") out.query[model.name] = value;
    else out.cookies.push(`${encodeURIComponent(model.name)}=${encodeURIComponent(value)}`);
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

/** The client certificate travels with the connection (a dispatcher), not with the request: nothing to send. */
export const mutualTLSScheme: SchemeKind = {
  credential: () => "",
  how: () => "",
  put() {},
};
