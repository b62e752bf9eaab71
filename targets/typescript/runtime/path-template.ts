// Path templates of the description (`/things/{id}`): filled with values, or matched against a concrete path. The
// runtime learns every path from the model, so it only ever handles them as templates.
import { SdkError } from "./errors.js";

const PARAMETER = /\{([^}]+)\}/g;

/**
 * Refuses, before anything is sent, a path parameter whose value as the URL carries it (percent-encoded) is empty,
 * "." or "..": servers and proxies collapse or resolve such segments (RFC 3986 removes dot segments), so the request
 * would reach another path. The encoded value is checked, %2e as a dot too: "%2e%2e" given is sent as "%252e%252e",
 * a plain segment. The value is left out of the message (a download token is a credential).
 */
export function checkPathValues(label: string, values: Readonly<Record<string, string | number>> | undefined): void {
  for (const name in values) {
    if (/^(?:\.|%2e){0,2}$/i.test(encodeURIComponent(values[name] as string | number))) {
      throw new SdkError(`${label}: path parameter ${name} must not be empty, "." or ".."`);
    }
  }
}

/** The names of a template's parameters, in order. */
export function templateParameters(template: string): string[] {
  return [...template.matchAll(PARAMETER)].map((m) => m[1] ?? "");
}

/** The template with each parameter replaced by its percent-encoded value. */
export function fillTemplate(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(PARAMETER, (whole, name: string) => {
    const value = values[name];
    return value === undefined ? whole : encodeURIComponent(String(value));
  });
}

/** The values of a template's parameters when `path` has its form (one non-empty segment each), else undefined. */
export function matchTemplate(template: string, path: string): Record<string, string> | undefined {
  const names: string[] = [];
  let pattern = "";
  let last = 0;
  for (const m of template.matchAll(PARAMETER)) {
    pattern += `${escapeRegExp(template.slice(last, m.index))}([^/?#]+)`;
    names.push(m[1] ?? "");
    last = (m.index ?? 0) + m[0].length;
  }
  pattern += escapeRegExp(template.slice(last));
  const found = new RegExp(`^${pattern}$`).exec(path);
  if (found === null) return undefined;
  const values: Record<string, string> = {};
  names.forEach((name, i) => {
    values[name] = found[i + 1] ?? "";
  });
  return values;
}

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}
