// Async iteration over reads whose answer says where the next page is: a cursor in an answer field, or the URL of
// an RFC 8288 `Link: <...>; rel="next"` header. A file of its own, so that the bundles of operations that page by
// offset, or not at all, leave it out.
//
// The deadline of the options (deadlineMs, or timeout) bounds the whole iteration as for paginator; the call's
// other options (headers, signal...) reach every page. A next link is followed only at the operation's own origin:
// one elsewhere is refused before anything is sent, so that credentials never go to another host.
import { DeadlineExceededError, SdkError } from "./errors.js";
import { asRecord } from "./meta.js";
import type { ApiResult, BillingData, OperationServerOptions, OperationSpec, RequestOptions, ResponseMeta } from "./model.js";
import type { Paginator } from "./paginate.js";
import { internals, type Runtime } from "./runtime.js";
import { budgetFor } from "./timing.js";

/** How a read finds its next page: the cursor's query parameter and answer field, or the Link header. */
export type NextPageModel =
  | { readonly kind: "cursor"; readonly cursor: string; readonly next: string; readonly items: string }
  | { readonly kind: "link"; readonly items?: string };

/** One page of a read by cursor or Link header: its items, the whole answer, its metadata and what leads on. */
export interface NextPage<T, D = unknown, B extends BillingData = BillingData> {
  readonly items: readonly T[];
  readonly data: D;
  readonly meta: ResponseMeta<B>;
  /** The next page's cursor or URL; undefined on the last page. */
  readonly next?: string;
}

/** Reads one page: the first when `next` is undefined, else the page the cursor or URL leads to. */
export type NextPageFetcher<D, B extends BillingData, O extends RequestOptions> = (
  next: string | undefined,
  options: O,
) => Promise<ApiResult<D, B>>;

/**
 * A Paginator over a read by cursor or Link header: what a generated auto-paging function returns. Paging stops
 * when an answer gives no next cursor or link (absent, null or empty), or after an empty page.
 */
export function nextPaginator<T, D, B extends BillingData, O extends RequestOptions>(
  label: string,
  fetch: NextPageFetcher<D, B, O>,
  names: NextPageModel,
  options: O,
): Paginator<T, D, B, NextPage<T, D, B>> {
  const given = options.deadlineMs ?? options.timeout;
  async function* pages(): AsyncGenerator<NextPage<T, D, B>, void, undefined> {
    const endAt = given === undefined ? 0 : Date.now() + given;
    let next: string | undefined;
    for (;;) {
      let pageOptions = options;
      if (given !== undefined) {
        const left = endAt - Date.now();
        if (left <= 0) throw new DeadlineExceededError(given);
        pageOptions = { ...options, deadlineMs: left, timeout: undefined };
      }
      let answer: ApiResult<D, B>;
      try {
        answer = await fetch(next, pageOptions);
      } catch (error) {
        throw error instanceof DeadlineExceededError && given !== undefined && error.deadlineMs !== given
          ? new DeadlineExceededError(given, { cause: error })
          : error;
      }
      const body = asRecord(answer.data);
      const items = names.items === undefined ? answer.data : body?.[names.items];
      if (!Array.isArray(items))
        throw new SdkError(
          `${label}: a page has no array ${names.items === undefined ? "answer" : `field ${JSON.stringify(names.items)}`}`,
        );
      const found = names.kind === "cursor" ? body?.[names.next] : nextLink(answer.meta.headers.get("link"));
      next = typeof found === "string" && found !== "" ? found : undefined;
      yield { items: items as T[], data: answer.data, meta: answer.meta, ...(next === undefined ? {} : { next }) };
      if (next === undefined || items.length === 0) return;
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}

/** The URL of the `rel="next"` link of a Link header (RFC 8288), if any. */
export function nextLink(header: string | null): string | undefined {
  if (header === null) return undefined;
  for (const match of header.matchAll(/<([^>]*)>([^,<]*)/g)) {
    const rel = /;\s*rel\s*=\s*(?:"([^"]*)"|([^\s;,]+))/i.exec(match[2]!);
    if ((rel?.[1] ?? rel?.[2] ?? "").toLowerCase().split(/\s+/).includes("next")) return match[1];
  }
  return undefined;
}

/**
 * Reads the page a next link leads to with the operation's credentials and the call's options: only below the
 * operation's own origin (the client's base address, or the operation's server that atOperationServer set).
 */
export function followLink<T, B extends BillingData = BillingData>(
  client: Runtime<B, object>,
  op: OperationSpec,
  link: string,
  options: RequestOptions = {},
): Promise<ApiResult<T, B>> {
  const { transport, options: resolved } = client[internals];
  const base = new URL((options as OperationServerOptions).baseUrl ?? resolved.baseUrl);
  let url: URL;
  try {
    url = new URL(link, base);
  } catch {
    return Promise.reject(new SdkError(`${op.operationId}: the next link ${JSON.stringify(link)} is no URL`));
  }
  if (url.origin !== base.origin)
    return Promise.reject(
      new SdkError(
        `${op.operationId}: the next link goes to ${url.origin}, not to the operation's origin ${base.origin}; it is not followed`,
      ),
    );
  return transport.send({
    method: op.method,
    path: `${url.pathname}${url.search}`,
    baseUrl: url.origin,
    response: "json",
    resendable: true,
    budget: budgetFor(options, resolved.deadlineMs),
    headers: { Accept: "application/json, */*;q=0.8", ...options.headers },
    label: op.operationId,
    security: op.security,
  }) as Promise<ApiResult<T, B>>;
}
