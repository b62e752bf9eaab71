// The scenario server: two origins on 127.0.0.1 (the service and another origin for redirects and signed links)
// that play each scenario's steps in request order and record what arrived. A scenario lives under
// /<run>/<name>/latest on the service origin and /<run>/<name> on the other one, so cases run side by side.
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo, Socket } from "node:net";
import { SECRET, type Step, TOKEN } from "./scenario.js";

export interface RecordedRequest {
  /** Wall clock when the request's headers arrived. */
  at: number;
  method: string;
  path: string;
  authorization: boolean;
  /** Request headers by lower-case name (repeated ones joined with ", "). */
  headers: Record<string, string>;
  body: string;
}

export interface ControlScenario {
  run: string;
  name: string;
  steps: Step[];
  foreignSteps?: Step[];
}

interface Played {
  steps: readonly Step[];
  requests: RecordedRequest[];
}

const MAX_BODY = 64 * 1024;

export class ScenarioServer {
  readonly #main: Server;
  readonly #foreign: Server;
  readonly #played = new Map<string, Played>();
  readonly #sockets = new Set<Socket>();
  readonly #timers = new Set<NodeJS.Timeout>();
  mainOrigin = "";
  foreignOrigin = "";

  private constructor() {
    this.#main = createServer((req, res) => this.#handle("main", req, res));
    this.#foreign = createServer((req, res) => this.#handle("foreign", req, res));
    for (const server of [this.#main, this.#foreign]) {
      // Idle connections are kept well past any gap a scenario leaves between its requests (polls, retries and
      // Retry-After are all under 10 s): a server closing one just as a client reuses it would drop that request
      // unread, a race of the machine's timing that no scenario is about. stop() destroys the sockets left.
      server.keepAliveTimeout = 30_000;
      server.on("connection", (socket) => {
        this.#sockets.add(socket);
        socket.on("close", () => this.#sockets.delete(socket));
      });
    }
  }

  static async start(): Promise<ScenarioServer> {
    const server = new ScenarioServer();
    const listen = (s: Server) =>
      new Promise<string>((resolve) => s.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(s.address() as AddressInfo).port}`)));
    server.mainOrigin = await listen(server.#main);
    server.foreignOrigin = await listen(server.#foreign);
    return server;
  }

  /** Registers a scenario under a run; returns its base URL and the other origin's prefix. */
  add(run: string, name: string, steps: readonly Step[], foreignSteps: readonly Step[] = []): { baseUrl: string; foreignUrl: string } {
    this.#played.set(`main/${run}/${name}`, { steps, requests: [] });
    this.#played.set(`foreign/${run}/${name}`, { steps: foreignSteps, requests: [] });
    return { baseUrl: `${this.mainOrigin}/${run}/${name}/latest`, foreignUrl: `${this.foreignOrigin}/${run}/${name}` };
  }

  requests(run: string, name: string, origin: "main" | "foreign"): readonly RecordedRequest[] {
    return this.#played.get(`${origin}/${run}/${name}`)?.requests ?? [];
  }

  async stop(): Promise<void> {
    for (const timer of this.#timers) clearTimeout(timer);
    for (const socket of this.#sockets) socket.destroy();
    await Promise.all([this.#main, this.#foreign].map((s) => new Promise<void>((resolve) => s.close(() => resolve()))));
  }

  #later(ms: number, fn: () => void): void {
    const timer = setTimeout(() => {
      this.#timers.delete(timer);
      fn();
    }, ms);
    this.#timers.add(timer);
  }

  #handle(origin: "main" | "foreign", req: IncomingMessage, res: ServerResponse): void {
    const at = Date.now();
    const url = new URL(req.url ?? "/", "http://x");
    if (origin === "main" && url.pathname.startsWith("/_control/")) {
      this.#control(req, res, url);
      return;
    }
    const [run, name] = url.pathname.split("/").filter((p) => p !== "");
    const played = this.#played.get(`${origin}/${run}/${name}`);
    const chunks: Buffer[] = [];
    let size = 0;
    req.on("data", (chunk: Buffer) => {
      if (size < MAX_BODY) chunks.push(chunk);
      size += chunk.length;
    });
    req.on("end", () => {
      if (played === undefined) {
        res.writeHead(404, { "content-type": "text/plain" }).end(`no scenario at ${url.pathname}`);
        return;
      }
      const index = played.requests.length;
      played.requests.push({
        at,
        method: req.method ?? "",
        path: url.pathname + url.search,
        authorization: req.headers.authorization !== undefined,
        headers: headersOf(req),
        body: Buffer.concat(chunks).toString("latin1"),
      });
      const step = stepAt(played.steps, index);
      if (step === undefined) {
        res.writeHead(599, { "content-type": "text/plain" }).end("the scenario has no step for this request");
        return;
      }
      this.#later(step.delayMs ?? 0, () => this.#play(step, `/${run}/${name}`, res));
    });
  }

  /** Control requests of the test process: register scenarios, read what was recorded. */
  #control(req: IncomingMessage, res: ServerResponse, url: URL): void {
    const chunks: Buffer[] = [];
    req.on("data", (chunk: Buffer) => chunks.push(chunk));
    req.on("end", () => {
      if (url.pathname === "/_control/scenarios") {
        const list = JSON.parse(Buffer.concat(chunks).toString("utf8")) as ControlScenario[];
        const urls = list.map((s) => this.add(s.run, s.name, s.steps, s.foreignSteps));
        res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(urls));
        return;
      }
      const run = url.searchParams.get("run") ?? "";
      const names = [...this.#played.keys()].filter((k) => k.startsWith(`main/${run}/`)).map((k) => k.slice(`main/${run}/`.length));
      const recorded = Object.fromEntries(
        names.map((n) => [n, { main: this.requests(run, n, "main"), foreign: this.requests(run, n, "foreign") }]),
      );
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(recorded));
    });
  }

  #play(step: Step, prefix: string, res: ServerResponse): void {
    if (res.destroyed) return;
    if (step.reset) {
      res.socket?.resetAndDestroy();
      return;
    }
    if (step.redirect) {
      const location =
        step.redirect.to === "foreign"
          ? `${this.foreignOrigin}${prefix}${step.redirect.path}`
          : `${this.mainOrigin}${prefix}/latest${step.redirect.path}`;
      res.writeHead(step.status ?? 302, { location, "content-length": "0" }).end();
      return;
    }
    const raw = step.body === undefined ? "" : typeof step.body === "string" ? step.body : JSON.stringify(step.body);
    const fill = (text: string): string => text.replaceAll("{token}", TOKEN).replaceAll("{secret}", SECRET);
    const body = Buffer.from(fill(raw), "utf8");
    const headers: Record<string, string> = {
      ...(step.body !== undefined && typeof step.body !== "string" ? { "content-type": "application/json" } : {}),
      "content-length": String(body.length),
      ...Object.fromEntries(Object.entries(step.headers ?? {}).map(([name, value]) => [name, fill(value)])),
    };
    res.writeHead(step.status ?? 200, headers);
    if (!step.trickle) {
      res.end(body);
      return;
    }
    res.flushHeaders();
    const { bytes, everyMs } = step.trickle;
    const next = (offset: number): void => {
      if (res.destroyed) return;
      if (offset >= body.length) {
        res.end();
        return;
      }
      res.write(body.subarray(offset, offset + bytes));
      this.#later(everyMs, () => next(offset + bytes));
    };
    next(0);
  }
}

function stepAt(steps: readonly Step[], index: number): Step | undefined {
  let seen = 0;
  for (const step of steps) {
    seen += step.times ?? 1;
    if (index < seen) return step;
  }
  return steps.at(-1);
}

function headersOf(req: IncomingMessage): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(req.headers)) {
    if (value !== undefined) headers[name] = Array.isArray(value) ? value.join(", ") : value;
  }
  return headers;
}
