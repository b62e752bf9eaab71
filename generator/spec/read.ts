import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";

export interface RawDescription {
  /** The file path or URL it was read from. */
  readonly source: string;
  /** The exact text, so that its hash identifies the description. */
  readonly text: string;
  readonly document: Record<string, unknown>;
}

const FILE_ERRORS: Readonly<Record<string, string>> = {
  ENOENT: "no such file",
  EACCES: "permission denied",
  EISDIR: "is a folder, not a description file",
};

const NETWORK_ERRORS: Readonly<Record<string, string>> = {
  ECONNREFUSED: "the connection was refused",
  ENOTFOUND: "the host name does not resolve",
  EAI_AGAIN: "the host name could not be resolved now",
  ETIMEDOUT: "the connection timed out",
  ECONNRESET: "the connection was reset",
  UND_ERR_CONNECT_TIMEOUT: "the connection timed out",
};

export function isUrl(source: string): boolean {
  return /^https?:\/\//i.test(source);
}

/** Reads a description (YAML or JSON) from a file or an http(s) URL. */
export async function readDescription(source: string): Promise<RawDescription> {
  const text = isUrl(source)
    ? await fetchText(source)
    : await readFile(source, "utf8").catch((error: NodeJS.ErrnoException) => {
        throw new Error(`${source}: ${FILE_ERRORS[error.code ?? ""] ?? error.message}`);
      });
  return { source, text, document: parseDescription(source, text) };
}

export function parseDescription(source: string, text: string): Record<string, unknown> {
  let value: unknown;
  try {
    // JSON.parse is ten times faster than the YAML parser on large JSON descriptions; YAML (a superset of
    // JSON) reads the rest, with its anchors resolved here, once.
    value = text.trimStart().startsWith("{") ? parseJsonOrUndefined(text) : undefined;
    value ??= fastYaml(text) ?? parseYaml(text);
  } catch (error) {
    throw new Error(`${source}: not valid YAML or JSON: ${withExcerpt((error as Error).message)}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${source}: the description must be an object at its root`);
  }
  return value as Record<string, unknown>;
}

/**
 * A parser's message with the excerpt it shows (the `yaml` package prints the line and a caret after "line N,
 * column M:"), indented under the first line and cut to a few lines; the bare position alone says too little.
 */
function withExcerpt(message: string): string {
  const [first = "", ...rest] = message.split("\n");
  const excerpt = rest.filter((line) => line.trim() !== "").slice(0, 4);
  return excerpt.length === 0 ? first : `${first}\n${excerpt.map((line) => `    ${line.slice(0, 160)}`).join("\n")}`;
}

/** Aliases may add at most this many nodes to the document (the `yaml` package's maxAliasCount, which it checks). */
const MAX_ALIAS_COUNT = 10_000;

/** The `yaml` package: it reports a problem with its line and column. It loads only when js-yaml did not read the text. */
function parseYaml(text: string): unknown {
  const { parse } = require("yaml") as typeof import("yaml");
  return parse(text, { maxAliasCount: MAX_ALIAS_COUNT, uniqueKeys: true });
}

interface JsYaml {
  load(text: string, options: { schema: unknown }): unknown;
  Type: new (
    tag: string,
    options: { kind: "scalar"; resolve: (text: string | null) => boolean; construct: (text: string) => unknown },
  ) => unknown;
  FAILSAFE_SCHEMA: { extend(types: { implicit: unknown[] }): unknown };
}

const require = createRequire(import.meta.url);
let coreSchema: { yaml: JsYaml; schema: unknown } | undefined;

/**
 * js-yaml with the YAML 1.2 core schema exactly as the `yaml` package resolves it (null, booleans, integers in
 * decimal, 0o and 0x, floats, .inf and .nan; no timestamps, no `<<` merges, no underscores in numbers).
 */
