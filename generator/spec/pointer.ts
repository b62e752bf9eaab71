/**
 * RFC 6901 JSON pointers and local `$ref`s (RFC 3986 fragments holding a pointer): the one place that builds,
 * splits and follows them, for the loader's checks, the IR and the release diff.
 */
export function escapeToken(token: string | number): string {
  return String(token).replaceAll("~", "~0").replaceAll("/", "~1");
}

export function unescapeToken(token: string): string {
  return token.replaceAll("~1", "/").replaceAll("~0", "~");
}

export function pointer(...tokens: readonly (string | number)[]): string {
  return tokens.map((t) => `/${escapeToken(t)}`).join("");
}

export function join(base: string, ...tokens: readonly (string | number)[]): string {
  return base + pointer(...tokens);
}

/**
 * The tokens of a local reference (`#/a/b`, percent-decoded as a URI fragment) or of a plain pointer (`/a/b`);
 * undefined when it is neither (a remote reference, bad percent-encoding).
 */
export function pointerTokens(ref: string): string[] | undefined {
  let path = ref;
  if (ref.startsWith("#")) {
    try {
      path = decodeURIComponent(ref.slice(1));
    } catch {
      return undefined;
    }
  }
  if (path === "") return [];
  if (!path.startsWith("/")) return undefined;
  return path.slice(1).split("/").map(unescapeToken);
}

/** A local reference to tokens: `#/a~1b/c`; `%` is encoded so that reading it back gives the same tokens. */
export function localRef(...tokens: readonly (string | number)[]): string {
  return `#${pointer(...tokens).replaceAll("%", "%25")}`;
}

/** Reads the value at a local reference or pointer; undefined when absent. Only own properties are followed. */
export function resolvePointer(root: unknown, ref: string): unknown {
  const tokens = pointerTokens(ref);
  if (!tokens) return undefined;
  let node: unknown = root;
  for (const token of tokens) {
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, token)) return undefined;
    node = (node as Record<string, unknown>)[token];
  }
  return node;
}

/** The name of the component schema a reference names (`#/components/schemas/<name>`), if that is what it names. */
export function componentSchemaName(ref: string): string | undefined {
  const tokens = pointerTokens(ref);
  return tokens?.length === 3 && tokens[0] === "components" && tokens[1] === "schemas" ? tokens[2] : undefined;
}

/** How many `$ref` hops a chain may take before it is taken for a loop. */
export const MAX_REF_HOPS = 16;

/**
 * Follows a chain of local `$ref`s from `value` to the object it names (a parameter, a response, a path item...);
 * a value that is no reference is its own end. undefined when a reference leads nowhere or the chain loops.
 */
export function followRefs(root: unknown, value: unknown): unknown {
  let node = value;
  for (let hops = 0; isRefObject(node); hops++) {
    if (hops === MAX_REF_HOPS) return undefined;
    node = resolvePointer(root, node.$ref);
  }
  return node;
}

const isRefObject = (v: unknown): v is { $ref: string } =>
  v !== null && typeof v === "object" && !Array.isArray(v) && typeof (v as { $ref?: unknown }).$ref === "string";
