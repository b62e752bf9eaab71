// The service's Python package as its users meet it (generated/python): request bodies typed exactly per variant
// (a misspelt field is a type error under strict pyright and mypy --strict), "exactly one of" refused before
// anything is sent, a job's payload read into its variant's model, field and method documentation where editors show
// it, each class declared in one package only; and (status-answers.yaml beside this file) each success status's
// answer read as its own model.
import { cp, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { emitPython } from "../emit/index.js";
import { diagnosticLine, mypyStrict, pyrightStrict } from "./checkers.js";
import { generatedPythonModule, pythonRoot } from "./package.js";
import { runPython } from "./python-program.js";

const here = fileURLToPath(new URL("./", import.meta.url));
const module = generatedPythonModule();
let base: string;

/** `# expected error` marks a line both checkers must refuse; every other line must pass. */
const CONSUMER = `from __future__ import annotations

from ${module} import Client
from ${module}.types import WorkflowPdfAiSplitRequestParam

client = Client(base_url="http://127.0.0.1:1")


def accepted() -> None:
    client.submit_workflow({"template": "pdf_ai_split", "pofid": "P", "locale": "de"})
    client.submit_workflow({"idp_collection": "invoice", "pofid": "P"})
    body: WorkflowPdfAiSplitRequestParam = {"template": "pdf_ai_split", "file": b"%PDF"}
    client.submit_workflow(body)


def refused() -> None:
    client.submit_workflow({"template": "pdf_ai_split", "pofid": "P", "lang": "de"})  # expected error
    client.submit_workflow({"idp_collection": "invoice", "pofidd": "P"})  # expected error
`;

const expectedLines = CONSUMER.split("\n").flatMap((line, i) => (line.endsWith("# expected error") ? [i + 1] : []));

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-exact-types-"));
  await cp(join(pythonRoot, module), join(base, module), { recursive: true });
  await writeFile(join(base, "consumer.py"), CONSUMER);
}, 60_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

describe("python request bodies typed exactly", () => {
  it("refuses a misspelt field of a pipeline body under strict pyright, and accepts the declared ones", async () => {
    const report = await pyrightStrict(base, ["consumer.py"]);
    const lines = report.generalDiagnostics.filter((d) => d.severity === "error").map((d) => (d.range?.start.line ?? -1) + 1);
    expect(
      [...new Set(lines)].sort((a, b) => a - b),
      report.generalDiagnostics.map((d) => diagnosticLine(base, d)).join("\n"),
    ).toEqual(expectedLines);
  }, 240_000);

  it("refuses a misspelt field of a pipeline body under mypy --strict", async () => {
    const { output } = await mypyStrict(base, ["consumer.py"]);
    const lines = [...output.matchAll(/^consumer\.py:(\d+): error/gm)].map((m) => Number(m[1]));
    expect(
      [...new Set(lines)].sort((a, b) => a - b),
      output,
    ).toEqual(expectedLines);
  }, 240_000);
});

/** Sends bodies that break "exactly one of" through an httpx transport that counts what reaches it. */
const REFUSAL = `
import json, httpx
import ${module} as sdk
from paperoffice_runtime import SdkError

sent = []
def handler(request):
    sent.append(request.url.path)
    return httpx.Response(500)

client = sdk.Client(token="svc_sk_python_tests", base_url="http://127.0.0.1:1/latest", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
out = []
for body in (
    {"idp_collection": "accounting_datev", "file_1": b"%PDF", "pofid": "P"},
    {"idp_collection": "accounting_datev"},
    {"template": "pdf_ai_split", "file": b"%PDF", "pofid": "P"},
):
    try:
        client.submit_workflow(body)
        out.append("sent")
    except SdkError as error:
        out.append(str(error))
# The generic methods take any mapping and check it as the typed one does.
generic = []
for send in (lambda body: client.submit_job("workflow", body), lambda body: client.start_job("workflow", body)):
    for body in (
        {"idp_collection": "accounting_datev", "file_1": b"%PDF", "pofid": "P"},
        {"idp_collection": "accounting_datev"},
        {"template": "pdf_ai_split", "file": b"%PDF", "pofid": "P"},
    ):
        try:
            send(body)
            generic.append("sent")
        except SdkError as error:
            generic.append(str(error))
print(json.dumps({"errors": out, "generic": generic, "sent": sent}))
`;

