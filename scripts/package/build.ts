// `npm run build`: the toolchain into dist/ and the runtime's package into runtime/dist/ (the toolchain's build builds
// the runtime's first: its package carries the runtime's tarball); `build runtime` builds the runtime's alone. `npm
// pack` of the root packs the toolchain, `npm pack ./targets/typescript/runtime/dist` the runtime.
import { buildRuntime } from "./runtime.js";
import { buildToolchain } from "./toolchain.js";

const BUILDS: Readonly<Record<string, () => Promise<string>>> = { toolchain: buildToolchain, runtime: buildRuntime };

const names = process.argv.slice(2);
const unknown = names.filter((n) => !(n in BUILDS));
if (unknown.length > 0) {
  console.error(`unknown build ${unknown.join(", ")} (known: ${Object.keys(BUILDS).join(", ")})`);
  process.exitCode = 1;
} else {
  for (const name of names.length > 0 ? names : ["toolchain"]) {
    const started = performance.now();
    const dir = await BUILDS[name]!();
    console.log(`built ${name} in ${dir} (${Math.round(performance.now() - started)} ms)`);
  }
}
