// Calling every operation of a generated Python client (blocking or asyncio) with its fixture arguments. The client
// reaches Prism through a recording proxy in this process: each call names itself in a header the proxy takes off,
// and the proxy keeps what Prism said of each request, as the recording fetch of calls.ts does for TypeScript.
import { execFile } from "node:child_process";
import { writeFile } from "node:fs/promises";
import { join } from "node:path";
import { promisify } from "node:util";
import { rawBodyMediaType } from "../../generator/emit/operation-files.js";
import { planPythonNames } from "../../targets/python/emit/names.js";
import type { IR, Operation } from "../../generator/ir/types.js";
import { type CallFixture, type CallOutcome, givenParameters, preferredStatus } from "./calls.js";
import { CALL_HEADER, recordingProxy } from "./proxy.js";

import { venvPython } from "../../targets/python/test/package.js";

const run = promisify(execFile);

/** One call as the Python driver makes it: the method, its keyword arguments, and the status to prefer. */
interface PythonCall {
  readonly operationId: string;
  readonly method: string;
  readonly arguments: Readonly<Record<string, unknown>>;
  readonly prefer?: string;
  /** The body is sent as it is (text or bytes). */
  readonly raw: boolean;
}

/**
 * The keyword arguments of the generated method: the fixture's parameters, None for a required one it leaves out
 * (the client then sends none, as the TypeScript client does), and the body.
 */
function pythonCall(ir: IR, op: Operation, fixture: CallFixture): PythonCall {
  const names = planPythonNames(ir);
  const args: Record<string, unknown> = {};
  const given = givenParameters(fixture);
  for (const p of [...op.parameters.path, ...op.parameters.query, ...op.parameters.header, ...op.parameters.cookie]) {
    const value = given[p.in][p.name];
    if (value !== undefined) args[names.param(op, p)] = value;
    else if (p.required) args[names.param(op, p)] = null;
  }
  if (op.requestBody) args.body = fixture.request.body ?? null;
  const prefer = preferredStatus(op);
  return {
    operationId: op.id,
    method: names.method(op),
    arguments: args,
    raw: rawBodyMediaType(op) !== undefined,
    ...(prefer !== undefined && { prefer }),
  };
}

const DRIVER = `
import asyncio, concurrent.futures, importlib, json, sys

spec = json.load(open(sys.argv[1], encoding="utf-8"))
sdk = importlib.import_module(spec["module"])


def value(v):
    """Fixture files ({"$file": ...}) as the client takes them."""
    if isinstance(v, list):
        return [value(x) for x in v]
    if isinstance(v, dict):
        if "$file" in v:
            f = v["$file"]
            return sdk.FileUpload(f["name"], f["text"].encode("utf-8"), f["contentType"])
        return {k: value(x) for k, x in v.items()}
    return v


def arguments(call):
    args = {k: value(v) for k, v in call["arguments"].items()}
    body = args.get("body")
    # A raw body (text or a file) is taken as text or bytes.
    if isinstance(body, sdk.FileUpload) and call.get("raw"):
        args["body"] = body.content
    return args


def options(index, call):
    headers = {"${CALL_HEADER}": str(index)}
    if "prefer" in call:
        headers["Prefer"] = "code=" + call["prefer"]
    return dict(spec["options"], base_url=spec["baseUrl"], max_retries=0, deadline=60.0, headers=headers)


def outcome(call, error):
    if error is None:
        return {"operationId": call["operationId"]}
    status = getattr(error, "status", None)
    out = {"operationId": call["operationId"], "failure": type(error).__name__ + ": " + str(error)}
    if isinstance(status, int):
        out["failureStatus"] = status
    return out


def blocking(index, call):
    try:
        getattr(sdk.Client(**options(index, call)), call["method"])(**arguments(call))
    except Exception as error:
        return outcome(call, error)
    return outcome(call, None)


async def asynchronous(index, call, gate):
    async with gate:
        try:
            await getattr(sdk.AsyncClient(**options(index, call)), call["method"])(**arguments(call))
        except Exception as error:
            return outcome(call, error)
        return outcome(call, None)


async def all_asynchronous(calls):
    gate = asyncio.Semaphore(spec["width"])
    return await asyncio.gather(*(asynchronous(i, c, gate) for i, c in enumerate(calls)))


calls = spec["calls"]
if spec["asyncio"]:
    results = asyncio.run(all_asynchronous(calls))
else:
    with concurrent.futures.ThreadPoolExecutor(spec["width"]) as pool:
        results = list(pool.map(blocking, range(len(calls)), calls))
print(json.dumps(results))
`;

export interface PythonRun {
  /** The folder holding the generated package (its parent is put on PYTHONPATH). */
  readonly packageRoot: string;
  readonly module: string;
  readonly asyncio: boolean;
  /** Keyword arguments of the client's constructor besides the base address (credentials). */
  readonly options?: Readonly<Record<string, unknown>>;
  readonly prisms: readonly string[];
  readonly dispatcher: unknown;
  /** A folder for the driver's input. */
  readonly work: string;
}

/** Every operation called once through the Python client, with Prism's answers to each of its requests. */
export async function callPythonOperations(
  ir: IR,
  fixtures: ReadonlyMap<string, CallFixture>,
  { packageRoot, module, asyncio, options = {}, prisms, dispatcher, work }: PythonRun,
): Promise<CallOutcome[]> {
  const proxy = await recordingProxy(prisms, dispatcher);
  try {
    const calls = ir.operations.map((op) => pythonCall(ir, op, fixtures.get(op.id)!));
    const input = join(work, `python-calls-${asyncio ? "asyncio" : "blocking"}.json`);
    await writeFile(input, JSON.stringify({ module, asyncio, options, baseUrl: proxy.url, width: 8, calls }));
    // The repository's tool environment: the generated package needs the runtime package (httpx, pydantic).
    const { stdout } = await run(venvPython, ["-c", DRIVER, input], {
      cwd: work,
      env: { ...process.env, PYTHONPATH: packageRoot, PYTHONDONTWRITEBYTECODE: "1" },
      maxBuffer: 256 * 1024 * 1024,
      timeout: 600_000,
    });
    const results = JSON.parse(stdout) as { operationId: string; failure?: string; failureStatus?: number }[];
    return results.map((r, i) => ({ ...r, exchanges: proxy.exchanges.get(i) ?? [] }));
  } finally {
    await proxy.close();
  }
}
