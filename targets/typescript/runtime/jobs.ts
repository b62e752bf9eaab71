// Jobs: submit and hold, switch to polling when the answer says the job still runs, resume a wait from any process.
// The operations and their field names come from the model's `jobs` (the description's x-paperoffice-job); without
// them the job helpers are unavailable. Every wait has one overall deadline and the caller's signal; the sleep
// before a poll that could not be sent in time is never started.
import { ABORT_IN_FLIGHT_BELOW_MS } from "./call-deadline.js";
import { encodingFor, prepareBody, serialiseBody } from "./encode.js";
import { type ErrorContext, envelopeFields } from "./error-mapping.js";
import { JobFailedError, JobMayExistError, type ServiceErrorInit, SdkError } from "./errors.js";
import { asRecord } from "./meta.js";
import {
  type BillingData,
  type JobModel,
  type JobsModel,
  type RequestOptions,
  type ResponseMeta,
  type ServiceModel,
  withJobModel,
} from "./model.js";
import { checkBodyFields, checkPipeline } from "./pipeline.js";
import { priceJob as priceFromModel } from "./pricing.js";
import { internals, type Runtime } from "./runtime.js";
import { type PollInterval, type ResolvedOptions, resolvePollInterval } from "./options.js";
import { fillTemplate, matchTemplate } from "./path-template.js";
import { isResendable } from "./retry.js";
import { type Budget, budgetFor, jitter, sleepBeforePoll } from "./timing.js";
import type { SendRequest, Transport } from "./transport.js";

export interface JobProgress {
  jobId: string;
  /** The new value of the poll answer's job status field. */
  status: string;
  previousStatus?: string;
  /** Polls sent so far. */
  polls: number;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Overall deadline of the wait (default: the client's jobDeadlineMs). */
  deadlineMs?: number;
  /** The same as deadlineMs (deadlineMs wins when both are given). */
  timeout?: number;
  /** Retries after the first attempt of each request, for this call only (default: the client's retry.maxRetries). */
  maxRetries?: number;
  pollIntervalMs?: PollInterval;
  /** Called whenever the job status changes. */
  onProgress?: (progress: JobProgress) => void;
}

export interface JobOptions extends WaitOptions {
  mediaType?: "multipart/form-data" | "application/x-www-form-urlencoded";
  headers?: Record<string, string>;
}

export interface JobResult<T, B extends BillingData = BillingData> {
  jobId: string;
  /** The payload: the first of the poll operation's payload fields that holds a value. */
  data: T;
  /** Meta of the answer that carried the payload. */
  meta: ResponseMeta<B>;
  /** Meta of the submission (its billing tells the charge); absent after waitJob. */
  submitMeta?: ResponseMeta<B>;
  /** Polls sent; 0 when the hold returned the payload. */
  polls: number;
}

export interface JobHandle<B extends BillingData = BillingData> {
  jobId: string;
  pipeline: string;
  /** Path of the poll operation for this job, below the base address. */
  pollUrl: string;
  meta: ResponseMeta<B>;
  wait<T>(options?: WaitOptions): Promise<JobResult<T, B>>;
}

const FAILURE_STATUS = /fail|error|cancel/i;

export { isValidPipelineSlug } from "./pipeline.js";

/** failed, error, cancelled, canceled and anything else naming a failure, an error or a cancellation. */
export function isFailureStatus(status: string): boolean {
  return FAILURE_STATUS.test(status);
}

type Envelope = Record<string, unknown>;
type PollModel = JobsModel["poll"];

function isFinished(envelope: Envelope, poll: PollModel): boolean {
  const status = envelope[poll.status];
  if (status !== undefined) return status === poll.completed;
  return poll.payload.some((field) => envelope[field] !== undefined);
}

/** The first of the poll operation's payload fields that holds a value. */
function payloadOf(envelope: Envelope, poll: PollModel): unknown {
  let value: unknown;
  for (const field of poll.payload) {
    value = envelope[field];
    if (value !== undefined && value !== null) return value;
  }
  return value;
}

function jobIdOf(envelope: Envelope, field: string): string | undefined {
  const id = envelope[field];
  return typeof id === "string" && id !== "" ? id : typeof id === "number" ? String(id) : undefined;
}

function attachJobId(error: unknown, jobId: string): unknown {
  if (error instanceof SdkError && error.jobId === undefined) error.jobId = jobId;
  return error;
}

/** The path of the poll operation for a job id. */
function pollPath(jobs: JobsModel, jobId: string): Pick<SendRequest, "path" | "pathParams"> {
  return { path: jobs.poll.operation.path, pathParams: { [jobs.poll.jobIdParameter]: jobId } };
}

/** The poll URL of an answer when it has the poll operation's form, else the poll path built from the job id. */
function pollTarget(envelope: Envelope, jobId: string, jobs: JobsModel): Pick<SendRequest, "path" | "pathParams"> {
  const field = jobs.submit.pollUrl;
  const pollUrl = field === undefined ? undefined : envelope[field];
  if (typeof pollUrl === "string" && matchTemplate(jobs.poll.operation.path, pollUrl) !== undefined) return { path: pollUrl };
  return pollPath(jobs, jobId);
}

export class Jobs {
  readonly #transport: Transport;
  readonly #options: ResolvedOptions;
  readonly #model: ServiceModel;
  readonly #errors: ErrorContext;

