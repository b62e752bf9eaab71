// Job submission, polling and download: the pipeline and variant come from the IR, the answers from the fixtures
// (as templates filled with the real job id, poll URL, payload and _billing).
import type { Pipeline, Variant } from "../generator/ir/index.js";
import { declaredFileType, declaredResponse } from "./answer-check.js";
import type { Call, MockContext } from "./context.js";
import { billingOf, elapsed, errorReply, type JobCharge, type Reply } from "./envelope.js";
import { mediaTypeOf, parseForm } from "./form.js";
import type { Job } from "./jobs.js";
import { priceOf } from "./ledger.js";
import { clone, type FixtureCase, isFixtureFile, pipelineOf, resolveSchema, variantFixture } from "./model.js";
import { RequestProblem } from "./validate.js";

// The file of a job when the fixtures hold none: a PDF, whose real type the service does not show.
const DEFAULT_FILE = { name: "result.pdf", contentType: "application/octet-stream", text: "%PDF-1.4\n%mock\n" };

function template(ctx: MockContext, operationId: string, status: string, fixtureCase?: FixtureCase): Record<string, unknown> {
  const source = fixtureCase ?? ctx.model.fixtures.get(operationId)?.cases[0];
  const body = source?.responses[status];
  return typeof body === "object" && body !== null ? (clone(body) as Record<string, unknown>) : {};
}

/** The fixture payload of a variant with working download URLs added where the payload schema allows them. */
function payloadOf(ctx: MockContext, pipeline: Pipeline, variant: Variant, jobId: string, downloadToken: string): Record<string, unknown> {
  const fixture = variantFixture(ctx.model, pipeline.slug, variant.name);
  const fromFixture = template(ctx, "addJob", "200", fixture).result;
  const payload = typeof fromFixture === "object" && fromFixture !== null ? (fromFixture as Record<string, unknown>) : {};
  const url = `${ctx.baseUrl}/job/download/${downloadToken}`;
  if (!variant.payload) return { ...payload, download_url: url };
  const fits = (candidate: Record<string, unknown>) =>
    ctx.validator.check(`payload:${pipeline.slug}:${variant.name}`, variant.payload!, candidate) === undefined;
  for (const candidate of [
    { ...payload, job_id: jobId, output_files: [url], download_url: url },
    { ...payload, output_files: [url], download_url: url },
    { ...payload, output_files: [url] },
  ]) {
    if (fits(candidate)) return candidate;
  }
  return payload;
}

/** Whether the variant queues by default like the voice pipeline (`priority` taking `queue`/`stream`). */
function queueMode(ctx: MockContext, variant: Variant, body: Record<string, unknown>): boolean {
  const property = variant.request.properties.find((p) => p.name === "priority");
  if (!property) return false;
  const schema = resolveSchema(ctx.model, property.schema);
  if (schema.kind !== "enum" || !schema.values.includes("queue")) return false;
  return (body.priority ?? schema.default ?? "queue") === "queue";
}

