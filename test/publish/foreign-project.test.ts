// Another API's release engineer, end to end, from the packed tarballs: the toolchain installed in a fresh project
// outside the repository whose configuration names its own description (pets.yaml, semver versions). It generates in
// every language, releases a compatible and then a breaking version (refused, then allowed by its flag), diffs two of
// its releases, publishes every language (npm to a Verdaccio, Python to a pypiserver, Go to a GOPROXY folder), and
// installs each SDK back by version in a fresh project, virtual environment and module, calling Prism with it.
import { execFile } from "node:child_process";
import { mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { venvBin } from "../../targets/python/test/package.js";
import { freshVenv } from "../../targets/python/test/wheels.js";
import { goRun } from "../../targets/go/test/go-module.js";
import { npm, tarballs, writeJson } from "../package/helpers.js";
import { type PrismServer, startPrism } from "../prism/prism.js";
import { pipInstallPinned } from "./python-sdk.js";
import { type LocalRegistry, startPypiServer, startVerdaccio } from "./servers.js";

const LIMIT = 900_000;

/** Runs a command; never throws for a non-zero exit. */
function run(command: string, args: readonly string[], cwd: string, env: Record<string, string> = {}) {
  return new Promise<{ code: number; stdout: string; stderr: string }>((resolve) => {
    execFile(
      command,
      [...args],
      { cwd, env: { ...process.env, ...env }, maxBuffer: 64 * 2 ** 20, timeout: 600_000 },
      (error, stdout, stderr) => {
        resolve({ code: error ? (typeof error.code === "number" ? error.code : 1) : 0, stdout, stderr });
      },
    );
  });
}
const NPM_NAME = "@pets-inc/pets-sdk";
const PYPI_NAME = "pets-inc-sdk";
const GO_MODULE = "github.com/pets-inc/pets-sdk-go";

/** The pets API at a version: `more` adds an operation (compatible), `breaking` drops listPets. */
function pets(version: string, { more = false, breaking = false } = {}): string {
  const list = `
  /pets:
    get:
      operationId: listPets
      parameters: [{ name: limit, in: query, schema: { type: integer } }]
      responses:
        "200":
          description: ok
          content: { application/json: { schema: { type: array, items: { $ref: "#/components/schemas/Pet" } }, example: [{ name: Rex }] } }`;
  const get = `
  /pets/{id}:
    get:
      operationId: getPet
      parameters: [{ name: id, in: path, required: true, schema: { type: string } }]
      responses:
        "200": { description: ok, content: { application/json: { schema: { $ref: "#/components/schemas/Pet" }, example: { name: Rex } } } }`;
  return `openapi: 3.1.0
info: { title: Pets, version: ${JSON.stringify(version)} }
servers: [{ url: "https://pets.invalid" }]
paths:${breaking ? "" : list}${more || breaking ? get : ""}
components:
  schemas:
    Pet: { type: object, required: [name], properties: { name: { type: string } } }
`;
}

describe("another API's project, from the packed toolchain to SDKs installed back by version", () => {
  let dir: string;
  let project: string;
  let proxy: string;
  let verdaccio: LocalRegistry & { readonly token: string };
  let pypi: LocalRegistry;
  let prism: PrismServer | undefined;
  let env: Record<string, string>;
  const bin = () => join(project, "node_modules", ".bin", "paperoffice-sdk");
  const sdk = (...args: string[]) => run(bin(), args, project, env);

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "foreign-project-"));
    project = join(dir, "project");
    proxy = join(dir, "goproxy");
    await mkdir(project);
    await mkdir(proxy);
    const [packs, started, index] = await Promise.all([
      tarballs(),
      startVerdaccio(join(dir, "verdaccio")),
      startPypiServer(join(dir, "pypi")),
    ]);
    [verdaccio, pypi] = [started, index];
    // npm finds the registry of both scopes and the token in its own configuration, as a release engineer's has it.
    const npmrc = join(dir, "npmrc");
    const host = verdaccio.url.replace(/^http:/, "");
    await writeFile(
      npmrc,
      `@pets-inc:registry=${verdaccio.url}\n@paperoffice:registry=${verdaccio.url}\n${host}:_authToken=\${NODE_AUTH_TOKEN}\n`,
    );
    env = {
      NPM_CONFIG_USERCONFIG: npmrc,
      NODE_AUTH_TOKEN: verdaccio.token,
      PATH: `${venvBin}:${process.env.PATH ?? ""}`,
      TWINE_USERNAME: "publisher",
      TWINE_PASSWORD: "unused-by-this-index",
    };
    await writeJson(join(project, "package.json"), { name: "pets-release", private: true, type: "module" });
    // The toolchain, and the TypeScript runtime the SDK it writes imports (README's route before the packages are published).
    await npm(["install", "--save-dev", packs.toolchain], project, env);
    await npm(["install", packs.runtime], project, env);
    await writeJson(join(project, "paperoffice-sdk.config.json"), {
      $schema: "./node_modules/@paperoffice/sdk-toolchain/dist/generator/config/config.schema.json",
      spec: "pets.yaml",
      out: "sdk",
      languages: ["typescript", "python", "go"],
      outputs: { fixtures: false, ir: false },
      typescript: { package: NPM_NAME },
      python: { distribution: PYPI_NAME, indexUrl: `${pypi.url}simple/`, uploadUrl: pypi.url },
      go: { module: GO_MODULE, proxy },
    });
    await writeFile(join(project, "pets.yaml"), pets("0.4.0"));
  }, LIMIT);
  afterAll(async () => {
    await Promise.all([verdaccio?.stop(), pypi?.stop(), prism?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  }, LIMIT);

  it(
    "generates every language from the project's own description",
    async () => {
      const ran = await sdk("generate");
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/pets\.yaml -> sdk: Pets 0\.4\.0: 1 operations, 1 schemas; /);
      expect(await readdir(join(project, "sdk"))).toEqual(expect.arrayContaining(["package.json", "python", "go"]));
    },
    LIMIT,
  );

  it(
    "releases the first version, a compatible one, then a breaking one refused and allowed by its flag",
    async () => {
      const first = await sdk("release", "pets.yaml");
      expect(first.code, `${first.stdout}${first.stderr}`).toBe(0);
      expect(first.stdout).toContain("stored 0.4.0 in releases/0.4.0.yaml");

      await writeFile(join(project, "pets.yaml"), pets("0.5.0", { more: true }));
      const compatible = await sdk("release", "pets.yaml");
      expect(compatible.code, `${compatible.stdout}${compatible.stderr}`).toBe(0);
      expect(compatible.stdout).toMatch(/changelog: CHANGELOG\.md, 1 changes, 0 breaking/);

      await writeFile(join(project, "pets.yaml"), pets("0.6.0", { breaking: true }));
      const refused = await sdk("release", "pets.yaml");
      expect(refused.code).toBe(1);
      expect(refused.stderr).toMatch(/breaking change\(s\) from 0\.5\.0 to 0\.6\.0; nothing was stored/);
      expect(await readdir(join(project, "releases"))).toEqual(["0.4.0.yaml", "0.5.0.yaml"]);
      const allowed = await sdk("release", "pets.yaml", "--allow-breaking");
      expect(allowed.code, `${allowed.stdout}${allowed.stderr}`).toBe(0);
      expect(await readdir(join(project, "releases"))).toEqual(["0.4.0.yaml", "0.5.0.yaml", "0.6.0.yaml"]);
      const changelog = await readFile(join(project, "CHANGELOG.md"), "utf8");
      expect(changelog).toMatch(/^## 0\.6\.0, from 0\.5\.0$/m);
      expect(changelog).toMatch(/^## 0\.5\.0, from 0\.4\.0$/m);
      expect(changelog).not.toMatch(/R20\d{6}/);
    },
    LIMIT,
  );

  it(
    "diffs two of its releases by id",
    async () => {
      const diff = await sdk("diff", "0.4.0", "0.6.0", "--no-types");
      expect(diff.code).toBe(1);
      expect(diff.stdout).toMatch(/^## 0\.6\.0, from 0\.4\.0$/m);
      expect(diff.stdout).toContain("listPets");
    },
    LIMIT,
  );

  it(
    "publishes every language with the runtimes, a dry run first",
    async () => {
      const dry = await sdk("publish");
      expect(dry.code, `${dry.stdout}${dry.stderr}`).toBe(0);
      expect(dry.stdout).toMatch(new RegExp(`npm ${NPM_NAME}@0\\.6\\.0 +.*: would publish`));
      expect(dry.stdout).toMatch(new RegExp(`PyPI ${PYPI_NAME}@0\\.6\\.0 +.*: would publish`));
      expect(dry.stdout).toMatch(new RegExp(`Go ${GO_MODULE}@v0\\.6\\.0 +.*: would publish`));
      expect(dry.stdout).toMatch(/npm @paperoffice\/sdk-runtime@\S+ +.*: would publish/);
      const done = await sdk("publish", "--yes");
      expect(done.code, `${done.stdout}${done.stderr}`).toBe(0);
      expect(done.stdout).toMatch(/published \d+, skipped 0 already there/);
      expect(`${done.stdout}${done.stderr}`).not.toContain(verdaccio.token);
    },
    LIMIT,
  );

  describe("each SDK installed back by version, calling Prism", () => {
    beforeAll(async () => {
      prism = await startPrism(join(project, "releases", "0.6.0.yaml"));
    }, LIMIT);

    it(
      "TypeScript: a fresh project installs the SDK from the registry, compiles and calls",
      async () => {
        const user = join(dir, "ts-user");
        await mkdir(user);
        await writeJson(join(user, "package.json"), { name: "pets-user", private: true, type: "module" });
        await npm(["install", `${NPM_NAME}@0.6.0`, "typescript@~5.9", "@types/node@^20"], user, env);
        await writeFile(
          join(user, "main.ts"),
          `import { createClient, getPet } from "${NPM_NAME}";
const client = createClient({ baseUrl: ${JSON.stringify(prism!.url)} });
const read = await getPet(client, { id: "7" });
const name: string = read.data.name;
console.log(JSON.stringify({ name }));
`,
        );
        await writeJson(join(user, "tsconfig.json"), {
          compilerOptions: {
            strict: true,
            target: "ES2022",
            module: "nodenext",
            moduleResolution: "nodenext",
            types: ["node"],
            outDir: "out",
          },
          files: ["main.ts"],
        });
        const tsc = await run(join(user, "node_modules", ".bin", "tsc"), ["-p", "."], user);
        expect(tsc.code, tsc.stdout).toBe(0);
        const ran = await run(process.execPath, [join(user, "out", "main.js")], user);
        expect(ran.code, ran.stderr).toBe(0);
        expect(JSON.parse(ran.stdout)).toEqual({ name: "Rex" });
      },
      LIMIT,
    );

    it(
      "Python: a fresh virtual environment installs the SDK pinned from the index and calls",
      async () => {
        const user = join(dir, "py-user");
        await mkdir(user);
        const python = await freshVenv(user, { withoutRuntime: true });
        await pipInstallPinned(python, `${pypi.url}simple/`, `${PYPI_NAME}==0.6.0`);
        const program = `import json, pets
with pets.Client(base_url=${JSON.stringify(prism!.url)}) as client:
    pet = client.get_pet("7")
    print(json.dumps({"name": pet.name}))
`;
        const ran = await run(python, ["-c", program], user);
        expect(ran.code, ran.stderr).toBe(0);
        expect(JSON.parse(ran.stdout)).toEqual({ name: "Rex" });
      },
      LIMIT,
    );

    it(
      "Go: a fresh module gets the SDK by version from the proxy folder alone, builds and calls",
      async () => {
        const user = join(dir, "go-user");
        await mkdir(user);
        const goEnv = {
          GOPROXY: pathToFileURL(proxy).href,
          GOSUMDB: "off",
          GOFLAGS: "-mod=mod -modcacherw",
          GOMODCACHE: join(dir, "gomodcache"),
        };
        expect((await goRun(user, "go", ["mod", "init", "example.org/pets-user"], goEnv)).code).toBe(0);
        const got = await goRun(user, "go", ["get", `${GO_MODULE}@v0.6.0`], goEnv);
        expect(got.code, got.output).toBe(0);
        await writeFile(
          join(user, "main.go"),
          `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	pets "${GO_MODULE}"
)

func main() {
	c, err := pets.New(pets.WithBaseURL(${JSON.stringify(prism!.url)}))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	pet, err := c.GetPet(context.Background(), &pets.GetPetParams{ID: "7"})
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, _ := json.Marshal(map[string]string{"name": pet.Data.Name})
	fmt.Println(string(out))
}
`,
        );
        const built = await goRun(user, "go", ["run", "."], goEnv);
        expect(built.code, built.output).toBe(0);
        expect(JSON.parse(built.output.trim().split("\n").at(-1) ?? "")).toEqual({ name: "Rex" });
      },
      LIMIT,
    );
  });
});
