// `paperoffice-sdk expand`: the description as any OpenAPI tool can read it exactly. An operation whose body's shape
// is chosen by a path parameter (`x-paperoffice-variants`, its `selector`) is, to a generic tool, one operation with a
// body of any variant of any pipeline. Here each pipeline becomes its own operation on a literal path, with the
// request body of exactly its variants, so that Prism, schemathesis or openapi-generator see the per-pipeline
// contract. A pure transform of the parsed description: nothing else changes, the extension is dropped where it was
// applied, and every other operation, schema and extension is kept as written.
import { VARIANTS_KEY } from "../spec/variants.js";

type Raw = Record<string, unknown>;
const isRaw = (v: unknown): v is Raw => typeof v === "object" && v !== null && !Array.isArray(v);
const METHODS = ["get", "put", "post", "delete", "options", "head", "patch", "trace"] as const;

export interface ExpandedOperation {
  /** The operation as it was: its path and method. */
  readonly path: string;
  readonly method: string;
  /** The literal paths it became, one per pipeline. */
  readonly paths: readonly string[];
}

/** A description that cannot be expanded: its message names the JSON pointer. */
export class ExpandError extends Error {
  override readonly name = "ExpandError";
}

const pointerOf = (...tokens: string[]) => `/${tokens.map((t) => t.replaceAll("~", "~0").replaceAll("/", "~1")).join("/")}`;

/** An operationId part from a slug: letters, digits and "_" (a slug may hold "-"). */
const idPart = (slug: string) => slug.replace(/[^A-Za-z0-9_]/g, "_");

/** A parameter as written, or the local one its $ref names. */
function parameterOf(document: Raw, p: unknown): Raw | undefined {
  if (!isRaw(p)) return undefined;
  if (typeof p.$ref !== "string" || !p.$ref.startsWith("#/")) return p;
  let at: unknown = document;
  for (const token of p.$ref.slice(2).split("/")) at = isRaw(at) ? at[token.replaceAll("~1", "/").replaceAll("~0", "~")] : undefined;
  return isRaw(at) ? at : undefined;
}

/** The expanded description (a new object; the input is not changed) and what was expanded. */
export function expandDescription(document: Raw): { document: Raw; expanded: ExpandedOperation[] } {
  const notSelector = (name: string) => (p: unknown) => {
    const resolved = parameterOf(document, p);
    return !(resolved?.in === "path" && resolved.name === name);
  };
  const paths = isRaw(document.paths) ? document.paths : {};
  const out: Raw = {};
  const expanded: ExpandedOperation[] = [];
  const taken = new Set(Object.keys(paths));
  const operationIds = new Set<string>();
  for (const item of Object.values(paths))
    if (isRaw(item))
      for (const m of METHODS) if (isRaw(item[m]) && typeof item[m].operationId === "string") operationIds.add(item[m].operationId);

  for (const [path, item] of Object.entries(paths)) {
    if (!isRaw(item)) {
      out[path] = item;
      continue;
    }
    const kept: Raw = { ...item };
    for (const method of METHODS) {
      const op = item[method];
      if (!isRaw(op) || !isRaw(op[VARIANTS_KEY])) continue;
      const variants = op[VARIANTS_KEY] as Raw;
      const selector = isRaw(variants.selector) ? variants.selector : {};
      const name = String(selector.name ?? "");
      const at = pointerOf("paths", path, method, VARIANTS_KEY);
      if (!path.includes(`{${name}}`)) throw new ExpandError(`${at}/selector/name: the path ${path} has no parameter {${name}}`);
      const pipelines = Array.isArray(variants.pipelines) ? (variants.pipelines as Raw[]) : [];
      const made: string[] = [];
      for (const [i, pipeline] of pipelines.entries()) {
        const slug = String(pipeline.slug ?? "");
        if (!/^[A-Za-z0-9_.~-]+$/.test(slug)) throw new ExpandError(`${at}/pipelines/${i}/slug: "${slug}" cannot stand in a path`);
        const literal = path.replace(`{${name}}`, slug);
        if (taken.has(literal))
          throw new ExpandError(`${at}/pipelines/${i}/slug: ${method.toUpperCase()} ${literal} would be written twice`);
        taken.add(literal);
        const requests = ((pipeline.variants as Raw[] | undefined) ?? []).map((v) => v.request);
        const schema = requests.length === 1 ? requests[0] : { anyOf: requests };
        const body = isRaw(op.requestBody) ? op.requestBody : undefined;
        const content = isRaw(body?.content) ? (body.content as Raw) : {};
        let id = `${String(op.operationId ?? method)}_${idPart(slug)}`;
        while (operationIds.has(id)) id = `${id}_`;
        operationIds.add(id);
        const { [VARIANTS_KEY]: _, ...rest } = op;
        const summary = [op.summary, pipeline.summary].filter((s) => typeof s === "string").join(": ");
        out[literal] = {
          ...(isRaw(out[literal]) ? (out[literal] as Raw) : {}),
          // Path-level parameters apply here too, but not the selector: its value is the path now.
          ...(Array.isArray(item.parameters) && { parameters: (item.parameters as unknown[]).filter(notSelector(name)) }),
          [method]: {
            ...rest,
            operationId: id,
            ...(summary !== "" && { summary }),
            ...(typeof pipeline.description === "string" && {
              description: [op.description, pipeline.description].filter((d) => typeof d === "string").join("\n\n"),
            }),
            ...(Array.isArray(op.parameters) && {
              parameters: (op.parameters as unknown[]).filter(notSelector(name)),
            }),
            ...(body && {
              requestBody: {
                ...body,
                content: Object.fromEntries(
                  Object.entries(content).map(([media, value]) => [media, { ...(isRaw(value) ? value : {}), schema }]),
                ),
              },
            }),
          },
        };
        made.push(literal);
      }
      delete kept[method];
      expanded.push({ path, method, paths: made });
    }
    if (METHODS.some((m) => m in kept)) out[path] = kept;
  }
  return { document: { ...document, paths: out }, expanded };
}
