// `npm run docs`: the API reference of the package's three entries into docs/api/ (git-ignored). `out` is fixed
// here so that no command line has to name the output folder.
import { OptionDefaults } from "typedoc";

/** @type {Partial<import("typedoc").TypeDocOptions>} */
const config = {
  entryPoints: ["generated/index.ts", "generated/webhooks.ts", "targets/typescript/runtime/index.ts", "targets/typescript/runtime/node.ts"],
  tsconfig: "tsconfig.docs.json",
  out: "docs/api",
  readme: "generated/README.md",
  // openapi-typescript writes these tags into generated/types.ts.
  blockTags: [...OptionDefaults.blockTags, "@description", "@constant"],
  excludePrivate: true,
  excludeInternal: true,
  excludeExternals: true,
  disableSources: true,
  treatWarningsAsErrors: true,
  validation: { notExported: true, invalidLink: true, rewrittenLink: true, unusedMergeModuleWith: true, notDocumented: false },
};

export default config;
