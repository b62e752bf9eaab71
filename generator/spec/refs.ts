import { pointer, resolvePointer } from "./pointer.js";
import type { SpecProblem } from "./problems.js";

/** Every local `$ref` must point at something; remote references are not followed and are reported. */
export function checkRefs(document: unknown): SpecProblem[] {
  const problems: SpecProblem[] = [];
  // The path to the node, as tokens: a pointer is built only for a problem, not for every node of a large description.
  const path: (string | number)[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) {
      for (const [i, item] of node.entries()) {
        path.push(i);
        visit(item);
        path.pop();
      }
      return;
    }
    if (node === null || typeof node !== "object") return;
    const record = node as Record<string, unknown>;
    const ref = record.$ref;
    if (typeof ref === "string") {
      if (!ref.startsWith("#")) {
        problems.push({
          pointer: pointer(...path, "$ref"),
          message: `external reference "${ref}" is not supported; bundle the description first`,
        });
      } else if (resolvePointer(document, ref) === undefined) {
        problems.push({ pointer: pointer(...path, "$ref"), message: `points at "${ref}", which does not exist` });
      }
    }
    for (const key of Object.keys(record)) {
      path.push(key);
      visit(record[key]);
      path.pop();
    }
  };
  visit(document);
  return problems;
}
