// The Python client returns what the description declares for each success status, as the TypeScript client does:
// None for an answer without content (204, a bodiless 200 or 202), text for a text media type, a Download for a
// binary one, JSON only where JSON is declared, and an error naming the status and the media type for a body of
// another type. Its Accept header names the operation's declared media types; a body of a JSON media type other
// than application/json, or of a text one, is sent with its own Content-Type. A small description (answers.yaml
// beside this file) is generated into a temporary folder and driven, blocking and asyncio, against a small server
// in the Python process.
import { execFile } from "node:child_process";
import { mkdtemp, rm } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { emitPython } from "../emit/index.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { venvPython } from "./package.js";

const run = promisify(execFile);
const here = fileURLToPath(new URL("./", import.meta.url));

let base: string;
let files: Map<string, string>;

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-answers-"));
  const generated = await generate(join(here, "answers.yaml"), { emitters: [emitPython] });
  await writeFiles(base, generated.files);
  files = new Map(generated.files.filter((f) => f.path.endsWith(".py")).map((f) => [f.path.split("/").slice(2).join("/"), f.content]));
}, 120_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const SCRIPT = `
import asyncio, http.server, json, sys, threading
import pydantic
import answer_kinds as sdk

PNG = b"\\x89PNG\\r\\n\\x1a\\n\\x00\\x01binary\\xff"
ANSWERS = {
    ("GET", "/pets/1"): (200, "application/json", json.dumps({"name": "Rex"}).encode()),
    ("DELETE", "/pets/1"): (204, None, b""),
    ("DELETE", "/pets/1/attestations"): (200, None, b""),
    ("POST", "/pets/1/resend"): (202, None, b""),
    ("GET", "/pets/1/note"): (200, "text/plain; charset=utf-8", "a note, caf\\u00e9".encode("utf-8")),
    ("GET", "/pets/1/photo"): (200, "image/png", PNG),
    ("GET", "/pets/1/maybe"): (200, "application/json; charset=utf-8", b'{"name": "Tom"}'),
    ("GET", "/pets/2/maybe"): (204, None, b""),
    ("POST", "/render"): (200, "text/html", b"<h1>hi</h1>"),
    ("POST", "/users"): (201, "application/scim+json", b'{"name": "Ada"}'),
    # Bodies of a type the description does not declare for the status.
    ("GET", "/pets/9"): (200, "text/html", b"<html>not json</html>"),
    ("GET", "/pets/9/note"): (200, "application/json", b'"json"'),
    ("GET", "/pets/9/photo"): (200, "text/plain", b"no photo"),
}
seen = []


class Service(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"

    def answer(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length) if length else b""
        seen.append({
            "method": self.command,
            "path": self.path,
            "accept": self.headers.get("Accept"),
            "content_type": self.headers.get("Content-Type"),
            "body": body.decode("utf-8", "replace"),
        })
        status, media_type, raw = ANSWERS[(self.command, self.path)]
        self.send_response(status)
        if media_type is not None:
            self.send_header("Content-Type", media_type)
        if status != 204:
            self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    do_GET = do_POST = do_DELETE = answer

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
threading.Thread(target=server.serve_forever, daemon=True).start()
URL = "http://127.0.0.1:%d" % server.server_address[1]


def shown(value):
    if isinstance(value, pydantic.BaseModel):
        return {"value": value.model_dump(by_alias=True, exclude_unset=True)}
    if isinstance(value, sdk.Download):
        return {"download": list(value.content), "content_type": value.content_type}
    return {"value": value}


def failure(call):
    try:
        call()
    except sdk.MalformedResponseError as error:
        return {"error": type(error).__name__, "status": error.status, "message": str(error)}
    return "accepted"


def blocking():
    client = sdk.Client(base_url=URL)
    # (closed with the process)
    return {
        "json": shown(client.get_pet("1")),
        "no_content_204": shown(client.delete_pet("1")),
        "bodiless_200": shown(client.delete_attestations("1")),
        "bodiless_202": shown(client.resend_pet("1")),
        "text": shown(client.get_pet_note("1")),
        "binary": shown(client.get_pet_photo("1")),
        "maybe_200": shown(client.get_pet_maybe("1")),
        "maybe_204": shown(client.get_pet_maybe("2")),
        "text_body": shown(client.render_text("# hi")),
        "scim": shown(client.create_user({"name": "Ada"})),
        "unexpected_json": failure(lambda: client.get_pet("9")),
        "unexpected_text": failure(lambda: client.get_pet_note("9")),
        "unexpected_binary": failure(lambda: client.get_pet_photo("9")),
    }


async def asynchronous():
    async with sdk.AsyncClient(base_url=URL) as client:
        return {
            "json": shown(await client.get_pet("1")),
            "no_content_204": shown(await client.delete_pet("1")),
            "bodiless_200": shown(await client.delete_attestations("1")),
            "bodiless_202": shown(await client.resend_pet("1")),
            "text": shown(await client.get_pet_note("1")),
            "binary": shown(await client.get_pet_photo("1")),
            "maybe_200": shown(await client.get_pet_maybe("1")),
            "maybe_204": shown(await client.get_pet_maybe("2")),
            "text_body": shown(await client.render_text("# hi")),
            "scim": shown(await client.create_user({"name": "Ada"})),
        }


out = {"blocking": blocking()}
requests = list(seen)
out["asyncio"] = asyncio.run(asynchronous())
out["requests"] = requests
server.shutdown()
print(json.dumps(out))
`;
import { diagnosticLine, pyrightStrict } from "./checkers.js";

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0x00, 0x01, ...Buffer.from("binary"), 0xff];

