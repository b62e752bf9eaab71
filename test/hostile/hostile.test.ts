// Small descriptions written to break code generators, one per theme. Each is generated twice (byte-identical),
// compiled with strict tsc, imported in a child process with a sentinel that any run text would set, and imported
// as Python the same way; the invalid ones fail with JSON pointers and exit 1.
import { execFile } from "node:child_process";
import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join, relative, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import ts from "typescript";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../generator/generate.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import { MAX_FILE_NAME } from "../../targets/typescript/emit/names.js";
import { diagnosticLine, mypyStrict, pyrightStrict } from "../../targets/python/test/checkers.js";
import { venvBin, venvPython } from "../../targets/python/test/package.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../", import.meta.url));
const here = fileURLToPath(new URL("./", import.meta.url));
const THEMES = (await readdir(join(here, "descriptions"))).filter((f) => f.endsWith(".yaml")).map((f) => f.slice(0, -".yaml".length));

/**
 * Code that must compile against each generated client, and code that must not (`@ts-expect-error`: an unused
 * directive is itself an error, so a type that accepts too much fails the compile).
 */
const CONSUMERS: Readonly<Record<string, string>> = {
  shapes: `
import { createClient, makeThing } from "./index.js";
const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "t" });
export const ok = () => makeThing(client, { id: "x", flag: 1 }, { name: "n", a: "a" });
// @ts-expect-error a body without name: the own properties apply to every member of the oneOf
export const noName = () => makeThing(client, { id: "x", flag: 1 }, { a: "a" });
// @ts-expect-error a path parameter cannot be null
export const nullId = () => makeThing(client, { id: null, flag: 1 }, { name: "n", a: "a" });
`,
  "runtime-names": `
import { createClient, createClient2, isBrowser, isBrowser2, ServiceError, ServiceCodeError, SdkError, SdkError2, AbortedError, AbortedError2, serviceModel, errorClasses } from "./index.js";
export const all = [createClient, createClient2, isBrowser, isBrowser2, ServiceError, ServiceCodeError, SdkError, SdkError2, AbortedError, AbortedError2, serviceModel, errorClasses];
`,
  "each-other": `
import { get, getOperation, getItem, getItem2, getItem3, getParams, type GetParams } from "./index.js";
export const all = [get, getOperation, getItem, getItem2, getItem3, getParams];
export const params: GetParams = { q: "x" };
`,
  locations: `
import { createClient, send } from "./index.js";
const client = createClient({ baseUrl: "http://127.0.0.1:1", token: "t" });
export const ok = () => send(client, { "X-Request-Id": "r", "X-Tags": ["a"], session: "s" }, {});
// @ts-expect-error the required header parameter is missing
export const noHeader = () => send(client, { session: "s" }, {});
`,
};

let base: string;
const outOf = (theme: string) => join(base, theme, "out");
const generated = new Map<string, Awaited<ReturnType<typeof generate>>["files"]>();
const twice = new Map<string, boolean>();

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "hostile-"));
  // The generated TypeScript is ESM, as in a project of type module.
  await writeFile(join(base, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  for (const theme of THEMES) {
    const out = outOf(theme);
    const source = join(here, "descriptions", `${theme}.yaml`);
    const a = await generate(source, { ...withLocalRuntime(out) });
    const b = await generate(source, { ...withLocalRuntime(out) });
    twice.set(theme, JSON.stringify(a.files) === JSON.stringify(b.files));
    generated.set(theme, a.files);
    await writeFiles(out, a.files);
    const consumer = CONSUMERS[theme];
    if (consumer) await writeFile(join(out, "consumer.ts"), consumer);
  }
}, 240_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

async function listFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true, recursive: true });
  return entries.filter((e) => e.isFile()).map((e) => join(e.parentPath, e.name));
}

