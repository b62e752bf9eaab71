// The three ways of making the same GET that the request benchmark compares: one function per client, each doing one
// request and reading its JSON body.
import createOpenApiFetch from "openapi-fetch";
import { createClient, getJob, RELEASE } from "../../generated/index.js";
import type { paths } from "../../generated/types.js";

export const TOKEN = "svc_sk_benchmark0123456789";
export const JOB_ID = "job_0123456789";

export type OneRequest = () => Promise<unknown>;

export const CLIENT_NAMES = ["raw fetch", "openapi-fetch", "our client (getJob)"] as const;
/** Not clients, to break the overhead down: raw fetch plus one thing a client adds per call. */
export const PROBE_NAMES = [
  "raw fetch + new Request()",
  "raw fetch + AbortController + deadline timer",
  "openapi-fetch + our client's headers",
] as const;

export function requestClients(origin: string): Record<(typeof CLIENT_NAMES)[number] | (typeof PROBE_NAMES)[number], OneRequest> {
  const base = `${origin}/latest`;
  const url = `${base}/job/get/${JOB_ID}`;
  const headers = { Authorization: `Bearer ${TOKEN}` };
  const of = createOpenApiFetch<paths>({ baseUrl: base, headers });
  const ours = createClient({ baseUrl: base, token: TOKEN });
  // The headers our client sends besides the token (Accept, and the User-Agent outside browsers), to tell their cost
  // from the runtime's own.
  const ourHeaders = {
    ...headers,
    Accept: "application/json, */*;q=0.8",
    "User-Agent": `document-automation-service-sdk-typescript/${RELEASE}`,
  };
  const ofHeaders = createOpenApiFetch<paths>({ baseUrl: base, headers: ourHeaders });
  return {
    "raw fetch": async () => {
      const response = await fetch(url, { headers });
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    },
    "openapi-fetch": async () => {
      const { data, error } = await of.GET("/job/get/{job_id}", { params: { path: { job_id: JOB_ID } } });
      if (error !== undefined) throw new Error("error answer");
      return data;
    },
    "our client (getJob)": async () => (await getJob(ours, { job_id: JOB_ID })).data,
    // What openapi-fetch does per call: a Request object handed to fetch.
    "raw fetch + new Request()": async () => {
      const response = await fetch(new Request(url, { headers }));
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      return response.json();
    },
    // What a per-call controller costs: its signal goes to fetch, and a timer aborts it at the deadline. The runtime
    // only makes one when a call's deadline is under 600 s (runtime/call-deadline.ts); default calls skip this.
    "openapi-fetch + our client's headers": async () => {
      const { data, error } = await ofHeaders.GET("/job/get/{job_id}", { params: { path: { job_id: JOB_ID } } });
      if (error !== undefined) throw new Error("error answer");
      return data;
    },
    "raw fetch + AbortController + deadline timer": async () => {
      const controller = new AbortController();
      const timer = setTimeout(() => controller.abort(), 600_000);
      try {
        const response = await fetch(url, { headers, signal: controller.signal });
        if (!response.ok) throw new Error(`HTTP ${response.status}`);
        return await response.json();
      } finally {
        clearTimeout(timer);
      }
    },
  };
}

/** The loopback server in its child process. */
export interface LoopbackServer {
  origin: string;
  /** The number of sockets the server has accepted so far. */
  connections: () => Promise<number>;
  stop: () => void;
}

/** Starts the loopback server in a child process; `stop` ends it. */
export async function startServer(): Promise<LoopbackServer> {
  const { spawn } = await import("node:child_process");
  const { fileURLToPath } = await import("node:url");
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("./server.ts", import.meta.url))], {
    stdio: ["pipe", "pipe", "inherit"],
  });
  // Each JSON line the server prints goes to the first waiting reader: the port first, then the connection counts.
  const waiting: ((line: string) => void)[] = [];
  let out = "";
  child.stdout.setEncoding("utf8").on("data", (chunk: string) => {
    out += chunk;
    let end = out.indexOf("\n");
    while (end >= 0) {
      const line = out.slice(0, end);
      out = out.slice(end + 1);
      if (line.startsWith("{")) waiting.shift()?.(line);
      end = out.indexOf("\n");
    }
  });
  const nextLine = () => new Promise<string>((resolve) => waiting.push(resolve));
  const port = await new Promise<number>((resolve, reject) => {
    nextLine().then((line) => resolve((JSON.parse(line) as { port: number }).port), reject);
    child.on("exit", (code) => reject(new Error(`the benchmark server exited with ${code}`)));
  });
  return {
    origin: `http://127.0.0.1:${port}`,
    connections: async () => {
      const line = nextLine();
      child.stdin.write("connections\n");
      return (JSON.parse(await line) as { connections: number }).connections;
    },
    stop: () => child.stdin.end(),
  };
}