describe("python exactly-one groups", () => {
  it("refuses a body with both or none of an exactly-one group before sending, naming the fields", async () => {
    const result = JSON.parse(await runPython(REFUSAL, [], base, base)) as { errors: string[]; generic: string[]; sent: string[] };
    expect(result.sent).toEqual([]);
    // submit_job and start_job refuse the same bodies with the same errors.
    expect(result.generic).toEqual([...result.errors, ...result.errors]);
    expect(result.errors[0]).toMatch(/exactly one of file_1, pofid must be set, 2 are \(file_1, pofid\); nothing was sent/);
    expect(result.errors[0]).toMatch(/variant 'accounting_datev'/);
    expect(result.errors[1]).toMatch(/exactly one of file_1, pofid must be set, none is/);
    expect(result.errors[2]).toMatch(/exactly one of file, pofid must be set, 2 are \(file, pofid\)/);
  }, 60_000);
});

describe("python job payloads by variant", () => {
  let mock: MockServer;
  beforeAll(async () => {
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("reads the payload of an invoice body into WorkflowInvoicePayload, of another variant into its own type", async () => {
    const program = `
import json, sys
import ${module} as sdk
from ${module}.models import WorkflowInvoicePayload

client = sdk.Client(token="svc_sk_python_tests", base_url=sys.argv[1], poll_interval=(0.05, 0.1))
invoice = client.submit_workflow({"idp_collection": "invoice", "pofid": "P"})
split = client.submit_workflow({"template": "pdf_ai_split", "pofid": "P"})
print(json.dumps({
    "invoice": type(invoice.data).__name__,
    "invoice_model": isinstance(invoice.data, WorkflowInvoicePayload),
    "pages": hasattr(invoice.data, "pages_idp"),
    "split": type(split.data).__name__,
}))
`;
    const result = JSON.parse(await runPython(program, [mock.url], base, base)) as Record<string, unknown>;
    expect(result).toEqual({ invoice: "WorkflowInvoicePayload", invoice_model: true, pages: true, split: "dict" });
  }, 60_000);
});

/** Reads the generated modules' syntax trees: field docstrings, method sections, and where each class is declared. */
const DOCS = `
import ast, json, pathlib, sys
root = pathlib.Path(sys.argv[1])

def classes(folder):
    found = {}
    for path in sorted((root / folder).glob("*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                found[node.name] = node
    return found

def declared(folder):
    """Every name a module of the package declares (classes, aliases, functional TypedDicts), but the helpers
    of _base that both packages share by design (JsonValue, FileInput...)."""
    names = []
    for path in sorted((root / folder).glob("_models_*.py")):
        for node in ast.parse(path.read_text()).body:
            if isinstance(node, ast.ClassDef):
                names.append(node.name)
            elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
                names.append(node.target.id)
            elif isinstance(node, ast.Assign):
                names.extend(t.id for t in node.targets if isinstance(t, ast.Name))
    return names

def field_docs(node):
    docs = {}
    for first, second in zip(node.body, node.body[1:]):
        if isinstance(first, ast.AnnAssign) and isinstance(first.target, ast.Name):
            if isinstance(second, ast.Expr) and isinstance(second.value, ast.Constant) and isinstance(second.value.value, str):
                docs[first.target.id] = second.value.value
    return docs

def comments(folder):
    return sum(1 for path in (root / folder).glob("*.py") for line in path.read_text().splitlines() if line.startswith("    # "))

types, models = classes("types"), classes("models")
methods = []
for name in ("client.py", "aio.py"):
    for node in ast.walk(ast.parse((root / name).read_text())):
        if isinstance(node, ast.ClassDef) and node.name in ("Client", "AsyncClient"):
            for item in node.body:
                if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)) and not item.name.startswith("_"):
                    params = [a.arg for a in item.args.args[1:] + item.args.kwonlyargs]
                    is_property = any(isinstance(d, ast.Name) and d.id == "property" for d in item.decorator_list)
                    returns_none = isinstance(item.returns, ast.Constant) and item.returns.value is None
                    methods.append({
                        "name": f"{node.name}.{item.name}",
                        "doc": ast.get_docstring(item) or "",
                        "params": params,
                        "property": is_property,
                        "returns": not returns_none,
                    })
print(json.dumps({
    "typesDocs": {k: field_docs(v) for k, v in types.items()},
    "modelsDocs": {k: field_docs(v) for k, v in models.items()},
    "typesComments": comments("types"),
    "modelsComments": comments("models"),
    "typesNames": declared("types"),
    "modelsNames": declared("models"),
    "methods": methods,
}))
`;

interface DocsReport {
  typesDocs: Record<string, Record<string, string>>;
  modelsDocs: Record<string, Record<string, string>>;
  typesComments: number;
  modelsComments: number;
  typesNames: string[];
  modelsNames: string[];
  methods: { name: string; doc: string; params: string[]; property: boolean; returns: boolean }[];
}

describe("python documentation where editors show it", () => {
  let report: DocsReport;
  beforeAll(async () => {
    report = JSON.parse(await runPython(DOCS, [join(base, module)], base, base)) as DocsReport;
  }, 60_000);

  it("documents TypedDict keys and model fields with whole attribute docstrings, not # comments", () => {
    // A description of several sentences, whole (the first line alone stops at "cap about").
    const hold = "up to a dynamic timeout (minimum about 20 s, cap about 295 s, depending on priority";
    const flat = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ");
    expect(flat(report.typesDocs.WorkflowPdfAiSplitRequestParam?.client_wait)).toContain(hold);
    expect(flat(report.modelsDocs.VoiceTtsRequest?.client_wait)).toContain(hold);
    expect(flat(report.typesDocs.WorkflowPdfAiSplitRequestParam?.pofid)).toBe("Existing document. One of `file` and `pofid`.");
    expect(report.typesComments).toBe(0);
    expect(report.modelsComments).toBe(0);
  });

  it("gives every public method Google-style Args:, Returns: and Raises: sections", () => {
    const missing: string[] = [];
    for (const m of report.methods) {
      if (m.property) continue;
      if (m.params.length > 0 && !/^Args:$/m.test(m.doc)) missing.push(`${m.name}: Args`);
      for (const p of m.params) if (!new RegExp(`^    ${p}: \\S`, "m").test(m.doc)) missing.push(`${m.name}: ${p}`);
      if (m.returns && !/^Returns:\n {4}\S/m.test(m.doc)) missing.push(`${m.name}: Returns`);
      if (m.params.length > 0 && !/^Raises:\n {4}\w+: \S/m.test(m.doc)) missing.push(`${m.name}: Raises`);
    }
    expect(missing).toEqual([]);
    expect(report.methods.length).toBeGreaterThan(40);
  });

  it("declares no name in both the types and the models package", () => {
    const models = new Set(report.modelsNames);
    expect(report.typesNames.filter((n) => models.has(n))).toEqual([]);
    // Each package declares its names once, and both declare something (the check is not vacuous).
    expect(new Set(report.typesNames).size).toBe(report.typesNames.length);
    expect(models.size).toBe(report.modelsNames.length);
    expect(report.typesNames.length).toBeGreaterThan(90);
    expect(models.size).toBeGreaterThan(90);
  });
});

describe("python answers by status", () => {
  let folder: string;
  beforeAll(async () => {
    folder = await mkdtemp(join(tmpdir(), "python-status-answers-"));
    const generated = await generate(join(here, "status-answers.yaml"), { emitters: [emitPython] });
    await writeFiles(folder, generated.files);
  }, 120_000);
  afterAll(async () => {
    if (folder) await rm(folder, { recursive: true, force: true });
  });

  it("reads each success status's JSON into that status's model, not the first of the union that fits", async () => {
    const program = `
import json, httpx
import status_answers as sdk

def handler(request):
    if json.loads(request.content)["item"] == "later":
        return httpx.Response(202, json={"receipt_id": "r1"})
    return httpx.Response(200, json={"order_id": "o1"})

client = sdk.Client(base_url="http://127.0.0.1:1", http_client=httpx.Client(transport=httpx.MockTransport(handler)))
print(json.dumps([type(client.place_order({"item": i})).__name__ for i in ("now", "later")]))
`;
    const out = JSON.parse(await runPython(program, [], folder, join(folder, "python"))) as string[];
    expect(out).toEqual(["dict", "Receipt"]);
  }, 60_000);
});