export async function addJob(ctx: MockContext, call: Call): Promise<Reply> {
  const { operation, startedAt } = call;
  const slug = String(call.params.pipeline ?? "");
  const pipeline = pipelineOf(operation, slug);
  if (!pipeline) {
    const known = operation.variants?.pipelines.map((p) => p.slug).join(", ") ?? "";
    throw new RequestProblem(`path parameter "pipeline": unknown pipeline ${JSON.stringify(slug)} (known: ${known})`, "pipeline");
  }
  const contentType = call.headers.get("content-type") ?? "";
  const mediaType = mediaTypeOf(contentType);
  const accepted = operation.requestBody?.contents.map((c) => c.mediaType) ?? [];
  if (mediaType === undefined || !accepted.includes(mediaType)) {
    throw new RequestProblem(`media type ${mediaType ?? "(none)"} is not accepted here; send ${accepted.join(" or ")}`, "Content-Type");
  }
  const form = await parseForm(call.raw, contentType);
  const { variant, body } = ctx.validator.checkJobBody(pipeline, form);

  const pricing = operation.variants?.pricing;
  const price = priceOf(pipeline, pricing, body[pricing?.laneField ?? "processing_lane"]);
  const token = call.token ?? "";
  if (ctx.ledger.charge(token, price.credits) === undefined) {
    const remaining = ctx.ledger.account(token).remaining;
    return errorReply(402, "INSUFFICIENT_CREDITS", `This job costs ${price.credits} credits; ${remaining} remain`, startedAt);
  }
  const charge: JobCharge = { pipeline: slug, baseCredits: pipeline.baseCredits ?? 0, ...price };
  const billing = () => billingOf(ctx.ledger.account(token), call.windows, charge);

  // Number("") is 0: a request without the header takes the configured duration, not none.
  const durationHeader = call.headers.get("x-mock-job-duration-ms");
  const requestedDuration = durationHeader === null || durationHeader.trim() === "" ? Number.NaN : Number(durationHeader);
  const configured = ctx.options.jobDurationMs ?? 500;
  const duration = typeof configured === "number" ? configured : configured[0] + Math.round(ctx.random() * (configured[1] - configured[0]));
  const outcome = /fail/i.test(call.headers.get("x-mock-job-outcome") ?? "") ? "failed" : "completed";
  const fixtureFile = ctx.model.fixtures.get("downloadJobFile")?.cases[0]?.responses["200"];
  const file = isFixtureFile(fixtureFile) ? fixtureFile.$file : DEFAULT_FILE;
  const job = ctx.jobs.create({
    token,
    pipeline,
    variant,
    durationMs: Number.isFinite(requestedDuration) && requestedDuration >= 0 ? requestedDuration : duration,
    outcome,
    neverFinishes: call.neverFinishes,
    credits: price.credits,
    payload: (jobId, downloadToken) => payloadOf(ctx, pipeline, variant, jobId, downloadToken),
    file: { name: file.name, contentType: file.contentType, content: new TextEncoder().encode(file.text) },
  });
  ctx.stats.jobsCreated++;
  if (call.log) {
    call.log.jobId = job.id;
    call.log.created = true;
  }
  const pollUrl = `/job/get/${job.id}`;
  const fixture = variantFixture(ctx.model, pipeline.slug, variant.name);

  if (queueMode(ctx, variant, body)) {
    return {
      status: 200,
      json: { job_id: job.id, message: "Job queued; poll poll_url for the result", status: "queued", processing_time: elapsed(startedAt) },
    };
  }
  const accepted200 = (message: string): Reply => ({
    status: 200,
    json: {
      status: "success",
      job_id: job.id,
      poll_url: pollUrl,
      async: true,
      message,
      processing_time: elapsed(startedAt),
      _billing: billing(),
    },
  });
  if (body.client_wait === false || body.async_only === true) return accepted200("Job accepted; poll poll_url for the result");

  const done = await ctx.jobs.waitFor(job, ctx.options.holdMs ?? 2000);
  const state = ctx.jobs.state(job);
  if (done && state === "completed") {
    const json = template(ctx, "addJob", "200", fixture);
    Object.assign(json, {
      status: "success",
      job_id: job.id,
      result: job.payload,
      processing_time: elapsed(startedAt),
      _billing: billing(),
    });
    return { status: 200, json };
  }
  if (done) return accepted200(`Job ended with status ${state}; poll poll_url for details`);
  const json = template(ctx, "addJob", "202", fixture);
  Object.assign(json, {
    status: "success",
    job_id: job.id,
    poll_url: pollUrl,
    max_wait_seconds: ctx.options.maxWaitSeconds ?? (operation.job?.role === "submit" ? operation.job.maxHoldSeconds : undefined),
    client_wait: false,
    message: "Hold exceeded; the job continues in the background. Poll poll_url.",
    processing_time: elapsed(startedAt),
    _billing: billing(),
  });
  return { status: 202, json };
}

export function getJob(ctx: MockContext, call: Call): Reply {
  const id = String(call.params.job_id ?? "");
  if (call.log) call.log.jobId = id;
  const job = ctx.jobs.get(id);
  if (!job || (call.token !== undefined && job.token !== call.token)) {
    return errorReply(404, "NOT_FOUND", `No job ${JSON.stringify(id)}`, call.startedAt);
  }
  const json = template(ctx, "getJob", "200");
  delete json.result;
  delete json.job_result;
  const state = ctx.jobs.state(job);
  Object.assign(json, {
    status: "success",
    job_id: job.id,
    job_status: state,
    message: messageOf(job, state),
    processing_time: elapsed(call.startedAt),
    _billing: billingOf(call.account, call.windows),
  });
  if (state === "completed") json[job.pipeline.payloadAfterPolling] = job.payload;
  return { status: 200, json };
}

function messageOf(job: Job, state: string): string {
  if (state === "completed") return "Job completed";
  if (state === "failed") return `Job failed (simulated failure of ${job.pipeline.slug})`;
  return `Job ${state}`;
}

export function downloadJobFile(ctx: MockContext, call: Call): Reply {
  const token = String(call.params.token ?? "");
  const file = ctx.jobs.download(token);
  if (!file) return errorReply(404, "NOT_FOUND", "No download for this token", call.startedAt);
  // Sent as the description declares the download, whatever type the job's file was made with.
  const response = declaredResponse(call.operation, 200);
  return { status: 200, file: { ...file, contentType: declaredFileType(response, file.contentType) } };
}