  constructor(transport: Transport, options: ResolvedOptions, model: ServiceModel, errors: ErrorContext) {
    this.#transport = transport;
    this.#options = options;
    this.#model = model;
    this.#errors = errors;
  }

  #jobs(): JobsModel {
    const jobs = this.#model.jobs;
    if (jobs === undefined) {
      throw new SdkError(
        "job helpers are unavailable: the description marks no operations that submit and poll jobs (x-paperoffice-job); call its operations directly",
      );
    }
    return jobs;
  }

  /** Refuses a selector the description's pattern rejects before anything is sent, with the code the service would answer. */
  checkPipeline(pipeline: string): void {
    this.#jobs();
    checkPipeline(this.#model, this.#errors, pipeline);
  }

  async submit<T>(
    pipeline: string,
    body: Record<string, unknown>,
    options: JobOptions & { jsonStrings?: readonly string[] } = {},
  ): Promise<JobResult<T>> {
    const jobs = this.#jobs();
    const { noWait } = jobs.submit;
    const b = budgetFor(options, this.#options.jobDeadlineMs);
    // A deadline that would cut the hold short would lose the job id with it: take the id at once and poll instead.
    const held = noWait === undefined || b.deadlineMs >= ABORT_IN_FLIGHT_BELOW_MS || body[noWait.field] !== undefined;
    const sent = held || noWait === undefined ? body : { ...body, [noWait.field]: noWait.value };
    const submitted = await this.#submit(jobs, pipeline, sent, options, b);
    const envelope = asRecord(submitted.data) ?? {};
    // The hold answers with the payload; the still-running status means the hold ran out and the job goes on.
    if (submitted.meta.status !== jobs.submit.stillRunningStatus && isFinished(envelope, jobs.poll)) {
      return {
        jobId: jobIdOf(envelope, jobs.submit.jobId) ?? "",
        data: payloadOf(envelope, jobs.poll) as T,
        meta: submitted.meta,
        submitMeta: submitted.meta,
        polls: 0,
      };
    }
    const jobId = this.#requireJobId(jobs, envelope, submitted.meta);
    b.jobId = jobId;
    this.#throwIfFailed(jobs, envelope, jobId, submitted.meta.status);
    return this.#poll<T>(jobs, jobId, b, options, {
      submitMeta: submitted.meta,
      target: pollTarget(envelope, jobId, jobs),
      sleepFirst: true,
    });
  }

