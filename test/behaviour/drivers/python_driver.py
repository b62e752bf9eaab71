"""The Python driver of the behaviour suite: runs each case through the generated package (over
paperoffice_runtime), with the sync Client (threads) or the AsyncClient (one event loop), and reports outcomes in the
suite's neutral terms.

stdin: {"module": <package module>, "mode": "sync" | "async", "cases": [...]}; stdout: a JSON list of results.

A case with a log setting runs in a process of its own, this driver again, started with the log variable set (or
left out) as the case says: the lines that process wrote to stderr are what the client logged.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import json
import os
import subprocess
import sys
import tempfile
import time
import traceback
import typing as t

Case = dict[str, t.Any]
Result = dict[str, t.Any]

sdk: t.Any = None
module_name = ""
KINDS: list[tuple[str, str]] = [
    ("JobMayExistError", "job-may-exist"),
    ("MayHaveBeenProcessedError", "may-have-been-processed"),
    ("JobFailedError", "job-failed"),
    ("MalformedResponseError", "malformed"),
    ("DeadlineExceededError", "deadline"),
    ("APIConnectionError", "connection"),
    ("ServiceError", "service"),
]


# What an error is caught as (scenario.ts, CATCHES): the classes errors.py exports, and "code" for its code's class.
CATCHES: list[tuple[str, str]] = [
    ("ServiceError", "service"),
    ("BadRequestError", "bad-request"),
    ("AuthenticationError", "authentication"),
    ("PermissionDeniedError", "permission-denied"),
    ("NotFoundError", "not-found"),
    ("ConflictError", "conflict"),
    ("UnprocessableEntityError", "unprocessable-entity"),
    ("RateLimitError", "rate-limit"),
    ("InternalServerError", "internal-server"),
    ("MayHaveBeenProcessedError", "may-have-been-processed"),
    ("JobMayExistError", "job-may-exist"),
]


def caught_as(error: BaseException) -> list[str]:
    caught = [kind for name, kind in CATCHES if isinstance(error, getattr(sdk.errors, name))]
    code = getattr(error, "code", None)
    of_code = sdk.errors.ERROR_CLASSES.get(code) if isinstance(code, str) else None
    if of_code is not None and isinstance(error, of_code):
        caught.append("code")
    return caught


# The body of a "write": the webhook test operation's body is not shown, any JSON object does.
WRITE_BODY = {"subscription_id": "sub_1"}


def options(case: Case) -> dict[str, t.Any]:
    c = case["client"]
    return {
        "poll_interval": (c["pollMs"][0] / 1000, c["pollMs"][1] / 1000),
        "max_retries": c["maxRetries"],
        "base_delay": c["baseDelayMs"] / 1000,
        "max_delay": c["maxDelayMs"] / 1000,
        "max_retry_after": c["maxRetryAfterMs"] / 1000,
        "secrets": c["secrets"],
    }


def call_options(case: Case) -> dict[str, t.Any]:
    """The scenario's options of the call itself, as the methods' keywords."""
    call = case.get("call") or {}
    names = {"headers": "extra_headers", "query": "extra_query", "body": "extra_body", "maxRetries": "max_retries"}
    return {names[key]: value for key, value in call.items()}


def copied(client: t.Any, case: Case) -> t.Any:
    """The client, or the copy with other default headers a scenario of copies calls through."""
    copy = case.get("copy")
    return client if copy is None else client.with_options(headers=copy["headers"])


def meta_of(raw: t.Any) -> dict[str, t.Any]:
    return {"status": raw.status_code, "requestId": raw.request_id}


def target(case: Case) -> str:
    action = case["action"]
    if action["target"] == "token":
        return action["path"]
    return (case["foreignUrl"] if action["target"] == "foreign-url" else case["baseUrl"]) + action["path"]


def kind_of(error: BaseException) -> str:
    for name, kind in KINDS:
        if isinstance(error, getattr(sdk.errors, name)):
            return kind
    # The root class itself, not a subclass: the runtime's refusal of the call's own arguments.
    if type(error) is sdk.errors.SdkError:
        return "invalid-argument"
    return f"other:{type(error).__name__}"


def texts_of(error: BaseException) -> list[str]:
    texts = [str(error), repr(error), "".join(traceback.format_exception(type(error), error, error.__traceback__))]
    seen: set[int] = set()
    current: t.Optional[BaseException] = error
    while current is not None and id(current) not in seen:
        seen.add(id(current))
        texts.append(repr(vars(current)))
        cause = getattr(current, "cause", None)
        current = current.__cause__ or current.__context__ or (cause if isinstance(cause, BaseException) else None)
    return texts


def failure(case: Case, error: BaseException, started_at: float, began: float, progress: dict[str, t.Any]) -> Result:
    status = getattr(error, "status", None)
    code = getattr(error, "code", None)
    job_id = getattr(error, "job_id", None)
    retry_after = getattr(error, "retry_after", None)
    request_id = getattr(error, "request_id", None)
    return {
        "name": case["name"],
        "ok": False,
        "kind": kind_of(error),
        "status": status if isinstance(status, int) else None,
        "code": code if isinstance(code, str) else None,
        "jobId": job_id if isinstance(job_id, str) else None,
        "retryAfterMs": round(retry_after * 1000) if isinstance(retry_after, (int, float)) else None,
        "requestId": request_id if isinstance(request_id, str) else None,
        "caughtAs": caught_as(error),
        **progress,
        "texts": texts_of(error),
        "startedAt": round(started_at * 1000),
        "elapsedMs": round((time.monotonic() - began) * 1000),
    }


def success(case: Case, outcome: dict[str, t.Any], started_at: float, began: float) -> Result:
    return {
        "name": case["name"],
        "ok": True,
        **outcome,
        "texts": [],
        "startedAt": round(started_at * 1000),
        "elapsedMs": round((time.monotonic() - began) * 1000),
    }


class Clock:
    """When the call began: after the client is made, as in the other drivers, since a call's deadline counts from
    the call (making a client, an SSL context among it, can take a while in a thread beside others). A paged read
    keeps what it yielded here, to be reported with its error too."""

    def __init__(self) -> None:
        self.progress: dict[str, t.Any] = {}
        self.start()

    def start(self) -> None:
        self.started_at, self.began = time.time(), time.monotonic()


def act_sync(case: Case, clock: Clock) -> dict[str, t.Any]:
    with sdk.Client(case["token"], case["baseUrl"], **options(case)) as client:
        clock.start()
        return act_sync_with(copied(client, case), case, clock.progress)


def act_sync_with(client: t.Any, case: Case, progress: dict[str, t.Any]) -> dict[str, t.Any]:
    action = case["action"]
    deadline = action["deadlineMs"] / 1000
    kind = action["kind"]
    if kind == "list":
        items: list[t.Any] = []
        progress["items"] = items
        pager = client.paginate_get_audit_center(limit=action["pageSize"], deadline=deadline)
        if action["by"] == "items":
            for item in pager:
                items.append(item)
            return {}
        progress["pages"] = 0
        for page in pager.pages():
            progress["pages"] += 1
            items.extend(page.items)
        return {}
    if kind == "submit":
        return {"jobId": client.submit_job(case["pipeline"], case["body"], deadline=deadline).job_id}
    if kind == "start":
        return {"jobId": client.start_job(case["pipeline"], case["body"], deadline=deadline).job_id}
    if kind == "wait":
        return {"jobId": client.wait_job(action["jobId"], deadline=deadline).job_id}
    if kind == "read":
        return meta_of(client.with_raw_response.get_job(action["jobId"], deadline=deadline, **call_options(case)))
    if kind == "write":
        return meta_of(client.with_raw_response.test_webhook(WRITE_BODY, deadline=deadline, **call_options(case)))
    if action.get("toFile"):
        with tempfile.TemporaryDirectory() as folder:
            saved = client.download_to(target(case), os.path.join(folder, "file"), deadline=deadline)
            return {"bytes": os.path.getsize(saved.path)}
    return {"bytes": len(client.download(target(case), deadline=deadline).content)}


async def act_async(case: Case, clock: Clock) -> dict[str, t.Any]:
    async with sdk.AsyncClient(case["token"], case["baseUrl"], **options(case)) as made:
        clock.start()
        client = copied(made, case)
        action = case["action"]
        deadline = action["deadlineMs"] / 1000
        kind = action["kind"]
        if kind == "list":
            items: list[t.Any] = []
            clock.progress["items"] = items
            pager = client.paginate_get_audit_center(limit=action["pageSize"], deadline=deadline)
            if action["by"] == "items":
                async for item in pager:
                    items.append(item)
                return {}
            clock.progress["pages"] = 0
            async for page in pager.pages():
                clock.progress["pages"] += 1
                items.extend(page.items)
            return {}
        if kind == "submit":
            return {"jobId": (await client.submit_job(case["pipeline"], case["body"], deadline=deadline)).job_id}
        if kind == "start":
            return {"jobId": (await client.start_job(case["pipeline"], case["body"], deadline=deadline)).job_id}
        if kind == "wait":
            return {"jobId": (await client.wait_job(action["jobId"], deadline=deadline)).job_id}
        if kind == "read":
            raw = await client.with_raw_response.get_job(action["jobId"], deadline=deadline, **call_options(case))
            return meta_of(raw)
        if kind == "write":
            raw = await client.with_raw_response.test_webhook(WRITE_BODY, deadline=deadline, **call_options(case))
            return meta_of(raw)
        if action.get("toFile"):
            with tempfile.TemporaryDirectory() as folder:
                saved = await client.download_to(target(case), os.path.join(folder, "file"), deadline=deadline)
                return {"bytes": os.path.getsize(saved.path)}
        return {"bytes": len((await client.download(target(case), deadline=deadline)).content)}


def run_alone(case: Case, mode: str) -> Result:
    """The case in a child process with the log variable as the case says; its stderr lines are the logs."""
    log = case["log"]
    env = dict(os.environ)
    env.pop(log["variable"], None)
    if log["value"] is not None:
        env[log["variable"]] = log["value"]
    alone = {key: value for key, value in case.items() if key != "log"}
    request = {"module": module_name, "mode": mode, "concurrency": 1, "cases": [alone]}
    child = subprocess.run(
        [sys.executable, os.path.abspath(__file__)],
        input=json.dumps(request),
        env=env,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )
    if child.returncode != 0:
        raise RuntimeError(f"the driver's child process for {case['name']} failed: {child.stderr}")
    result: Result = json.loads(child.stdout)[0]
    result["logs"] = child.stderr.splitlines()
    return result


def run_sync(case: Case) -> Result:
    if "log" in case:
        return run_alone(case, "sync")
    clock = Clock()
    try:
        outcome = act_sync(case, clock)
        return success(case, {**outcome, **clock.progress}, clock.started_at, clock.began)
    except Exception as error:  # noqa: BLE001 - every outcome is reported, none raised
        return failure(case, error, clock.started_at, clock.began, clock.progress)


async def run_async(case: Case, gate: asyncio.Semaphore) -> Result:
    async with gate:
        if "log" in case:
            return await asyncio.get_running_loop().run_in_executor(None, run_alone, case, "async")
        clock = Clock()
        try:
            outcome = await act_async(case, clock)
            return success(case, {**outcome, **clock.progress}, clock.started_at, clock.began)
        except Exception as error:  # noqa: BLE001
            return failure(case, error, clock.started_at, clock.began, clock.progress)


async def run_all_async(cases: list[Case], width: int) -> list[Result]:
    gate = asyncio.Semaphore(width)
    return list(await asyncio.gather(*(run_async(case, gate) for case in cases)))


def main() -> None:
    global sdk, module_name
    request = json.load(sys.stdin)
    module_name = request["module"]
    sdk = importlib.import_module(module_name)
    cases: list[Case] = request["cases"]
    width = int(request.get("concurrency", 8))
    if request["mode"] == "async":
        results = asyncio.run(run_all_async(cases, width))
    else:
        with concurrent.futures.ThreadPoolExecutor(max_workers=width) as pool:
            results = list(pool.map(run_sync, cases))
    json.dump(results, sys.stdout)


if __name__ == "__main__":
    main()
