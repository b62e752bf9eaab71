// Go literals of plain values for the model: strings through the Go escaper, numbers as Go reads them.
import { goString } from "./escape.js";

/** A float64 literal (Go accepts JSON's number forms; an integer keeps no fraction). */
export const goFloat = (n: number): string => (Number.isFinite(n) ? String(n) : "0");

/** `[]string{"a", "b"}`. */
export const goStrings = (values: readonly string[]): string => `[]string{${values.map(goString).join(", ")}}`;

/** A keyed composite literal on one line, leaving out entries whose value is undefined. */
export function goStruct(type: string, fields: Readonly<Record<string, string | undefined>>): string {
  const entries = Object.entries(fields).filter((e): e is [string, string] => e[1] !== undefined);
  return `${type}{${entries.map(([k, v]) => `${k}: ${v}`).join(", ")}}`;
}

/** The first of each key, in order: Go refuses a map literal with a key twice. */
export function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>();
  return items.filter((item) => {
    const k = key(item);
    if (seen.has(k)) return false;
    seen.add(k);
    return true;
  });
}
