// The Go target's names and escapers, without the Go toolchain: what description text can become in Go source.
import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { goComment, goDoc, goString } from "../emit/escape.js";
import { GO_KEYWORDS, GO_PACKAGE_NAMES, goErrorName, goName, NameScope, packageName, titleSlug } from "../emit/names.js";
import { goModuleVersion } from "../emit/version.js";
import { goErrorNames, goNames } from "../emit/view.js";
import { buildIR } from "../../../generator/ir/build.js";
import { checkDescription } from "../../../generator/spec/load.js";

describe("Go escapers", () => {
  it("write any text as one interpreted string literal", () => {
    expect(goString('a"b\\c')).toBe('"a\\"b\\\\c"');
    expect(goString("line\nnext\r\t")).toBe('"line\\nnext\\r\\t"');
    expect(goString("\u0000\u007f\u2028")).toBe('"\\u0000\\u007f\\u2028"');
    // A byte order mark past a file's start is refused by the compiler; bidirectional controls hide code.
    expect(goString("\ufeff\u202e")).toBe('"\\ufeff\\u202e"');
    // Go has no escape for a lone surrogate.
    expect(goString("\ud800x")).toBe('"\ufffdx"');
    expect(goString("`{x}` */ //")).toBe('"`{x}` */ //"');
  });

  it("keep a comment on one line, with no build constraint or directive in it", () => {
    expect(goComment("a\nb\r\nc\u2028d")).toBe("a b c d");
    expect(goComment("\n//go:generate rm -rf /")).toBe("//go:generate rm -rf /");
    expect(goComment("+build ignore")).toBe("+ build ignore");
    expect(goComment("x\u0000\ufeff")).toBe("x\\u0000\\ufeff");
    // A doc comment starts with the declared name, and every line of it with `// `: text can never start a directive.
    expect(goDoc("Thing", "is a thing.", "- item\n//go:embed x")).toBe("// Thing is a thing.\n//\n//   - item //go:embed x");
    expect(goDoc("Field", "", undefined, "\t")).toBe("\t// Field");
  });
});

describe("Go names", () => {
  it("are exported ASCII identifiers with Go's initialisms", () => {
    expect(goName("get_document-v2")).toBe("GetDocumentV2");
    expect(goName("job_id")).toBe("JobID");
    expect(goName("INVALID_TOKEN")).toBe("InvalidToken");
    expect(goName("pdfUrl")).toBe("PDFURL");
    expect(goName("+1")).toBe("X1");
    expect(goName("日本")).toBe("X");
    expect(goName("123abc", "Field")).toBe("Field123abc");
  });

  it("are unique within a scope, never a keyword or predeclared identifier", () => {
    const scope = new NameScope(["Client"]);
    expect([scope.claim("Client"), scope.claim("Client"), scope.claim("Other")]).toEqual(["Client2", "Client3", "Other"]);
    expect(new NameScope().claim("string")).toBe("string2");
  });

  it("give a package name and a module path from the title", () => {
    expect(packageName("Document Automation Service")).toBe("documentautomationservice");
    expect(packageName("Type")).toBe("typesdk");
    expect(packageName("42")).toBe("api42");
    expect(GO_KEYWORDS.has(packageName("go"))).toBe(false);
    expect(titleSlug("Document Automation Service")).toBe("document-automation-service");
    expect(goNames("Document Automation Service")).toEqual({
      module: "example.com/document-automation-service-sdk-go",
      package: "documentautomationservice",
    });
    expect(goNames("X", { module: "github.com/acme/x-go", package: "x" })).toEqual({ module: "github.com/acme/x-go", package: "x" });
  });
});

describe("reserved names", () => {
  it("are exactly the exported package-level names the templates declare", () => {
    const templates = new URL("../templates/", import.meta.url);
    const declared = new Set<string>();
    for (const file of readdirSync(templates).filter((f) => f.endsWith(".go.hbs"))) {
      const text = readFileSync(new URL(file, templates), "utf8");
      for (const m of text.matchAll(/^(?:func|type|const) ([A-Z]\w*)|^\t((?:With|Call)\w+) = /gm)) declared.add(m[1] ?? m[2]!);
    }
    expect([...declared].sort()).toEqual([...GO_PACKAGE_NAMES].sort());
  });
});

