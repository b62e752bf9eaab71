// Descriptions known to pass the OpenAPI-schema check. swagger-parser's check compiles the OpenAPI schema with Ajv at
// every call (seconds of a loaded core; its API takes no compiled validator), and its verdict depends on the text
// and the versions of the packages alone: a pass is kept in the project's tool cache
// (node_modules/.cache/paperoffice-sdk/valid/), named by the hash of both, and a later run on the same text skips it.
import { createHash } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { toolchainVersions } from "../version.js";

/** The entry of a text, or undefined in a folder without node_modules: none is created. */
function entry(text: string): string | undefined {
  const modules = join(process.cwd(), "node_modules");
  if (!existsSync(modules)) return undefined;
  const key = createHash("sha256").update(toolchainVersions()).update("\0").update(text).digest("hex");
  return join(modules, ".cache", "paperoffice-sdk", "valid", key);
}

/** True when a run of this toolchain found this text valid against the OpenAPI schema. */
export function knownValid(text: string): boolean {
  const file = entry(text);
  return file !== undefined && existsSync(file);
}

/** Keeps that this text passed the check. A cache that cannot be written only costs the next run the shortcut. */
export function rememberValid(text: string): void {
  const file = entry(text);
  if (file === undefined) return;
  try {
    mkdirSync(join(file, ".."), { recursive: true });
    writeFileSync(file, "");
  } catch {
    // read-only or missing node_modules
  }
}
