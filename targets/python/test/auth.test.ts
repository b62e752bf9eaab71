// The Python client takes its credentials from the description's security schemes and each operation's security,
// as the TypeScript runtime does: bearer, HTTP basic, API keys in a header, the query or a cookie, no credentials for
// `security: []`, the first alternative the client can meet, MissingCredentialsError before anything is sent, the
// credentials redacted from errors, and none sent to another origin. A small description (auth.yaml beside this
// file) is generated into a temporary folder and driven against two small servers in the Python process.
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
  base = await mkdtemp(join(tmpdir(), "python-auth-"));
  const generated = await generate(join(here, "auth.yaml"), { emitters: [emitPython] });
  await writeFiles(base, generated.files);
  files = new Map(generated.files.filter((f) => f.path.endsWith(".py")).map((f) => [f.path.split("/").slice(2).join("/"), f.content]));
}, 120_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

const SCRIPT = `
import asyncio, base64, http.server, json, os, sys, threading, urllib.parse

os.environ.pop("AUTH_SCHEMES_TOKEN", None)
import auth_schemes as sdk

requests = []


class Service(http.server.BaseHTTPRequestHandler):
    def do_GET(self):
        parts = urllib.parse.urlsplit(self.path)
        seen = {
            "port": self.server.server_address[1],
            "path": parts.path,
            "query": parts.query,
            "authorization": self.headers.get("Authorization"),
            "api_key": self.headers.get("X-Api-Key"),
            "cookie": self.headers.get("Cookie"),
        }
        requests.append(seen)
        if parts.path == "/go":
            self.send_response(302)
            self.send_header("Location", "http://127.0.0.1:%d/file?api_key=k" % foreign.server_address[1])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        status = 200
        body = seen
        if self.headers.get("X-Resource-Status"):
            # A resource of a plain API whose own status field says error: not an error answer.
            body = {"status": "error", "name": "build 7"}
        if self.headers.get("X-Echo"):
            status = 401
            body = {"message": self.headers.get("X-Echo")}
        if self.headers.get("X-Fail"):
            status = 401
            body = {"status": "error", "code": "UNAUTHORIZED", "message": "refused " + json.dumps(seen), "seen": seen}
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def log_message(self, format, *args):
        pass


def serve():
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return server


own, foreign = serve(), serve()
URL = "http://127.0.0.1:%d" % own.server_address[1]
TOKEN, KEY, USER, PASSWORD = "tok-bearer-0123456789", "key-header-0123456789", "ada", "pw-secret-0123456789"
BASIC = base64.b64encode((USER + ":" + PASSWORD).encode()).decode()
out = {}


def sent(call):
    """What the one request of a call carried, or the error it raised and how many requests were sent."""
    before = len(requests)
    try:
        call()
    except Exception as error:
        return {"error": type(error).__name__, "message": str(error), "requests": len(requests) - before}
    found = requests[before:]
    return {k: v for k, v in found[-1].items() if v is not None and k != "port"} if len(found) == 1 else {"requests": found}


full = sdk.Client(TOKEN, URL, api_key=KEY, username=USER, password=PASSWORD)
out["full"] = {
    "bearer": sent(lambda: full.get_bearer()),
    "header_key": sent(lambda: full.get_header_key()),
    "query_key": sent(lambda: full.get_query_key(page=2)),
    "cookie_key": sent(lambda: full.get_cookie_key()),
    "basic": sent(lambda: full.get_basic()),
    "public": sent(lambda: full.get_public()),
    "either": sent(lambda: full.get_either()),
}
key_only = sdk.Client(api_key=KEY, base_url=URL)
out["key_only"] = {
    "either": sent(lambda: key_only.get_either()),
    "bearer": sent(lambda: key_only.get_bearer()),
    "basic": sent(lambda: key_only.get_basic()),
}
token_only = sdk.Client(TOKEN, URL)
out["token_only"] = {
    "header_key": sent(lambda: token_only.get_header_key()),
    "either": sent(lambda: token_only.get_either()),
    "basic": sent(lambda: token_only.get_basic()),
}
nothing = sdk.Client(base_url=URL)
out["nothing"] = {
    "public": sent(lambda: nothing.get_public()),
    "bearer": sent(lambda: nothing.get_bearer()),
    "either": sent(lambda: nothing.get_either()),
}
os.environ["AUTH_SCHEMES_TOKEN"] = "tok-from-environment-42"
out["environment"] = sent(lambda: sdk.Client(base_url=URL).get_bearer())
os.environ.pop("AUTH_SCHEMES_TOKEN")
try:
    sdk.Client(TOKEN, URL, username=USER)
    out["half_basic"] = "accepted"
except ValueError as error:
    out["half_basic"] = str(error)


async def asynchronous():
    async with sdk.AsyncClient(None, URL, api_key=KEY) as client:
        return (await client.get_either())["query"]


out["async_either_query"] = asyncio.run(asynchronous())
try:
    asyncio.run(sdk.AsyncClient(base_url=URL).get_basic())
except sdk.MissingCredentialsError as error:
    out["async_missing"] = str(error)

# A 401 whose body echoes every credential the request carried.
failing = sdk.Client(TOKEN, URL, api_key=KEY, username=USER, password=PASSWORD, headers={"X-Fail": "1"})
texts = []
for call in (failing.get_bearer, failing.get_header_key, failing.get_query_key, failing.get_cookie_key, failing.get_basic):
    try:
        call()
    except sdk.ServiceError as error:
        texts.extend([str(error), repr(error), error.message, repr(error.body), repr(vars(error))])
out["error_texts"] = len(texts)
out["leaks"] = sorted({s for s in (TOKEN, KEY, PASSWORD, BASIC) for text in texts if s in text})
# Without an envelope the message is the status; the body, redacted, is on the error.
out["echo_redacted"] = all("[redacted]" in repr(text) for text in texts[3::5])

# A short token is redacted where it stands alone, never inside ordinary words; so is a bearer credential, but
# not the word after "Bearer" in a sentence.
short = sdk.Client("t", URL, headers={"X-Echo": "no pet for t; Bearer token required; Bearer abc.def-123456"})
try:
    short.get_bearer()
except sdk.ServiceError as error:
    # Without an envelope in the description the message is the status; the redacted body is on the error.
    out["short_token"] = error.body["message"]

# Without an envelope in the description, a 200 is the answer whatever its fields say.
out["resource_status"] = sdk.Client(TOKEN, URL, headers={"X-Resource-Status": "1"}).get_bearer()

# Another origin gets no credential: a URL of its own, or a redirect to it.
before = len(requests)
full.download("http://127.0.0.1:%d/file" % foreign.server_address[1])
full.download(URL + "/go")
key_cookie = sdk.Client(None, URL, api_key=KEY)
key_cookie.download(URL + "/go")
out["foreign"] = [
    {k: v for k, v in r.items() if v is not None and k != "query"} | {"foreign": r["port"] == foreign.server_address[1]}
    for r in requests[before:]
]
own.shutdown()
foreign.shutdown()
print(json.dumps(out))
`;
import { diagnosticLine, pyrightStrict } from "./checkers.js";

