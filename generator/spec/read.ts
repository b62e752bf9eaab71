import { readFile } from "node:fs/promises";
import { parse } from "yaml";

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
    value ??= parse(text, { maxAliasCount: 10_000, uniqueKeys: true });
  } catch (error) {
    throw new Error(`${source}: not valid YAML or JSON: ${(error as Error).message.split("\n")[0]}`);
  }
  if (value === null || typeof value !== "object" || Array.isArray(value)) {
    throw new Error(`${source}: the description must be an object at its root`);
  }
  return value as Record<string, unknown>;
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
