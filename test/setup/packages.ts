// Builds and packs the packages for test/package (helpers.ts: tarballs()) in the background as soon as a run that
// includes those files starts, so that the other files run meanwhile. The package tests then find the tarballs
// ready or wait for the same build (the lock in helpers.ts); a failed build is left to them to build again and report.
import { readdirSync } from "node:fs";
import { join } from "node:path";
import { ROOT, tarballs } from "../package/helpers.js";

let building: Promise<unknown> | undefined;

/** The file filters of the command line (`vitest run a b`, `vitest a`): none means every file. */
export function fileFilters(argv: readonly string[]): string[] {
  const args = argv.slice(2);
  const first = ["run", "watch", "dev"].includes(args[0] ?? "") ? 1 : 0;
  return args.slice(first).filter((arg) => !arg.startsWith("-"));
}

/** Whether a run with these filters includes a package test (vitest keeps a file whose path contains a filter). */
export function runsPackageTests(filters: readonly string[], files: readonly string[]): boolean {
  if (filters.length === 0) return true;
  return files.some((file) => filters.some((filter) => file.includes(filter.replace(/^\.\//, ""))));
}

export function setup(): void {
  const dir = join(ROOT, "test", "package");
  const files = readdirSync(dir)
    .filter((name) => name.endsWith(".test.ts"))
    .map((name) => join(dir, name));
  if (!runsPackageTests(fileFilters(process.argv), files)) return;
  building = tarballs().catch(() => undefined);
}

export async function teardown(): Promise<void> {
  await building;
}
