"""The Python driver of the behaviour suite: runs each case through the generated package (over
paperoffice_runtime), with the sync Client (threads) or the AsyncClient (one event loop), and reports outcomes in the
suite's neutral terms.

stdin: {"module": <package module>, "mode": "sync" | "async", "cases": [...]}; stdout: a JSON list of results.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import importlib
import json
import os
import sys
import tempfile
import time
import traceback
import typing as t

Case = dict[str, t.Any]
Result = dict[str, t.Any]

sdk: t.Any = None
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
    return {
        "name": case["name"],
        "ok": False,
        "kind": kind_of(error),
        "status": status if isinstance(status, int) else None,
        "code": code if isinstance(code, str) else None,
        "jobId": job_id if isinstance(job_id, str) else None,
        "retryAfterMs": round(retry_after * 1000) if isinstance(retry_after, (int, float)) else None,
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
        return act_sync_with(client, case, clock.progress)


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
        client.get_job(action["jobId"], deadline=deadline)
        return {}
    if kind == "write":
        client.test_webhook(WRITE_BODY, deadline=deadline)
        return {}
    if action.get("toFile"):
        with tempfile.TemporaryDirectory() as folder:
            saved = client.download_to(target(case), os.path.join(folder, "file"), deadline=deadline)
            return {"bytes": os.path.getsize(saved.path)}
    return {"bytes": len(client.download(target(case), deadline=deadline).content)}


async def act_async(case: Case, clock: Clock) -> dict[str, t.Any]:
    async with sdk.AsyncClient(case["token"], case["baseUrl"], **options(case)) as client:
        clock.start()
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
            await client.get_job(action["jobId"], deadline=deadline)
            return {}
        if kind == "write":
            await client.test_webhook(WRITE_BODY, deadline=deadline)
            return {}
        if action.get("toFile"):
            with tempfile.TemporaryDirectory() as folder:
                saved = await client.download_to(target(case), os.path.join(folder, "file"), deadline=deadline)
                return {"bytes": os.path.getsize(saved.path)}
        return {"bytes": len((await client.download(target(case), deadline=deadline)).content)}


def run_sync(case: Case) -> Result:
    clock = Clock()
    try:
        outcome = act_sync(case, clock)
        return success(case, {**outcome, **clock.progress}, clock.started_at, clock.began)
    except Exception as error:  # noqa: BLE001 - every outcome is reported, none raised
        return failure(case, error, clock.started_at, clock.began, clock.progress)


async def run_async(case: Case, gate: asyncio.Semaphore) -> Result:
    async with gate:
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
    global sdk
    request = json.load(sys.stdin)
    sdk = importlib.import_module(request["module"])
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
