// The usage example in each generated method's docstring (an `Example:` section, from the fixtures' values): every
// operation's method of the service's client, sync and async, has one, and every one passes pyright strict with a
// client made as the README makes it.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../test/support/readme-examples.js";
import { diagnosticLine, type PyrightReport, pyrightStrict } from "./checkers.js";
import { runPython } from "./python-program.js";

const PACKAGE = "document_automation_service";
const GENERATED = join(REPO_ROOT, "generated", "python");
const ir = JSON.parse(readFileSync(join(REPO_ROOT, "generated", "ir.json"), "utf8")) as { operations: { pagination?: unknown }[] };

/** Each operation method's example, as the docstring holds it at run time, dedented. */
const EXTRACT = `
import inspect, json, textwrap
import ${PACKAGE}.client as sync_module, ${PACKAGE}.aio as async_module
out = []
for module, cls in ((sync_module, sync_module.Client), (async_module, async_module.AsyncClient)):
    source = inspect.getsource(module)
    operations = source.split("# -- operations --", 1)[1]
    for name, member in inspect.getmembers(cls, inspect.isfunction):
        # The section's own methods (a class after it, such as the raw-response view, has an __init__ there).
        if f"def {name}(" not in operations or name.startswith("__"):
            continue
        doc = inspect.getdoc(member) or ""
        example = doc.split("Example:\\n", 1)[1] if "Example:\\n" in doc else None
        if example is not None:
            lines = []
            for line in example.split("\\n"):
                if line and not line.startswith(" "):
                    break
                lines.append(line)
            example = textwrap.dedent("\\n".join(lines)).strip()
        out.append({"module": module.__name__.rsplit(".", 1)[1], "method": name, "code": example})
print(json.dumps(out))
`;

interface Example {
  readonly module: string;
  readonly method: string;
  readonly code: string | null;
}

let dir: string;
let found: Example[] = [];
let report: PyrightReport;

beforeAll(async () => {
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, ".tmp", "python-examples-"));
  found = JSON.parse(await runPython(EXTRACT, [], dir, GENERATED)) as Example[];
  await cp(join(GENERATED, PACKAGE), join(dir, PACKAGE), { recursive: true });
  await mkdir(join(dir, "examples"));
  for (const e of found) {
    if (e.code === null) continue;
    const client = e.module === "aio" ? `${PACKAGE}.aio.AsyncClient` : `${PACKAGE}.Client`;
    const make = `client = ${client}(base_url="https://api.example.com/latest", token="svc_sk_test")`;
    const body = e.module === "aio" ? `async def main() -> None:\n    ${make}\n${e.code.replace(/^/gm, "    ")}\n` : `${make}\n${e.code}\n`;
    await writeFile(
      join(dir, "examples", `${e.module}_${e.method}.py`),
      `import ${e.module === "aio" ? `${PACKAGE}.aio` : PACKAGE}\n\n${body}`,
    );
  }
  report = await pyrightStrict(dir, ["examples"]);
}, 300_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

describe("the usage example of each operation's method", () => {
  it("is in every operation method's docstring, sync and async", () => {
    const missing = found.filter((e) => e.code === null).map((e) => `${e.module}.${e.method}`);
    expect(missing).toEqual([]);
    // One method per operation, and an auto-paging one per paged read.
    const methods = ir.operations.length + ir.operations.filter((o) => o.pagination !== undefined).length;
    for (const module of ["client", "aio"]) expect(found.filter((e) => e.module === module)).toHaveLength(methods);
  });

  it("calls its method once, and passes pyright strict", () => {
    for (const e of found) {
      // A pager is made without awaiting, then iterated with `async for`.
      const awaited = e.module === "aio" && !e.code?.includes("async for ") ? "await " : "";
      expect(e.code?.split(`result = ${awaited}client.${e.method}(`).length, `${e.module}.${e.method}`).toBe(2);
    }
    const problems = report.generalDiagnostics.filter((d) => d.severity === "error").map((d) => diagnosticLine(dir, d));
    expect(problems).toEqual([]);
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(found.length);
  });
});
