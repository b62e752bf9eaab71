// The toolchain's package (this repository's root package.json): the generator and its command compiled into
// dist/generator, with the templates and the description's releases beside them, where the generator finds them.
import { cp, rm } from "node:fs/promises";
import { join } from "node:path";
import { ROOT, tsc } from "./run.js";

export async function buildToolchain(): Promise<string> {
  const dist = join(ROOT, "dist");
  await rm(dist, { recursive: true, force: true });
  await tsc(join(ROOT, "tsconfig.build.json"));
  await cp(join(ROOT, "templates"), join(dist, "templates"), { recursive: true });
  await cp(join(ROOT, "spec"), join(dist, "spec"), { recursive: true });
  return dist;
}
