/** RFC 6901 JSON pointers. */
export function escapeToken(token: string | number): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join("");
}

export function join(base: string, ...tokens: readonly (string | number)[]): string {
  return base + pointer(...tokens);
}

/** Reads the value at a local reference (`#/a/b`) or pointer (`/a/b`); undefined when absent. */
export function resolvePointer(root: unknown, ref: string): unknown {
  const path = ref.startsWith("#") ? ref.slice(1) : ref;
  if (path === "") return root;
  let node: unknown = root;
  for (const raw of path.slice(1).split("/")) {
    const token = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}
