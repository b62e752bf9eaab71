// Request bodies: media type of a request, form bodies parsed with the Web platform's Request.formData() and
// turned into an object (`x[]` repeated is a list, `a[0][b]` nests), JSON bodies parsed as JSON.
import { RequestProblem } from "./validate.js";

export function mediaTypeOf(contentType: string | undefined): string | undefined {
  const type = contentType?.split(";")[0]?.trim().toLowerCase();
  return type === "" ? undefined : type;
}

/** The entries of a multipart/form-data or application/x-www-form-urlencoded body. */
export async function readForm(raw: Uint8Array, contentType: string): Promise<FormData> {
  try {
    return await new Request("http://mock.invalid/", {
      method: "POST",
      headers: { "content-type": contentType },
      body: new Uint8Array(raw),
    }).formData();
  } catch (error) {
    throw new RequestProblem(
      `the body is not valid ${mediaTypeOf(contentType) ?? "form data"}: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** Parses a multipart/form-data or application/x-www-form-urlencoded body. */
export async function parseForm(raw: Uint8Array, contentType: string): Promise<Record<string, unknown>> {
  const form = await readForm(raw, contentType);
  const out: Record<string, unknown> = {};
  for (const [name, value] of form.entries()) assign(out, name, value);
  return out;
}

/** Splits `a[0][b]` into ["a", "0", "b"] and `files[]` into ["files", ""]. */
function pathOf(name: string): string[] {
  const m = /^([^[\]]+)((?:\[[^[\]]*\])*)$/.exec(name);
  if (!m) return [name];
  const rest = [...(m[2] ?? "").matchAll(/\[([^[\]]*)\]/g)].map((x) => x[1] ?? "");
  return [m[1]!, ...rest];
}

function assign(target: Record<string, unknown>, name: string, value: unknown): void {
  const keys = pathOf(name);
  let node: Record<string, unknown> | unknown[] = target;
  for (let i = 0; i < keys.length; i++) {
    const key = keys[i]!;
    const last = i === keys.length - 1;
    const nextKey = keys[i + 1];
    if (Array.isArray(node)) {
      if (key === "") {
        if (last) node.push(value);
        else {
          const child = nextKey === "" || /^\d+$/.test(nextKey ?? "") ? [] : {};
          node.push(child);
          node = child;
        }
        continue;
      }
      const index = Number(key);
      if (last) node[index] = value;
      else {
        node[index] ??= nextKey === "" || /^\d+$/.test(nextKey ?? "") ? [] : {};
        node = node[index] as Record<string, unknown> | unknown[];
      }
      continue;
    }
    if (last) {
      // A repeated plain name also becomes a list.
      const existing = node[key];
      node[key] = existing === undefined ? value : Array.isArray(existing) ? [...existing, value] : [existing, value];
      continue;
    }
    const wantsList = nextKey === "" || /^\d+$/.test(nextKey ?? "");
    const existing = node[key];
    if (existing === undefined || typeof existing !== "object" || existing === null) node[key] = wantsList ? [] : {};
    node = node[key] as Record<string, unknown> | unknown[];
  }
}

export function parseJson(raw: Uint8Array): unknown {
  const text = new TextDecoder().decode(raw);
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new RequestProblem("the body is not valid JSON");
  }
}
