"""One client process of the Python request benchmark: ``count`` sequential GETs of the same job's status to the
loopback server after ``warmup`` more, each answer read as JSON (httpx alone) or as the generated SDK's model (ours).
Prints one JSON object: the mean wall time and CPU time (user + system of the whole process, threads included) per
request of the counted calls, in µs.

Usage: python client.py <kind> <sdk module> <origin> <count> <warmup>
kinds: sdk-sync, sdk-async, httpx-sync, httpx-async
"""

from __future__ import annotations

import asyncio
import importlib
import json
import resource
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import httpx

TOKEN = "svc_sk_benchmark0123456789"
JOB_ID = "job_0123456789"
BASE_PATH = "/latest"


def cpu_seconds() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def timed(one: Callable[[], object], count: int, warmup: int) -> tuple[float, float]:
    for _ in range(warmup):
        one()
    cpu = cpu_seconds()
    started = time.perf_counter()
    for _ in range(count):
        one()
    return time.perf_counter() - started, cpu_seconds() - cpu


async def timed_async(one: Callable[[], Awaitable[object]], count: int, warmup: int) -> tuple[float, float]:
    for _ in range(warmup):
        await one()
    cpu = cpu_seconds()
    started = time.perf_counter()
    for _ in range(count):
        await one()
    return time.perf_counter() - started, cpu_seconds() - cpu


def run(kind: str, module: str, origin: str, count: int, warmup: int) -> tuple[float, float]:
    base = origin + BASE_PATH
    url = f"{base}/job/get/{JOB_ID}"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    if kind.startswith("sdk-"):
        sdk: Any = importlib.import_module(module)
        if kind == "sdk-sync":
            with sdk.Client(TOKEN, base) as client:
                return timed(lambda: client.get_job(JOB_ID), count, warmup)

        async def sdk_async() -> tuple[float, float]:
            async with sdk.AsyncClient(TOKEN, base) as client:
                return await timed_async(lambda: client.get_job(JOB_ID), count, warmup)

        return asyncio.run(sdk_async())
    if kind == "httpx-sync":
        with httpx.Client() as plain:

            def one() -> object:
                response = plain.get(url, headers=headers)
                response.raise_for_status()
                return response.json()

            return timed(one, count, warmup)

    async def httpx_async() -> tuple[float, float]:
        async with httpx.AsyncClient() as plain:

            async def one() -> object:
                response = await plain.get(url, headers=headers)
                response.raise_for_status()
                return response.json()

            return await timed_async(one, count, warmup)

    if kind != "httpx-async":
        raise SystemExit(f"unknown kind {kind}")
    return asyncio.run(httpx_async())


def main(argv: list[str]) -> None:
    kind, module, origin, count, warmup = argv[0], argv[1], argv[2], int(argv[3]), int(argv[4])
    wall, cpu = run(kind, module, origin, count, warmup)
    print(json.dumps({"kind": kind, "calls": count, "wall_us": wall / count * 1e6, "cpu_us": cpu / count * 1e6}))


if __name__ == "__main__":
    main(sys.argv[1:])
