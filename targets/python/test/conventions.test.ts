// The Python client follows the description: its job facts come from `x-paperoffice-job` and its retries from the
// IR's idempotent rule (`x-idempotent`, else the method; never a billed operation or the job submission). A copy of
// the service's description with renamed job fields and paths gives a client that uses the new names, checked
// against a small server in the Python process; a description without job roles gives no job helpers at all; and
// the Python templates hold none of the service's job field names or paths.
import { execFile } from "node:child_process";
import { mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parse, stringify } from "yaml";
import { emitPython } from "../emit/index.js";
import { pythonNames } from "../emit/view.js";
import { generate, writeFiles } from "../../../generator/generate.js";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";
import { venvPython } from "./package.js";

const run = promisify(execFile);
const root = fileURLToPath(new URL("../../../", import.meta.url));
const templatesDir = join(root, "targets/python/templates");

type Json = Record<string, unknown>;

let base: string;
let renamedModule: string;
let renamedFiles: Map<string, string>;
let plainFiles: Map<string, string>;

/** The service's description with other job field names, another poll path and marked idempotency. */
function renamed(text: string): string {
  const document = parse(text.replaceAll("/job/get/{job_id}", "/job/status/{ticket_id}").replaceAll("/job/get/", "/job/status/")) as Json;
  const paths = document.paths as Record<string, Record<string, Json>>;
  const submit = paths["/job/add/{pipeline}"]!.post!;
  submit["x-paperoffice-job"] = {
    ...(submit["x-paperoffice-job"] as Json),
    jobId: "ticket",
    pollUrl: "poll_at",
    stillRunningStatus: 203,
    noWait: { field: "mode", value: "async" },
  };
  const poll = paths["/job/status/{ticket_id}"]!.get!;
  poll["x-paperoffice-job"] = { role: "poll", status: "state", completed: "finished", payload: ["output", "extra"] };
  (poll.parameters as Json[])[0]!.name = "ticket_id";
  paths["/webhooks/delete"]!.post!["x-idempotent"] = true;
  paths["/webhooks/list"]!.get!["x-idempotent"] = false;
  return stringify(document);
}

async function pythonFiles(source: string, out: string): Promise<Map<string, string>> {
  const { files } = await generate(source, { emitters: [emitPython] });
  await writeFiles(out, files);
  return new Map(files.filter((f) => f.path.endsWith(".py")).map((f) => [f.path.split("/").slice(2).join("/"), f.content]));
}

beforeAll(async () => {
  base = await mkdtemp(join(tmpdir(), "python-conventions-"));
  const text = await readFile(releaseFile(currentRelease()), "utf8");
  const source = join(base, "renamed.yaml");
  await writeFile(source, renamed(text));
  renamedFiles = await pythonFiles(source, join(base, "renamed"));
  renamedModule = pythonNames((parse(text) as { info: { title: string } }).info.title).module;
  plainFiles = await pythonFiles(join(root, "test/generator/cases/small/openapi.yaml"), join(base, "plain"));
}, 240_000);

afterAll(async () => {
  if (base) await rm(base, { recursive: true, force: true });
});

