import { createHash } from "node:crypto";
import SwaggerParser from "@apidevtools/swagger-parser";
import { type RawDescription, readDescription } from "./read.js";
import { checkRefs } from "./refs.js";
import { type SpecProblem, SpecError } from "./problems.js";
import { checkVariants } from "./variants.js";

export interface LoadedDescription extends RawDescription {
  /** sha256 of the text, hex. */
  readonly hash: string;
  readonly openapi: "3.0" | "3.1";
}

/** Reads and validates a description: references, the OpenAPI schema (swagger-parser), then the variants extension. */
export async function loadDescription(source: string): Promise<LoadedDescription> {
  return checkDescription(await readDescription(source));
}

export async function checkDescription(raw: RawDescription): Promise<LoadedDescription> {
  const { document, source } = raw;
  const version = typeof document.openapi === "string" ? document.openapi : "";
  const openapi = version.startsWith("3.1") ? "3.1" : version.startsWith("3.0") ? "3.0" : undefined;
  if (!openapi)
    throw new SpecError(source, [{ pointer: "/openapi", message: `OpenAPI 3.0 or 3.1 expected, found "${version || "nothing"}"` }]);

  const refProblems = checkRefs(document);
  if (refProblems.length > 0) throw new SpecError(source, refProblems);

  const problems: SpecProblem[] = [...(await schemaProblems(document)), ...checkVariants(document)];
  if (problems.length > 0) throw new SpecError(source, problems);
  return { ...raw, openapi, hash: createHash("sha256").update(raw.text).digest("hex") };
}

/** swagger-parser dereferences what it validates, so it gets a copy and the caller's document stays as read. */
async function schemaProblems(document: Record<string, unknown>): Promise<SpecProblem[]> {
  try {
    await SwaggerParser.validate(structuredClone(document) as never);
    return [];
  } catch (error) {
    const details = (error as { details?: { instancePath?: string; message?: string }[] }).details;
    if (Array.isArray(details) && details.length > 0) {
      return details.map((d) => ({ pointer: d.instancePath ?? "", message: d.message ?? "invalid" }));
    }
    return [{ pointer: "", message: (error as Error).message.split("\n")[0] ?? "invalid description" }];
  }
}
