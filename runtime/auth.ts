// Bearer authentication, token kinds and redaction. The token lives only in a private field of Auth and in the
// Authorization header of outgoing requests; it is scrubbed from anything the runtime throws or logs.
import { BrowserTokenError, SdkError } from "./errors.js";

/** Returns the current token. Called before every request, and once more after a 401 for an expired token. */
export type TokenProvider = () => string | Promise<string>;

export type TokenKind = "secret" | "user" | "gt" | "publishable" | "unknown";

const KIND_BY_INFIX: Readonly<Record<string, TokenKind>> = { sk_: "secret", ut_: "user", gt_: "gt", pk_: "publishable" };

/** The kind of a token from its prefix `<brand>sk_`, `<brand>ut_`, `<brand>gt_` or `<brand>pk_`. */
export function tokenKind(token: string, brand = "svc_"): TokenKind {
  if (!token.startsWith(brand)) return "unknown";
  return KIND_BY_INFIX[token.slice(brand.length, brand.length + 3)] ?? "unknown";
}

/** True when browser globals are present (also true in web workers with a document shim, which is intended). */
export function isBrowser(): boolean {
  return (
    typeof (globalThis as { window?: unknown }).window !== "undefined" &&
    typeof (globalThis as { document?: unknown }).document !== "undefined"
  );
}

export interface AuthConfig {
  token: string | TokenProvider;
  brand: string;
  browser: boolean;
  allowSecretTokenInBrowser: boolean;
}

export class Auth {
  readonly #source: string | TokenProvider;
  readonly #brand: string;
  readonly #refuseServerTokens: boolean;
  /** Every token seen, so that rotated ones are redacted too. */
  readonly #seen = new Set<string>();

  constructor(config: AuthConfig) {
    this.#source = config.token;
    this.#brand = config.brand;
    this.#refuseServerTokens = config.browser && !config.allowSecretTokenInBrowser;
    if (typeof config.token === "string") this.#check(config.token);
  }

  get rotates(): boolean {
    return typeof this.#source === "function";
  }

  /** The token for the next request; a plain string token costs nothing here. */
  token(): string | Promise<string> {
    const source = this.#source;
    if (typeof source === "string") return source;
    return Promise.resolve(source()).then((token) => this.#check(token));
  }

  /** Removes tokens and bearer credentials from a text. */
  redactText(text: string): string {
    let out = text;
    for (const token of this.#seen) if (token.length > 0) out = out.split(token).join("[redacted]");
    return out
      .replace(/Bearer\s+[^\s"',;]+/gi, "Bearer [redacted]")
      .replace(new RegExp(`${escapeRegExp(this.#brand)}(?:sk|ut|gt|pk)_[A-Za-z0-9._~-]+`, "g"), "[redacted]");
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

  #check(token: string): string {
    if (typeof token !== "string" || token.length === 0) throw new SdkError("the token provider returned no token");
    this.#seen.add(token);
    if (this.#refuseServerTokens) {
      const kind = tokenKind(token, this.#brand);
      if (kind === "secret" || kind === "user") {
        throw new BrowserTokenError(
          `a ${kind} token must not be used in a browser: use a publishable token (${this.#brand}pk_...), ` +
            "or set allowSecretTokenInBrowser: true if this code never reaches end users",
        );
      }
    }
    return token;
  }
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
