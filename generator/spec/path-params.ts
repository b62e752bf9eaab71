import { followRefs, pointer } from "./pointer.js";
import type { SpecProblem } from "./problems.js";

const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

type Raw = Record<string, unknown>;
const isRaw = (v: unknown): v is Raw => v !== null && typeof v === "object" && !Array.isArray(v);

/** Follows a local `$ref` chain to the object it names (a parameter may be a reference). */
const follow = (document: unknown, value: unknown): { node: unknown } => ({ node: followRefs(document, value) });

/**
 * Every path parameter of an operation (its own or its path item's) names a variable of the path template, and
 * every variable of the template has a path parameter: otherwise a call would send `{id}` literally, or a value
 * would go nowhere.
 */
export function checkPathParameters(document: unknown): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const paths = isRaw(document) && isRaw(document.paths) ? document.paths : {};
  for (const [path, rawItem] of Object.entries(paths)) {
    const item = follow(document, rawItem).node;
    if (!isRaw(item)) continue;
    const variables = [...path.matchAll(/\{([^{}]*)\}/g)].map((m) => m[1]!);
    const shared = Array.isArray(item.parameters) ? item.parameters : [];
    for (const method of METHODS) {
      const op = item[method];
      if (!isRaw(op)) continue;
      const own = Array.isArray(op.parameters) ? op.parameters : [];
      // An operation's parameter overrides its path item's of the same name and location.
      const declared = new Map<string, string>();
      const add = (list: readonly unknown[], at: readonly (string | number)[]) =>
        list.forEach((p, i) => {
          const param = follow(document, p).node;
          if (isRaw(param) && param.in === "path" && typeof param.name === "string") declared.set(param.name, pointer(...at, i));
        });
      add(shared, ["paths", path, "parameters"]);
      add(own, ["paths", path, method, "parameters"]);
      for (const [name, at] of declared) {
        if (!variables.includes(name))
          problems.push({ pointer: at, message: `path parameter "${name}" is not in the path template ${path}` });
      }
      for (const variable of new Set(variables)) {
        if (!declared.has(variable))
          problems.push({
            pointer: pointer("paths", path, method),
            message: `path template variable {${variable}} of ${method.toUpperCase()} ${path} has no path parameter`,
          });
      }
    }
  }
  return problems;
}
