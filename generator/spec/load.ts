import { createHash } from "node:crypto";
import { type RawDescription, readDescription } from "./read.js";
import { checkPathParameters } from "./path-params.js";
import { checkConventions } from "./conventions.js";
import { checkPagination } from "./pagination.js";
import { checkRefs } from "./refs.js";
import { type SpecProblem, SpecError } from "./problems.js";
import { schemaProblems, schemaProblemsInWorker } from "./schema-check.js";
import { checkTypeNames } from "./schema-types.js";
import { knownValid, rememberValid, validEntry } from "./valid-cache.js";
import { checkVariants } from "./variants.js";
import { checkWebhookSubscriptions } from "./webhook-subscription.js";

export interface LoadedDescription extends RawDescription {
  /** sha256 of the text, hex. */
  readonly hash: string;
  readonly openapi: "3.0" | "3.1";
}

/** A description whose last check, against the OpenAPI schema, may still be running. */
export interface CheckingDescription {
  /** Usable as soon as it is returned: every other check has passed. */
  readonly description: LoadedDescription;
  /** Settles when the last check is done, with the error to throw if it failed; never rejects. */
  readonly verdict: Promise<Error | undefined>;
}

/**
 * From this size of text on, swagger-parser validates in a worker thread: on a large description it takes
 * seconds (ajv over the whole document, every reference but those into schemas followed), which building the IR
 * can use meanwhile on the other core. Below it, the worker's start-up would cost more than it saves.
 */
export const LARGE_DESCRIPTION_BYTES = 1_000_000;

/** Reads and validates a description: references, the OpenAPI schema (swagger-parser), then the extensions. */
export async function loadDescription(source: string): Promise<LoadedDescription> {
  return checkDescription(await readDescription(source));
}

export async function checkDescription(raw: RawDescription): Promise<LoadedDescription> {
  const { description, verdict } = await startChecks(raw);
  const failure = await verdict;
  if (failure) throw failure;
  return description;
}

/**
 * The checks of checkDescription, returning as soon as the description can be used while the OpenAPI-schema
 * check of a large description goes on in a worker. Problems are the same, reported in the same order.
 */
export async function startChecks(raw: RawDescription): Promise<CheckingDescription> {
  const { document, source } = raw;
  const version = typeof document.openapi === "string" ? document.openapi : "";
  const openapi = version.startsWith("3.1") ? "3.1" : version.startsWith("3.0") ? "3.0" : undefined;
  if (!openapi && document.openapi === undefined && document.swagger !== undefined) throw swaggerError(source, document.swagger);
  if (!openapi)
    throw new SpecError(source, [{ pointer: "/openapi", message: `OpenAPI 3.0 or 3.1 expected, found "${version || "nothing"}"` }]);
  const shapeProblems = rootProblems(document, openapi);
  if (shapeProblems.length > 0) throw new SpecError(source, shapeProblems);

  const refProblems = checkRefs(document);
  if (refProblems.length > 0) throw new SpecError(source, refProblems);

  // Before the OpenAPI-schema check: 3.1's takes any type name, and 3.0's refusal does not say which are known.
  const typeProblems = checkTypeNames(document, openapi);
  if (typeProblems.length > 0) throw new SpecError(source, typeProblems);

  // A document this toolchain found valid before is not checked against the OpenAPI schema again (valid-cache.ts).
  const cached = validEntry(document);
  const schemaCheck = knownValid(cached)
    ? Promise.resolve([])
    : (raw.text.length >= LARGE_DESCRIPTION_BYTES ? schemaProblemsInWorker(document) : schemaProblems(document)).then((problems) => {
        if (problems.length === 0) rememberValid(cached);
        return problems;
      });
  const extensionProblems = [
    ...checkPathParameters(document),
    ...checkVariants(document),
    ...checkWebhookSubscriptions(document),
    ...checkConventions(document),
    ...checkPagination(document),
  ];
  const description: LoadedDescription = { ...raw, openapi, hash: createHash("sha256").update(raw.text).digest("hex") };
  const verdict = schemaCheck.then(
    (problems: SpecProblem[]) =>
      problems.length + extensionProblems.length > 0 ? new SpecError(source, [...problems, ...extensionProblems]) : undefined,
    (error: unknown) => (error instanceof Error ? error : new Error(String(error))),
  );
  // The IR must not be built from a description whose extensions are broken: wait for the whole report.
  if (extensionProblems.length > 0) throw await verdict;
  return { description, verdict };
}

/** A Swagger (OpenAPI 2.0) document: said so, with how to convert it, rather than "no openapi field". */
function swaggerError(source: string, swagger: unknown): SpecError {
  const found = typeof swagger === "string" ? `swagger: ${JSON.stringify(swagger)}` : "a swagger field";
  return new SpecError(source, [
    {
      pointer: "/swagger",
      message:
        `this is a Swagger 2.0 description (${found}); only OpenAPI 3.0 and 3.1 descriptions are read. Convert it to ` +
        "OpenAPI 3 first, for example with swagger2openapi (npx swagger2openapi in.yaml --yaml --outfile out.yaml) or " +
        "the Swagger Editor (Edit > Convert to OpenAPI 3), then generate from the converted file",
    },
  ]);
}

/** What the OpenAPI schema requires at the root, said plainly (swagger-parser words it as "[object Object] is not valid"). */
function rootProblems(document: Record<string, unknown>, openapi: "3.0" | "3.1"): SpecProblem[] {
  const problems: SpecProblem[] = [];
  const info = document.info;
  if (info === null || typeof info !== "object" || Array.isArray(info)) {
    problems.push({ pointer: "/info", message: "missing: the description needs info with its title and version" });
  } else {
    for (const field of ["title", "version"] as const) {
      if (typeof (info as Record<string, unknown>)[field] !== "string")
        problems.push({ pointer: `/info/${field}`, message: "missing: a string is required" });
    }
  }
  if (openapi === "3.0" && document.paths === undefined)
    problems.push({ pointer: "/paths", message: "missing: OpenAPI 3.0 requires paths" });
  if (openapi === "3.1" && document.paths === undefined && document.webhooks === undefined && document.components === undefined) {
    problems.push({ pointer: "/paths", message: "missing: OpenAPI 3.1 requires at least one of paths, webhooks and components" });
  }
  return problems;
}
