// Async iteration over reads that page by a size and an offset and may report a total. Every name (the two query
// parameters, the items and total fields) comes from the operation's spec, which the description states.
import { SdkError } from "./errors.js";
import { asRecord } from "./meta.js";
import { callOperationWithBody } from "./call.js";
import type { ApiResult, BillingData, CallInput, OperationSpec, RequestOptions } from "./model.js";
import type { Runtime } from "./runtime.js";

/** Generic page size when neither the input nor the options set one. */
export const DEFAULT_PAGE_SIZE = 100;

export interface PaginateOptions extends RequestOptions {
  /** The array field of each page that holds the items (default: the operation's own, from the description). */
  items?: string;
  /** Page size when the input's query does not set it (default 100). */
  pageSize?: number;
}

export type CallFn = <T>(op: OperationSpec, input: CallInput, options?: RequestOptions) => Promise<ApiResult<T>>;

/**
 * Reads pages from the given offset (default 0) until the items read reach the total, or a page comes back short or
 * empty. Each page is one call with its own deadline and retries. The operation must state how it pages.
 */
export async function* paginate<T>(
  call: CallFn,
  op: OperationSpec,
  input: CallInput,
  options: PaginateOptions = {},
): AsyncGenerator<T, void, undefined> {
  const names = op.pagination;
  if (names === undefined) throw new SdkError(`${op.operationId}: the description states no paging for it (x-paperoffice-pagination)`);
  const { items: itemsOption, pageSize, ...requestOptions } = options;
  const field = itemsOption ?? names.items;
  const limit = numberOr(input.query?.[names.limit], pageSize ?? DEFAULT_PAGE_SIZE);
  let offset = numberOr(input.query?.[names.offset], 0);
  for (;;) {
    const page = await call<unknown>(
      op,
      { ...input, query: { ...input.query, [names.limit]: limit, [names.offset]: offset } },
      requestOptions,
    );
    const body = asRecord(page.data);
    const items = body?.[field];
    if (!Array.isArray(items)) throw new SdkError(`${op.operationId}: the page has no array field ${JSON.stringify(field)}`);
    for (const item of items) yield item as T;
    offset += items.length;
    const reported = names.total === undefined ? undefined : body?.[names.total];
    const total = typeof reported === "number" ? reported : undefined;
    if (items.length === 0 || items.length < limit || (total !== undefined && offset >= total)) return;
  }
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
