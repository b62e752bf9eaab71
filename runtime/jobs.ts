// Jobs: submit and hold, switch to polling on 202, resume a wait from any process. Every wait has one overall
// deadline and the caller's signal; the sleep before a poll that could not be sent in time is never started.
import { ABORT_IN_FLIGHT_BELOW_MS } from "./call-deadline.js";
import { prepareBody } from "./encode.js";
import { type ErrorContext, errorFromBody } from "./error-mapping.js";
import { JobFailedError, JobMayExistError, type ServiceErrorInit, SdkError } from "./errors.js";
import { asRecord } from "./meta.js";
import type { RequestOptions, ResponseMeta, ServiceModel } from "./model.js";
import { type PollInterval, type ResolvedOptions, resolvePollInterval } from "./options.js";
import { type Budget, budget, jitter, sleepBeforePoll } from "./timing.js";
import type { SendRequest, Transport } from "./transport.js";

export interface JobProgress {
  jobId: string;
  /** The new `job_status`. */
  status: string;
  previousStatus?: string;
  /** Polls sent so far. */
  polls: number;
}

export interface WaitOptions {
  signal?: AbortSignal;
  /** Overall deadline of the wait (default: the client's jobDeadlineMs). */
  deadlineMs?: number;
  pollIntervalMs?: PollInterval;
  /** Called whenever `job_status` changes. */
  onProgress?: (progress: JobProgress) => void;
}

export interface JobOptions extends WaitOptions {
  mediaType?: "multipart/form-data" | "application/x-www-form-urlencoded";
  headers?: Record<string, string>;
}

export interface JobResult<T> {
  jobId: string;
  /** The payload, read as `result ?? job_result`. */
  data: T;
  /** Meta of the answer that carried the payload. */
  meta: ResponseMeta;
  /** Meta of the submission (its `_billing.job.credits_billed` is the charge); absent after waitJob. */
  submitMeta?: ResponseMeta;
  /** Polls sent; 0 when the hold returned the payload. */
  polls: number;
}

export interface JobHandle {
  jobId: string;
  pipeline: string;
  /** Path of the form /job/get/<job_id>. */
  pollUrl: string;
  meta: ResponseMeta;
  wait<T>(options?: WaitOptions): Promise<JobResult<T>>;
}