  async start(
    pipeline: string,
    body: Record<string, unknown>,
    options: RequestOptions & { jsonStrings?: readonly string[] } = {},
  ): Promise<JobHandle> {
    const jobs = this.#jobs();
    const { noWait } = jobs.submit;
    const b = budgetFor(options, this.#options.deadlineMs);
    const sent = noWait === undefined ? body : { ...body, [noWait.field]: noWait.value };
    const submitted = await this.#submit(jobs, pipeline, sent, options, b);
    const envelope = asRecord(submitted.data) ?? {};
    const jobId = this.#requireJobId(jobs, envelope, submitted.meta);
    const target = pollTarget(envelope, jobId, jobs);
    return {
      jobId,
      pipeline,
      pollUrl: target.pathParams === undefined ? target.path : fillTemplate(target.path, target.pathParams),
      meta: submitted.meta,
      wait: <T>(waitOptions: WaitOptions = {}) => this.wait<T>(jobId, { ...waitOptions, pipeline }),
    };
  }

  /** Waits for a job by id, for example one started by another process. The first poll is sent at once. */
  async wait<T>(jobId: string, options: WaitOptions & { pipeline?: string } = {}): Promise<JobResult<T>> {
    const jobs = this.#jobs();
    const b = budgetFor(options, this.#options.jobDeadlineMs);
    b.jobId = jobId;
    return this.#poll<T>(jobs, jobId, b, options, { target: pollPath(jobs, jobId), sleepFirst: false });
  }

  async #submit(
    jobs: JobsModel,
    pipeline: string,
    body: Record<string, unknown>,
    options: JobOptions & { jsonStrings?: readonly string[] },
    b: Budget,
  ) {
    this.checkPipeline(pipeline);
    checkBodyFields(this.#model, pipeline, body);
    const { operation: op, pipelineParameter } = jobs.submit;
    return this.#transport.send({
      method: op.method,
      path: op.path,
      pathParams: pipelineParameter === undefined ? undefined : { [pipelineParameter]: pipeline },
      ...serialiseBody(
        await prepareBody(body, this.#jsonStrings(pipeline, options.jsonStrings), this.#model.conventions?.form?.arrays),
        encodingFor(op.requestMediaType, options.mediaType, op.urlencoded),
      ),
      response: "json",
      resendable: false,
      submission: JobMayExistError,
      stillRunningStatus: jobs.submit.stillRunningStatus,
      budget: b,
      headers: options.headers,
      label: op.operationId,
      security: op.security,
    });
  }

  async #poll<T>(
    jobs: JobsModel,
    jobId: string,
    b: Budget,
    options: WaitOptions,
    how: { target: Pick<SendRequest, "path" | "pathParams">; sleepFirst: boolean; submitMeta?: ResponseMeta },
  ): Promise<JobResult<T>> {
    const { poll } = jobs;
    const interval = options.pollIntervalMs === undefined ? this.#options.pollInterval : resolvePollInterval(options.pollIntervalMs);
    let polls = 0;
    let last: string | undefined;
    try {
      for (;;) {
        if (how.sleepFirst || polls > 0) await sleepBeforePoll(b, jitter(interval));
        const answer = await this.#transport.send({
          method: poll.operation.method,
          ...how.target,
          response: "json",
          resendable: isResendable(poll.operation),
          budget: b,
          label: poll.operation.operationId,
          security: poll.operation.security,
        });
        polls++;
        const envelope = asRecord(answer.data) ?? {};
        const value = envelope[poll.status];
        const status = typeof value === "string" ? value : undefined;
        this.#options.logger?.info?.("job poll", { jobId, poll: polls, status });
        if (status !== undefined && status !== last) {
          options.onProgress?.({ jobId, status, ...(last === undefined ? {} : { previousStatus: last }), polls });
          last = status;
        }
        if (isFinished(envelope, poll)) {
          const result: JobResult<T> = { jobId, data: payloadOf(envelope, poll) as T, meta: answer.meta, polls };
          if (how.submitMeta !== undefined) result.submitMeta = how.submitMeta;
          return result;
        }
        this.#throwIfFailed(jobs, envelope, jobId, answer.meta.status);
      }
    } catch (error) {
      throw attachJobId(error, jobId);
    }
  }

  #jsonStrings(pipeline: string, extra: readonly string[] | undefined): readonly string[] {
    const declared = this.#model.pipelines?.[pipeline]?.jsonStrings ?? [];
    return extra === undefined || extra.length === 0 ? declared : [...declared, ...extra];
  }

  #throwIfFailed(jobs: JobsModel, envelope: Envelope, jobId: string, httpStatus: number): void {
    const status = envelope[jobs.poll.status];
    if (typeof status !== "string" || !isFailureStatus(status)) return;
    const fields = envelopeFields(this.#model.conventions?.envelope, envelope);
    const init: ServiceErrorInit = {
      status: httpStatus,
      message: `job ${jobId} ended with ${jobs.poll.status} ${JSON.stringify(status)}`,
      body: this.#errors.auth.redactValue(envelope),
      jobId,
    };
    if (fields.message !== undefined) init.message += `: ${this.#errors.auth.redactText(fields.message)}`;
    if (fields.code !== undefined) init.code = fields.code;
    if (fields.processingTime !== undefined) init.processingTime = fields.processingTime;
    throw new JobFailedError({ ...init, jobStatus: status });
  }

  #requireJobId(jobs: JobsModel, envelope: Envelope, meta: ResponseMeta): string {
    const jobId = jobIdOf(envelope, jobs.submit.jobId);
    if (jobId === undefined) {
      throw new JobMayExistError(`the service accepted the submission but sent no ${jobs.submit.jobId}`, { status: meta.status });
    }
    return jobId;
  }
}

/** The job functions of a client, over its model or, when given, the job part of a generated client's model. */
function jobsOf(client: Runtime<BillingData, object>, jobs: JobModel | undefined): Jobs {
  const { transport, options, model, errors } = client[internals];
  return new Jobs(transport, options, withJobModel(model, jobs), errors);
}

/**
 * Submits a job and waits for its payload: hold first, then polling while it runs. Works for any valid slug of a
 * description that states job operations (`x-paperoffice-job`).
 */
export function submitJob<T, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  pipeline: string,
  body: Record<string, unknown>,
  options?: JobOptions & { jsonStrings?: readonly string[] },
  jobs?: JobModel,
): Promise<JobResult<T, B>> {
  return jobsOf(client, jobs).submit<T>(pipeline, body, options) as Promise<JobResult<T, B>>;
}

/** Submits with the description's no-wait field set and returns a handle at once. */
export function startJob<B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  pipeline: string,
  body: Record<string, unknown>,
  options?: RequestOptions & { jsonStrings?: readonly string[] },
  jobs?: JobModel,
): Promise<JobHandle<B>> {
  return jobsOf(client, jobs).start(pipeline, body, options) as Promise<JobHandle<B>>;
}

/** Waits for a job by id, from any process. */
export function waitJob<T, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  jobId: string,
  options?: WaitOptions & { pipeline?: string },
  jobs?: JobModel,
): Promise<JobResult<T, B>> {
  return jobsOf(client, jobs).wait<T>(jobId, options) as Promise<JobResult<T, B>>;
}

/** Credits a job costs: base credits x lane multiplier, at least the minimum charge. */
export function priceJob(client: Runtime<BillingData, object>, pipeline: string, lane?: string, jobs?: JobModel): number {
  return priceFromModel(withJobModel(client.model, jobs), pipeline, lane);
}
