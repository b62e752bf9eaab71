"""Import time of Python modules as users meet it: each run is a whole ``python -X importtime -c 'import <module>'``
process. The modules take turns in every round, their order rotating. For each run: the module's cumulative import
time as the interpreter reports it, the process's wall time from spawn to exit, and its CPU time (user + system, from
``wait4``). Prints one JSON object: ``{"runs": {<module>: [{"cumulative_us", "wall_us", "cpu_us"}, ...]}}``.

Usage: python imports.py <interpreter> <rounds> <module> [<module> ...]   (the module ``-`` is ``pass``: no import)
"""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
import time

LINE = re.compile(r"^import time:\s+(\d+)\s*\|\s*(\d+)\s*\|(\s*)(\S+)\s*$")


def cumulative_us(stderr: str, module: str) -> int:
    """The cumulative microseconds of ``module`` imported at the top level (not as another module's import)."""
    for line in stderr.splitlines():
        match = LINE.match(line)
        if match is not None and match.group(4) == module and len(match.group(3)) <= 1:
            return int(match.group(2))
    raise RuntimeError(f"no top-level import of {module} in the -X importtime report:\n{stderr[-2000:]}")


def one_run(interpreter: str, module: str, env: dict[str, str]) -> dict[str, float]:
    code = "pass" if module == "-" else f"import {module}"
    started = time.perf_counter()
    child = subprocess.Popen(
        [interpreter, "-X", "importtime", "-c", code],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env=env,
    )
    assert child.stderr is not None
    stderr = child.stderr.read().decode("utf-8", "replace")
    _, status, usage = os.wait4(child.pid, 0)
    wall = time.perf_counter() - started
    child.returncode = os.waitstatus_to_exitcode(status)
    child.stderr.close()
    if child.returncode != 0:
        raise RuntimeError(f"{code} exited with {child.returncode}:\n{stderr[-2000:]}")
    return {
        "cumulative_us": 0 if module == "-" else cumulative_us(stderr, module),
        "wall_us": wall * 1e6,
        "cpu_us": (usage.ru_utime + usage.ru_stime) * 1e6,
    }


def main(argv: list[str]) -> None:
    interpreter, rounds, modules = argv[0], int(argv[1]), argv[2:]
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONSTARTUP")}
    # One run each first, not counted: it writes any bytecode the installation did not, as a user's first run would.
    for module in modules:
        one_run(interpreter, module, env)
    runs: dict[str, list[dict[str, float]]] = {module: [] for module in modules}
    for index in range(rounds):
        shift = index % len(modules)
        for module in modules[shift:] + modules[:shift]:
            runs[module].append(one_run(interpreter, module, env))
    print(json.dumps({"runs": runs}))


if __name__ == "__main__":
    main(sys.argv[1:])
