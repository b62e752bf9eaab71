import { createRequire } from "node:module";
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
/** swagger-parser's options: references into schemas are not followed (see IN_SCHEMA). */
const OPTIONS = { dereference: { excludedPathMatcher: (path: string) => inSchema.test(path) } };

/** The OpenAPI-schema problems of a document, by swagger-parser in this thread. */
export async function schemaProblems(document: Record<string, unknown>): Promise<SpecProblem[]> {
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
const { parentPort, workerData } = require("node:worker_threads");
const inSchema = new RegExp(workerData.inSchema);
require(workerData.module)
  .validate(workerData.document, { dereference: { excludedPathMatcher: (path) => inSchema.test(path) } })
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
    const module = createRequire(import.meta.url).resolve("@apidevtools/swagger-parser");
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
