// The small-descriptions matrix: each tiny description of descriptions/ holds one shape that public APIs use
// (header and cookie parameters, form and multipart writes, binary bodies, */* JSON, per-operation servers, every
// security scheme kind, recursion, unions, nullable in both forms, names that clash with a language's own). Each
// is generated in every registered language, and each language's output compiled or imported by its driver, so
// that a change to an emitter or a runtime that breaks any language fails `npm test`. The paged reads (paging.ts)
// are also run: each language's auto-paging iterators read them to the last page from a local server.
import { mkdtemp, readdir, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../generator/generate.js";
import { sdkLanguages } from "../../generator/languages.js";
import { withLocalRuntime } from "../../targets/typescript/local-runtime.js";
import type { MatrixPackage } from "./drivers/driver.js";
import { DRIVERS } from "./drivers/index.js";
import { PAGERS } from "./drivers/pagers.js";
import { EXPECTED_ITEMS, PAGED, type PagingServer, startPagingServer } from "./paging.js";

const here = fileURLToPath(new URL("./", import.meta.url));
const NAMES = (await readdir(join(here, "descriptions")))
  .filter((f) => f.endsWith(".yaml"))
  .map((f) => f.slice(0, -".yaml".length))
  .sort();
// The SDKs: a server target (`kind: "server"`) is no client a driver compiles and calls, and brings its own tests.
const LANGUAGES = await sdkLanguages();
const LIMIT = 600_000;

let work = "";
const packages: MatrixPackage[] = [];
let paging: PagingServer | undefined;

beforeAll(async () => {
  work = await mkdtemp(join(tmpdir(), "matrix-"));
  // The generated TypeScript is ESM, as in a project of type module.
  await writeFile(join(work, "package.json"), `${JSON.stringify({ type: "module" })}\n`);
  for (const name of NAMES) {
    const out = join(work, name);
    const { files } = await generate(join(here, "descriptions", `${name}.yaml`), {
      ...withLocalRuntime(out),
      languages: LANGUAGES,
      outputs: [],
    });
    await writeFiles(out, files);
    packages.push({ name, out });
  }
}, LIMIT);

afterAll(async () => {
  await paging?.close();
  if (work !== "") await rm(work, { recursive: true, force: true });
});

describe("the small-descriptions matrix", () => {
  it("holds a description of every shape", () => {
    expect(NAMES.length).toBeGreaterThanOrEqual(10);
    expect(packages.map((p) => p.name)).toEqual(NAMES);
  });

  it.each(LANGUAGES)("%s has a matrix driver", (language) => {
    expect(Object.keys(DRIVERS), `no driver in test/matrix/drivers/index.ts for the registered language ${language}`).toContain(language);
  });

  it.each(LANGUAGES.filter((l) => DRIVERS[l] !== undefined))(
    "%s: every description's output compiles or imports with no problem",
    async (language) => {
      expect(await DRIVERS[language]!(packages, work)).toEqual([]);
    },
    LIMIT,
  );

  it.each(LANGUAGES)("%s has a matrix pager", (language) => {
    expect(Object.keys(PAGERS), `no pager in test/matrix/drivers/pagers.ts for the registered language ${language}`).toContain(language);
  });

  it.each(LANGUAGES.filter((l) => PAGERS[l] !== undefined))(
    "%s: the cursor and Link header reads are paged to their last page, the call's header on every page",
    async (language) => {
      paging ??= await startPagingServer();
      const server = paging;
      for (const [name, operations] of Object.entries(PAGED)) {
        const pkg = packages.find((p) => p.name === name)!;
        server.received.length = 0;
        server.withoutHeader.length = 0;
        const read = await PAGERS[language]!(pkg, operations, server.baseUrl(name), work);
        for (const op of operations) {
          expect(read[op.id], `${name} ${op.id}`).toEqual(EXPECTED_ITEMS[name]![op.id]);
          if (`async ${op.id}` in read) expect(read[`async ${op.id}`], `${name} ${op.id} (async)`).toEqual(EXPECTED_ITEMS[name]![op.id]);
        }
        // Three pages per operation and run, no more, each with the call's header.
        const runs = language === "python" ? 2 : 1;
        expect(server.received, name).toHaveLength(3 * operations.length * runs);
        expect(server.withoutHeader, name).toEqual([]);
      }
    },
    LIMIT,
  );
});
