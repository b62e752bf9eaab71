"""The Python soak driver: many jobs through one generated client (the sync Client on a pool of threads, or the
AsyncClient on one event loop with a semaphore), each call with a deadline; one JSON line per job on stdout.

stdin: a SoakConfig (test/behaviour/soak.ts) with "mode" ("sync" | "async") and "module" (the generated package).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import importlib
import json
import sys
import threading
import time
import typing as t

Config = dict[str, t.Any]
Job = dict[str, t.Any]

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
write_lock = threading.Lock()
# Seconds between the ticks of the stall monitor; a tick late by STALL_MIN or more is a stall of the process, which
# held every call back as long: the judge does not count it against a call's deadline.
STALL_TICK = 0.02
STALL_MIN = 0.05
stalls: list[list[int]] = []


def kind_of(error: BaseException) -> str:
    for name, kind in KINDS:
        if isinstance(error, getattr(sdk.errors, name)):
            return kind
    return f"other:{type(error).__name__}"


def ref_of(config: Config, index: int) -> str:
    return f"{config['prefix']}-{index:05d}"


def body_of(ref: str, mode: str) -> dict[str, object]:
    body: dict[str, object] = {
        "template": "pdf_ai_split",
        "pofid": ref,
        "locale": "en_US",
    }
    if mode == "held":
        body["client_wait"] = True
    return body


def deadline_ms_of(config: Config, index: int) -> int:
    deadlines: list[int] = config["deadlinesMs"]
    return deadlines[index % len(deadlines)]


def mode_of(config: Config, index: int) -> str:
    modes: list[str] = config["modes"]
    return modes[index % len(modes)]


def client_options(config: Config) -> dict[str, t.Any]:
    return {
        "poll_interval": (config["pollMs"][0] / 1000, config["pollMs"][1] / 1000),
        "max_retries": config["maxRetries"],
        "base_delay": config["baseDelayMs"] / 1000,
        "max_delay": config["maxDelayMs"] / 1000,
        "max_retry_after": config["maxRetryAfterMs"] / 1000,
    }


class Calls:
    """Times each call of a job: when it began (wall clock) and how long it took (monotonic)."""

    def __init__(self, deadline_ms: int) -> None:
        self.deadline_ms = deadline_ms
        self.list: list[dict[str, t.Any]] = []
        self._began = 0.0
        self._started_at = 0.0

    def begin(self) -> None:
        self._started_at, self._began = time.time(), time.monotonic()

    def end(self, op: str) -> None:
        self.list.append(
            {
                "op": op,
                "deadlineMs": self.deadline_ms,
                "startedAt": round(self._started_at * 1000),
                "elapsedMs": round((time.monotonic() - self._began) * 1000),
            }
        )


def failure(ref: str, mode: str, error: BaseException, calls: Calls) -> Job:
    job_id = getattr(error, "job_id", None)
    return {
        "ref": ref,
        "mode": mode,
        "ok": False,
        "kind": kind_of(error),
        "jobId": job_id if isinstance(job_id, str) else None,
        "message": str(error)[:300],
        "calls": calls.list,
    }


def emit(job: Job) -> None:
    line = json.dumps(job)
    with write_lock:
        sys.stdout.write(line + "\n")
        sys.stdout.flush()


def run_sync(client: t.Any, config: Config, index: int) -> None:
    ref, deadline = ref_of(config, index), deadline_ms_of(config, index) / 1000
    mode = mode_of(config, index)
    calls = Calls(deadline_ms_of(config, index))
    try:
        if mode == "start":
            calls.begin()
            try:
                handle = client.start_job(
                    config["pipeline"], body_of(ref, mode), deadline=deadline
                )
            finally:
                calls.end("start")
            calls.begin()
            try:
                result = client.wait_job(handle.job_id, deadline=deadline)
            finally:
                calls.end("wait")
        else:
            calls.begin()
            try:
                result = client.submit_job(
                    config["pipeline"], body_of(ref, mode), deadline=deadline
                )
            finally:
                calls.end("submit")
        job = {
            "ref": ref,
            "mode": mode,
            "ok": True,
            "jobId": result.job_id,
            "hasData": result.data is not None,
            "calls": calls.list,
        }
    except Exception as error:  # noqa: BLE001 - every outcome is reported, none raised
        job = failure(ref, mode, error, calls)
    emit(job)


async def run_async(
    client: t.Any, config: Config, index: int, gate: asyncio.Semaphore
) -> None:
    async with gate:
        ref, deadline = ref_of(config, index), deadline_ms_of(config, index) / 1000
        mode = mode_of(config, index)
        calls = Calls(deadline_ms_of(config, index))
        try:
            if mode == "start":
                calls.begin()
                try:
                    handle = await client.start_job(
                        config["pipeline"], body_of(ref, mode), deadline=deadline
                    )
                finally:
                    calls.end("start")
                calls.begin()
                try:
                    result = await client.wait_job(handle.job_id, deadline=deadline)
                finally:
                    calls.end("wait")
            else:
                calls.begin()
                try:
                    result = await client.submit_job(
                        config["pipeline"], body_of(ref, mode), deadline=deadline
                    )
                finally:
                    calls.end("submit")
            job = {
                "ref": ref,
                "mode": mode,
                "ok": True,
                "jobId": result.job_id,
                "hasData": result.data is not None,
                "calls": calls.list,
            }
        except Exception as error:  # noqa: BLE001
            job = failure(ref, mode, error, calls)
        emit(job)


def watch_thread(done: threading.Event) -> None:
    """The sync driver's stall monitor: a thread that sleeps one tick at a time and notes how late it wakes."""
    expected = time.monotonic() + STALL_TICK
    while not done.wait(STALL_TICK):
        now = time.monotonic()
        if now - expected >= STALL_MIN:
            stalls.append([round(time.time() * 1000), round((now - expected) * 1000)])
        expected = now + STALL_TICK


async def watch_loop() -> None:
    """The async driver's stall monitor: a task on the event loop, late when the loop is held up."""
    expected = time.monotonic() + STALL_TICK
    while True:
        await asyncio.sleep(STALL_TICK)
        now = time.monotonic()
        if now - expected >= STALL_MIN:
            stalls.append([round(time.time() * 1000), round((now - expected) * 1000)])
        expected = now + STALL_TICK


async def main_async(config: Config) -> None:
    gate = asyncio.Semaphore(int(config["concurrency"]))
    watcher = asyncio.create_task(watch_loop())
    async with sdk.AsyncClient(
        config["token"], config["baseUrl"], **client_options(config)
    ) as client:
        await asyncio.gather(
            *(run_async(client, config, i, gate) for i in range(int(config["jobs"])))
        )
    watcher.cancel()


def main() -> None:
    global sdk
    config: Config = json.load(sys.stdin)
    sdk = importlib.import_module(config["module"])
    if config["mode"] == "async":
        asyncio.run(main_async(config))
        emit({"stalls": stalls})
        return
    done = threading.Event()
    threading.Thread(target=watch_thread, args=(done,), daemon=True).start()
    with contextlib.ExitStack() as stack:
        client = stack.enter_context(
            sdk.Client(config["token"], config["baseUrl"], **client_options(config))
        )
        pool = stack.enter_context(
            concurrent.futures.ThreadPoolExecutor(
                max_workers=int(config["concurrency"])
            )
        )
        for future in [
            pool.submit(run_sync, client, config, i) for i in range(int(config["jobs"]))
        ]:
            future.result()
    done.set()
    emit({"stalls": stalls})


if __name__ == "__main__":
    main()
