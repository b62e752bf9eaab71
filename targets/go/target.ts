// The Go target: a Go module below go/ of the output folder, from the templates beside this file, wrapping the
// hand-written runtime module in runtime/.
import type { Target } from "../../generator/target.js";
import { GO_KEYWORDS, GO_PREDECLARED } from "./emit/keywords.js";
import type { GoOptions } from "./emit/view.js";

export const target: Target = {
  summary: "the Go module below go/",
  optionsSchema: {
    type: "object",
    additionalProperties: false,
    properties: {
      module: {
        description:
          "The Go module path (go.mod). Default: example.com/<title-slug>-sdk-go, a placeholder for local use that `publish` refuses: set it to publish.",
        type: "string",
        pattern: "^[a-z0-9][a-z0-9._~-]*(/[A-Za-z0-9._~-]+)*$",
      },
      package: {
        description: "The Go package name. Default: the title's letters and digits, lowercase.",
        type: "string",
        pattern: "^[a-z][a-z0-9]*$",
        not: { enum: [...GO_KEYWORDS, ...GO_PREDECLARED, "sdkruntime"] },
      },
      proxy: {
        description:
          "`publish`: the module proxy folder (GOPROXY=file://<folder>) the modules are written to (default: GOPROXY when a file:// URL).",
        type: "string",
        minLength: 1,
      },
    },
  },
  pathOptions: ["proxy"],
  flags: {
    "go-module": { option: "module", help: "the Go module path of the Go SDK (go.mod)" },
    "go-package": { option: "package", help: "the Go package name of the Go SDK" },
  },
  load: async (options) => {
    const { goEmitter } = await import("./emit/index.js");
    return { emitters: [goEmitter(options as GoOptions)] };
  },
  check: async (outDir) => (await import("./emit/check.js")).checkGoModule(outDir),
  publish: async (outDir, options, context) => (await import("./publish/index.js")).publishGo(outDir, options, context),
  publishPrerequisites: async (options, context) => (await import("./publish/prerequisites.js")).goPrerequisites(options, context),
};
