/** Words that cannot name a type, function or variable in the languages emitted from the IR (TypeScript, Python). */
const RESERVED = new Set(
  [
    // TypeScript / JavaScript
    "break case catch class const continue debugger default delete do else enum export extends false finally for function if import in",
    "instanceof new null return super switch this throw true try typeof var void while with as implements interface let package private",
    "protected public static yield any boolean number string symbol type from of await async never unknown object undefined bigint",
    "Array Object String Number Boolean Symbol Promise Error Record Partial Required Readonly Pick Omit Exclude Extract Date Map Set Blob File",
    // Python
    "False None True and assert def del elif except global is lambda nonlocal not or pass raise match print self list dict str int float bytes",
  ]
    .join(" ")
    .split(" "),
);

function words(text: string): string[] {
  return text
    .replace(/([a-z0-9])([A-Z])/g, "$1 $2")
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean);
}

const cap = (w: string): string => w.charAt(0).toUpperCase() + w.slice(1);

/** PascalCase identifier; never empty, never starting with a digit, never reserved. */
export function pascalCase(text: string): string {
  const joined = words(text).map(cap).join("");
  const id = joined === "" ? "Unnamed" : /^[0-9]/.test(joined) ? `N${joined}` : joined;
  return RESERVED.has(id) ? `${id}Type` : id;
}

/** camelCase identifier; never empty, never starting with a digit, never reserved. */
export function camelCase(text: string): string {
  const [first = "", ...rest] = words(text);
  const joined = first.charAt(0).toLowerCase() + first.slice(1) + rest.map(cap).join("");
  const id = joined === "" ? "unnamed" : /^[0-9]/.test(joined) ? `n${joined}` : joined;
  return RESERVED.has(id) ? `${id}_` : id;
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
