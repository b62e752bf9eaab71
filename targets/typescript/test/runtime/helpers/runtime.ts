// The runtime's tests' client: the runtime's functions as methods, so that a test reads `runtime.call(spec, input)`.
// The SDK has no such class: its operations import the functions one by one, so a bundle carries only what it calls.
import {
  type ApiResult,
  type BillingData,
  type CallInput,
  callOperationWithBody,
  type Download,
  downloadFile,
  type JobHandle,
  type JobOptions,
  type JobResult,
  type OperationSpec,
  type PaginateOptions,
  paginateOperation,
  priceJob,
  type RequestOptions,
  Runtime,
  startJob,
  submitJob,
  type WaitOptions,
  waitJob,
} from "../../../runtime/index.js";

/** A Runtime with the runtime's functions as methods: call, download, paginate and the job helpers. */
export class TestRuntime<B extends BillingData = BillingData, Paths extends object = object> extends Runtime<B, Paths> {
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