describe("options", () => {
  it("refuse a package name or module path Go would not take", () => {
    expect(() => goNames("X", { package: "type" })).toThrow(/package name "type"/);
    expect(() => goNames("X", { package: "Docs" })).toThrow(/package name/);
    expect(() => goNames("X", { module: "/abs" })).toThrow(/module path/);
  });
});

describe("Go module version of a release", () => {
  it.each([
    ["R20261127.0900", "v0.20261127.900"],
    ["R20261120.0900", "v0.20261120.900"],
    ["R20260101.0000", "v0.20260101.0"],
    ["R20261231.2359", "v0.20261231.2359"],
    ["R20270105.0005", "v0.20270105.5"],
  ])("%s is %s", (release, version) => {
    expect(goModuleVersion(release)).toBe(version);
    // Valid semantic versions: no leading zeros, three numbers, no pre-release part.
    expect(version).toMatch(/^v0\.(0|[1-9]\d*)\.(0|[1-9]\d*)$/);
  });

  it("keeps the order of the releases", () => {
    const releases = ["R20261120.0900", "R20261120.0905", "R20261120.1000", "R20261121.0001", "R20270101.0000"];
    const parts = (v: string): number[] => v.slice(1).split(".").map(Number);
    const versions = releases.map((r) => parts(goModuleVersion(r) ?? ""));
    for (let i = 1; i < versions.length; i++) {
      const [a, b] = [versions[i - 1] ?? [], versions[i] ?? []];
      const before = (a[1] ?? 0) < (b[1] ?? 0) || ((a[1] ?? 0) === (b[1] ?? 0) && (a[2] ?? 0) < (b[2] ?? 0));
      expect(before, `${releases[i - 1]} before ${releases[i]}`).toBe(true);
    }
  });

  it.each([
    ["1.0.0", "v1.0.0"],
    ["2.5.0", "v2.5.0"],
    ["0.3.1-beta.2", "v0.3.1-beta.2"],
  ])("the semver version %s is %s", (release, version) => {
    expect(goModuleVersion(release)).toBe(version);
  });

  it.each(["1.0", "01.2.3", "R2026112.0900", "R20261127.900", "r20261127.0900", "R20261127.0900x", ""])("%j is no release id", (v) => {
    expect(goModuleVersion(v)).toBeUndefined();
  });
});

describe("Go error-code constants", () => {
  it.each([
    // `Err` and the code's words without a last `error`, in Go's case with its initialisms.
    { words: ["internal", "error"], want: "ErrInternal" },
    { words: ["bearer", "token", "expired"], want: "ErrBearerTokenExpired" },
    { words: ["invalid", "url"], want: "ErrInvalidURL" },
    { words: ["not", "found", "code"], want: "ErrNotFoundCode" },
    { words: ["error"], want: "ErrError" },
    { words: ["404", "page"], want: "ErrCode404Page" },
  ])("$words -> $want", ({ words, want }) => {
    expect(goErrorName(words)).toBe(want);
  });

  it("are named from the description's words, as in every language", async () => {
    const codes = [
      { const: "BEARERTOKEN_EXPIRED", "x-http-status": 401, description: "The bearer token expired." },
      { const: "INTERNAL_ERROR", "x-http-status": 500 },
      { const: "NOT_FOUND", "x-http-status": 404 },
      { const: "SERVICE_ERROR", "x-http-status": 500 },
    ];
    const document = {
      openapi: "3.1.0",
      info: { title: "names", version: "1" },
      paths: { "/x": { get: { operationId: "op", responses: { "200": { description: "ok" } } } } },
      components: { schemas: { ErrorCode: { oneOf: codes } } },
    };
    const ir = buildIR(await checkDescription({ source: "names.json", text: JSON.stringify(document), document }));
    expect(Object.fromEntries(goErrorNames(ir))).toEqual({
      BEARERTOKEN_EXPIRED: "ErrBearerTokenExpired",
      INTERNAL_ERROR: "ErrInternal",
      NOT_FOUND: "ErrNotFoundCode",
      SERVICE_ERROR: "ErrServiceCode",
    });
  });
});
