/**
 * The release diff: a pure function from two releases (their IRs, and the descriptions to locate changes in) to the
 * list of changes, each with a stable rule id, a classification and a JSON pointer. See docs/releases.md.
 */
import { existsSync } from "node:fs";
import { buildIR } from "../ir/build.js";
import type { IR } from "../ir/types.js";
import { startChecks } from "../spec/load.js";
import { escapeToken, pointerTokens, resolvePointer, unescapeToken } from "../spec/pointer.js";
import { readDescription } from "../spec/read.js";
import { isReleaseId, releaseFile } from "../spec/releases.js";
import { compareErrorCatalogue, compareSecuritySchemes, compareWebhooks } from "./catalogue.js";
import { compareConventions } from "./conventions.js";
import { type Change, namedOf, type ReleaseModel } from "./model.js";
import { compareOperations } from "./operations.js";

export type { Change, ReleaseModel } from "./model.js";

export function diffReleases(old: ReleaseModel, next: ReleaseModel): Change[] {
  const named = { old: namedOf(old.ir), new: namedOf(next.ir) };
  const out: Change[] = [];
  compareOperations(old, next, named, out);
  compareWebhooks(old.ir, next.ir, named, out);
  compareErrorCatalogue(old, next, out);
  compareSecuritySchemes(old.ir, next.ir, out);
  compareConventions(old.ir, next.ir, out);
  const located = out.map((c) => {
    const document = c.in === "old" ? old.document : next.document;
    return document ? { ...c, pointer: locate(document, c.pointer) } : c;
  });
  return merge(located);
}

/** One change reached from several places (a shared schema, two media types) is reported once. */
function merge(changes: readonly Change[]): Change[] {
  const first = new Map<string, { change: Change; more: number }>();
  for (const c of changes) {
    const key = `${c.rule} ${c.in} ${c.pointer}`;
    const seen = first.get(key);
    if (seen) seen.more++;
    else first.set(key, { change: c, more: 0 });
  }
  return [...first.values()].map(({ change, more }) =>
    more === 0 ? change : { ...change, message: `${change.message} (and ${more} more place${more > 1 ? "s" : ""})` },
  );
}

/**
 * Makes a pointer built along the IR name the place where the thing is written: a `$ref` met on the way is
 * followed, a composition step (`allOf/3`) that the IR added is skipped, and a pointer that leaves the document
 * stops at the deepest place that exists.
 */
export function locate(document: unknown, pointer: string): string {
  const tokens = (pointerTokens(pointer) ?? []).map(escapeToken);
  let node: unknown = document;
  let at = "";
  for (let i = 0; i < tokens.length; i++) {
    const raw = tokens[i]!;
    const token = unescapeToken(raw);
    for (let hops = 0; hops < 16 && isObject(node) && !Object.hasOwn(node, token) && typeof node.$ref === "string"; hops++) {
      const ref = node.$ref as string;
      if (!ref.startsWith("#/")) break;
      at = ref.slice(1);
      node = resolvePointer(document, ref);
    }
    if (isObject(node) && Object.hasOwn(node, token)) {
      node = node[token];
      at += `/${raw}`;
      continue;
    }
    if (["allOf", "anyOf", "oneOf"].includes(token) && /^\d+$/.test(tokens[i + 1] ?? "")) {
      i++; // a member the IR made from the schema's own properties, written on the schema itself
      continue;
    }
    break;
  }
  return at;
}

const isObject = (v: unknown): v is Record<string, unknown> => v !== null && typeof v === "object";

export interface LoadedRelease extends ReleaseModel {
  /** The release id (info.version). */
  readonly id: string;
  readonly source: string;
}

/** A release id of the project's releases folder `dir`, or a description file or URL. */
export async function loadRelease(ref: string, dir?: string): Promise<LoadedRelease> {
  const { release, verdict } = await openRelease(ref, dir);
  const failure = await verdict;
  if (failure) throw failure;
  return release;
}

/** A release id names a file of the releases folder; anything else, a file that exists with that name included, is a description. */
function releaseSource(ref: string, dir: string | undefined): string {
  if (!isReleaseId(ref) || existsSync(ref)) return ref;
  if (dir === undefined) throw new Error(`${ref}: a release id, but no releases folder to find it in`);
  return releaseFile(ref, dir);
}

/**
 * Reads a release and builds its IR while a large description's schema check runs in a worker, as generate()
 * does. The caller awaits `verdict` before using the result; its problems come first, since the IR of an
 * invalid description may fail in ways that say less.
 */
export async function openRelease(ref: string, dir?: string): Promise<{ release: LoadedRelease; verdict: Promise<Error | undefined> }> {
  const source = releaseSource(ref, dir);
  const { description, verdict } = await startChecks(await readDescription(source));
  let ir: IR;
  try {
    ir = buildIR(description);
  } catch (error) {
    throw (await verdict) ?? error;
  }
  return { release: { id: ir.info.version, source, ir, document: description.document }, verdict };
}
