// A server that answers as the description does not allow, put behind Prism's proxy in place of the mock: the
// control that shows a wrong answer is reported, so that a run of the mock with no findings means something.
import http from "node:http";
import type { AddressInfo } from "node:net";

export interface WrongUpstream {
  readonly url: string;
  close(): Promise<void>;
}

/** What the wrong server answers, by path prefix; each breaks the description in one way. */
const WRONG: readonly { prefix: string; status: number; headers: Record<string, string>; body: string }[] = [
  // A media type the download does not declare (the description has application/octet-stream only).
  { prefix: "/job/download/", status: 200, headers: { "content-type": "application/pdf" }, body: "%PDF-1.4\n" },
  // A poll answer without its required fields.
  { prefix: "/job/get/", status: 200, headers: { "content-type": "application/json" }, body: '{"job_status":42}' },
  // A status the operation does not declare.
  { prefix: "/webhooks/list", status: 418, headers: { "content-type": "application/json" }, body: '{"status":"error"}' },
  // A Retry-After that is no number of seconds.
  {
    prefix: "/analytics/audit-center",
    status: 429,
    headers: { "content-type": "application/json", "retry-after": "soon" },
    body: '{"status":"error","code":"RATE_LIMIT_EXCEEDED","message":"slow down","processing_time":"1ms"}',
  },
];

export const WRONG_PATHS = WRONG.map((w) => w.prefix);

export async function startWrongUpstream(): Promise<WrongUpstream> {
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      const path = new URL(req.url ?? "/", "http://127.0.0.1").pathname.replace(/^\/latest/, "");
      const wrong = WRONG.find((w) => path.startsWith(w.prefix));
      if (!wrong) {
        res.writeHead(404, { "content-type": "text/plain" });
        res.end(`the wrong upstream has no answer for ${path}`);
        return;
      }
      res.writeHead(wrong.status, { ...wrong.headers, "content-length": String(Buffer.byteLength(wrong.body)) });
      res.end(wrong.body);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/latest`,
    close: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}
