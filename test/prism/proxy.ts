// A recording proxy in front of the Prism servers, for clients that run in another process (Python, Go): each call
// names itself in a header the proxy takes off, and the proxy keeps what Prism said of each request, as the recording
// fetch of calls.ts does for TypeScript.
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import { type Exchange, exchangeOf } from "./calls.js";

/** The header naming a call by its index; the calls are shared among the Prism servers by index. */
export const CALL_HEADER = "x-prism-call";

/** A proxy to the Prism servers (the calls shared among them by index) that records each exchange under its call. */
export async function recordingProxy(targets: readonly string[], dispatcher: unknown) {
  const exchanges = new Map<number, Exchange[]>();
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    for await (const chunk of req) chunks.push(chunk as Buffer);
    const index = Number(req.headers[CALL_HEADER]);
    const headers: Record<string, string> = {};
    for (const [name, value] of Object.entries(req.headers)) {
      if (name === CALL_HEADER || name === "host" || name === "connection" || value === undefined) continue;
      headers[name] = Array.isArray(value) ? value.join(", ") : value;
    }
    const url = `${targets[index % targets.length]}${req.url ?? "/"}`;
    const method = req.method ?? "GET";
    const body = chunks.length > 0 ? Buffer.concat(chunks) : undefined;
    const init = { method, headers, redirect: "manual", dispatcher, ...(body && { body }) } as RequestInit;
    const response = await fetch(url, init);
    const list = exchanges.get(index) ?? [];
    list.push(await exchangeOf(method, url, response));
    exchanges.set(index, list);
    const answer = Buffer.from(await response.arrayBuffer());
    const out: Record<string, string> = {};
    response.headers.forEach((value, name) => {
      // fetch has decoded the body; a redirect is handed over without its target (GitHub's log and archive hosts,
      // not on this machine), so that the client reports its status as the TypeScript one does.
      if (["content-encoding", "content-length", "transfer-encoding", "connection", "keep-alive"].includes(name)) return;
      if (name === "location" && response.status >= 300 && response.status < 400) return;
      out[name] = value;
    });
    out["content-length"] = String(answer.length);
    res.writeHead(response.status, out);
    res.end(method === "HEAD" ? undefined : answer);
  };
  const server = createServer((req, res) => {
    handle(req, res).catch((error: unknown) => {
      res.writeHead(599, { "content-type": "text/plain" });
      res.end(`proxy failure: ${String(error)}`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  if (address === null || typeof address === "string") throw new Error("no port for the proxy");
  return {
    url: `http://127.0.0.1:${address.port}`,
    exchanges,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