describe("hostile descriptions", () => {
  it("are at least one per theme", () => {
    expect(THEMES.sort()).toEqual(
      ["each-other", "file-names", "injection", "locations", "long-names", "python-text", "runtime-names", "shapes"].sort(),
    );
  });

  it.each(THEMES)("%s generates byte-identical output twice", (theme) => {
    expect(generated.get(theme)?.length).toBeGreaterThan(0);
    expect(twice.get(theme)).toBe(true);
  });

  it.each(THEMES)("%s writes only inside its output folder, with bounded file names", async (theme) => {
    // Everything below the theme's folder is the output folder itself.
    const written = await listFiles(join(base, theme));
    for (const file of written) {
      expect(resolve(file).startsWith(`${resolve(outOf(theme))}${sep}`), file).toBe(true);
      const name = file.slice(file.lastIndexOf(sep) + 1);
      expect(Buffer.byteLength(name), name).toBeLessThanOrEqual(MAX_FILE_NAME + ".json".length);
    }
    const fixtures = written.filter((f) => relative(outOf(theme), f).startsWith(`fixtures${sep}operations${sep}`));
    for (const f of fixtures) expect(relative(join(outOf(theme), "fixtures", "operations"), f)).toMatch(/^[A-Za-z0-9_$]+\.json$/);
  });

  it("compile under strict tsc with no diagnostics, and what they must refuse does not compile", () => {
    const config = ts.readConfigFile(join(root, "tsconfig.json"), ts.sys.readFile);
    const options = ts.parseJsonConfigFileContent(config.config, ts.sys, root).options;
    const roots = THEMES.flatMap((t) => [
      join(outOf(t), "index.ts"),
      join(outOf(t), "webhooks.ts"),
      ...(CONSUMERS[t] ? [join(outOf(t), "consumer.ts")] : []),
    ]);
    const program = ts.createProgram(roots, { ...options, noEmit: true });
    const diagnostics = ts.getPreEmitDiagnostics(program).map((d) => {
      const where = d.file ? `${relative(base, d.file.fileName)}:${d.file.getLineAndCharacterOfPosition(d.start ?? 0).line + 1}` : "";
      return `${where} ${ts.flattenDiagnosticMessageText(d.messageText, "\n")}`;
    });
    expect(diagnostics.slice(0, 40)).toEqual([]);
  }, 240_000);

  it("import in a child process without running any of their text", async () => {
    const script = join(base, "import-all.mts");
    await writeFile(
      script,
      `const g = globalThis as { HOSTILE_RAN?: unknown };
const result: Record<string, string[]> = {};
for (const dir of ${JSON.stringify(THEMES.map(outOf))}) {
  const index = await import(dir + "/index.ts");
  const hooks = await import(dir + "/webhooks.ts");
  result[dir] = [...Object.keys(index), ...Object.keys(hooks)];
}
console.log(JSON.stringify({ ran: g.HOSTILE_RAN ?? null, result }));
`,
    );
    const { stdout } = await run(process.execPath, ["--import", "tsx", script], { cwd: root, timeout: 120_000 });
    const { ran, result } = JSON.parse(stdout) as { ran: unknown; result: Record<string, string[]> };
    expect(ran).toBeNull();
    for (const theme of THEMES) expect(result[outOf(theme)], theme).toContain("createClient");
    expect(result[outOf("runtime-names")]).toEqual(
      // SERVICE's class would be the runtime's ServiceError, a class of the error tree: it is ServiceCodeError.
      expect.arrayContaining(["createClient2", "ServiceCodeError", "SdkError2", "AbortedError2"]),
    );
    expect(result[outOf("injection")]).not.toContain("pwned");
  }, 180_000);

  it("import as Python packages without running any of their text", async () => {
    const program = `
import builtins, importlib, json, os, sys
seen = {}
for d in ${JSON.stringify(THEMES.map((t) => join(outOf(t), "python")))}:
    # The module is named after the description's title: the one folder with an __init__.py.
    [mod] = [n for n in sorted(os.listdir(d)) if os.path.isfile(os.path.join(d, n, "__init__.py"))]
    sys.path.insert(0, d)
    pkg = importlib.import_module(mod)
    for sub in ("client", "errors", "types", "webhooks"):
        importlib.import_module(mod + "." + sub)
    seen[d] = sorted(vars(pkg.errors).keys())
    for name in [m for m in sys.modules if m == mod or m.startswith(mod + ".")]:
        del sys.modules[name]
    sys.path.remove(d)
print(json.dumps({"ran": getattr(builtins, "HOSTILE_RAN", None), "seen": seen}))
`;
    const { stdout } = await run(venvPython, ["-c", program], { cwd: base, timeout: 120_000 });
    const { ran, seen } = JSON.parse(stdout) as { ran: unknown; seen: Record<string, string[]> };
    expect(ran).toBeNull();
    expect(Object.keys(seen)).toHaveLength(THEMES.length);
    // errors.py's own classes survive beside generated classes of the same names.
    expect(seen[join(outOf("runtime-names"), "python")]).toEqual(
      expect.arrayContaining(["ServiceError", "SdkError", "DeadlineExceededError"]),
    );
  }, 180_000);

  it("type-check as Python packages with strict pyright, zero errors", async () => {
    const report = await pyrightStrict(
      base,
      THEMES.map((t) => relative(base, join(outOf(t), "python"))),
    );
    const problems = report.generalDiagnostics.map((d) => diagnosticLine(base, d));
    expect(problems).toEqual([]);
    expect(report.summary.errorCount).toBe(0);
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(THEMES.length * 8);
  }, 300_000);

  it("type-check as Python packages with mypy --strict, zero errors", async () => {
    const problems: string[] = [];
    for (const theme of THEMES) {
      const folder = join(outOf(theme), "python");
      const [module] = (await readdir(folder, { withFileTypes: true })).filter((e) => e.isDirectory()).map((e) => e.name);
      const result = await mypyStrict(folder, [module!]);
      if (!result.clean) problems.push(`${theme}: ${result.output.trim()}`);
    }
    expect(problems).toEqual([]);
  }, 600_000);

  it("are clean under ruff check", async () => {
    // Formatting is checked on the service's package (targets/python/test/python.test.ts); here, only the lint rules.
    const problems: string[] = [];
    for (const theme of THEMES) {
      const folder = join(outOf(theme), "python");
      await run(`${venvBin}ruff`, ["check", "--no-cache", "--output-format", "concise", "."], { cwd: folder }).catch(
        (error: { stdout?: string; stderr?: string }) => problems.push(`${theme}: ${error.stdout ?? ""}${error.stderr ?? ""}`),
      );
    }
    expect(problems).toEqual([]);
  }, 120_000);
});

