// Generators as programs: a generator written in Python, outside the repository, registered through the plugin
// protocol (a `plugins` block of a project's configuration, or --plugin), generates a small client of a few operations
// from the service's description, which is imported and called against the mock. Plugins that write outside their
// folder, answer malformed JSON or a wrong shape, exit non-zero or hang past their time limit are refused with their
// name, and nothing is written.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { pluginRequestCheck } from "../../generator/plugins/plugin.js";
import { schemaValidator } from "../../generator/schema-validator.js";
import { type MockServer, startMock } from "../../mock/index.js";
import { releaseFile, currentRelease } from "../support/service-releases.js";

const root = fileURLToPath(new URL("../../", import.meta.url));
const TOKEN = "svc_sk_plugin0123456789";

async function cli(cwd: string, ...args: string[]): Promise<{ code: number; stdout: string; stderr: string }> {
  try {
    const { stdout, stderr } = await promisify(execFile)(join(root, "node_modules/.bin/tsx"), [join(root, "generator/cli.ts"), ...args], {
      cwd,
      maxBuffer: 1 << 26,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code: number; stdout: string; stderr: string };
    return { code: e.code, stdout: e.stdout, stderr: e.stderr };
  }
}

/** A generator in Python: a module of one function per operation the options name, over urllib. */
const PYCLIENT = `import json, keyword, re, sys

request = json.load(sys.stdin)
if request["protocol"] != 1:
    print(json.dumps({"error": "protocol %r is not 1" % request["protocol"]}))
    sys.exit(0)
ir = request["ir"]
wanted = request["options"].get("operations", [])
by_id = {op["id"]: op for op in ir["operations"]}
missing = [name for name in wanted if name not in by_id]
if missing:
    print(json.dumps({"error": "no operation %s in %s" % (", ".join(missing), ir["info"]["title"])}))
    sys.exit(0)

def snake(name):
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()
    return words + "_" if keyword.iskeyword(words) else words

lines = [
    '"""%s %s: a client of %d operations, written by a plugin."""' % (ir["info"]["title"], ir["info"]["version"], len(wanted)),
    "import json, urllib.request",
    "",
    "RELEASE = %s" % json.dumps(ir["info"]["version"]),
    "",
]
for name in wanted:
    op = by_id[name]
    lines += [
        "def %s(base_url, token):" % snake(name),
        "    req = urllib.request.Request(base_url + %s, method=%s)" % (json.dumps(op["requestPath"]), json.dumps(op["method"].upper())),
        '    req.add_header("Authorization", "Bearer " + token)',
        "    with urllib.request.urlopen(req) as res:",
        "        return res.status, json.loads(res.read())",
        "",
    ]
files = [{"path": "pyclient/__init__.py", "content": "\\n".join(lines)}, {"path": "request-keys.json", "content": json.dumps(sorted(request))}]
print(json.dumps({"files": files}))
`;

const HOSTILE: Record<string, { script: string; message: RegExp }> = {
  escapes: {
    script: 'import json,sys; sys.stdin.read(); print(json.dumps({"files": [{"path": "../escaped.txt", "content": "x"}]}))',
    message: /plugin "escapes" .*: \/files\/0\/path "\.\.\/escaped\.txt" is refused: a path must be relative to the plugin's folder/,
  },
  absolute: {
    script: 'import json,sys; sys.stdin.read(); print(json.dumps({"files": [{"path": "/etc/x", "content": "x"}]}))',
    message: /plugin "absolute" .*: \/files\/0\/path "\/etc\/x" is refused/,
  },
  malformed: {
    script: 'import sys; sys.stdin.read(); print("{files: nope")',
    message: /plugin "malformed" .*: its answer on stdout is not JSON .* it begins "\{files: nope/,
  },
  shape: {
    script: 'import json,sys; sys.stdin.read(); print(json.dumps({"files": [{"path": "a.txt"}]}))',
    message: /plugin "shape" .*: its answer does not follow the protocol: \/files\/0 must have required property 'content'/,
  },
  fails: {
    script: 'import sys; sys.stdin.read(); sys.stderr.write("Traceback: KeyError: schemas\\n"); sys.exit(3)',
    message: /plugin "fails" .*: exited with code 3; nothing was written\n {2}its stderr:\n {4}Traceback: KeyError: schemas/,
  },
  hangs: {
    script: "import time; time.sleep(60)",
    message: /plugin "hangs" .*: no answer within its time limit of 1 s \(timeoutSeconds\); it was stopped/,
  },
  refuses: {
    script: 'import json,sys; sys.stdin.read(); print(json.dumps({"error": "this IR has no schemas I know"}))',
    message: /plugin "refuses" .*: it answered an error: this IR has no schemas I know/,
  },
};

let dir: string;
let mock: MockServer;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), "plugins-"));
  mock = await startMock();
  await writeFile(join(dir, "pyclient.py"), PYCLIENT);
  for (const [name, { script }] of Object.entries(HOSTILE)) await writeFile(join(dir, `${name}.py`), script);
});
afterAll(async () => {
  await mock?.stop();
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe("a generator written in Python, as a plugin", { timeout: 300_000 }, () => {
  it("generates a client from the service's description that is imported and called against the mock", async () => {
    await writeFile(
      join(dir, "paperoffice-sdk.config.json"),
      JSON.stringify({
        spec: releaseFile(currentRelease()),
        out: "sdk",
        languages: ["typescript"],
        outputs: { fixtures: false, ir: false },
        typescript: { runtimeSources: join(root, "targets", "typescript", "runtime") },
        plugins: { pyclient: { command: "python3 ./pyclient.py", options: { operations: ["listWebhooks", "getActivityUsers"] } } },
      }),
    );
    const ran = await cli(dir, "generate");
    expect(ran.stderr).toBe("");
    expect(ran.code).toBe(0);
    expect(await readdir(join(dir, "sdk", "pyclient"))).toEqual(["pyclient", "request-keys.json"]);
    const manifest = JSON.parse(await readFile(join(dir, "sdk", "manifest.json"), "utf8")) as {
      languages: string[];
      files: Record<string, string>;
    };
    expect(manifest.languages).toEqual(["pyclient", "typescript"]);
    expect(Object.keys(manifest.files)).toContain("pyclient/pyclient/__init__.py");
    expect(JSON.parse(await readFile(join(dir, "sdk", "pyclient", "request-keys.json"), "utf8"))).toEqual([
      "ir",
      "irVersion",
      "options",
      "output",
      "plugin",
      "protocol",
    ]);

    const program = `import json, sys
sys.path.insert(0, ${JSON.stringify(join(dir, "sdk", "pyclient"))})
import pyclient
status, body = pyclient.list_webhooks(${JSON.stringify(mock.url)}, ${JSON.stringify(TOKEN)})
print(json.dumps({"release": pyclient.RELEASE, "status": status, "data": sorted(body)}))
`;
    const { stdout } = await promisify(execFile)("python3", ["-c", program]);
    const result = JSON.parse(stdout) as { release: string; status: number; data: string[] };
    expect(result.release).toBe(currentRelease());
    expect(result.status).toBe(200);
    expect(result.data).toContain("count");
  });

  it("sends a request that follows the protocol's schema", async () => {
    const echo = join(dir, "echo.py");
    await writeFile(
      echo,
      'import json,sys; r=json.load(sys.stdin); r["ir"]={"kept": len(r["ir"]["operations"])}; print(json.dumps({"files":[{"path":"request.json","content":json.dumps(r)}]}))',
    );
    const out = await mkdtemp(join(tmpdir(), "plugins-echo-"));
    const ran = await cli(dir, "generate", "--languages", "go", "--out", out, "--plugin", `echo=python3 ${echo}`, "--outputs", "none");
    expect(ran.code, ran.stderr).toBe(0);
    const request = JSON.parse(await readFile(join(out, "echo", "request.json"), "utf8")) as Record<string, unknown>;
    expect(request).toMatchObject({ protocol: 1, plugin: "echo", options: {}, output: { folder: "echo/" } });
    const validate = schemaValidator(pluginRequestCheck);
    expect(validate({ ...request, ir: {} }), JSON.stringify(validate.errors)).toBe(true);
    await rm(out, { recursive: true, force: true });
  });
});

describe("a plugin that misbehaves is refused with its name, and nothing is written", { timeout: 300_000 }, () => {
  const small = join(root, "test/generator/cases/small/openapi.yaml");
  let out: string;
  let before: string[];
  let manifest: string;
  beforeAll(async () => {
    // An output folder an earlier run wrote: a failed run must leave it as it was.
    out = await mkdtemp(join(tmpdir(), "plugins-out-"));
    await writeFile(join(dir, "base.config.json"), "{}");
    const first = await cli(
      dir,
      "generate",
      "--config",
      join(dir, "base.config.json"),
      "--spec",
      small,
      "--languages",
      "go",
      "--outputs",
      "none",
      "--out",
      out,
    );
    expect(first.code, first.stderr).toBe(0);
    before = (await readdir(out, { recursive: true })).sort();
    manifest = await readFile(join(out, "manifest.json"), "utf8");
  });
  afterAll(async () => {
    if (out) await rm(out, { recursive: true, force: true });
  });

  it.each(Object.entries(HOSTILE))("%s", async (name, { message }) => {
    const command = `python3 ${join(dir, `${name}.py`)}`;
    const config = join(dir, `${name}.config.json`);
    await writeFile(config, JSON.stringify({ plugins: { [name]: { command, timeoutSeconds: 1 } } }));
    const started = Date.now();
    const ran = await cli(dir, "generate", "--config", config, "--spec", small, "--languages", "go", "--outputs", "none", "--out", out);
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
    expect((await readdir(out, { recursive: true })).sort()).toEqual(before);
    expect(await readFile(join(out, "manifest.json"), "utf8")).toBe(manifest);
    expect(await readdir(dir)).not.toContain("escaped.txt");
    expect(await readdir(tmpdir())).not.toContain("escaped.txt");
    if (name === "hangs") expect(Date.now() - started).toBeLessThan(30_000);
  });

  it.each([
    ["a name of another output", "go=python3 x.py", /"go" is taken by another output/],
    ["a name that is no folder name", "../up=python3 x.py", /"\.\.\/up" is no plugin name/],
    ["no command", "empty=", /--plugin "empty=": give <name>=<command>/],
    [
      "a program that is not there",
      "ghost=no-such-program-here",
      /plugin "ghost" \(no-such-program-here\): no-such-program-here was not found/,
    ],
  ])("%s", async (_what, flag, message) => {
    const out = await mkdtemp(join(tmpdir(), "plugins-bad-"));
    const ran = await cli(
      dir,
      "generate",
      "--spec",
      join(root, "test/generator/cases/small/openapi.yaml"),
      "--languages",
      "go",
      "--out",
      out,
      "--plugin",
      flag,
    );
    expect(ran.code).toBe(1);
    expect(ran.stderr).toMatch(message);
    expect(ran.stderr).not.toMatch(/\n\s+at /);
    expect(await readdir(out)).toEqual([]);
    await rm(out, { recursive: true, force: true });
  });
});
