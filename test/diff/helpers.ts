// An in-memory copy of the current release, changed by a test and diffed against the original.
import { readFile } from "node:fs/promises";
import { type Change, diffReleases, type ReleaseModel } from "../../generator/diff/index.js";
import { buildIR } from "../../generator/ir/build.js";
import { checkDescription } from "../../generator/spec/load.js";
import { resolvePointer } from "../../generator/spec/pointer.js";
import { parseDescription } from "../../generator/spec/read.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";

export type Doc = Record<string, unknown>;
type Node = Record<string, unknown> & unknown[];

let original: Promise<{ document: Doc; model: ReleaseModel }> | undefined;

async function load(): Promise<{ document: Doc; model: ReleaseModel }> {
  const file = releaseFile(currentRelease());
  const text = await readFile(file, "utf8");
  const loaded = await checkDescription({ source: file, text, document: parseDescription(file, text) });
  return { document: loaded.document, model: { ir: buildIR(loaded), document: loaded.document } };
}

export function base(): Promise<{ document: Doc; model: ReleaseModel }> {
  original ??= load();
  return original;
}

/** The node at a JSON pointer of a document, to change in place. */
export function at(document: Doc, pointer: string): Node {
  const node = resolvePointer(document, pointer);
  if (node === null || typeof node !== "object") throw new Error(`nothing at ${pointer}`);
  return node as Node;
}

/** A changed copy of the current release, validated like any description. */
export async function changed(change: (document: Doc) => void): Promise<ReleaseModel> {
  const document = structuredClone((await base()).document);
  change(document);
  const text = JSON.stringify(document);
  const loaded = await checkDescription({ source: "changed copy", text, document });
  return { ir: buildIR(loaded), document: loaded.document };
}

export async function diffChanged(change: (document: Doc) => void): Promise<Change[]> {
  return diffReleases((await base()).model, await changed(change));
}
