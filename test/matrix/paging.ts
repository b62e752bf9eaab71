// The matrix's paged reads: a local server that answers the operations of pagination-cursor.yaml and
// pagination-link.yaml in three pages each (the next page by cursor, or by a Link header, rel="next"), and what a
// language's auto-paging iterators must read from it. Each request must carry the call's own header.
import http from "node:http";
import type { AddressInfo } from "node:net";

/** A paged operation of a matrix description: its operationId and whether its method takes parameters. */
export interface PagedOperation {
  readonly id: string;
  readonly params: boolean;
}

/** The descriptions whose reads are paged to the end, by file name, each below its own base path on the server. */
export const PAGED: Readonly<Record<string, readonly PagedOperation[]>> = {
  "pagination-cursor": [
    { id: "listThings", params: true },
    { id: "listRows", params: true },
  ],
  "pagination-link": [
    { id: "listThings", params: true },
    { id: "listBoxes", params: false },
  ],
};

/** The header every page's request carries, set as a per-call option. */
export const CALL_HEADER = { name: "X-Matrix", value: "page" } as const;

/** What iterating every item of each operation reads, by description and operationId. */
export const EXPECTED_ITEMS: Readonly<Record<string, Readonly<Record<string, readonly unknown[]>>>> = {
  "pagination-cursor": { listThings: [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }], listRows: ["r1", "r2", "r3"] },
  "pagination-link": { listThings: [{ id: "a" }, { id: "b" }, { id: "c" }, { id: "d" }], listBoxes: ["b1", "b2", "b3"] },
};

export interface PagingServer {
  /** The base address of a description's client. */
  baseUrl(description: string): string;
  /** The requests received (path and query), and those without the call's header. */
  readonly received: string[];
  readonly withoutHeader: string[];
  close(): Promise<void>;
}

type Answer = { readonly body: unknown; readonly link?: string };

/** The page of each request, by path and the query's cursor or page; `origin` makes absolute links. */
function answer(origin: string, path: string, query: URLSearchParams): Answer | undefined {
  const page = query.get("page") ?? "1";
  switch (path) {
    case "/pagination-cursor/things": {
      const pages: Record<string, Answer> = {
        "": { body: { data: [{ id: "a" }, { id: "b" }], next_cursor: "p2" } },
        p2: { body: { data: [{ id: "c" }], next_cursor: "p3" } },
        p3: { body: { data: [{ id: "d" }], next_cursor: null } },
      };
      return pages[query.get("cursor") ?? ""];
    }
    case "/pagination-cursor/rows": {
      const pages: Record<string, Answer> = {
        "": { body: { rows: ["r1"], following: "f2" } },
        f2: { body: { rows: ["r2"], following: "f3" } },
        f3: { body: { rows: ["r3"] } },
      };
      return pages[query.get("from") ?? ""];
    }
    case "/pagination-link/things": {
      const items: Record<string, unknown[]> = { "1": [{ id: "a" }, { id: "b" }], "2": [{ id: "c" }], "3": [{ id: "d" }] };
      const next = page === "3" ? undefined : `<${origin}${path}?page=${Number(page) + 1}&per_page=2>; rel="next"`;
      return items[page] === undefined
        ? undefined
        : { body: items[page], ...(next && { link: `${next}, <${origin}${path}?page=3>; rel="last"` }) };
    }
    case "/pagination-link/boxes": {
      // Links as a path below the origin, resolved against the request's URL.
      const next = page === "3" ? undefined : `<${path}?page=${Number(page) + 1}>; rel="next"`;
      return { body: { total_count: 3, boxes: [`b${page}`] }, ...(next && { link: next }) };
    }
    default:
      return undefined;
  }
}

export async function startPagingServer(): Promise<PagingServer> {
  const received: string[] = [];
  const withoutHeader: string[] = [];
  let origin = "";
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? "/", origin);
    received.push(`${url.pathname}${url.search}`);
    if (req.headers[CALL_HEADER.name.toLowerCase()] !== CALL_HEADER.value) withoutHeader.push(`${url.pathname}${url.search}`);
    const found = answer(origin, url.pathname, url.searchParams);
    const text = JSON.stringify(found?.body ?? { message: `no page at ${url.pathname}${url.search}` });
    res.writeHead(found === undefined ? 404 : 200, {
      "content-type": "application/json",
      "content-length": Buffer.byteLength(text),
      ...(found?.link && { link: found.link }),
    });
    res.end(text);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    baseUrl: (description) => `${origin}/${description}`,
    received,
    withoutHeader,
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
