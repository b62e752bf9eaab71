// `npm run bench -- --only=upstream`: what the changes this repository proposes to its dependencies would give,
// measured on copies changed for the run only (in .tmp/bench/upstream; nothing shipped uses them).
//
// openapi-fetch builds a Request for every call and hands it to fetch, which builds a second one from it. Without
// middleware nothing reads the first: the proposal calls fetch(url, init) then. The loopback GETs of the request
// benchmark run with openapi-fetch as installed and as the proposal changes it, and with our client bundled over
// each, in interleaved turns beside raw fetch.
//
// openapi-typescript's createRef parses and escapes again, at every node it transforms, the pointer its caller
// already holds, and its discriminator scan copies the path array at every node of the document. The built CLI runs
// on MS Graph's description as it is and from a copy of dist/ beside a changed copy of openapi-typescript.
import { cp, mkdir, readFile, rm, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { builtCli, cpuOf, GRAPH, wallOf, worstRssOf } from "./commands.js";
import { fmt, log, median, ROOT, table } from "./lib.js";
import { measureProcess, type ProcessRun } from "./processes.js";
import { type OneRequest, startServer } from "./request-clients.js";
import { loop, quantile, type Turn } from "./requests.js";

const DIR = join(ROOT, ".tmp", "bench", "upstream");

/** A change of a dependency's file: each text is found exactly once, or the proposal no longer applies. */
export interface Edit {
  readonly find: string;
  readonly put: string;
}

export function applyEdits(text: string, edits: readonly Edit[], what: string): string {
  let out = text;
  for (const { find, put } of edits) {
    const at = out.indexOf(find);
    if (at < 0 || out.indexOf(find, at + 1) >= 0)
      throw new Error(`${what}: ${at < 0 ? "not found" : "found more than once"}: ${JSON.stringify(find.slice(0, 80))}`);
    out = out.slice(0, at) + put + out.slice(at + find.length);
  }
  return out;
}

/**
 * The proposal for openapi-fetch's dist/index.mjs: with no middleware, no Request of its own; fetch gets the URL
 * and the init it would have built the Request from (with requestInitExt merged in, as undici reads it from init).
 */
export const OPENAPI_FETCH_EDITS: readonly Edit[] = [
  {
    find: `    let request = new Request(
      createFinalURL(schemaPath, { baseUrl: finalBaseUrl, params, querySerializer, pathSerializer }),
      requestInit
    );
    let response;
    for (const key in init) {
      if (!(key in request)) {
        request[key] = init[key];
      }
    }`,
    put: `    const finalURL = createFinalURL(schemaPath, { baseUrl: finalBaseUrl, params, querySerializer, pathSerializer });
    const direct = finalMiddlewares.length === 0;
    let request = direct ? void 0 : new Request(finalURL, requestInit);
    let response;
    if (request) for (const key in init) {
      if (!(key in request)) {
        request[key] = init[key];
      }
    }`,
  },
  {
    find: "response = await fetch(request, requestInitExt);",
    put: "response = await (direct ? fetch(finalURL, requestInitExt ? { ...requestInit, ...requestInitExt } : requestInit) : fetch(request, requestInitExt));",
  },
  { find: `request.method === "HEAD"`, put: `(direct ? requestInit.method : request.method) === "HEAD"` },
];

/** The text of openapi-fetch's ES module as the proposal changes it. */
export async function changedOpenapiFetchText(): Promise<string> {
  const file = join(ROOT, "node_modules", "openapi-fetch", "dist", "index.mjs");
  const changed = applyEdits(await readFile(file, "utf8"), OPENAPI_FETCH_EDITS, "openapi-fetch's dist/index.mjs");
  // The copy has no source map beside it.
  return changed.replace(/^\/\/# sourceMappingURL=.*$/m, "");
}

/** openapi-fetch as the proposal changes it, written into DIR; returns its file. */
async function changedOpenapiFetch(): Promise<string> {
  const out = join(DIR, "openapi-fetch.changed.mjs");
  await writeFile(out, await changedOpenapiFetchText());
  return out;
}

/** The request benchmark's clients, bundled for Node with openapi-fetch as installed or replaced by `alias`. */
async function clientsModule(name: string, alias?: string): Promise<(origin: string) => Record<string, OneRequest>> {
  const out = join(DIR, `${name}.mjs`);
  await build({
    stdin: { contents: `export { requestClients } from "./scripts/bench/request-clients.ts";`, resolveDir: ROOT, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    target: "node20",
    packages: "bundle",
    ...(alias === undefined ? {} : { alias: { "openapi-fetch": alias } }),
    outfile: out,
    logLevel: "silent",
  });
  const module = (await import(pathToFileURL(out).href)) as { requestClients: (origin: string) => Record<string, OneRequest> };
  return module.requestClients;
}

export interface UpstreamOptions {
  readonly turns: number;
  readonly perTurn: number;
  readonly warmup: number;
}

export const UPSTREAM_FULL: UpstreamOptions = { turns: 20, perTurn: 1000, warmup: 500 };

const CASES = [
  ["raw fetch", "as installed", "raw fetch"],
  ["openapi-fetch", "as installed", "openapi-fetch"],
  ["openapi-fetch", "changed", "openapi-fetch, changed"],
  ["our client (getJob)", "as installed", "our client over openapi-fetch"],
  ["our client (getJob)", "changed", "our client over openapi-fetch, changed"],
] as const;

export async function benchUpstream(options: UpstreamOptions): Promise<string> {
  await mkdir(DIR, { recursive: true });
  const installed = await clientsModule("clients.installed");
  const changed = await clientsModule("clients.changed", await changedOpenapiFetch());
  const server = await startServer();
  const blocks: string[] = [];
  try {
    for (const inflight of [1, 64]) {
      const sets = { "as installed": installed(server.origin), changed: changed(server.origin) };
      const runs = CASES.map(([client, set, label]) => ({ label, one: sets[set][client]! }));
      for (const r of runs) await loop(r.one, options.warmup, inflight);
      const samples = new Map<string, Turn[]>(runs.map((r) => [r.label, []]));
      for (let turn = 0; turn < options.turns; turn++) {
        const order = turn % 2 === 0 ? runs : [...runs].reverse();
        for (const r of order) samples.get(r.label)!.push(await loop(r.one, options.perTurn, inflight));
      }
      const wall = (label: string) => median(samples.get(label)!.map((t) => t.wallUs));
      const cpu = (label: string) => median(samples.get(label)!.map((t) => t.cpuUs));
      const raw = wall("raw fetch");
      const rawCpu = cpu("raw fetch");
      const rows = runs.map(({ label }) => {
        const us = samples.get(label)!.map((t) => t.wallUs);
        return [
          label,
          fmt.us(wall(label)),
          `${fmt.us(quantile(us, 0.1))} .. ${fmt.us(quantile(us, 0.9))}`,
          fmt.ratio(wall(label) / raw),
          fmt.us(cpu(label)),
          fmt.ratio(cpu(label) / rawCpu),
        ];
      });
      const summary = [
        `openapi-fetch against raw fetch: ${fmt.ratio(wall("openapi-fetch") / raw)} as installed, ${fmt.ratio(wall("openapi-fetch, changed") / raw)} changed (CPU ${fmt.ratio(cpu("openapi-fetch") / rawCpu)} and ${fmt.ratio(cpu("openapi-fetch, changed") / rawCpu)}).`,
        `Our client against raw fetch: ${fmt.ratio(wall("our client over openapi-fetch") / raw)} over openapi-fetch as installed, ${fmt.ratio(wall("our client over openapi-fetch, changed") / raw)} over it changed (CPU ${fmt.ratio(cpu("our client over openapi-fetch") / rawCpu)} and ${fmt.ratio(cpu("our client over openapi-fetch, changed") / rawCpu)}).`,
      ].join("\n");
      blocks.push(
        [
          `### ${inflight > 1 ? `${inflight} in flight` : "sequential"}`,
          "",
          `${options.turns} turns of ${options.perTurn} GETs per client ${inflight > 1 ? `with ${inflight} in flight` : "one after another"} (after ${options.warmup} warm-up requests each), order alternating; median of the turns' mean per request.`,
          "",
          table(
            ["client", "per request (median)", "p10 .. p90 of turns", "ratio vs raw", "client CPU per request", "CPU ratio vs raw"],
            rows,
          ),
          "",
          summary,
        ].join("\n"),
      );
    }
  } finally {
    server.stop();
  }
  return [
    "## Proposed upstream: openapi-fetch without its own Request when no middleware is registered",
    "",
    "Both sets of clients are bundled by esbuild for Node in the same way; the changed set has openapi-fetch's `dist/index.mjs` with the " +
      "proposal's edits (scripts/bench/upstream.ts, OPENAPI_FETCH_EDITS). Our runtime registers no middleware of its own, so its calls take the changed path.",
    "",
    blocks.join("\n\n"),
  ].join("\n");
}

/**
 * The proposal for openapi-typescript's dist/lib/utils.cjs: createRef passes on as it is a part that is a pointer
 * parsing and escaping again would give back unchanged, and parses only parts that hold a pointer; the document walk
 * of the discriminator scan keeps one path array, which its callback reads at once, instead of a copy per node.
 */
export const OPENAPI_TYPESCRIPT_EDITS: readonly Edit[] = [
  {
    find: "function createRef(parts) {",
    put: `/** Whether parseRef and escapePointer give back a part's text after its "#": most pointers a transform passes on. */
function isPlainPointer(text) {
  return text.startsWith("#/") && text.indexOf("#/", 1) < 0 && !text.includes("%") && !text.includes("//") && !text.endsWith("/") && !/~(?![01])/.test(text);
}
function createRef(parts) {`,
  },
  {
    find: "    const maybeRef = refUtils_js.parseRef(String(part)).pointer;",
    put: `    const text = String(part);
    if (isPlainPointer(text)) {
      pointer += text.slice(1);
      continue;
    }
    const maybeRef = text.includes("#/") ? refUtils_js.parseRef(text).pointer : [];`,
  },
  {
    find: "      walk(obj[i], cb, path.concat(i));",
    put: `      path.push(i);
      walk(obj[i], cb, path);
      path.pop();`,
  },
  {
    find: "    walk(obj[k], cb, path.concat(k));",
    put: `    path.push(k);
    walk(obj[k], cb, path);
    path.pop();`,
  },
];

/** The text of openapi-typescript's dist/lib/utils.cjs as the proposal changes it. */
export async function changedOpenapiTypescriptUtils(): Promise<string> {
  const file = join(ROOT, "node_modules", "openapi-typescript", "dist", "lib", "utils.cjs");
  const changed = applyEdits(await readFile(file, "utf8"), OPENAPI_TYPESCRIPT_EDITS, "openapi-typescript's dist/lib/utils.cjs");
  return changed.replace(/^\/\/# sourceMappingURL=.*$/m, "");
}

/**
 * A copy of the built CLI (dist/) with a changed copy of openapi-typescript in a node_modules beside it, which Node
 * finds first; every other package resolves up to the repository's node_modules. Returns the copy's CLI.
 */
async function changedCli(): Promise<string> {
  const project = join(DIR, "ots-project");
  await rm(project, { recursive: true, force: true });
  await cp(join(ROOT, "dist"), join(project, "dist"), { recursive: true });
  const ots = join(project, "node_modules", "openapi-typescript");
  await cp(join(ROOT, "node_modules", "openapi-typescript"), ots, { recursive: true });
  await writeFile(join(ots, "dist", "lib", "utils.cjs"), await changedOpenapiTypescriptUtils());
  return join(project, relative(ROOT, builtCli()));
}

const GENERATION_CASES = [
  ["whole run", []],
  ["TypeScript only", ["--languages", "typescript", "--outputs", "none"]],
] as const;

/** One whole run of a built CLI on MS Graph into an emptied `out`; a failing run stops the benchmark. */
async function generateGraph(cli: string, which: string, out: string, flags: readonly string[]): Promise<ProcessRun> {
  await rm(out, { recursive: true, force: true });
  const run = await measureProcess(process.execPath, [cli, "generate", "--spec", GRAPH.file, "--out", out, "--force", ...flags]);
  if (run.code !== 0) throw new Error(`the CLI (openapi-typescript ${which}) failed on MS Graph:\n${run.stderr.slice(-2000)}`);
  return run;
}

/** The built CLI on MS Graph's description with openapi-typescript as installed and changed, rounds interleaved. */
export async function benchOpenapiTypescript(rounds: number): Promise<string> {
  await mkdir(DIR, { recursive: true });
  const clis = { "as installed": builtCli(), changed: await changedCli() };
  const runs = new Map<string, ProcessRun[]>();
  const out = join(DIR, "out");
  // One run of each first, untimed: each build keeps its own tool cache (compiled templates, validated descriptions).
  for (const [which, cli] of Object.entries(clis)) {
    log(`upstream: MS Graph, warm-up of the build with openapi-typescript ${which} ...`);
    await generateGraph(cli, which, out, GENERATION_CASES[1][1]);
  }
  for (let round = 0; round < rounds; round++) {
    for (const [what, flags] of GENERATION_CASES) {
      const order = round % 2 === 0 ? (["as installed", "changed"] as const) : (["changed", "as installed"] as const);
      for (const which of order) {
        log(`upstream: MS Graph, ${what}, openapi-typescript ${which}, round ${round + 1} of ${rounds} ...`);
        const run = await generateGraph(clis[which], which, out, flags);
        const key = `${what}|${which}`;
        runs.set(key, [...(runs.get(key) ?? []), run]);
      }
    }
  }
  await rm(out, { recursive: true, force: true });
  const rows = GENERATION_CASES.flatMap(([what]) =>
    (["as installed", "changed"] as const).map((which) => {
      const cell = { runs: runs.get(`${what}|${which}`)! };
      const base = { runs: runs.get(`${what}|as installed`)! };
      return [
        what,
        `openapi-typescript ${which}`,
        fmt.ms(wallOf(cell)),
        fmt.ms(cpuOf(cell)),
        fmt.ratio(cpuOf(cell) / cpuOf(base)),
        fmt.mib(worstRssOf(cell)),
        cell.runs.map((r) => r.load.toFixed(1)).join(", "),
      ];
    }),
  );
  return [
    "## Proposed upstream: openapi-typescript's createRef and discriminator walk",
    "",
    `The built CLI on ${GRAPH.label}, \`--force\`, ${rounds} rounds, the two builds alternating; the changed one is a copy of dist/ ` +
      "beside a copy of openapi-typescript whose dist/lib/utils.cjs has the proposal's edits (scripts/bench/upstream.ts, OPENAPI_TYPESCRIPT_EDITS). " +
      "Medians of wall and CPU time (user + system), the worst peak RSS, and the load average at each run's start.",
    "",
    table(["run", "build", "wall", "CPU", "CPU vs as installed", "peak RSS", "load"], rows),
  ].join("\n");
}
