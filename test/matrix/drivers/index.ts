// The matrix driver of each language, by the registry's names (targets/index.ts). A registered language without
// one fails the matrix: a language is not done until its output is compiled or imported here.
import type { MatrixDriver } from "./driver.js";
import { goDriver } from "./go.js";
import { pythonDriver } from "./python.js";
import { typescriptDriver } from "./typescript.js";

export const DRIVERS: Readonly<Record<string, MatrixDriver>> = {
  typescript: typescriptDriver,
  python: pythonDriver,
  go: goDriver,
};
