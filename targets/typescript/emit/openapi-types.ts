import { createRequire } from "node:module";
import type { astToString, GlobalContext, OpenAPI3, resolveRef, scanDiscriminators, transformSchema } from "openapi-typescript";
import { oneShotWorker } from "../../../generator/worker.js";

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

/** The CommonJS files (the package's `./*` export) of TransformCore, for `require` here and in the worker. */
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

// The same as openApiTypes, in a worker thread, so that on a large description the other emitters run beside it.
// It loads openapi-typescript's transform (and the TypeScript compiler) as soon as it starts, before it has the document.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
const { modules, context, options } = workerData;
let api;
let failure;
try {
  const utils = require(modules.utils);
  api = { transformSchema: require(modules.transform), scanDiscriminators: utils.scanDiscriminators, resolveRef: utils.resolveRef, astToString: require(modules.ts).astToString };
} catch (error) {
  failure = error;
}
parentPort.once("message", (document) => {
  try {
    if (failure) throw failure;
    const ctx = {
      ...context,
      injectFooter: [],
      discriminators: api.scanDiscriminators(document, options),
      resolve: ($ref) => api.resolveRef(document, $ref, { silent: options.silent }),
    };
    parentPort.postMessage({ text: api.astToString(api.transformSchema(document, ctx)) });
  } catch (error) {
    parentPort.postMessage({ error: String((error && error.message) || error) });
  }
});
`;

export interface TypesWorker {
  /** Hands the worker its document; resolves with what openApiTypes would return for it. */
  types(document: OpenAPI3): Promise<string>;
  /** Stops the worker when it will not be given a document. */
  cancel(): void;
}

/** Starts a worker for openApiTypes, to be given its document once it is built. */
export function startTypesWorker(): TypesWorker {
  const modules = Object.fromEntries(Object.entries(CORE_MODULES).map(([key, id]) => [key, require.resolve(id)]));
  const worker = oneShotWorker<{ text?: string; error?: string }>(
    WORKER,
    { modules, context: CONTEXT, options: OPTIONS },
    "openapi-typescript",
  );
  const text = worker.answer.then((message) => {
    if (message.text === undefined) throw new Error(`openapi-typescript: ${message.error ?? "no output"}`);
    return message.text;
  });
  // Until types() hands it to its caller, a failure must not count as an unhandled rejection.
  text.catch(() => {});
  return {
    types: (document) => {
      worker.post(document);
      return text;
    },
    cancel: worker.stop,
  };
}
