#!/usr/bin/env node
import { parseArgs } from "node:util";
import { loadDescription } from "./spec/load.js";
import { SpecError } from "./spec/problems.js";
import { currentRelease, releaseFile } from "./spec/releases.js";
import { findVariantUses } from "./spec/variants.js";

const USAGE = `Usage: generate [--spec <file|url>] [--release <R<yyyymmdd>.<hhmm>>]

Validates the description (the current release in spec/releases unless --spec or --release is given)
and prints what it contains. The emitters are not built yet, so nothing is written.`;

async function main(argv: string[]): Promise<number> {
  const [command, ...rest] = argv;
  const { values } = parseArgs({
    args: rest,
    options: { spec: { type: "string" }, release: { type: "string" }, help: { type: "boolean", short: "h" } },
  });
  if (values.help || command !== "generate") {
    console.log(USAGE);
    return values.help ? 0 : 1;
  }
  const source = values.spec ?? releaseFile(values.release ?? currentRelease());
  const loaded = await loadDescription(source);
  const doc = loaded.document as { info: { version: string }; paths?: Record<string, Record<string, unknown>>; webhooks?: Record<string, unknown> };
  const operations = Object.values(doc.paths ?? {}).flatMap((item) => Object.keys(item).filter((k) => k !== "parameters" && !k.startsWith("x-")));
  const variants = findVariantUses(loaded.document).flatMap((use) =>
    (use.value as { pipelines: { slug: string; variants: { name: string }[] }[] }).pipelines.flatMap((p) => p.variants.map((v) => `${p.slug}/${v.name}`)),
  );
  console.log(`${source}: valid OpenAPI ${loaded.openapi}, release ${doc.info.version}, sha256 ${loaded.hash.slice(0, 12)}`);
  console.log(`  operations: ${operations.length}`);
  console.log(`  variants:   ${variants.length} (${variants.join(", ")})`);
  console.log(`  events:     ${Object.keys(doc.webhooks ?? {}).length}`);
  console.log("The emitters are not built yet: the description was validated and nothing was written.");
  return 0;
}

main(process.argv.slice(2)).then(
  (code) => {
    process.exitCode = code;
  },
  (error: unknown) => {
    console.error(error instanceof SpecError || error instanceof Error ? error.message : String(error));
    process.exitCode = 1;
  },
);
