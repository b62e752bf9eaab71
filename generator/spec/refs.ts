import { join, resolvePointer } from "./pointer.js";
import type { SpecProblem } from "./problems.js";

/** Every local `$ref` must point at something; remote references are not followed and are reported. */
export function checkRefs(document: unknown): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const visit = (node: unknown, at: string): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) visit(item, join(at, i));
      return;
    }
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const ref = record.$ref;
    if (typeof ref === "string") {
      if (!ref.startsWith("#")) {
        problems.push({ pointer: join(at, "$ref"), message: `external reference "${ref}" is not supported; bundle the description first` });
      } else if (resolvePointer(document, ref) === undefined) {
        problems.push({ pointer: join(at, "$ref"), message: `points at "${ref}", which does not exist` });
      }
    }
    for (const [key, value] of Object.entries(record)) visit(value, join(at, key));
  };
  visit(document, "");
  return problems;
}
