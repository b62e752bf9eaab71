// Parameter values as text (header and cookie parameters, and form fields), apart from the body encoders. A
// generated operation with header or cookie parameters calls parameterHeaders itself, so that the bundles of the
// others leave this out.

/** Sets an own property, so that a key such as `__proto__` is data, never the prototype. */
export function setOwn(out: Record<string, unknown>, key: string, value: unknown): void {
  Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true });
}

export function scalarText(value: unknown): string | undefined {
  if (typeof value === "string") return value;
  if (typeof value === "boolean" || typeof value === "number" || typeof value === "bigint") return String(value);
  if (value instanceof Date) return value.toISOString();
  if (value instanceof URL) return value.href;
  return undefined;
}

/** The text of a header or cookie parameter (OpenAPI's `simple` and `form` styles): arrays and objects comma-joined. */
function parameterText(value: unknown): string {
  if (Array.isArray(value)) return value.map(parameterText).join(",");
  if (typeof value === "object" && value !== null && !(value instanceof Date))
    return Object.entries(value)
      .flatMap(([k, v]) => [k, parameterText(v)])
      .join(",");
  return scalarText(value) ?? String(value);
}

/**
 * The request headers of an operation's header and cookie parameters (undefined and null left out), under the
 * extra headers of the call's options, which win. Browsers do not let scripts send Cookie; there it is dropped by fetch.
 * An operation with header parameters only calls it with one argument.
 */
export function parameterHeaders(
  header: Readonly<Record<string, unknown>> | undefined,
  cookie?: Readonly<Record<string, unknown>>,
  extra?: Readonly<Record<string, string>>,
): Record<string, string> | undefined {
  if (header === undefined && cookie === undefined && extra === undefined) return undefined;
  const out: Record<string, string> = {};
  for (const [name, value] of Object.entries(header ?? {}))
    if (value !== undefined && value !== null) setOwn(out, name, parameterText(value));
  const cookies = Object.entries(cookie ?? {})
    .filter(([, value]) => value !== undefined && value !== null)
    .map(([name, value]) => `${encodeURIComponent(name)}=${encodeURIComponent(parameterText(value))}`);
  if (cookies.length > 0) out.Cookie = cookies.join("; ");
  for (const [name, value] of Object.entries(extra ?? {})) setOwn(out, name, value);
  return Object.keys(out).length > 0 ? out : undefined;
}
