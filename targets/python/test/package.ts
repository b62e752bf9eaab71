// Where the generated Python package is: generated/python holds pyproject.toml, README.md and one module folder.
import { existsSync, readdirSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const pythonRoot = fileURLToPath(new URL("../../../generated/python/", import.meta.url));

/** The import name of the generated package (its module folder's name). */
export function generatedPythonModule(root = pythonRoot): string {
  const modules = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory() && existsSync(`${root}${d.name}/__init__.py`));
  if (modules.length !== 1)
    throw new Error(`expected one module folder in ${root}, found ${modules.map((m) => m.name).join(", ") || "none"}`);
  return modules[0]!.name;
}

/** The repository's Python tool environment (`npm ci` builds it): pytest, ruff, mypy, build, twine, the runtime. */
export const venvBin = fileURLToPath(new URL("../../../.venv/bin/", import.meta.url));
export const venvPython = `${venvBin}python`;
