// The Python target: the client package below python/ of the output folder, from the templates beside this file.
import type { Target } from "../../generator/target.js";
import type { PythonOptions } from "./emit/view.js";

export const target: Target = {
  summary: "the Python client below python/",
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      distribution: { description: "The Python distribution name (pyproject.toml).", type: "string", minLength: 1 },
      module: { description: "The Python import name.", type: "string", pattern: "^[A-Za-z_][A-Za-z0-9_]*$" },
      indexUrl: {
        description: "`publish`: the package index's simple API, where published versions are looked up (default: PyPI's).",
        type: "string",
        pattern: "^https?://",
      },
      uploadUrl: {
        description: "`publish`: where twine uploads (default: TWINE_REPOSITORY_URL, else PyPI's).",
        type: "string",
        pattern: "^https?://",
      },
    },
  },
  load: async (options) => {
    const { pythonEmitter } = await import("./emit/index.js");
    return { emitters: [pythonEmitter(options as PythonOptions)] };
  },
  check: async (outDir) => (await import("./emit/check.js")).checkPythonPackage(outDir),
  publish: async (outDir, options, context) => (await import("./publish/index.js")).publishPython(outDir, options, context),
  publishPrerequisites: async (options, context) => (await import("./publish/prerequisites.js")).pythonPrerequisites(options, context),
};
