// What openapi-fetch builds per call in place of a Request. openapi-fetch constructs `new Request(url, init)` and
// hands it to fetch, and fetch then builds its own Request from that one: two Requests and, in Node, a second
// AbortSignal linked to the first, for every call. Given this class as its `Request` option, openapi-fetch keeps
// the URL and the init it prepared, and recordFetch calls the real fetch with `(url, init)`, so that only fetch
// builds a Request. The init is the one openapi-fetch prepared: method, merged Headers, serialised body, signal,
// redirect, and anything else passed per call (a `duplex` for a stream body, for example) travel as they are.
import type { FetchLike } from "./options.js";

export class RequestRecord {
  readonly url: string;
  readonly init: RequestInit;
  /** The one field openapi-fetch reads back (it treats HEAD answers apart). */
  readonly method: string;

  constructor(url: string, init: RequestInit) {
    this.url = url;
    this.init = init;
    this.method = init.method ?? "GET";
  }
}

/**
 * The fetch openapi-fetch calls: unwraps the record and calls `fetchImpl(url, init)`. `extension` is openapi-fetch's
 * requestInitExt (the undici dispatcher in Node), merged into the init as fetch expects it.
 */
export function recordFetch(fetchImpl: FetchLike): (record: RequestRecord, extension?: Record<string, unknown>) => Promise<Response> {
  // Called as a plain function, never as a method: browsers refuse a fetch whose `this` is not the window.
  return (record, extension) => fetchImpl(record.url, extension === undefined ? record.init : { ...record.init, ...extension });
}
