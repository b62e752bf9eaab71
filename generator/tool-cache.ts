// The project's tool cache, node_modules/.cache/paperoffice-sdk/ of the folder the command runs in (where tools keep
// what they can compute again: a run's key, compiled templates, descriptions found valid). In a folder without
// node_modules there is none, and none is created: every use of the cache is a shortcut, never needed.
import { existsSync } from "node:fs";
import { join } from "node:path";

/** A path inside the tool cache, or undefined without node_modules. */
export function toolCachePath(...parts: string[]): string | undefined {
  const modules = join(process.cwd(), "node_modules");
  return existsSync(modules) ? join(modules, ".cache", "paperoffice-sdk", ...parts) : undefined;
}
