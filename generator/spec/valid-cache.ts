// Descriptions known to pass the OpenAPI-schema check. swagger-parser's check compiles the OpenAPI schema with Ajv at
// every call (seconds of a loaded core; its API takes no compiled validator), and its verdict depends on the document
// checked and the versions of the packages alone: a pass is kept in the project's tool cache
// (node_modules/.cache/paperoffice-sdk/valid/), named by the hash of both, and a later run on the same document skips
// it. The key is the parsed document as JSON, not the file's text: a caller of the API may check a document that is
// not its text (an edited copy), and the verdict must be the document's.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolCachePath } from "../tool-cache.js";
import { toolchainVersions } from "../version.js";

/** The cache entry of a document, or undefined in a folder without node_modules: none is created. */
export function validEntry(document: unknown): string | undefined {
  if (toolCachePath() === undefined) return undefined;
  const json = JSON.stringify(document);
  return toolCachePath("valid", createHash("sha256").update(toolchainVersions()).update("\0").update(json).digest("hex"));
}

/** True when a run of this toolchain found the entry's document valid against the OpenAPI schema. */
export function knownValid(file: string | undefined): boolean {
  return file !== undefined && existsSync(file);
}

/** Keeps that the entry's document passed. A cache that cannot be written only costs the next run the shortcut. */
export function rememberValid(file: string | undefined): void {
  if (file === undefined) return;
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, "");
  } catch {
    // read-only or missing node_modules
  }
}
