// What the description deprecates, marked in the Python client (test/matrix/descriptions/docs-deprecated.yaml): a
// deprecated operation's methods carry typing_extensions.deprecated, so that type checkers flag their calls and each
// call warns with a DeprecationWarning, and a note in their docstring; deprecated parameters are named in the
// docstring, deprecated fields and schemas in their comments and docstrings.
import { mkdir, mkdtemp, rm } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { REPO_ROOT } from "../../../test/support/readme-examples.js";
import { runPython } from "./python-program.js";

const DOCS = join(REPO_ROOT, "test", "matrix", "descriptions", "docs-deprecated.yaml");
let dir: string;
const files = new Map<string, string>();

beforeAll(async () => {
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, ".tmp", "python-deprecated-"));
  const generated = await generate(DOCS, { languages: ["python"], outputs: [] });
  await writeFiles(dir, generated.files);
  for (const f of generated.files) files.set(f.path, f.content);
}, 120_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

/** The decorator lines, the def line and the docstring of a method of a client module. */
function method(module: string, name: string): string {
  const text = [...files].find(([path]) => path.endsWith(`/${module}`))?.[1] ?? "";
  const lines = text.split("\n");
  const at = lines.findIndex((l) => new RegExp(`^    (async )?def ${name}\\(`).test(l));
  expect(at, `${module} declares ${name}`).toBeGreaterThan(0);
  let start = at;
  while (/^ {4}@/.test(lines[start - 1] ?? "")) start--;
  const end = lines.findIndex((l, i) => i > at && /^ {8}"""$/.test(l));
  return lines.slice(start, end + 1).join("\n");
}

describe("deprecated operations, parameters and fields in the Python client", () => {
  it.each(["client.py", "aio.py"])("marks the deprecated operation's method of %s, and only it", (module) => {
    const legacy = method(module, "get_report_legacy");
    expect(legacy).toMatch(/^ {4}@_te\.deprecated\("getReportLegacy is deprecated: [^"]+"\)\n/);
    expect(legacy).toContain("Deprecated: the description marks this operation deprecated");
    const list = method(module, "list_reports");
    expect(list).not.toContain("@_te.deprecated");
    expect(list).toContain("Deprecated parameters: legacy_filter");
  });

  it("marks deprecated fields and schemas in the models and the types", () => {
    const texts = [...files].filter(([path]) => /\/(models|types)\/_models_o\.py$/.test(path)).map(([, text]) => text);
    expect(texts).toHaveLength(2);
    for (const text of texts) {
      // The field's attribute docstring, where editors show it.
      expect(text).toContain('    """Deprecated. Replaced by title."""\n');
      expect(text).toMatch(/class OldReport(?:Param)?\([^)]*\):\n {4}"""A report as the first release wrote it\.\n\n {4}Deprecated: /);
    }
  });

  it("warns when the deprecated method is called, sync and async, and not for the others", async () => {
    const program = [
      "import asyncio, warnings",
      "import matrix_docs",
      "from matrix_docs.aio import AsyncClient",
      "def warned(call):",
      "    with warnings.catch_warnings(record=True) as caught:",
      "        warnings.simplefilter('always')",
      "        try:",
      "            call()",
      "        except Exception:",
      "            pass",
      "    return [str(w.message) for w in caught if issubclass(w.category, DeprecationWarning)]",
      "client = matrix_docs.Client(base_url='http://127.0.0.1:1', token='t')",
      "aclient = AsyncClient(base_url='http://127.0.0.1:1', token='t')",
      "print(warned(lambda: client.get_report_legacy('r1', deadline=0.2)))",
      "print(warned(lambda: asyncio.run(aclient.get_report_legacy('r1', deadline=0.2))))",
      "print(warned(lambda: client.list_reports(deadline=0.2)))",
    ].join("\n");
    const out = (await runPython(program, [], dir, join(dir, "python"))).trim().split("\n");
    expect(out[0]).toContain("getReportLegacy is deprecated");
    expect(out[1]).toContain("getReportLegacy is deprecated");
    expect(out[2]).toBe("[]");
  });
});
