// Names that would shadow what the generated annotations use (builtin-names.yaml beside this file): a pydantic
// model evaluates its annotations in the class namespace, where a field `list: ... = None` turns a later
// `list[str]` into `None[str]` and the whole package fails at import; a client method `str` shadows `str` for the
// class's annotations as type checkers read them; a schema named `ABSENT` or `TypeAliasType` replaces the import
// of that name. The package is generated into a temporary folder, every module imported, every class's
// annotations evaluated, a model built from JSON over HTTP and its fields read back; strict pyright and mypy pass.
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitPython } from "../emit/index.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { runPython } from "./python-program.js";

const here = fileURLToPath(new URL("./", import.meta.url));

let base: string;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-builtin-names-"));
  const generated = await generate(join(here, "builtin-names.yaml"), { emitters: [emitPython] });
  await writeFiles(base, generated.files);
}, 120_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const SCRIPT = `
import http.server, importlib, json, pkgutil, threading, typing
import pydantic
import builtin_names as sdk

modules = sorted(m.name for m in pkgutil.walk_packages(sdk.__path__, sdk.__name__ + "."))
for name in modules:
    importlib.import_module(name)

# Every declared class's annotations, evaluated as pydantic and typing.get_type_hints evaluate them.
hints = {}
for package in (sdk.models, sdk.types):
    for name, value in sorted(vars(package).items()):
        if isinstance(value, type) and value.__module__.startswith(package.__name__ + "."):
            hints[package.__name__.split(".")[-1] + "." + name] = sorted(typing.get_type_hints(value))
            if issubclass(value, pydantic.BaseModel):
                value.model_validate({})

API = {
    "list": ["a", "b"], "apiLevel": ["28"], "str": "s", "int": 1, "float": 1.5, "bool": True, "bytes": "b",
    "object": {"k": 1}, "dict": {"k": "v"}, "tuple": "t", "type": "ty", "name": "n", "count": 2, "ratio": 0.5,
    "flag": False, "labels": {"x": 3},
}
IMPORTS = {
    "Field": "f", "BaseModel": "bm", "ABSENT": "ab", "NotRequired": "nr", "TypeAliasType": "tat", "JsonValue": "jv",
    "Optional": "o", "Literal": "l", "Any": "an", "_t": "t", "class": "c", "match": "m",
    "items": [API], "absent": {"value": "v"}, "alias": {"value": "w"}, "anything": [1], "mode": "a",
}
ANSWERS = {"/apis?tags=x&tags=y&limit=3": API, "/apis/str": IMPORTS, "/apis/os?ratio=0.5&flag=true": {"value": "z"}}
seen = []


class Service(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def do_GET(self):
        raw = json.dumps(ANSWERS[self.path]).encode()
        self.send_response(200)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def do_POST(self):
        seen.append(json.loads(self.rfile.read(int(self.headers["Content-Length"]))))
        self.send_response(204)
        self.end_headers()

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
threading.Thread(target=server.serve_forever, daemon=True).start()
client = sdk.Client(base_url="http://127.0.0.1:%d" % server.server_address[1])
api = client.list_(tags=["x", "y"], limit=3)
imports = client.str_()
absent = client.os_(ratio=0.5, flag=True)
client.float_(API)
server.shutdown()
print(json.dumps({
    "modules": modules,
    "hints": hints,
    "api": [api.list_, api.apiLevel, api.str_, api.int_, api.float_, api.bool_, api.bytes, api.object, api.dict_,
            api.tuple, api.type_, api.name, api.count, api.ratio, api.flag, api.labels],
    "api_wire": api.model_dump(by_alias=True, exclude_unset=True),
    "imports": [imports.field, imports.base_model, imports.absent, imports.not_required, imports.type_alias_type,
                imports.json_value, imports.Optional, imports.Literal, imports.Any, imports.t, imports.class_,
                imports.match_, imports.items[0].list_, imports.absent_.value, imports.alias.value, imports.anything,
                imports.mode],
    "imports_wire": imports.model_dump(by_alias=True, exclude_unset=True),
    "absent": [type(absent).__name__, absent.value],
    "sent": seen,
}))
`;
import { diagnosticLine, mypyStrict, pyrightStrict } from "./checkers.js";

describe("Python names that shadow what annotations use", () => {
  it("import, evaluate their annotations, and read a model built from JSON back, over HTTP", async () => {
    const stdout = await runPython(SCRIPT, [], base, join(base, "python"));
    const out = JSON.parse(stdout) as Record<string, unknown>;
    expect(out.modules).toEqual(expect.arrayContaining(["builtin_names.aio", "builtin_names.client", "builtin_names.models._base"]));
    expect(out.hints).toMatchObject({
      "models.NonSdkApi": expect.arrayContaining(["list_", "apiLevel", "str_", "dict_", "labels"]),
      "types.NonSdkApiParam": expect.arrayContaining(["list", "apiLevel", "str", "dict", "labels"]),
      "models.Imports": expect.arrayContaining(["field", "absent", "absent_", "type_alias_type", "alias"]),
    });
    const api = ["a", "b"];
    expect(out.api).toEqual([api, ["28"], "s", 1, 1.5, true, "b", { k: 1 }, { k: "v" }, "t", "ty", "n", 2, 0.5, false, { x: 3 }]);
    const wire = (out.api_wire ?? {}) as Record<string, unknown>;
    expect(Object.keys(wire).sort()).toEqual(
      [
        "list",
        "apiLevel",
        "str",
        "int",
        "float",
        "bool",
        "bytes",
        "object",
        "dict",
        "tuple",
        "type",
        "name",
        "count",
        "ratio",
        "flag",
        "labels",
      ].sort(),
    );
    expect(out.imports).toEqual(["f", "bm", "ab", "nr", "tat", "jv", "o", "l", "an", "t", "c", "m", api, "v", "w", [1], "a"]);
    expect(Object.keys((out.imports_wire ?? {}) as object).sort()).toEqual(
      [
        "Field",
        "BaseModel",
        "ABSENT",
        "NotRequired",
        "TypeAliasType",
        "JsonValue",
        "Optional",
        "Literal",
        "Any",
        "_t",
        "class",
        "match",
        "items",
        "absent",
        "alias",
        "anything",
        "mode",
      ].sort(),
    );
    // The schema named ABSENT is a class of its own name, clear of the runtime's ABSENT.
    expect(out.absent).toEqual(["ABSENT2", "z"]);
    expect(out.sent).toEqual([expect.objectContaining({ list: api, str: "s", dict: { k: "v" } })]);
  }, 90_000);

  it("type-check with strict pyright, zero errors", async () => {
    const report = await pyrightStrict(base, ["python"]);
    expect(report.generalDiagnostics.map((d) => diagnosticLine(base, d))).toEqual([]);
    expect(report.summary.errorCount).toBe(0);
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(8);
  }, 300_000);

  it("type-check with mypy --strict, zero errors", async () => {
    const result = await mypyStrict(join(base, "python"), ["builtin_names"]);
    expect(result.output).toMatch(/^Success: no issues found in \d+ source files/m);
  }, 300_000);
});