/** Plays the renamed service on a local port and drives the generated client against it; prints what it saw. */
const SCRIPT = String.raw`
import http.server, importlib, json, sys, threading

sdk = importlib.import_module(sys.argv[1])
seen = []
counts = {}
polls = {"r1": 0}


class Service(http.server.BaseHTTPRequestHandler):
    def answer(self, status, body):
        raw = json.dumps(body).encode()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(raw)))
        self.end_headers()
        self.wfile.write(raw)

    def handle_any(self):
        length = int(self.headers.get("Content-Length") or 0)
        body = self.rfile.read(length)
        seen.append((self.command, self.path, body))
        key = self.command + " " + self.path
        counts[key] = counts.get(key, 0) + 1
        n = counts[key]
        if key == "POST /latest/job/add/held":
            # The still-running status: the job's answer, whatever its body holds.
            return self.answer(203, {"status": "error", "code": "STILL", "message": "held", "ticket": "r1", "poll_at": "/job/status/r1"})
        if key == "POST /latest/job/add/errorish":
            return self.answer(202, {"status": "error", "code": "INSUFFICIENT_CREDITS", "message": "no credits"})
        if key == "POST /latest/job/add/start":
            return self.answer(200, {"status": "success", "ticket": "s1"})
        if key == "GET /latest/job/status/r1":
            polls["r1"] += 1
            if polls["r1"] == 1:
                return self.answer(200, {"status": "success", "state": "running"})
            return self.answer(200, {"status": "success", "state": "finished", "extra": {"text": "renamed"}})
        if key == "POST /latest/webhooks/delete":
            return self.answer(500, {"status": "error", "code": "INTERNAL_ERROR", "message": "x"}) if n == 1 else self.answer(200, {"status": "success"})
        if key == "POST /latest/webhooks/update":
            return self.answer(503, {"status": "error", "code": "SERVICE_UNAVAILABLE", "message": "x"}) if n == 1 else self.answer(200, {"status": "success"})
        if key in ("POST /latest/webhooks/test", "GET /latest/webhooks/list"):
            return self.answer(500, {"status": "error", "code": "INTERNAL_ERROR", "message": "x"})
        return self.answer(404, {"status": "error", "code": "NOT_FOUND", "message": key})

    do_GET = handle_any
    do_POST = handle_any

    def log_message(self, format, *args):
        pass


server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Service)
threading.Thread(target=server.serve_forever, daemon=True).start()
client = sdk.Client("svc_sk_conventions", "http://127.0.0.1:%d/latest" % server.server_address[1], poll_interval=(0.01, 0.02), base_delay=0.01, max_delay=0.02)
out = {}


def outcome(call):
    try:
        value = call()
    except Exception as error:
        return {"error": type(error).__name__, "status": getattr(error, "status", None), "cause": type(error.__cause__).__name__}
    return {"ok": value.model_dump(by_alias=True, exclude_unset=True) if hasattr(value, "model_dump") else value}


held = client.submit_job("held", {"a": 1})
out["held"] = {"job_id": held.job_id, "data": held.data, "polls": held.polls}
out["errorish"] = outcome(lambda: client.submit_job("errorish", {"a": 1}))
handle = client.start_job("start", {"a": 1})
out["start"] = {"job_id": handle.job_id, "poll_url": handle.poll_url}
out["delete"] = outcome(lambda: client.delete_webhook({"subscription_id": "w1"}))
out["update"] = outcome(lambda: client.update_webhook({"subscription_id": "w1"}))
out["test"] = outcome(lambda: client.test_webhook({"subscription_id": "w1"}))
out["list"] = outcome(lambda: client.list_webhooks())
out["counts"] = counts
out["start_body_has_mode"] = any(b'name="mode"\r\n\r\nasync\r\n' in body for method, path, body in seen if path == "/latest/job/add/start")
out["held_body_has_mode"] = any(b'name="mode"' in body for method, path, body in seen if path == "/latest/job/add/held")
server.shutdown()
print(json.dumps(out))
`;

