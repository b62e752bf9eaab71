// Python: every module of every package imported in one interpreter (annotations are evaluated then, so a field
// that shadows a name a later annotation uses fails here while the type checkers pass), then strict pyright once
// over all of them.
import { execFile } from "node:child_process";
import { join, relative } from "node:path";
import { promisify } from "node:util";
import { venvPython } from "../../../targets/python/test/package.js";
import type { MatrixDriver } from "./driver.js";

const run = promisify(execFile);

const IMPORT_ALL = `
import importlib, json, os, sys, traceback
failed = []
for folder in json.loads(sys.argv[1]):
    # The package is named after the description's title: the one folder with an __init__.py.
    [package] = [n for n in sorted(os.listdir(folder)) if os.path.isfile(os.path.join(folder, n, "__init__.py"))]
    sys.path.insert(0, folder)
    modules = [package] + sorted(
        package + "." + name[:-3] for name in os.listdir(os.path.join(folder, package)) if name.endswith(".py") and name != "__init__.py"
    )
    for module in modules:
        try:
            importlib.import_module(module)
        except Exception as error:
            failed.append(folder + " " + module + ": " + traceback.format_exception_only(type(error), error)[-1].strip())
    for name in [m for m in sys.modules if m == package or m.startswith(package + ".")]:
        del sys.modules[name]
    sys.path.remove(folder)
print(json.dumps(failed))
`;
import { diagnosticLine, pyrightStrict } from "../../../targets/python/test/checkers.js";

export const pythonDriver: MatrixDriver = async (packages, work) => {
  const folders = packages.map((p) => join(p.out, "python"));
  const env = { ...process.env, PYTHONDONTWRITEBYTECODE: "1" };
  const imported = await run(venvPython, ["-c", IMPORT_ALL, JSON.stringify(folders)], { cwd: work, env, timeout: 120_000 });
  const problems = (JSON.parse(imported.stdout) as string[]).map((line) => relative(work, line));
  const report = await pyrightStrict(
    work,
    folders.map((f) => relative(work, f)),
  );
  for (const d of report.generalDiagnostics.filter((d) => d.severity === "error")) problems.push(`pyright: ${diagnosticLine(work, d)}`);
  return problems;
};
