// Generation options that make the TypeScript client import this repository's runtime sources by path, as
// generated/ does: for tests and scripts that compile or run a client without installing the runtime's package.
import { RUNTIME_SOURCES } from "./emit/ts-kit.js";

/** Options for generate(): the client written to `outDir` imports the runtime's sources. */
export function withLocalRuntime(outDir: string): {
  readonly outDir: string;
  readonly targets: { readonly typescript: { readonly runtimeSources: string } };
} {
  return { outDir, targets: { typescript: { runtimeSources: RUNTIME_SOURCES } } };
}