describe("the Python client of a description with renamed job conventions", () => {
  it("writes the description's job facts, not the service's", () => {
    const model = renamedFiles.get("model.py")!.replace(/\s+/g, " ");
    expect(model).toContain('"ticket", pipeline_parameter="pipeline", poll_url="poll_at", still_running_status=203');
    expect(model).toContain('no_wait=NoWait("mode", "async")');
    expect(model).toContain('JobPollModel(GET_JOB, "ticket_id", "state", "finished", ("output", "extra"))');
    expect(model).toContain('"/job/status/{ticket_id}"');
    for (const file of ["client.py", "aio.py", "model.py"]) {
      // model.py lists each variant's body fields as the description's request schemas declare them (VariantModel
      // fields), facts of the description whatever the job conventions call them: the rest of it is checked.
      const text = renamedFiles.get(file)!.replace(/fields=frozenset\(\s*\([^)]*\),?\s*\)/g, "");
      // The poll operation's path parameter is renamed too, so that the service's names cannot come from an operation.
      const names = ['"job_status"', '"client_wait"', '"poll_url"', '"job_id"', "/job/get/"];
      // model.py names each pipeline's payload field (`result` or `job_result`), a fact of the description.
      if (file !== "model.py") names.push('"job_result"', '"result"');
      for (const old of names) expect(`${file} ${old}: ${text.includes(old)}`).toBe(`${file} ${old}: false`);
      // The service's still-running status compared in code (the descriptions' own texts may name it).
      expect(text).not.toMatch(/[!=]=\s*202\b/);
    }
  });

  it("marks each operation resendable by the IR's idempotent rule", () => {
    const model = renamedFiles.get("model.py")!;
    const flags = (spec: string): string => {
      const start = model.indexOf(`\n${spec} = OperationSpec(`);
      expect(start).toBeGreaterThan(0);
      const call = model.slice(start, model.indexOf("\n)\n", start + 1));
      return [...call.matchAll(/(idempotent|job)=(True|False|"\w+")/g)].map((m) => `${m[1]}=${m[2]}`).join(" ");
    };
    expect(flags("ADD_JOB")).toBe('idempotent=False job="submit"');
    expect(flags("GET_JOB")).toBe('idempotent=True job="poll"');
    expect(flags("DELETE_WEBHOOK")).toBe("idempotent=True");
    expect(flags("TEST_WEBHOOK")).toBe("idempotent=False");
    expect(flags("LIST_WEBHOOKS")).toBe("idempotent=False");
  });

  it("submits, polls and retries as the description says, against a server playing it", async () => {
    const { stdout } = await run(venvPython, ["-c", SCRIPT, renamedModule], {
      cwd: base,
      env: { ...process.env, PYTHONPATH: join(base, "renamed", "python"), PYTHONDONTWRITEBYTECODE: "1" },
      timeout: 60_000,
    });
    const out = JSON.parse(stdout) as Record<string, unknown>;
    // The still-running status is polled, its error-shaped body notwithstanding; the payload is the first field set.
    expect(out.held).toEqual({ job_id: "r1", data: { text: "renamed" }, polls: 2 });
    // A 202 is no longer special: its error body is the error it says.
    expect(out.errorish).toEqual({ error: "InsufficientCreditsError", status: 202, cause: "NoneType" });
    expect(out.start).toEqual({ job_id: "s1", poll_url: "/job/status/s1" });
    expect(out.start_body_has_mode).toBe(true);
    // The no-wait value is a string: there is no opposite to send for a held submission.
    expect(out.held_body_has_mode).toBe(false);
    expect(out.delete).toEqual({ ok: { status: "success" } });
    expect(out.update).toEqual({ ok: { status: "success" } });
    // The answer's error as well (a ServiceError), whose cause is the code's class.
    expect(out.test).toEqual({ error: "AnsweredMayHaveBeenProcessedError", status: 500, cause: "InternalError" });
    expect(out.list).toEqual({ error: "AnsweredMayHaveBeenProcessedError", status: 500, cause: "InternalError" });
    expect(out.counts).toEqual({
      "POST /latest/job/add/held": 1,
      "GET /latest/job/status/r1": 2,
      "POST /latest/job/add/errorish": 1,
      "POST /latest/job/add/start": 1,
      "POST /latest/webhooks/delete": 2,
      "POST /latest/webhooks/update": 2,
      "POST /latest/webhooks/test": 1,
      "GET /latest/webhooks/list": 1,
    });
  }, 90_000);
});

describe("the Python client of a description without job roles", () => {
  it("has no job helpers, no job handle and no download by token", () => {
    const all = [...plainFiles.values()].join("\n");
    for (const name of [
      "def submit_job",
      "def start_job",
      "def wait_job",
      "class JobHandle",
      "class AsyncJobHandle",
      "class JobResult",
      "/job/",
    ]) {
      expect(`${name}: ${all.includes(name)}`).toBe(`${name}: false`);
    }
    // A download by full URL only: the runtime refuses a token without a download operation.
    expect(plainFiles.get("client.py")).toContain("def download(self, token_or_url: str");
    expect(plainFiles.get("model.py")).not.toContain("JobsModel(");
  });
});

describe("the Python templates", () => {
  it("hold none of the service's job field names, paths or still-running status", async () => {
    const files = (await readdir(templatesDir)).filter((f) => f.endsWith(".hbs"));
    expect(files).toEqual(expect.arrayContaining(["client.py.hbs", "model.py.hbs"]));
    const found: string[] = [];
    for (const file of files) {
      const text = await readFile(join(templatesDir, file), "utf8");
      for (const literal of ["job_status", "client_wait", "poll_url", "job_result", "result", "job_id", "completed"]) {
        if (text.includes(`"${literal}"`) || text.includes(`'${literal}'`)) found.push(`${file}: "${literal}"`);
      }
      for (const path of ["/job/add/", "/job/get/", "/job/download/"]) if (text.includes(path)) found.push(`${file}: ${path}`);
      if (/\b202\b/.test(text)) found.push(`${file}: 202`);
    }
    expect(found).toEqual([]);
  });
});
