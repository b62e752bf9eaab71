// Facts every language's generated README (and every file's header) states, taken from the description alone: how its version is named, and
// which credentials its security schemes ask for. A README of another API then speaks of that API only.
import type { IR, SecurityScheme } from "../ir/types.js";
import { RELEASE_ID } from "../spec/releases.js";

/** What info.version is called: `release` for a release id of the service's form (R<yyyymmdd>.<hhmm>), else `version`. */
export function versionWord(version: string): "release" | "version" {
  return RELEASE_ID.test(version) ? "release" : "version";
}

/** `release R20261127.0900` for a release id, else `version 1.2.0` (info.version as written). */
export function versionLabel(version: string): string {
  return `${versionWord(version)} ${version}`;
}

/** The credentials a client of the description is given, by the kind of its security schemes. */
export interface ReadmeAuth {
  /** http bearer, oauth2 or openIdConnect: a bearer token. */
  readonly bearer: boolean;
  /** http basic: a user name and a password. */
  readonly basic: boolean;
  /** apiKey schemes: where each key travels (`header X-Api-Key`, `query api_key`, `cookie sid`). */
  readonly apiKeys: readonly string[];
  /** No scheme a client sends a credential for: the description declares none (or only mutual TLS). */
  readonly none: boolean;
}

const isBearer = (s: SecurityScheme) =>
  (s.type === "http" && s.scheme?.toLowerCase() === "bearer") || s.type === "oauth2" || s.type === "openIdConnect";

/** What the description's securitySchemes declare, as README examples show it. */
export function readmeAuth(ir: Pick<IR, "securitySchemes">): ReadmeAuth {
  const schemes = ir.securitySchemes;
  const bearer = schemes.some(isBearer);
  const basic = schemes.some((s) => s.type === "http" && s.scheme?.toLowerCase() === "basic");
  const apiKeys = schemes
    .filter((s) => s.type === "apiKey")
    .map((s) => `${s.in ?? "header"} ${s.parameterName ?? s.name}`)
    .filter((where, i, all) => all.indexOf(where) === i);
  return { bearer, basic, apiKeys, none: !bearer && !basic && apiKeys.length === 0 };
}
