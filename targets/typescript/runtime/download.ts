// Result files. A binary operation is downloaded through its own path (downloadFile(client, op, input)); a download
// token or a full URL found in a result goes through the model's download operation (the description's
// x-paperoffice-job `download`). URLs of that operation below the base address get the Authorization header; URLs of
// other origins (signed links) are fetched without it.
import { AbortedError, DeadlineExceededError, JobMayExistError, ResponseBodyError, SdkError } from "./errors.js";
import { prepareOperationBody, sendOperation } from "./call.js";
import { MAX_TIMER_MS } from "./call-deadline.js";
import type { BillingData, CallInput, JobModel, JobsModel, OperationSpec, RequestOptions, ResponseMeta } from "./model.js";
import { matchTemplate, templateParameters } from "./path-template.js";
import { internals, type Runtime } from "./runtime.js";
import { type Budget, budgetFor, jobOption } from "./timing.js";

export interface Download<B extends BillingData = BillingData> {
  /** From Content-Disposition, else the last path segment of a foreign URL; undefined when neither says. */
  fileName: string | undefined;
  contentType: string | undefined;
  /** Content-Length when the service sent it. */
  size: number | undefined;
  /**
   * The body; read it once, either here or through blob(). It ends at the call's deadline and on the caller's abort
   * (DeadlineExceededError, AbortedError); a body that breaks off fails with ResponseBodyError.
   */
  stream: ReadableStream<Uint8Array>;
  blob(): Promise<Blob>;
  meta: ResponseMeta<B>;
}

/** Where a download goes: the download operation's path below the base address, or another origin. */
export type DownloadTarget =
  | { kind: "token"; token: string }
  | { kind: "foreign"; origin: string; path: string; fallbackName: string | undefined };

/**
 * A token, or a full URL: one below the base address in the form of the download operation's path gives its token;
 * any other URL is fetched as it is, without the Authorization header.
 */
