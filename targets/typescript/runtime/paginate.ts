// Async iteration over reads that page with `limit`/`offset` and report `total` (the analytics reads).
import { SdkError } from "./errors.js";
import { asRecord } from "./meta.js";
import type { ApiResult, CallInput, OperationSpec, RequestOptions } from "./model.js";

export interface PaginateOptions extends RequestOptions {
  /** The array field of each page that holds the items, for example "findings". */
  items: string;
  /** Page size when input.query.limit is not set (default 100). */
  pageSize?: number;
}

export type CallFn = <T>(op: OperationSpec, input: CallInput, options?: RequestOptions) => Promise<ApiResult<T>>;

/**
 * Reads pages from `offset` (default 0) until `offset + items` reaches `total`, or a page comes back short or empty.
 * Each page is one call with its own deadline and retries.
 */
export async function* paginate<T>(
  call: CallFn,
  op: OperationSpec,
  input: CallInput,
  options: PaginateOptions,
): AsyncGenerator<T, void, undefined> {
  const { items: field, pageSize, ...requestOptions } = options;
  const limit = numberOr(input.query?.limit, pageSize ?? 100);
  let offset = numberOr(input.query?.offset, 0);
  for (;;) {
    const page = await call<unknown>(op, { ...input, query: { ...input.query, limit, offset } }, requestOptions);
    const body = asRecord(page.data);
    const items = body?.[field];
    if (!Array.isArray(items)) throw new SdkError(`${op.operationId}: the page has no array field ${JSON.stringify(field)}`);
    for (const item of items) yield item as T;
    offset += items.length;
    const total = typeof body?.total === "number" ? body.total : undefined;
    if (items.length === 0 || items.length < limit || (total !== undefined && offset >= total)) return;
  }
}

function numberOr(value: unknown, fallback: number): number {
  const parsed = typeof value === "number" ? value : typeof value === "string" && value !== "" ? Number(value) : Number.NaN;
  return Number.isFinite(parsed) ? parsed : fallback;
}