describe("parameter locations on the wire", () => {
  let server: Server;
  let received: { url: string; headers: IncomingMessage["headers"]; body: string } | undefined;
  beforeAll(async () => {
    server = createServer((req, res) => {
      let body = "";
      req.on("data", (c: Buffer) => {
        body += c.toString("utf8");
      });
      req.on("end", () => {
        received = { url: req.url ?? "", headers: req.headers, body };
        res.writeHead(200, { "content-type": "application/json" }).end("{}");
      });
    });
    await new Promise<void>((ok) => server.listen(0, "127.0.0.1", ok));
  });
  afterAll(async () => {
    await new Promise((ok) => server.close(ok));
  });

  it("sends header and cookie parameters, and __proto__ and constructor as fields", async () => {
    const client = (await import(join(outOf("locations"), "index.ts"))) as {
      createClient(o: object): unknown;
      send(client: unknown, params: object, body: object): Promise<unknown>;
    };
    const { port } = server.address() as AddressInfo;
    const c = client.createClient({ baseUrl: `http://127.0.0.1:${port}/latest`, token: "t" });
    const params = Object.fromEntries([
      ["X-Request-Id", "r-1"],
      ["X-Tags", ["a", "b"]],
      ["session", "s 1"],
      ["__proto__", "p"],
      ["constructor", "c"],
    ]);
    const body = Object.fromEntries([
      ["__proto__", "bp"],
      ["constructor", "bc"],
      ["toString", "bt"],
    ]);
    await client.send(c, params, body);
    expect(received?.headers["x-request-id"]).toBe("r-1");
    expect(received?.headers["x-tags"]).toBe("a,b");
    expect(received?.headers.cookie).toBe("session=s%201");
    const query = new URL(received?.url ?? "/", "http://x").searchParams;
    expect(query.get("__proto__")).toBe("p");
    expect(query.get("constructor")).toBe("c");
    expect(JSON.parse(received?.body ?? "{}", (_k, v: unknown) => v)).toEqual(
      JSON.parse('{"__proto__":"bp","constructor":"bc","toString":"bt"}'),
    );
  });

  it("the Python client sends header and cookie parameters too, and Object.prototype's names as query and fields", async () => {
    const { port } = server.address() as AddressInfo;
    const program = `
import sys
sys.path.insert(0, sys.argv[1])
from locations.client import Client
client = Client("t", "http://127.0.0.1:${port}/latest")
client.send(
    {"__proto__": "bp", "constructor": "bc", "toString": "bt"},
    x_request_id="r-1", x_tags=["a", "b"], session="s 1;x=2", proto="p", constructor="c",
)
`;
    received = undefined as typeof received;
    await run(venvPython, ["-c", program, join(outOf("locations"), "python")], { cwd: base, timeout: 60_000 });
    expect(received?.headers["x-request-id"]).toBe("r-1");
    expect(received?.headers["x-tags"]).toBe("a,b");
    // Escaped as the TypeScript client does (encodeURIComponent): a value cannot add a cookie.
    expect(received?.headers.cookie).toBe("session=s%201%3Bx%3D2");
    const query = new URL(received?.url ?? "/", "http://x").searchParams;
    expect(query.get("__proto__")).toBe("p");
    expect(query.get("constructor")).toBe("c");
    expect(JSON.parse(received?.body ?? "{}", (_k, v: unknown) => v)).toEqual(
      JSON.parse('{"__proto__":"bp","constructor":"bc","toString":"bt"}'),
    );
  }, 120_000);

  it("the Python client sends no Cookie header when no cookie parameter is given", async () => {
    const { port } = server.address() as AddressInfo;
    const program = `
import sys
sys.path.insert(0, sys.argv[1])
from locations.client import Client
Client("t", "http://127.0.0.1:${port}/latest").send({}, x_request_id="r")
`;
    received = undefined as typeof received;
    await run(venvPython, ["-c", program, join(outOf("locations"), "python")], { cwd: base, timeout: 60_000 });
    expect(received?.headers["x-request-id"]).toBe("r");
    expect(received?.headers.cookie).toBeUndefined();
  }, 120_000);

  it("leaves out a __proto__ parameter that was not given, rather than sending the prototype", async () => {
    const client = (await import(join(outOf("locations"), "index.ts"))) as {
      createClient(o: object): unknown;
      send(client: unknown, params: object, body: object): Promise<unknown>;
    };
    const { port } = server.address() as AddressInfo;
    await client.send(client.createClient({ baseUrl: `http://127.0.0.1:${port}/latest`, token: "t" }), { "X-Request-Id": "r" }, {});
    const query = new URL(received?.url ?? "/", "http://x").searchParams;
    expect(query.has("__proto__")).toBe(false);
  });
});

