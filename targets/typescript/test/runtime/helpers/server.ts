// A small HTTP server on 127.0.0.1 for runtime tests: records every request it received (body included) and
// answers through a handler that each test sets.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface Received {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export type Handler = (req: Received, res: http.ServerResponse, index: number) => void | Promise<void>;

export interface TestServer {
  origin: string;
  /** origin + "/latest", the base address clients use. */
  baseUrl: string;
  received: Received[];
  handle(handler: Handler): void;
  /** Requests whose path (without query) equals `path` below /latest. */
  count(path: string): number;
  close(): Promise<void>;
}

export async function startServer(): Promise<TestServer> {
  let handler: Handler = (_req, res) => sendJson(res, 500, { status: "error", code: "INTERNAL_ERROR", message: "no handler" });
  const received: Received[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      const record: Received = { method: req.method ?? "", url: req.url ?? "", headers: req.headers, body: Buffer.concat(chunks) };
      received.push(record);
      Promise.resolve(handler(record, res, received.length - 1)).catch((error: unknown) => {
        res.destroy(error instanceof Error ? error : new Error(String(error)));
      });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    origin,
    baseUrl: `${origin}/latest`,
    received,
    handle(next) {
      handler = next;
      received.length = 0;
    },
    count(path) {
      return received.filter((r) => r.url.split("?")[0] === `/latest${path}`).length;
    },
    close() {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

export function sendJson(res: http.ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function sendText(res: http.ServerResponse, status: number, text: string, contentType = "text/html"): void {
  res.writeHead(status, { "content-type": contentType, "content-length": Buffer.byteLength(text) });
  res.end(text);
}

/** Parses what the server received with the Web platform's own multipart / urlencoded parser. */
export function formOf(received: Received): Promise<FormData> {
  const headers = new Headers();
  const type = received.headers["content-type"];
  if (type !== undefined) headers.set("content-type", type);
  return new Request("http://127.0.0.1/", { method: "POST", headers, body: new Uint8Array(received.body) }).formData();
}

/** A port with nothing listening on it, for connection-refused cases. */
export async function closedPort(): Promise<number> {
  const server = http.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise((resolve) => server.close(resolve));
  return port;
}
