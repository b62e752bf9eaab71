// The mock answers exactly as the description says, by the word of an independent validator: Prism in proxy mode
// (`prism proxy <description> <mock> --errors`) checks every request and every answer of the mock against the
// newest release of the description. Developers test against the mock; an answer the description does not allow
// would make their tests lie. A control puts a deliberately wrong server behind Prism and must see it reported.
import { readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import * as api from "../../generated/index.js";
import { BASE_PATH, type MockServer, startMock } from "../../mock/index.js";
import { loadModel, matchRoute } from "../../mock/model.js";
import { auth, ir, TOKEN } from "../mock/helpers.js";
import { type PrismServer, startPrism } from "../prism/prism.js";
import { Driver, EXPIRED, HOLD_MS, JOB_MODES, REVOKED, VARIANTS } from "./drive.js";
import { Ledger } from "./ledger.js";
import { startWrongUpstream, WRONG_PATHS, type WrongUpstream } from "./wrong-upstream.js";

const releases = fileURLToPath(new URL("../../spec/releases/", import.meta.url));
const newest = readdirSync(releases)
  .filter((f) => f.endsWith(".yaml"))
  .sort()
  .at(-1);
if (newest === undefined) throw new Error(`no release description (*.yaml) in ${releases}`);
const DESCRIPTION = `${releases}${newest}`;

let mock: MockServer;
let upstream: WrongUpstream;
let prism: PrismServer;
let control: PrismServer;
const ledger = new Ledger();
let driver: Driver;

beforeAll(async () => {
  mock = await startMock({ holdMs: HOLD_MS, jobDurationMs: 0, tokens: { expired: [EXPIRED], invalid: [REVOKED] } });
  upstream = await startWrongUpstream();
  [prism, control] = await Promise.all([
    startPrism(DESCRIPTION, 120_000, { upstream: mock.url, errors: true }),
    startPrism(DESCRIPTION, 120_000, { upstream: upstream.url, errors: true }),
  ]);
  driver = new Driver(prism.url, mock, ledger);
});
afterAll(async () => {
  await Promise.all([prism?.stop(), control?.stop()]);
  await Promise.all([mock?.stop(), upstream?.close()]);
});

describe("the mock through Prism's validating proxy", () => {
  it("serves the newest release of the description", () => {
    expect(`${ir.info.version}.yaml`).toBe(newest);
  });

  it("every operation from its fixture request", async () => {
    await driver.everyOperation();
  });

  // Each variant's jobs run one after another: Prism answers one request at a time.
  it.each(VARIANTS)("every way of running a job of $pipeline / $variant, with its polls and downloads", async (v) => {
    let files = 0;
    for (const mode of JOB_MODES) files += await driver.job(v, mode);
    // A completed job links its file at least in one of held, past-hold and async.
    expect(files).toBeGreaterThan(0);
  });

  it("the generated client starts, waits for and downloads a job through the proxy", async () => {
    // Its every request goes into the ledger, so that the proxy's findings about them count with the others.
    // The client takes the service's address, which ends in /latest; Prism matches the description's paths without
    // it, so the client's requests lose it on their way to the proxy.
    const base = `${prism.url}${BASE_PATH}`;
    const model = loadModel();
    const recording = async (request: Request) => {
      const input = request.url;
      if (!input.startsWith(`${base}/`)) throw new Error(`the client sent a request outside ${base}: ${input}`);
      const url = `${prism.url}${input.slice(base.length)}`;
      const path = new URL(url).pathname;
      const match = matchRoute(model, request.method, path);
      const id = match !== undefined && "operation" in match ? match.operation.id : `(no operation at ${path})`;
      // The body as bytes, with its length, as the client's own fetch would send it.
      const body = request.body === null ? undefined : await request.arrayBuffer();
      const init: RequestInit = { method: request.method, headers: request.headers, signal: request.signal, ...(body && { body }) };
      return ledger.send(`${id} generated client`, url, init, [200, 202]);
    };
    const client = api.createClient({
      baseUrl: base,
      token: TOKEN,
      fetch: recording,
      pollIntervalMs: { min: 50, max: 100 },
      retry: { maxRetries: 0 },
    });
    const handle = await api.startAddJob(client, "service_voice___tts", { text: "hi", voice: "anna", priority: "stream" });
    const done = await handle.wait<{ output_files?: string[] }>();
    const link = done.data.output_files?.[0];
    if (link === undefined) throw new Error(`no output_files in ${JSON.stringify(done.data).slice(0, 300)}`);
    // The mock links its own address; the client is to fetch the file through the proxy.
    const download = await api.downloadFile(client, `${base}${link.slice(mock.url.length)}`);
    expect((await download.blob()).size).toBeGreaterThan(0);
  });

  it("the documented error answers", async () => {
    await driver.errors();
  });

  it("a burst over the request limit gets 429 with Retry-After", async () => {
    // Last of the calls: the limit is the whole mock's. A token of its own starts with an empty count.
    mock.setRateLimits({ minute: 3 });
    const token = "svc_sk_burst_0001";
    const statuses: number[] = [];
    let retryAfter: string | null = null;
    for (let i = 0; i < 6; i++) {
      const response = await driver.send("listWebhooks burst", "GET", "/webhooks/list", { headers: auth(token) }, [200, 429]);
      await response.arrayBuffer();
      statuses.push(response.status);
      if (response.status === 429) retryAfter ??= response.headers.get("retry-after");
    }
    expect(statuses.filter((s) => s === 429).length, statuses.join(" ")).toBeGreaterThan(0);
    expect(retryAfter).toMatch(/^\d+$/);
  });

  it("covered every operation of the description", () => {
    const reached = new Set(ledger.exchanges.map((e) => e.label.split(" ")[0]));
    expect([...reached].sort()).toEqual(ir.operations.map((o) => o.id).sort());
  });

  it("sent no request Prism finds wrong", () => {
    expect(ledger.requestViolations(), ledger.summary()).toEqual([]);
  });

  it("gave no answer Prism finds wrong", () => {
    expect(ledger.responseViolations(), ledger.summary()).toEqual([]);
  });

  it("gave no status the description does not declare", () => {
    expect(ledger.undeclaredStatuses(), ledger.summary()).toEqual([]);
  });

  it("answered every call with the status meant", () => {
    expect(ledger.unexpected(), ledger.summary()).toEqual([]);
  });

  it("found nothing wrong with its own answers either", () => {
    expect(mock.stats.invalidResponses).toEqual([]);
  });
});

describe("control: a server answering against the description, behind the same proxy", () => {
  const wrong = new Ledger();

  beforeAll(async () => {
    // One call to each wrong answer; a path ending in "/" takes an identifier.
    for (const prefix of WRONG_PATHS) {
      const path = prefix.endsWith("/") ? `${prefix}0000` : prefix;
      await (await wrong.send(`control ${path}`, `${control.url}${path}`, { headers: auth() }, [200, 418, 429, 500])).arrayBuffer();
    }
  });

  it("reports a media type the answer does not declare", () => {
    expect(wrong.responseViolations().filter((v) => v.includes("/job/download/") && v.includes("application/pdf"))).toHaveLength(1);
  });

  it("reports a JSON body that breaks its schema", () => {
    expect(wrong.responseViolations().filter((v) => v.includes("/job/get/")).length).toBeGreaterThan(0);
  });

  it("reports a status the operation does not declare", () => {
    expect(wrong.undeclaredStatuses().filter((v) => v.includes("/webhooks/list"))).toHaveLength(1);
  });

  it("reports a header that breaks its schema", () => {
    expect(wrong.responseViolations().filter((v) => v.includes("/analytics/audit-center")).length).toBeGreaterThan(0);
  });

  it("sent no request Prism finds wrong", () => {
    expect(wrong.requestViolations()).toEqual([]);
  });
});