describe("the Python client's credentials", () => {
  it("writes each operation's security alternatives and the description's schemes", () => {
    const model = files.get("model.py")!;
    expect(model).toContain('security=(("bearer",),),');
    expect(model).toContain("security=(),");
    expect(model).toContain('security=(("basic",), ("headerKey", "queryKey")),');
    expect(model).toContain('"headerKey": SecurityScheme("apiKey", location="header", name="X-Api-Key"),');
    expect(model).toContain('"basic": SecurityScheme("http", scheme="basic"),');
    expect(model).toContain('env=EnvModel(token="AUTH_SCHEMES_TOKEN"');
  });

  it("sends what each operation's security asks for, and nothing more", async () => {
    const { stdout } = await run(venvPython, ["-c", SCRIPT], {
      cwd: base,
      env: { ...process.env, PYTHONPATH: join(base, "python"), PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as Record<string, Record<string, { message?: string } & Record<string, unknown>>>;
    const token = "tok-bearer-0123456789";
    const key = "key-header-0123456789";
    const basic = `Basic ${Buffer.from("ada:pw-secret-0123456789").toString("base64")}`;
    expect(out.full).toEqual({
      bearer: { path: "/bearer", query: "", authorization: `Bearer ${token}` },
      header_key: { path: "/header-key", query: "", api_key: key },
      query_key: { path: "/query-key", query: `page=2&api_key=${key}` },
      cookie_key: { path: "/cookie-key", query: "", cookie: `key_cookie=${key}` },
      basic: { path: "/basic", query: "", authorization: basic },
      public: { path: "/public", query: "" },
      either: { path: "/either", query: "", authorization: basic },
    });
    // The second alternative when the first cannot be met; a missing credential raises before any request.
    expect(out.key_only!.either).toEqual({ path: "/either", query: `api_key=${key}`, api_key: key });
    expect(out.key_only!.bearer).toMatchObject({ error: "MissingCredentialsError", requests: 0 });
    expect(out.key_only!.bearer!.message).toMatch(/^getBearer needs credentials: security scheme "bearer" \(bearer token: pass token/);
    expect(out.key_only!.basic).toMatchObject({ error: "MissingCredentialsError", requests: 0 });
    expect(out.key_only!.basic!.message).toContain('security scheme "basic" (HTTP basic: pass username and password');
    // As in TypeScript, the token stands in for an API key when no api_key is given.
    expect(out.token_only!.header_key).toEqual({ path: "/header-key", query: "", api_key: token });
    expect(out.token_only!.either).toEqual({ path: "/either", query: `api_key=${token}`, api_key: token });
    expect(out.token_only!.basic).toMatchObject({ error: "MissingCredentialsError", requests: 0 });
    expect(out.nothing!.public).toEqual({ path: "/public", query: "" });
    expect(out.nothing!.bearer).toMatchObject({ error: "MissingCredentialsError", requests: 0 });
    expect(out.nothing!.either).toMatchObject({ error: "MissingCredentialsError", requests: 0 });
    expect(out.nothing!.either!.message).toMatch(
      /one of security scheme "basic" .*; or security scheme "headerKey" .* and security scheme "queryKey"/,
    );
    expect(out.environment).toEqual({ path: "/bearer", query: "", authorization: "Bearer tok-from-environment-42" });
    expect(out.half_basic).toMatch(/username and password go together/);
    expect(out.async_either_query).toBe(`api_key=${key}`);
    expect(out.async_missing).toMatch(/^getBasic needs credentials/);
    // The 401 bodies echo the credentials; no error text holds one.
    expect(out.error_texts).toBe(25);
    expect(out.leaks).toEqual([]);
    expect(out.echo_redacted).toBe(true);
    expect(out.short_token).toBe("no pet for [redacted]; Bearer token required; Bearer [redacted]");
    expect(out.resource_status).toEqual({ status: "error", name: "build 7" });
    expect(out.foreign).toEqual([
      { port: expect.any(Number), path: "/file", foreign: true },
      // Without a stated security, the first scheme by name the client has a credential for, as in TypeScript.
      { port: expect.any(Number), path: "/go", authorization: basic, foreign: false },
      { port: expect.any(Number), path: "/file", foreign: true },
      { port: expect.any(Number), path: "/go", cookie: `key_cookie=${key}`, foreign: false },
      { port: expect.any(Number), path: "/file", foreign: true },
    ]);
  }, 90_000);

  it("type-checks with strict pyright, zero errors", async () => {
    const report = await pyrightStrict(base, ["python"]);
    expect(report.generalDiagnostics.map((d) => diagnosticLine(base, d))).toEqual([]);
    expect(report.summary.errorCount).toBe(0);
    expect(report.summary.filesAnalyzed).toBeGreaterThanOrEqual(8);
  }, 300_000);
});
