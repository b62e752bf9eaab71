// What the targets' wire tests share: a recording HTTP server on 127.0.0.1 that answers per path from a table or by a
// handler, and the generating of small descriptions into a temporary folder. It names no target (each test passes
// its language's generate options), so every target's tests may import it.
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll } from "vitest";
import { type GenerateOptions, generate, writeFiles } from "../../generator/generate.js";

/** One request as it arrived, its body read whole as UTF-8. */
export interface Recorded {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingHttpHeaders;
  readonly contentType: string | undefined;
  readonly body: string;
}

/** A fixed answer: a status, with a Content-Type and body when given. */
export interface Answer {
  readonly status: number;
  readonly type?: string;
  readonly body?: string;
}

/** Answers per path (404 for any other), or a handler that answers the recorded request itself. */
export type Answers = Readonly<Record<string, Answer>> | ((request: Recorded, res: ServerResponse) => void);

export interface RecordingServer {
  /** Every request in arrival order; a test may empty it (`received.length = 0`). */
  readonly received: Recorded[];
  /** `http://127.0.0.1:<port>` once listening. */
  readonly baseUrl: string;
  readonly port: number;
  readonly server: Server;
  /** Starts listening on a free port and returns the base URL. */
  listen(): Promise<string>;
  /** Drops open connections (a stream left open must not hold the suite) and stops listening. */
  close(): Promise<void>;
}

/** A server that records each request, then answers it; created here, listening after `listen()`. */
export function recordingServer(answers: Answers): RecordingServer {
  const received: Recorded[] = [];
  const server = createServer((req, res) => {
    let body = "";
    req.on("data", (c: Buffer) => {
      body += c.toString("utf8");
    });
    req.on("end", () => {
      const url = req.url ?? "";
      const request = { method: req.method ?? "", url, headers: req.headers, contentType: req.headers["content-type"], body };
      received.push(request);
      if (typeof answers === "function") return answers(request, res);
      const answer = answers[url] ?? { status: 404 };
      res.writeHead(answer.status, answer.type === undefined ? {} : { "content-type": answer.type }).end(answer.body);
    });
  });
  const port = (): number => (server.address() as AddressInfo | null)?.port ?? 0;
  return {
    received,
    server,
    get port() {
      return port();
    },
    get baseUrl() {
      return `http://127.0.0.1:${port()}`;
    },
    async listen() {
      await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
      return `http://127.0.0.1:${port()}`;
    },
    async close() {
      if (!server.listening) return;
      server.closeAllConnections();
      await new Promise((ok) => server.close(ok));
    },
  };
}

/**
 * Makes a temporary folder (`prefix` names it) with a package.json of type module, and generates each description
 * into `<folder>/<name>`, `options` giving the language's generate options for that output folder.
 */
export async function generateEach(
  prefix: string,
  sources: Readonly<Record<string, string>>,
  options: (out: string) => GenerateOptions,
): Promise<string> {
  const base = await mkdtemp(join(tmpdir(), prefix));
  await writeFile(join(base, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  for (const [name, source] of Object.entries(sources)) {
    const out = join(base, name);
    await writeFiles(out, (await generate(source, options(out))).files);
  }
  return base;
}

const MATRIX = fileURLToPath(new URL("../matrix/descriptions/", import.meta.url));

/** The named descriptions of test/matrix/descriptions (`<name>.yaml`), by name, for `generateEach`. */
export function matrixSources(names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.map((name) => [name, join(MATRIX, `${name}.yaml`)]));
}

/** A free port on 127.0.0.1, for a server started elsewhere (a child process) that a description names first. */
export function freePort(): Promise<number> {
  return new Promise((ok, fail) => {
    const server = createNetServer();
    server.once("error", fail);
    server.listen(0, "127.0.0.1", () => {
      const address = server.address();
      server.close(() => (typeof address === "object" && address !== null ? ok(address.port) : fail(new Error("no port"))));
    });
  });
}

export interface WireSuite {
  /** Every request the server received, in arrival order. */
  readonly received: Recorded[];
  /** The temporary folder with each description's output in `<name>/`, once the suite has started. */
  readonly base: string;
  /** The server's base URL, once the suite has started. */
  readonly baseUrl: string;
}

/**
 * A wire suite: before the file's tests, each description of `sources` generated into a temporary folder (see
 * `generateEach`) and a recording server answering by `answers`; after them, the server closed and the folder removed.
 */
export function wireSuite(
  prefix: string,
  sources: Readonly<Record<string, string>>,
  options: (out: string) => GenerateOptions,
  answers: Answers,
): WireSuite {
  const server = recordingServer(answers);
  let base = "";
  beforeAll(async () => {
    base = await generateEach(prefix, sources, options);
    await server.listen();
  }, 120_000);
  afterAll(async () => {
    await server.close();
    if (base !== "") await rm(base, { recursive: true, force: true });
  });
  return {
    received: server.received,
    get base() {
      return base;
    },
    get baseUrl() {
      return server.baseUrl;
    },
  };
}