const EXPECTED = {
  json: { value: { name: "Rex" } },
  no_content_204: { value: null },
  bodiless_200: { value: null },
  bodiless_202: { value: null },
  text: { value: "a note, café" },
  binary: { download: PNG, content_type: "image/png" },
  maybe_200: { value: { name: "Tom" } },
  maybe_204: { value: null },
  text_body: { value: "<h1>hi</h1>" },
  scim: { value: { name: "Ada" } },
};

interface Seen {
  readonly method: string;
  readonly path: string;
  readonly accept: string | null;
  readonly content_type: string | null;
  readonly body: string;
}

describe("the Python client's answers", () => {
  it("declares what each operation returns", () => {
    const client = files.get("client.py")!;
    const signature = (name: string) => client.match(new RegExp(`def ${name}\\(([^\\n]*)\\) -> ([^\\n]*):`))?.slice(1);
    expect(signature("delete_pet")?.[1]).toBe("None");
    expect(signature("delete_attestations")?.[1]).toBe("None");
    expect(signature("resend_pet")?.[1]).toBe("None");
    // JSON answers are pydantic models; request bodies TypedDicts.
    expect(signature("get_pet")?.[1]).toBe("_md.Pet");
    expect(signature("get_pet_note")?.[1]).toBe("str");
    expect(signature("get_pet_photo")?.[1]).toBe("_rt.Download");
    expect(signature("get_pet_maybe")?.[1]).toBe("_md.Pet | None");
    expect(signature("render_text")).toEqual(["self, body: str | _rt.FileValue, **options: _te.Unpack[_rt.RequestOptions]", "str"]);
    expect(signature("create_user")).toEqual(["self, body: _ty.PetParam, **options: _te.Unpack[_rt.RequestOptions]", "_md.Pet"]);
  });

  it("returns what the description declares for each status, blocking and asyncio, over HTTP", async () => {
    const { stdout } = await run(venvPython, ["-c", SCRIPT], {
      cwd: base,
      env: { ...process.env, PYTHONPATH: join(base, "python"), PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as {
      blocking: Record<string, unknown>;
      asyncio: Record<string, unknown>;
      requests: Seen[];
    };
    expect(out.blocking).toMatchObject(EXPECTED);
    expect(out.asyncio).toEqual(EXPECTED);
    // A body of another type than the status declares: an error with the status and the media type.
    expect(out.blocking.unexpected_json).toEqual({
      error: "MalformedResponseError",
      status: 200,
      message: expect.stringMatching(/^getPet: HTTP 200: .*text\/html.*application\/json/),
    });
    expect(out.blocking.unexpected_text).toMatchObject({ error: "MalformedResponseError", status: 200 });
    expect((out.blocking.unexpected_text as { message: string }).message).toMatch(
      /^getPetNote: HTTP 200: .*application\/json.*text\/plain/,
    );
    expect(out.blocking.unexpected_binary).toMatchObject({ error: "MalformedResponseError", status: 200 });
    expect((out.blocking.unexpected_binary as { message: string }).message).toMatch(
      /^getPetPhoto: HTTP 200: .*text\/plain.*image\/jpeg, image\/png/,
    );

    const request = (method: string, path: string) => out.requests.find((r) => r.method === method && r.path === path);
    // The Accept header names the declared media types, and nothing when the operation declares none.
    expect(request("GET", "/pets/1")?.accept).toBe("application/json");
    expect(request("GET", "/pets/1/note")?.accept).toBe("text/plain");
    expect(request("GET", "/pets/1/photo")?.accept).toBe("image/jpeg, image/png");
    expect(request("DELETE", "/pets/1")?.accept).toBeNull();
    expect(request("POST", "/pets/1/resend")?.accept).toBeNull();
    expect(request("POST", "/render")).toEqual({
      method: "POST",
      path: "/render",
      accept: "text/html",
      content_type: "text/plain",
      body: "# hi",
    });
    expect(request("POST", "/users")).toMatchObject({ accept: "application/scim+json", content_type: "application/scim+json" });
    expect(JSON.parse(request("POST", "/users")!.body)).toEqual({ name: "Ada" });
  }, 90_000);

  it("type-checks with strict pyright, zero errors", async () => {
    const report = await pyrightStrict(base, ["python"]);
    expect(report.generalDiagnostics.map((d) => diagnosticLine(base, d))).toEqual([]);
    expect(report.summary.errorCount).toBe(0);
  }, 300_000);
});
