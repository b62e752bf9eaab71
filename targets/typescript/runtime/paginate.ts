// Async iteration over reads that page by a size and an offset and may report a total. Every name (the two query
// parameters, the items and total fields) comes from the operation's spec, which the description states.
//
// A deadline the caller gives (deadlineMs, or timeout) bounds the whole iteration: every page shares it, and a page
// asked for after it has passed is not sent. Without one, each page is one call with the client's own deadline. The
// caller's AbortSignal reaches every page.
import { DeadlineExceededError, SdkError } from "./errors.js";
import { asRecord } from "./meta.js";
import { callOperationWithBody } from "./call.js";
import type { ApiResult, BillingData, CallInput, OperationSpec, PaginationModel, RequestOptions, ResponseMeta } from "./model.js";
import type { Runtime } from "./runtime.js";

/** Generic page size when neither the input nor the options set one. */
export const DEFAULT_PAGE_SIZE = 100;

/** The options of a paged read: a call's options, applied to every page, and the page size. */
export interface PagingOptions extends RequestOptions {
  /** Page size when the parameters do not set it (default 100). */
  pageSize?: number;
}

export interface PaginateOptions extends PagingOptions {
  /** The array field of each page that holds the items (default: the operation's own, from the description). */
  items?: string;
}

/** Where the next page starts, and how many items it asks for. */
export interface PageRequest {
  readonly limit: number;
  readonly offset: number;
}

/** One page of a paged read: its items, the whole answer and the answer's metadata. */
export interface Page<T, D = unknown, B extends BillingData = BillingData> {
  readonly items: readonly T[];
  /** The answer's body, as the operation's own function returns it. */
  readonly data: D;
  readonly meta: ResponseMeta<B>;
  /** The page size and offset this page was asked for with. */
  readonly limit: number;
  readonly offset: number;
  /** The answer's total, when the description names the field and the answer carries a number there. */
  readonly total?: number;
}

/** Reads one page: the generated function of the operation, with the page's size and offset set. */
export type PageFetcher<D, B extends BillingData, O extends RequestOptions> = (page: PageRequest, options: O) => Promise<ApiResult<D, B>>;

/**
 * The items of a paged read, page after page (`for await (const item of ...)`), or its pages (`pages()`). Each
 * iteration starts over from the first page. Paging stops after a short or empty page, or once the items read reach
 * the answer's total.
 */
export interface Paginator<T, D = unknown, B extends BillingData = BillingData, P = Page<T, D, B>> extends AsyncIterable<T> {
  /** Every page, from the first, as it arrives. */
  pages(): AsyncIterable<P>;
}

/**
 * A Paginator: what a generated auto-paging function returns. `fetch` reads one page (the operation's own function
 * with the page's size and offset set), `names` are the description's, `start` the parameters' page size and offset.
 * A page size that is not a positive integer is refused at once.
 */
export function paginator<T, D, B extends BillingData, O extends RequestOptions>(
  label: string,
  fetch: PageFetcher<D, B, O>,
  names: PaginationModel,
  start: { readonly limit?: unknown; readonly offset?: unknown },
  options: O & Pick<PagingOptions, "pageSize">,
): Paginator<T, D, B> {
  const { pageSize, ...rest } = options;
  const limit = numberOr(start.limit, pageSize ?? DEFAULT_PAGE_SIZE);
  if (!(Number.isInteger(limit) && limit > 0))
    throw new SdkError(`${label}: the page size (${names.limit}) must be a positive integer, got ${String(limit)}`);
  const given = rest.deadlineMs ?? rest.timeout;
  async function* pages(): AsyncGenerator<Page<T, D, B>, void, undefined> {
    let offset = numberOr(start.offset, 0);
    const endAt = given === undefined ? 0 : Date.now() + given;
    for (;;) {
      let pageOptions = rest as O;
      if (given !== undefined) {
        const left = endAt - Date.now();
        if (left <= 0) throw new DeadlineExceededError(given);
        pageOptions = { ...pageOptions, deadlineMs: left, timeout: undefined };
      }
      let answer: ApiResult<D, B>;
      try {
        answer = await fetch({ limit, offset }, pageOptions);
      } catch (error) {
        // The page's share of the deadline ran out: the error names the deadline the caller gave.
        throw error instanceof DeadlineExceededError && given !== undefined && error.deadlineMs !== given
          ? new DeadlineExceededError(given, { cause: error })
          : error;
      }
      const body = asRecord(answer.data);
      const items = body?.[names.items];
      if (!Array.isArray(items))
        throw new SdkError(`${label}: the page at ${names.offset}=${offset} has no array field ${JSON.stringify(names.items)}`);
      const reported = names.total === undefined ? undefined : body?.[names.total];
      const total = typeof reported === "number" ? reported : undefined;
      yield { items: items as T[], data: answer.data, meta: answer.meta, limit, offset, ...(total === undefined ? {} : { total }) };
      offset += items.length;
      if (items.length === 0 || items.length < limit || (total !== undefined && offset >= total)) return;
    }
  }
  return {
    pages,
    async *[Symbol.asyncIterator]() {
      for await (const page of pages()) yield* page.items;
    },
  };
}

export type CallFn = <T>(op: OperationSpec, input: CallInput, options?: RequestOptions) => Promise<ApiResult<T>>;

/**
 * Reads pages from the given offset (default 0) until the items read reach the total, or a page comes back short or
 * empty. The operation must state how it pages.
 */
export async function* paginate<T>(
  call: CallFn,
  op: OperationSpec,
  input: CallInput,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const names = op.pagination;
  if (names === undefined) throw new SdkError(`${op.operationId}: the description states no paging for it (x-paperoffice-pagination)`);
  const { items: itemsOption, ...rest } = options;
  const fields = itemsOption === undefined ? names : { ...names, items: itemsOption };
  const fetch = (page: PageRequest, o: RequestOptions) =>
    call<unknown>(op, { ...input, query: { ...input.query, [names.limit]: page.limit, [names.offset]: page.offset } }, o);
  yield* paginator<T, unknown, BillingData, RequestOptions>(
    op.operationId,
    fetch,
    fields,
    { limit: input.query?.[names.limit], offset: input.query?.[names.offset] },
    rest,
  );
}

function numberOr(value: unknown, fallback: number): number {
  const parsed = typeof value === "number" ? value : typeof value === "string" && value !== "" ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
}

/** Items of a read that pages as its description states (`x-paperoffice-pagination`), page after page. */
export function paginateOperation<T>(
  client: Runtime<BillingData, object>,
  op: OperationSpec,
  input: CallInput,
  options: PaginateOptions = {},
): AsyncIterable<T> {
  return paginate<T>((o, i, r) => callOperationWithBody(client, o, i, r), op, input, options);
}