export function downloadTarget(tokenOrUrl: string, baseUrl: string, download: JobsModel["download"]): DownloadTarget {
  if (!/^https?:\/\//i.test(tokenOrUrl)) {
    if (download === undefined) {
      throw new SdkError(
        "download by token is unavailable: the description marks no download operation (x-paperoffice-job); pass a full URL or the operation",
      );
    }
    if (tokenOrUrl === "" || tokenOrUrl.includes("/")) throw new SdkError("download needs a token or a full http(s) URL");
    return { kind: "token", token: tokenOrUrl };
  }
  if (download !== undefined && tokenOrUrl.startsWith(`${baseUrl}/`)) {
    const path = tokenOrUrl.slice(baseUrl.length).split(/[?#]/)[0] ?? "";
    const raw = matchTemplate(download.operation.path, path)?.[download.tokenParameter];
    const token = raw === undefined ? "" : safeDecode(raw);
    if (token !== "" && !token.includes("/")) return { kind: "token", token };
  }
  const url = new URL(tokenOrUrl);
  const last = url.pathname.split("/").pop();
  return {
    kind: "foreign",
    origin: url.origin,
    path: `${url.pathname}${url.search}`,
    fallbackName: last ? safeDecode(last) : undefined,
  };
}

function safeDecode(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}

/** The file name of a Content-Disposition header; `filename*` (RFC 5987) wins over `filename`. */
export function fileNameFromDisposition(header: string | null): string | undefined {
  if (header === null) return undefined;
  const extended = /filename\*\s*=\s*([^']*)'[^']*'([^;]+)/i.exec(header);
  if (extended?.[2] !== undefined) {
    try {
      return decodeURIComponent(extended[2].trim());
    } catch {
      // fall back to the plain parameter
    }
  }
  const plain = /filename\s*=\s*(?:"((?:[^"\\]|\\.)*)"|([^;]+))/i.exec(header);
  const value = plain?.[1]?.replace(/\\(.)/g, "$1") ?? plain?.[2]?.trim();
  return value === undefined || value === "" ? undefined : value;
}

export function toDownload(stream: ReadableStream<Uint8Array>, meta: ResponseMeta, fallbackName: string | undefined, b: Budget): Download {
  const length = meta.headers.get("content-length");
  const contentType = meta.headers.get("content-type") ?? undefined;
  const guarded = guardBody(stream, b);
  return {
    fileName: fileNameFromDisposition(meta.headers.get("content-disposition")) ?? fallbackName,
    contentType,
    size: length === null ? undefined : Number(length),
    stream: guarded,
    blob: () => readBlob(guarded, contentType),
    meta,
  };
}

/**
 * The body as the caller reads it: the platform's errors become ResponseBodyError, and the call's deadline and the
 * caller's signal still apply while it is read, so a body that trickles ends at the deadline and releases the connection.
 */
export function guardBody(source: ReadableStream<Uint8Array>, b: Budget): ReadableStream<Uint8Array> {
  const reader = source.getReader();
  let stopped: SdkError | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let target: ReadableStreamDefaultController<Uint8Array> | undefined;
  const release = () => {
    clearTimeout(timer);
    b.signal?.removeEventListener("abort", onAbort);
  };
  const stop = (error: SdkError) => {
    if (stopped !== undefined) return;
    stopped = error;
    release();
    reader.cancel(error).catch(ignore);
    target?.error(error);
  };
  const onAbort = () => stop(new AbortedError(jobOption(b)));
  return new ReadableStream<Uint8Array>(
    {
      start(controller) {
        target = controller;
        if (b.signal?.aborted) return stop(new AbortedError(jobOption(b)));
        b.signal?.addEventListener("abort", onAbort, { once: true });
        const ms = b.deadlineAt - Date.now();
        // Beyond setTimeout's largest delay the deadline cannot pass while the body is read.
        if (ms > MAX_TIMER_MS) return;
        timer = setTimeout(() => stop(new DeadlineExceededError(b.deadlineMs, jobOption(b))), Math.max(0, ms));
        // A body nobody reads must not keep a Node process alive until the deadline.
        (timer as { unref?: () => void }).unref?.();
      },
      async pull(controller) {
        let chunk: ReadableStreamReadResult<Uint8Array>;
        try {
          chunk = await reader.read();
        } catch (thrown) {
          if (stopped === undefined) stop(thrown instanceof SdkError ? thrown : (stoppedBy(b) ?? bodyError(thrown, b)));
          return;
        }
        if (stopped !== undefined) return;
        if (chunk.done) {
          release();
          controller.close();
        } else {
          controller.enqueue(chunk.value);
        }
      },
      cancel(reason) {
        release();
        return reader.cancel(reason);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The caller's abort or the deadline, when either is why the body stopped (the request's signal carries both). */
function stoppedBy(b: Budget): SdkError | undefined {
  if (b.signal?.aborted) return new AbortedError(jobOption(b));
  return Date.now() >= b.deadlineAt ? new DeadlineExceededError(b.deadlineMs, jobOption(b)) : undefined;
}

function bodyError(thrown: unknown, b: Budget): ResponseBodyError {
  const cause = (thrown as { cause?: { code?: unknown; message?: unknown } } | null)?.cause;
  const detail = typeof cause?.code === "string" ? cause.code : thrown instanceof Error ? thrown.message : String(thrown);
  return new ResponseBodyError(`the response body broke off while it was read (${detail})`, { cause: thrown, ...jobOption(b) });
}

async function readBlob(stream: ReadableStream<Uint8Array>, contentType: string | undefined): Promise<Blob> {
  const chunks: Uint8Array[] = [];
  const reader = stream.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    chunks.push(value);
  }
  return new Blob(chunks as BlobPart[], contentType === undefined ? undefined : { type: contentType });
}

function ignore(): void {}

/** downloadFile's two forms, which bindDownloadFile's functions have too. */
export interface DownloadFile {
  /** A file by a download token or a full URL taken from a result, through the description's download operation. */
  <B extends BillingData = BillingData>(client: Runtime<B, object>, tokenOrUrl: string, options?: RequestOptions): Promise<Download<B>>;
  /** The body of an operation whose answer is binary, through its own path and parameters. */
  <B extends BillingData = BillingData>(
    client: Runtime<B, object>,
    op: OperationSpec,
    input: CallInput,
    options?: RequestOptions,
  ): Promise<Download<B>>;
}

/**
 * downloadFile over the job part of a generated client's model, which that client does not hold (a generated client
 * exports it as its own downloadFile), or, without one, over the client's model.
 */
export function bindDownloadFile(jobs?: JobModel): DownloadFile {
  // One signature that takes what either form does, which makes it assignable to both.
  return async <B extends BillingData>(
    client: Runtime<B, object>,
    first: string | OperationSpec,
    second?: CallInput | RequestOptions,
    third?: RequestOptions,
  ): Promise<Download<B>> => {
    const { transport, options: resolved, model } = client[internals];
    if (typeof first !== "string") return downloadOperation(client, first, (second as CallInput | undefined) ?? {}, third ?? {});
    const options = (second as RequestOptions | undefined) ?? {};
    const download = (jobs ?? model).jobs?.download;
    const target = downloadTarget(first, resolved.baseUrl, download);
    const b = budgetFor(options, resolved.deadlineMs);
    const common = { method: "GET", response: "binary", resendable: true, budget: b, headers: options.headers } as const;
    const result =
      target.kind === "token" && download !== undefined
        ? await transport.send({
            ...common,
            method: download.operation.method,
            path: download.operation.path,
            pathParams: { [download.tokenParameter]: target.token },
            label: download.operation.operationId,
            security: download.operation.security,
          })
        : await transport.send({
            ...common,
            path: target.kind === "foreign" ? target.path : "",
            ...(target.kind === "foreign" && { baseUrl: target.origin, foreign: true }),
            label: "download",
          });
    return toDownload(
      result.data as ReadableStream<Uint8Array>,
      result.meta,
      target.kind === "foreign" ? target.fallbackName : undefined,
      b,
    ) as Download<B>;
  };
}

/**
 * A file: the body of any operation whose answer is binary, through its own path and parameters; or, with a
 * download token or a full URL taken from a result, through the description's download operation.
 */
export const downloadFile: DownloadFile = /* @__PURE__ */ bindDownloadFile();

async function downloadOperation<B extends BillingData>(
  client: Runtime<B, object>,
  op: OperationSpec,
  input: CallInput,
  options: RequestOptions,
): Promise<Download<B>> {
  const missing = templateParameters(op.path).filter((name) => input.path?.[name] === undefined || input.path[name] === "");
  if (missing.length > 0) {
    throw new SdkError(
      `${op.operationId}: path parameter ${missing.map((m) => JSON.stringify(m)).join(", ")} is missing; nothing was sent`,
    );
  }
  const b = budgetFor(options, client[internals].options.deadlineMs);
  const prepared = await prepareOperationBody(client, op, input, options);
  const result = await sendOperation(client, op, input, options, prepared, JobMayExistError, "binary", b);
  return toDownload(result.data as ReadableStream<Uint8Array>, result.meta, undefined, b) as Download<B>;
}
