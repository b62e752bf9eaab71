// An openapi-fetch client typed with the description's paths, for callers who want openapi-fetch itself: the
// client's base address, fetch, dispatcher and middleware, with credentials and the User-Agent added by a middleware
// of the runtime. It has openapi-fetch's semantics ({ data, error, response }): no retries, deadlines or typed errors.
import createClient, { type Client, createQuerySerializer, type Middleware } from "openapi-fetch";
import type { Auth } from "./auth.js";
import { adaptFetch, PreparedRequest } from "./fetch-adapter.js";
import type { ResolvedOptions } from "./options.js";

export function typedClient<Paths extends object>(options: ResolvedOptions, auth: Auth, userAgent: string | undefined): Client<Paths> {
  const client = createClient<Paths>({
    baseUrl: options.baseUrl,
    Request: PreparedRequest,
    fetch: adaptFetch(options.fetch, options.dispatcher),
    querySerializer: createQuerySerializer(),
  });
  client.use(credentialsMiddleware(auth, userAgent));
  return client;
}

/**
 * Adds what the runtime's own requests carry: the User-Agent, and the credentials of the first security scheme (by
 * name) the client has one for: the typed client does not know each operation's requirements, the generated
 * functions do.
 */
function credentialsMiddleware(auth: Auth, userAgent: string | undefined): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      const applied = await auth.apply(undefined, `${request.method} ${schemaPath}`);
      if (userAgent !== undefined) request.headers.set("User-Agent", userAgent);
      for (const [name, value] of Object.entries(applied.headers)) request.headers.set(name, value);
      if (applied.cookies.length > 0) {
        const before = request.headers.get("cookie");
        request.headers.set("Cookie", [...(before ? [before] : []), ...applied.cookies].join("; "));
      }
      const query = Object.entries(applied.query);
      if (query.length === 0) return undefined;
      const url = new URL(request.url);
      for (const [name, value] of query) url.searchParams.set(name, value);
      // Same init (so the adapter still sends the body as prepared), new URL.
      return request instanceof PreparedRequest
        ? new PreparedRequest(url, { ...request.prepared, headers: request.headers })
        : new Request(url, request);
    },
  };
}
