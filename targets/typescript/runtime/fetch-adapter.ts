// openapi-fetch builds a Request per call and hands it to its fetch option; middleware sees and may replace it. The
// runtime's fetch (FetchLike) takes `(url, init)`, so this adapter turns the Request back into that pair. For a
// Request openapi-fetch built from the runtime's init (PreparedRequest), the init's own body goes to fetch as it is
// (a FormData keeps its multipart encoding and its boundary to fetch, a string its Content-Length); a Request a
// middleware made in its place is sent with its body read into bytes.
import type { FetchLike } from "./options.js";

/** A Request that remembers the init it was built from. */
export class PreparedRequest extends Request {
  readonly prepared: RequestInit;

  constructor(input: RequestInfo | URL, init: RequestInit = {}) {
    super(input, init);
    this.prepared = init;
  }
}

/**
 * The fetch openapi-fetch calls. Headers always come from the Request, as middleware may have changed them; the
 * undici dispatcher (Node) joins the init.
 */
export function adaptFetch(fetchImpl: FetchLike, dispatcher: unknown): (request: Request) => Promise<Response> {
  // Called as a plain function, never as a method: browsers refuse a fetch whose `this` is not the window.
  return async (request) => {
    const own = request instanceof PreparedRequest ? request.prepared : undefined;
    const headers = new Headers(request.headers);
    let init: RequestInit;
    if (own !== undefined) {
      // The Request's Content-Type of a FormData names the boundary of its own encoding, not the one fetch will write.
      if (own.body instanceof FormData && !new Headers(own.headers).has("content-type")) headers.delete("content-type");
      init = { ...own, method: request.method, headers };
    } else {
      const body = request.body === null ? undefined : await request.arrayBuffer();
      init = { method: request.method, headers, redirect: request.redirect, signal: request.signal, ...(body && { body }) };
    }
    if (dispatcher !== undefined) Object.assign(init, { dispatcher });
    return fetchImpl(request.url, init);
  };
}
