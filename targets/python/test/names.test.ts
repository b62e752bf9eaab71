// The Python package's names and version: derived from the description's title and release, or given and checked.
import { describe, expect, it } from "vitest";
import { pythonNames, pythonVersion } from "../emit/view.js";

describe("python package names", () => {
  const cases: { given: [string, { distribution?: string; module?: string }?]; want: { distribution: string; module: string } }[] = [
    {
      given: ["Document Automation Service"],
      want: { distribution: "document-automation-service", module: "document_automation_service" },
    },
    { given: ["GitHub v3 REST API"], want: { distribution: "github-v3-rest-api", module: "github_v3_rest_api" } },
    { given: ["Crème brûlée API"], want: { distribution: "creme-brulee-api", module: "creme_brulee_api" } },
    { given: ["3D Printing"], want: { distribution: "sdk-3d-printing", module: "sdk_3d_printing" } },
    { given: ["<>!!"], want: { distribution: "service-client", module: "service_client" } },
    { given: ["Import"], want: { distribution: "import-client", module: "import_client" } },
    { given: ["JSON"], want: { distribution: "json-client", module: "json_client" } },
    { given: ["Document Automation Service", { module: "docs_sdk" }], want: { distribution: "docs-sdk", module: "docs_sdk" } },
    {
      given: ["Any", { distribution: "acme.docs-client", module: "acme_docs" }],
      want: { distribution: "acme.docs-client", module: "acme_docs" },
    },
  ];
  for (const { given, want } of cases) {
    it(`${JSON.stringify(given)} -> ${want.distribution} / ${want.module}`, () => {
      expect(pythonNames(...given)).toEqual(want);
    });
  }

  const refused: { given: { distribution?: string; module?: string }; want: RegExp }[] = [
    { given: { module: "my-sdk" }, want: /python\.module "my-sdk" is not a usable Python module name/ },
    { given: { module: "class" }, want: /python\.module "class"/ },
    { given: { module: "json" }, want: /python\.module "json"/ },
    { given: { module: "ok", distribution: "-bad-" }, want: /python\.distribution "-bad-" is not a valid distribution name/ },
  ];
  for (const { given, want } of refused) {
    it(`refuses ${JSON.stringify(given)} with a message naming the option`, () => {
      expect(() => pythonNames("Service", given)).toThrow(want);
    });
  }
});

describe("python package version (PEP 440)", () => {
  const cases: { given: string; want: string }[] = [
    { given: "R20261127.0900", want: "2026.1127.900" },
    { given: "R20270105.0007", want: "2027.105.7" },
    { given: "1.2.3", want: "1.2.3" },
    { given: "2023-10-16", want: "2023.10.16" },
    { given: "v1.0-beta", want: "1.0" },
    { given: "latest", want: "0" },
  ];
  for (const { given, want } of cases) {
    it(`${given} -> ${want}`, () => {
      expect(pythonVersion(given)).toBe(want);
    });
  }
});
