// The registry: the targets the generator writes, one line each, and the only module that names them. The core
// reaches a target through this list alone, and loads it when a run asks for it (docs/adding-a-language.md).
import type { TargetModule } from "../generator/target.js";

export const TARGETS = {
  typescript: () => import("./typescript/target.js"),
  python: () => import("./python/target.js"),
  go: () => import("./go/target.js"),
  mcp: () => import("./mcp/target.js"),
} as const satisfies Record<string, TargetModule>;