/** The generate command on test/hostile/invalid/<name>.yaml: its exit code and standard error. */
async function generateInvalid(name: string): Promise<{ code: number; stderr: string }> {
  return run(
    join(root, "node_modules/.bin/tsx"),
    [join(root, "generator/cli.ts"), "generate", "--spec", join(here, "invalid", `${name}.yaml`), "--out", join(base, `invalid-${name}`)],
    { cwd: root, timeout: 120_000 },
  ).then(
    () => ({ code: 0, stderr: "" }),
    (e: { code: number; stderr: string }) => ({ code: e.code, stderr: e.stderr }),
  );
}

describe("invalid descriptions", () => {
  it("path parameters against the path template: one line per problem with its JSON pointer, no stack trace, exit 1", async () => {
    const result = await generateInvalid("path-params");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('/paths/~1items/get/parameters/0: path parameter "id" is not in the path template /items');
    expect(result.stderr).toContain(
      "/paths/~1items~1{itemId}/get: path template variable {itemId} of GET /items/{itemId} has no path parameter",
    );
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it("a Swagger 2.0 description: says so at /swagger, that OpenAPI 3.0 and 3.1 are read, and how to convert it", async () => {
    const result = await generateInvalid("swagger-2");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '/swagger: this is a Swagger 2.0 description (swagger: "2.0"); only OpenAPI 3.0 and 3.1 descriptions are read.',
    );
    expect(result.stderr).toContain("swagger2openapi");
    expect(result.stderr).toContain("Swagger Editor (Edit > Convert to OpenAPI 3)");
    expect(result.stderr).not.toContain("/openapi:");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it("unknown type names in 3.1, as a string and in a list: each at its type keyword with the known names", async () => {
    const result = await generateInvalid("unknown-type-31");
    expect(result.code).toBe(1);
    const names = "the type names are array, boolean, integer, null, number, object, string";
    expect(result.stderr).toContain(`/paths/~1items~1{id}/get/parameters/0/schema/type: unknown type "integr"; ${names}`);
    expect(result.stderr).toContain(`/components/schemas/Item/type: unknown type "objekt"; ${names}`);
    expect(result.stderr).toContain(`/components/schemas/Item/properties/tags/items/type/0: unknown type "strin"; ${names}`);
    // The property named type and the example holding { type: objekt } are no schemas.
    expect(result.stderr).toContain("3 problem(s)");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);

  it("an unknown type name in 3.0, and 3.1's list form: the known names instead of the OpenAPI schema's wording", async () => {
    const result = await generateInvalid("unknown-type-30");
    expect(result.code).toBe(1);
    expect(result.stderr).toContain(
      '/paths/~1items/get/responses/200/content/application~1json/schema/items/type: unknown type "objekt"; the type names are array, boolean, integer, number, object, string',
    );
    expect(result.stderr).toContain("/components/schemas/Maybe/type: a list of type names is OpenAPI 3.1");
    expect(result.stderr).not.toContain("must be equal to one of the allowed values");
    expect(result.stderr).not.toMatch(/\n\s+at /);
  }, 120_000);
});
