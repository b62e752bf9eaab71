// Each language's program that pages the matrix's paged reads to the end (paging.ts): it iterates every item of
// each operation through the generated auto-paging function, with the call's header as a per-call option, and
// prints the items by operationId as JSON.
import { execFile } from "node:child_process";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { GO_RUNTIME, goRun } from "../../../targets/go/test/go-module.js";
import { venvPython } from "../../../targets/python/test/package.js";
import { CALL_HEADER, type PagedOperation } from "../paging.js";
import type { MatrixPackage } from "./driver.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));

/** Items by operationId; for Python, the sync client's and the async client's runs under their own keys. */
export type PagedItems = Record<string, unknown[]>;

/** Pages every operation of a package against `baseUrl`. */
export type MatrixPager = (pkg: MatrixPackage, operations: readonly PagedOperation[], baseUrl: string, work: string) => Promise<PagedItems>;

const upper = (id: string) => id[0]!.toUpperCase() + id.slice(1);
const snake = (id: string) => id.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);

const typescriptPager: MatrixPager = async (pkg, operations, baseUrl, work) => {
  const script = join(work, `page-${pkg.name}.mts`);
  await writeFile(
    script,
    `const sdk = await import(${JSON.stringify(join(pkg.out, "index.ts"))});
const client = sdk.createClient({ baseUrl: ${JSON.stringify(baseUrl)} });
const out: Record<string, unknown[]> = {};
const options = { headers: { ${JSON.stringify(CALL_HEADER.name)}: ${JSON.stringify(CALL_HEADER.value)} } };
for (const [id, params] of ${JSON.stringify(operations.map((o) => [o.id, o.params]))}) {
  out[id] = [];
  const paginate = sdk["paginate" + id[0].toUpperCase() + id.slice(1)];
  // An operation without parameters takes the options second.
  for await (const item of params ? paginate(client, {}, options) : paginate(client, options)) out[id].push(item);
}
console.log(JSON.stringify(out));
`,
  );
  const { stdout } = await run(process.execPath, ["--import", "tsx", script], { cwd: root, timeout: 120_000 });
  return JSON.parse(stdout) as PagedItems;
};

const pythonPager: MatrixPager = async (pkg, operations, baseUrl) => {
  const folder = join(pkg.out, "python");
  const program = `
import asyncio, importlib, json, os, sys
folder, base_url, operations = sys.argv[1], sys.argv[2], json.loads(sys.argv[3])
[package] = [n for n in sorted(os.listdir(folder)) if os.path.isfile(os.path.join(folder, n, "__init__.py"))]
sys.path.insert(0, folder)
sdk = importlib.import_module(package)
headers = {${JSON.stringify(CALL_HEADER.name)}: ${JSON.stringify(CALL_HEADER.value)}}
plain = lambda item: item.model_dump(mode="json") if hasattr(item, "model_dump") else item
out = {}
with sdk.Client(base_url=base_url) as client:
    for op in operations:
        out[op] = [plain(item) for item in getattr(client, "paginate_" + op)(extra_headers=headers)]
async def asynchronous():
    async with sdk.AsyncClient(base_url=base_url) as client:
        for op in operations:
            out["async " + op] = [plain(item) async for item in getattr(client, "paginate_" + op)(extra_headers=headers)]
asyncio.run(asynchronous())
print(json.dumps(out))
`;
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
  const { stdout } = await run(venvPython, ["-c", program, folder, baseUrl, JSON.stringify(operations.map((o) => snake(o.id)))], {
    env,
    timeout: 120_000,
  });
  const parsed = JSON.parse(stdout) as PagedItems;
  // Back to operationIds, the async run's beside the sync one's.
  return Object.fromEntries(
    operations.flatMap((o) => [
      [o.id, parsed[snake(o.id)] ?? []],
      [`async ${o.id}`, parsed[`async ${snake(o.id)}`] ?? []],
    ]),
  );
};

const goPager: MatrixPager = async (pkg, operations, baseUrl, work) => {
  const generated = join(pkg.out, "go");
  const modulePath = /^module (\S+)$/m.exec(await readFile(join(generated, "go.mod"), "utf8"))![1]!;
  const dir = join(work, `page-${pkg.name}-go`);
  await mkdir(join(dir, "main"), { recursive: true });
  const calls = operations.map(
    (o) =>
      `\tout[${JSON.stringify(o.id)}] = all(c.Paginate${upper(o.id)}(ctx, ${o.params ? "nil, " : ""}sdk.CallHeader(${JSON.stringify(CALL_HEADER.name)}, ${JSON.stringify(CALL_HEADER.value)})))`,
  );
  await writeFile(
    join(dir, "main", "main.go"),
    `package main

import (
\t"context"
\t"encoding/json"
\t"fmt"
\t"os"

\tsdk "${modulePath}"
)

func all[T any](seq func(yield func(T, error) bool)) []any {
\titems := []any{}
\tseq(func(item T, err error) bool {
\t\tif err != nil {
\t\t\tfmt.Fprintln(os.Stderr, err)
\t\t\tos.Exit(1)
\t\t}
\t\titems = append(items, item)
\t\treturn true
\t})
\treturn items
}

func main() {
\tc, err := sdk.New(sdk.WithBaseURL(os.Args[1]))
\tif err != nil {
\t\tfmt.Fprintln(os.Stderr, err)
\t\tos.Exit(1)
\t}
\tctx := context.Background()
\tout := map[string][]any{}
${calls.join("\n")}
\ttext, _ := json.Marshal(out)
\tfmt.Println(string(text))
}
`,
  );
  await writeFile(join(dir, "main", "go.mod"), `module example.com/matrixpager\n\ngo 1.22\n\nrequire ${modulePath} v0.0.0\n`);
  const uses = [generated, GO_RUNTIME, join(dir, "main")].map((f) => relative(dir, f).split("\\").join("/"));
  await writeFile(join(dir, "go.work"), `go 1.22\n\nuse (\n${uses.map((u) => `\t${u}\n`).join("")})\n`);
  const outcome = await goRun(join(dir, "main"), "go", ["run", ".", baseUrl], { GOWORK: join(dir, "go.work") });
  if (outcome.code !== 0) throw new Error(`go run: ${outcome.output}`);
  // The program's JSON is its one line that starts an object; go run may add lines of its own on stderr.
  return JSON.parse(outcome.output.split("\n").find((line) => line.startsWith("{"))!) as PagedItems;
};

export const PAGERS: Readonly<Record<string, MatrixPager>> = {
  typescript: typescriptPager,
  python: pythonPager,
  go: goPager,
};
