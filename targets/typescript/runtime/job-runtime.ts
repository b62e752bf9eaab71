// The runtime's functions as methods of a client, for code that prefers them there. The generated client does not
// use it: its operations import the functions one by one, so a bundle carries only what it calls.
import { callOperationWithBody } from "./call.js";
import { type Download, downloadFile } from "./download.js";
import { type JobHandle, type JobOptions, type JobResult, priceJob, startJob, submitJob, type WaitOptions, waitJob } from "./jobs.js";
import type { ApiResult, BillingData, CallInput, OperationSpec, RequestOptions } from "./model.js";
import { type PaginateOptions, paginateOperation } from "./paginate.js";
import { type RawInit, rawRequest } from "./raw.js";
import { Runtime } from "./runtime.js";

/** A Runtime with every runtime function as a method: call, download, raw, paginate and the job helpers. */
export class JobRuntime<B extends BillingData = BillingData, Paths extends object = object> extends Runtime<B, Paths> {
  /** One operation of the description. */
  call<T>(op: OperationSpec, input: CallInput, options?: RequestOptions): Promise<ApiResult<T, B>> {
    return callOperationWithBody<T, B>(this, op, input, options);
  }

  /** A file: by token or URL, or through a binary operation (see downloadFile). */
  download(tokenOrUrl: string, options?: RequestOptions): Promise<Download<B>>;
  download(op: OperationSpec, input: CallInput, options?: RequestOptions): Promise<Download<B>>;
  download(first: string | OperationSpec, second?: CallInput | RequestOptions, third?: RequestOptions): Promise<Download<B>> {
    return typeof first === "string"
      ? downloadFile<B>(this, first, second as RequestOptions | undefined)
      : downloadFile<B>(this, first, (second as CallInput | undefined) ?? {}, third);
  }

  /** A request to a path below the base address that the description does not list; same auth, retries and errors. */
  raw<T = unknown>(method: string, path: string, init?: RawInit): Promise<ApiResult<T, B>> {
    return rawRequest<T, B>(this, method, path, init);
  }

  /** Items of a read that pages as its description states (`x-paperoffice-pagination`), page after page. */
  paginate<T>(op: OperationSpec, input: CallInput, options?: PaginateOptions): AsyncIterable<T> {
    return paginateOperation<T>(this, op, input, options);
  }

  /** Submits a job and waits for its payload: hold first, then polling while it runs. Works for any valid slug. */
  submitJob<T>(
    pipeline: string,
    body: Record<string, unknown>,
    options?: JobOptions & { jsonStrings?: readonly string[] },
  ): Promise<JobResult<T, B>> {
    return submitJob<T, B>(this, pipeline, body, options);
  }

  /** Submits with the description's no-wait field set and returns a handle at once. */
  startJob(
    pipeline: string,
    body: Record<string, unknown>,
    options?: RequestOptions & { jsonStrings?: readonly string[] },
  ): Promise<JobHandle<B>> {
    return startJob<B>(this, pipeline, body, options);
  }

  /** Waits for a job by id, from any process. */
  waitJob<T>(jobId: string, options?: WaitOptions & { pipeline?: string }): Promise<JobResult<T, B>> {
    return waitJob<T, B>(this, jobId, options);
  }

  /** Credits a job costs: base credits x lane multiplier, at least the minimum charge. */
  priceJob(pipeline: string, lane?: string): number {
    return priceJob(this, pipeline, lane);
  }
}
