// The IR's identifiers are words joined in a case, unique in their set; they keep no language's reserved words out.
// Each target's name planner does that for its own language (a keyword, a global, a name its runtime exports).
import { memoByText } from "../memo.js";

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

/**
 * The lower-case words of a name, for planners of any language: split at every character that is no letter or digit,
 * between a lower-case letter or digit and an upper-case one, and before the last capital of a run of capitals that
 * a lower-case letter follows (`HTTPServer` -> http, server).
 */
export function nameWords(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .replace(/([A-Z]+)([A-Z][a-z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w.toLowerCase());
}

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** PascalCase identifier; never empty, never starting with a digit (kept for texts seen before: generator/memo.ts). */
export const pascalCase: (text: string) => string = memoByText(pascalCaseOf);

function pascalCaseOf(text: string): string {
  const joined = words(text).map(cap).join("");
  return joined === "" ? "Unnamed" : /^[0-9]/.test(joined) ? `N${joined}` : joined;
}

/** camelCase identifier; never empty, never starting with a digit. */
export function camelCase(text: string): string {
  const [first = "", ...rest] = words(text);
  const joined = first.charAt(0).toLowerCase() + first.slice(1) + rest.map(cap).join("");
  return joined === "" ? "unnamed" : /^[0-9]/.test(joined) ? `n${joined}` : joined;
}

/**
 * Gives each key an identifier, unique in the set: keys that are already their own identifier come first (an
 * operationId `getItem` keeps `getItem` beside `GetItem` and `get-item`), then the rest in sorted order, so the
 * same keys always get the same identifiers, and a later collision gets a numeric suffix.
 */
export function uniqueIdentifiers(keys: readonly string[], make: (key: string) => string): Map<string, string> {
  const taken = new Set<string>();
  const result = new Map<string, string>();
  const sorted = [...keys].sort();
  for (const key of [...sorted.filter((k) => make(k) === k), ...sorted.filter((k) => make(k) !== k)]) {
    const base = make(key);
    let id = base;
    for (let n = 2; taken.has(id.toLowerCase()); n++) id = `${base}${n}`;
    taken.add(id.toLowerCase());
    result.set(key, id);
  }
  return result;
}
