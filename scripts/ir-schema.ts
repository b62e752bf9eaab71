// `npm run ir-schema`: writes generator/ir/ir.schema.json from generator/ir/types.ts, formatted as biome formats JSON.
// test/ir/ir-schema.test.ts regenerates it in memory and fails when the committed file differs.
import { execFileSync } from "node:child_process";
import { writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { buildIrSchema, SCHEMA_PATH } from "./ir-schema/build.js";

const biome = createRequire(import.meta.url).resolve("@biomejs/biome/bin/biome");
const text = execFileSync(process.execPath, [biome, "format", `--stdin-file-path=${SCHEMA_PATH}`], {
  input: `${JSON.stringify(buildIrSchema(), null, 2)}\n`,
  encoding: "utf8",
});
writeFileSync(SCHEMA_PATH, text);
console.log(`wrote ${SCHEMA_PATH}`);
