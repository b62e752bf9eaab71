// The job submission's selector check: a pipeline the description's pattern rejects is refused before anything is
// sent, with the code the service would answer.
import { type ErrorContext, refusalError } from "./error-mapping.js";
import { SdkError } from "./errors.js";
import type { ServiceModel, VariantFields } from "./model.js";

/**
 * Whether the model's job submission accepts this selector (the pipeline slug pattern the description states). A
 * description without a pattern accepts any non-empty value.
 */
export function isValidPipelineSlug(pipeline: string, model: Pick<ServiceModel, "jobs">): boolean {
  const pattern = model.jobs?.submit.selectorPattern;
  return pattern === undefined ? pipeline !== "" : new RegExp(pattern).test(pipeline);
}

/** Throws, before anything is sent, when the description's selector pattern rejects the pipeline. */
export function checkPipeline(model: ServiceModel, errors: ErrorContext, pipeline: string): void {
  const submit = model.jobs?.submit;
  if (submit === undefined || isValidPipelineSlug(pipeline, model)) return;
  const message = `pipeline ${JSON.stringify(pipeline)} does not match ${submit.selectorPattern ?? "a non-empty value"}; nothing was sent`;
  if (submit.selectorRefusal === undefined) throw new SdkError(message);
  throw refusalError(errors, submit.selectorRefusal, message);
}

/**
 * The variants a body may be of: those its discriminator values choose, or, when it chooses none, every variant of
 * the pipeline.
 */
function candidates(variants: readonly VariantFields[], body: Readonly<Record<string, unknown>>): readonly VariantFields[] {
  const chosen = variants.filter((v) => v.discriminator !== undefined && body[v.discriminator.property] === v.discriminator.value);
  return chosen.length > 0 ? chosen : variants;
}

/**
 * Throws, before anything is sent, when the body has a field that no variant it may be of takes (a misspelt field),
 * naming the field, the operation and the pipeline. A pipeline the model does not describe, or a variant whose
 * parameters are not shown, takes any field.
 */
export function checkBodyFields(model: ServiceModel, pipeline: string, body: Readonly<Record<string, unknown>>): void {
  const variants = model.pipelines?.[pipeline]?.variants;
  if (variants === undefined || variants.length === 0) return;
  const possible = candidates(variants, body);
  const taken = new Set<string>();
  for (const v of possible) {
    if (v.fields === undefined) return;
    for (const field of v.fields) taken.add(field);
  }
  // The field the job functions set themselves to ask for no hold is the description's, whatever the variant.
  const noWait = model.jobs?.submit.noWait?.field;
  if (noWait !== undefined) taken.add(noWait);
  const unknown = Object.keys(body)
    .filter((k) => body[k] !== undefined && !taken.has(k))
    .sort();
  if (unknown.length === 0) return;
  const operation = model.jobs?.submit.operation.operationId ?? "the job submission";
  const which =
    possible.length === 1 && possible[0]?.discriminator !== undefined
      ? ` (${possible[0].discriminator.property} ${JSON.stringify(possible[0].discriminator.value)})`
      : "";
  const names = unknown.map((k) => JSON.stringify(k)).join(", ");
  const meant = unknown.flatMap((k) => {
    const near = nearest(k, taken);
    return near === undefined ? [] : [`${JSON.stringify(near)} for ${JSON.stringify(k)}`];
  });
  const hint = meant.length === 0 ? "" : ` Did you mean ${meant.join(", ")}?`;
  throw new SdkError(
    `${operation}: unknown ${unknown.length === 1 ? "field" : "fields"} ${names} in the body for pipeline ${JSON.stringify(pipeline)}${which}; nothing was sent.${hint}`,
  );
}

/** The known name closest to a misspelt one, within a third of its length in edits. */
function nearest(name: string, known: ReadonlySet<string>): string | undefined {
  let best: string | undefined;
  let bestDistance = Math.max(1, Math.floor(name.length / 3)) + 1;
  for (const candidate of known) {
    const d = editDistance(name, candidate);
    if (d < bestDistance) [best, bestDistance] = [candidate, d];
  }
  return best;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++) {
      row[j] = Math.min((previous[j] ?? 0) + 1, (row[j - 1] ?? 0) + 1, (previous[j - 1] ?? 0) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = row;
  }
  return previous[b.length] ?? 0;
}
