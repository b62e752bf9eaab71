// Bearer tokens: valid when they start with one of the service's prefixes, unless listed as expired or invalid.
export interface TokenOptions {
  /** Default: svc_sk_, svc_pk_, svc_ut_, svc_gt_. */
  prefixes?: readonly string[];
  /** Tokens answered with 401 BEARERTOKEN_EXPIRED. */
  expired?: readonly string[];
  /** Tokens answered with 401 INVALID_TOKEN even though their prefix is known. */
  invalid?: readonly string[];
}

export const DEFAULT_TOKEN_PREFIXES = ["svc_sk_", "svc_pk_", "svc_ut_", "svc_gt_"] as const;

export type TokenCheck =
  | { ok: true; token: string }
  | { ok: false; code: "AUTH_REQUIRED" | "INVALID_TOKEN" | "BEARERTOKEN_EXPIRED"; message: string };

/** The bearer token of an Authorization header, or undefined when there is none. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const m = /^Bearer\s+(\S+)\s*$/i.exec(header.trim());
  return m ? m[1] : header.trim() === "" ? undefined : "";
}

export function checkToken(token: string | undefined, options: TokenOptions = {}): TokenCheck {
  if (token === undefined) return { ok: false, code: "AUTH_REQUIRED", message: "No bearer token: send Authorization: Bearer <TOKEN>" };
  if (options.expired?.includes(token)) return { ok: false, code: "BEARERTOKEN_EXPIRED", message: "The bearer token has expired" };
  const prefixes = options.prefixes ?? DEFAULT_TOKEN_PREFIXES;
  if (token === "" || options.invalid?.includes(token) || !prefixes.some((p) => token.startsWith(p) && token.length > p.length)) {
    return { ok: false, code: "INVALID_TOKEN", message: "The bearer token is not valid" };
  }
  return { ok: true, token };
}
