import { join } from "./pointer.js";

export const HTTP_METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

/** One operation that carries an extension. */
export interface ExtensionUse {
  /** Pointer to the extension's value. */
  readonly pointer: string;
  readonly operation: Record<string, unknown>;
  readonly value: unknown;
}

/** Every operation-level use of the extension `key`; each operation extension is found the same way. */
export function findExtensionUses(document: Record<string, unknown>, key: string): ExtensionUse[] {
  const uses: ExtensionUse[] = [];
  const paths = (document.paths ?? {}) as Record<string, Record<string, unknown>>;
  for (const [path, item] of Object.entries(paths)) {
    for (const method of HTTP_METHODS) {
      const operation = item?.[method] as Record<string, unknown> | undefined;
      if (operation && key in operation) {
        uses.push({ pointer: join("", "paths", path, method, key), operation, value: operation[key] });
      }
    }
  }
  return uses;
}