function jsYamlCore(): { yaml: JsYaml; schema: unknown } {
  if (coreSchema !== undefined) return coreSchema;
  const yaml = require("js-yaml") as JsYaml;
  const scalar = (tag: string, test: RegExp, construct: (text: string) => unknown) =>
    new yaml.Type(`tag:yaml.org,2002:${tag}`, { kind: "scalar", resolve: (text) => text !== null && test.test(text), construct });
  const schema = yaml.FAILSAFE_SCHEMA.extend({
    implicit: [
      scalar("null", /^(?:~|[Nn]ull|NULL)?$/, () => null),
      scalar("bool", /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/, (text) => text[0] === "t" || text[0] === "T"),
      // js-yaml keeps one type per tag: the `yaml` package's three integer forms and three float forms in one each.
      scalar("int", /^(?:0o[0-7]+|[-+]?[0-9]+|0x[0-9a-fA-F]+)$/, (text) =>
        text.startsWith("0o")
          ? Number.parseInt(text.substring(2), 8)
          : text.startsWith("0x")
            ? Number.parseInt(text.substring(2), 16)
            : Number.parseInt(text, 10),
      ),
      scalar("float", /^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN|[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)(?:[eE][-+]?[0-9]+)?)$/, (text) =>
        /nan$/i.test(text)
          ? Number.NaN
          : /inf$/i.test(text)
            ? text[0] === "-"
              ? Number.NEGATIVE_INFINITY
              : Number.POSITIVE_INFINITY
            : Number.parseFloat(text),
      ),
    ],
  });
  coreSchema = { yaml, schema };
  return coreSchema;
}

/** A key that the `yaml` package reads as null, and so names "" where js-yaml names it "null". */
const NULL_KEY = /(?:^[ \t]*(?:-[ \t]+)?|[{,][ \t]*)(?:~|[Nn]ull|NULL)?[ \t]*:(?:[ \t]|$)/m;

/**
 * The document as js-yaml reads it, six to seven times faster than the `yaml` package (about 70 ms against 490 ms
 * of CPU on the service's description); undefined when the `yaml` package must read it: js-yaml found a problem
 * (the `yaml` package then reports it with its position), a key may read as null, or aliases add more nodes than
 * the `yaml` package allows (it then decides, and names the excess).
 */
function fastYaml(text: string): unknown {
  if (NULL_KEY.test(text)) return undefined;
  const { yaml, schema } = jsYamlCore();
  let value: unknown;
  try {
    value = yaml.load(text, { schema });
  } catch {
    return undefined;
  }
  return aliasNodes(value) <= MAX_ALIAS_COUNT ? value : undefined;
}

/**
 * How many nodes aliases add to a document: js-yaml gives an alias the anchored value itself, so an object met
 * again counts all its nodes again (counted once each, by identity).
 */
function aliasNodes(root: unknown): number {
  const sizes = new Map<object, number>();
  let added = 0;
  const size = (value: unknown): number => {
    if (value === null || typeof value !== "object") return 1;
    const known = sizes.get(value);
    if (known !== undefined) {
      added += known;
      return known;
    }
    sizes.set(value, 1); // a cycle (an alias inside its own anchor) counts once
    let total = 1;
    for (const child of Array.isArray(value) ? value : Object.values(value)) {
      total += size(child);
      if (added > MAX_ALIAS_COUNT) return total;
    }
    sizes.set(value, total);
    return total;
  };
  size(root);
  return added;
}

async function fetchText(url: string): Promise<string> {
  let response: Response;
  try {
    response = await fetch(url, { redirect: "follow" });
  } catch (error) {
    // fetch says only "fetch failed"; the reason is in its cause (ECONNREFUSED, ENOTFOUND, a certificate...).
    const cause = (error as { cause?: { code?: string; message?: string } }).cause;
    const reason = cause?.code
      ? `${NETWORK_ERRORS[cause.code] ?? cause.message ?? cause.code} (${cause.code})`
      : (cause?.message ?? (error as Error).message);
    throw new Error(`${url}: could not be fetched: ${reason}`);
  }
  if (!response.ok) throw new Error(`${url}: HTTP ${response.status} when fetching the description`);
  return response.text();
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined; // not strict JSON: the YAML parser reports the problem with its position
  }
}