/** `<handler>___<command>` (words joined by single underscores, three between the two) or a single word. */
const PIPELINE_SLUG = /^(?:[A-Za-z0-9-]+|[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*___[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*)$/;
const FAILURE_STATUS = /fail|error|cancel/i;
const POLL_URL = /^\/job\/get\/[^/?#]+$/;

export function isValidPipelineSlug(pipeline: string): boolean {
  return PIPELINE_SLUG.test(pipeline);
}

/** failed, error, cancelled, canceled and anything else naming a failure, an error or a cancellation. */
export function isFailureStatus(status: string): boolean {
  return FAILURE_STATUS.test(status);
}

type Envelope = Record<string, unknown>;

function isFinished(envelope: Envelope): boolean {
  const status = envelope.job_status;
  if (status !== undefined) return status === "completed";
  return envelope.result !== undefined || envelope.job_result !== undefined;
}

function payloadOf(envelope: Envelope): unknown {
  return envelope.result ?? envelope.job_result;
}

function jobIdOf(envelope: Envelope): string | undefined {
  const id = envelope.job_id;
  return typeof id === "string" && id !== "" ? id : typeof id === "number" ? String(id) : undefined;
}

function attachJobId(error: unknown, jobId: string): unknown {
  if (error instanceof SdkError && error.jobId === undefined) error.jobId = jobId;
  return error;
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

  /** Refuses an invalid slug before anything is sent, with the code the service would answer. */
  checkPipeline(pipeline: string): void {
    if (isValidPipelineSlug(pipeline)) return;
    const code = "JOB_CONFIG_INVALID";
    throw errorFromBody(this.#errors, this.#model.errors[code]?.status ?? 400, {
      status: "error",
      code,
      message: `pipeline ${JSON.stringify(pipeline)} is not <handler>___<command> or a single word (dot notation is refused); nothing was sent`,
    });
  }

  async submit<T>(
    pipeline: string,
    body: Record<string, unknown>,
    options: JobOptions & { jsonStrings?: readonly string[] } = {},
  ): Promise<JobResult<T>> {
    const b = budget(options.deadlineMs ?? this.#options.jobDeadlineMs, options.signal);
    // A deadline that would cut the hold short would lose the job id with it: take the id at once and poll instead.
    const held = b.deadlineMs >= ABORT_IN_FLIGHT_BELOW_MS || body.client_wait !== undefined;
    const submitted = await this.#submit(pipeline, held ? body : { ...body, client_wait: false }, options, b);
    const envelope = asRecord(submitted.data) ?? {};
    // The hold answers 200 with the payload in `result`; 202 means the hold ran out and the job goes on.
    if (submitted.meta.status !== 202 && isFinished(envelope)) {
      return {
        jobId: jobIdOf(envelope) ?? "",
        data: payloadOf(envelope) as T,
        meta: submitted.meta,
        submitMeta: submitted.meta,
        polls: 0,
      };
    }
    const jobId = this.#requireJobId(envelope, submitted.meta);
    b.jobId = jobId;
    this.#throwIfFailed(envelope, jobId, submitted.meta.status);
    return this.#poll<T>(jobId, b, options, {
      submitMeta: submitted.meta,
      target: pollTarget(envelope, jobId),
      sleepFirst: true,
    });
  }

  async start(
    pipeline: string,
    body: Record<string, unknown>,
    options: RequestOptions & { jsonStrings?: readonly string[] } = {},
  ): Promise<JobHandle> {
    const b = budget(options.deadlineMs ?? this.#options.deadlineMs, options.signal);
    const submitted = await this.#submit(pipeline, { ...body, client_wait: false }, options, b);
    const envelope = asRecord(submitted.data) ?? {};
    const jobId = this.#requireJobId(envelope, submitted.meta);
    const target = pollTarget(envelope, jobId);
    return {
      jobId,
      pipeline,
      pollUrl: target.pathParams === undefined ? target.path : `/job/get/${encodeURIComponent(jobId)}`,
      meta: submitted.meta,
      wait: <T>(waitOptions: WaitOptions = {}) => this.wait<T>(jobId, { ...waitOptions, pipeline }),
    };
  }

  /** Waits for a job by id, for example one started by another process. The first poll is sent at once. */
  wait<T>(jobId: string, options: WaitOptions & { pipeline?: string } = {}): Promise<JobResult<T>> {
    const b = budget(options.deadlineMs ?? this.#options.jobDeadlineMs, options.signal);
    b.jobId = jobId;
    const target = { path: "/job/get/{job_id}", pathParams: { job_id: jobId } };
    return this.#poll<T>(jobId, b, options, { target, sleepFirst: false });
  }

  async #submit(pipeline: string, body: Record<string, unknown>, options: JobOptions & { jsonStrings?: readonly string[] }, b: Budget) {
    this.checkPipeline(pipeline);
    return this.#transport.send({
      method: "POST",
      path: "/job/add/{pipeline}",
      pathParams: { pipeline },
      body: await prepareBody(body, this.#jsonStrings(pipeline, options.jsonStrings)),
      encoding: options.mediaType === "application/x-www-form-urlencoded" ? "urlencoded" : "multipart",
      response: "json",
      resendable: false,
      jobSubmission: true,
      budget: b,
      headers: options.headers,
      label: "addJob",
    });
  }

  async #poll<T>(
    jobId: string,
    b: Budget,
    options: WaitOptions,
    how: { target: Pick<SendRequest, "path" | "pathParams">; sleepFirst: boolean; submitMeta?: ResponseMeta },
  ): Promise<JobResult<T>> {
    const interval = options.pollIntervalMs === undefined ? this.#options.pollInterval : resolvePollInterval(options.pollIntervalMs);
    let polls = 0;
    let last: string | undefined;
    try {
      for (;;) {
        if (how.sleepFirst || polls > 0) await sleepBeforePoll(b, jitter(interval));
        const answer = await this.#transport.send({
          method: "GET",
          ...how.target,
          response: "json",
          resendable: true,
          budget: b,
          label: "getJob",
        });
        polls++;
        const envelope = asRecord(answer.data) ?? {};
        const status = typeof envelope.job_status === "string" ? envelope.job_status : undefined;
        if (status !== undefined && status !== last) {
          options.onProgress?.({ jobId, status, ...(last === undefined ? {} : { previousStatus: last }), polls });
          last = status;
        }
        if (isFinished(envelope)) {
          const result: JobResult<T> = { jobId, data: payloadOf(envelope) as T, meta: answer.meta, polls };
          if (how.submitMeta !== undefined) result.submitMeta = how.submitMeta;
          return result;
        }
        this.#throwIfFailed(envelope, jobId, answer.meta.status);
      }
    } catch (error) {
      throw attachJobId(error, jobId);
    }
  }

  #jsonStrings(pipeline: string, extra: readonly string[] | undefined): readonly string[] {
    const declared = this.#model.pipelines[pipeline]?.jsonStrings ?? [];
    return extra === undefined || extra.length === 0 ? declared : [...declared, ...extra];
  }

  #throwIfFailed(envelope: Envelope, jobId: string, httpStatus: number): void {
    const status = envelope.job_status;
    if (typeof status !== "string" || !isFailureStatus(status)) return;
    const init: ServiceErrorInit = {
      status: httpStatus,
      message: `job ${jobId} ended with job_status ${JSON.stringify(status)}`,
      body: this.#errors.auth.redactValue(envelope),
      jobId,
    };
    if (typeof envelope.message === "string") init.message += `: ${this.#errors.auth.redactText(envelope.message)}`;
    if (typeof envelope.code === "string") init.code = envelope.code;
    if (typeof envelope.processing_time === "string") init.processingTime = envelope.processing_time;
    throw new JobFailedError({ ...init, jobStatus: status });
  }

  #requireJobId(envelope: Envelope, meta: ResponseMeta): string {
    const jobId = jobIdOf(envelope);
    if (jobId === undefined) throw new JobMayExistError("the service accepted the submission but sent no job_id", { status: meta.status });
    return jobId;
  }
}

/** The poll_url when it has the documented form `/job/get/<job_id>`, else the path built from the job id. */
function pollTarget(envelope: Envelope, jobId: string): Pick<SendRequest, "path" | "pathParams"> {
  const pollUrl = envelope.poll_url;
  if (typeof pollUrl === "string" && POLL_URL.test(pollUrl)) return { path: pollUrl };
  return { path: "/job/get/{job_id}", pathParams: { job_id: jobId } };
}
