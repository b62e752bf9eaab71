"""Builds a pure-Python wheel (PEP 427) of the generated package from its pyproject.toml, standard library only.

The install test's fallback for interpreters whose setuptools cannot build a wheel offline (setuptools before 70.1
needs the separate ``wheel`` package, which a fresh venv lacks and the package index cannot supply here). pip then
installs the wheel itself, so the installed result is what pip makes of the package's own metadata.

Usage: python build_wheel.py <project folder> <output folder>; prints the wheel's path.
"""

from __future__ import annotations

import base64
import hashlib
import os
import re
import sys
import tomllib
import zipfile


def record_line(path: str, data: bytes) -> str:
    digest = base64.urlsafe_b64encode(hashlib.sha256(data).digest()).rstrip(b"=").decode("ascii")
    return f"{path},sha256={digest},{len(data)}"


def main(project: str, out: str) -> None:
    with open(os.path.join(project, "pyproject.toml"), "rb") as f:
        meta = tomllib.load(f)
    p = meta["project"]
    name, version = p["name"], p["version"]
    packages: list[str] = meta["tool"]["setuptools"]["packages"]
    stem = f"{re.sub(r'[-_.]+', '_', name).lower()}-{version}"
    dist_info = f"{stem}.dist-info"
    files: list[tuple[str, bytes]] = []
    for package in packages:
        # A subpackage is listed dotted (``pkg.types``); its files are in the folder ``pkg/types``.
        folder = os.path.join(project, *package.split("."))
        for entry in sorted(os.listdir(folder)):
            if entry.endswith(".py") or entry == "py.typed":
                with open(os.path.join(folder, entry), "rb") as f:
                    files.append((f"{package.replace('.', '/')}/{entry}", f.read()))
    with open(os.path.join(project, p.get("readme", "README.md")), encoding="utf-8") as f:
        readme = f.read()
    headers = [
        "Metadata-Version: 2.1",
        f"Name: {name}",
        f"Version: {version}",
        f"Summary: {p.get('description', '')}",
        f"Requires-Python: {p.get('requires-python', '>=3')}",
        *(f"Classifier: {c}" for c in p.get("classifiers", [])),
        *(f"Requires-Dist: {d}" for d in p.get("dependencies", [])),
        "Description-Content-Type: text/markdown",
    ]
    files.append((f"{dist_info}/METADATA", ("\n".join(headers) + "\n\n" + readme).encode("utf-8")))
    files.append((f"{dist_info}/WHEEL", b"Wheel-Version: 1.0\nGenerator: build_wheel.py\nRoot-Is-Purelib: true\nTag: py3-none-any\n"))
    files.append((f"{dist_info}/top_level.txt", ("\n".join(sorted({p.split(".")[0] for p in packages})) + "\n").encode("utf-8")))
    record = "\n".join([*(record_line(path, data) for path, data in files), f"{dist_info}/RECORD,,"]) + "\n"
    files.append((f"{dist_info}/RECORD", record.encode("utf-8")))
    wheel = os.path.join(out, f"{stem}-py3-none-any.whl")
    with zipfile.ZipFile(wheel, "w", zipfile.ZIP_DEFLATED) as z:
        for path, data in files:
            z.writestr(path, data)
    print(wheel)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
