import { createRequire } from "node:module";
import type { astToString, GlobalContext, OpenAPI3, resolveRef, scanDiscriminators, transformSchema } from "openapi-typescript";

/**
 * openapi-typescript's transform, printer and ref helpers, from the modules that hold them. Its index also loads
 * Redocly's linter and bundler (about 0.4 s of CPU at every start), which openApiTypes does not use.
 */
interface TransformCore {
  transformSchema: typeof transformSchema;
  scanDiscriminators: typeof scanDiscriminators;
  resolveRef: typeof resolveRef;
  astToString: typeof astToString;
}

/** The CommonJS files (the package's `./*` export) of TransformCore, for `require`. */
const CORE_MODULES = {
  transform: "openapi-typescript/dist/transform/index.cjs",
  utils: "openapi-typescript/dist/lib/utils.cjs",
  ts: "openapi-typescript/dist/lib/ts.cjs",
} as const;

const require = createRequire(import.meta.url);
let core: TransformCore | undefined;

function transformCore(): TransformCore {
  if (core === undefined) {
    const utils = require(CORE_MODULES.utils) as Pick<TransformCore, "scanDiscriminators" | "resolveRef">;
    core = {
      transformSchema: require(CORE_MODULES.transform) as typeof transformSchema,
      scanDiscriminators: utils.scanDiscriminators,
      resolveRef: utils.resolveRef,
      astToString: (require(CORE_MODULES.ts) as Pick<TransformCore, "astToString">).astToString,
    };
  }
  return core;
}

/** Our openapi-typescript options; everything else is its default. */
const OPTIONS = { alphabetize: false, defaultNonNullable: false, exportType: false, immutable: false, silent: true } as const;

/** The context openapiTS() builds from OPTIONS, but for what it computes from the document and what a run fills in. */
const CONTEXT = {
  ...OPTIONS,
  additionalProperties: false,
  arrayLength: false,
  emptyObjectsUnknown: false,
  enum: false,
  enumValues: false,
  conditionalEnums: false,
  dedupeEnums: false,
  excludeDeprecated: false,
  pathParamsAsTypes: false,
  postTransform: undefined,
  propertiesRequiredByDefault: false,
  rootTypes: false,
  rootTypesNoSchemaPrefix: false,
  rootTypesKeepCasing: false,
  transform: undefined,
  transformProperty: undefined,
  makePathsEnum: false,
  generatePathParams: false,
  readWriteMarkers: false,
} as const satisfies Omit<GlobalContext, "discriminators" | "resolve" | "redoc" | "injectFooter">;

/**
 * The types of an OpenAPI document: openapi-typescript's transform, printed, with the context openapiTS() would
 * build from OPTIONS. openapiTS() first lints and bundles its input with Redocly: two walks of the whole document,
 * 2 of its 3.5 s on GitHub's description, that find nothing here: the document is rebuilt from the IR of a
 * validated description and its references are all local, so the bundle is the document itself.
 * test/generator/openapi-types.test.ts checks that both print the same text.
 */
export function openApiTypes(document: OpenAPI3): string {
  const { astToString, resolveRef, scanDiscriminators, transformSchema } = transformCore();
  const ctx: GlobalContext = {
    ...CONTEXT,
    injectFooter: [],
    discriminators: scanDiscriminators(document, OPTIONS),
    resolve: ($ref) => resolveRef(document, $ref, { silent: OPTIONS.silent }),
    get redoc(): never {
      throw new Error("openapi-typescript's transform read its Redocly config, which it is not given");
    },
  };
  return astToString(transformSchema(document, ctx));
}

/** What openapiTS() itself prints for the document with OPTIONS: the reference for openApiTypes. */
export async function openApiTypesByOpenapiTS(document: OpenAPI3): Promise<string> {
  const { default: openapiTS, astToString } = await import("openapi-typescript");
  return astToString(await openapiTS(document, OPTIONS));
}
