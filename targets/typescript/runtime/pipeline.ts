// The job submission's selector check: a pipeline the description's pattern rejects is refused before anything is
// sent, with the code the service would answer.
import { type ErrorContext, refusalError } from "./error-mapping.js";
import { SdkError } from "./errors.js";
import type { ServiceModel } from "./model.js";

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
