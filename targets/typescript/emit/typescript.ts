import { createRequire } from "node:module";

/**
 * The TypeScript compiler API whose factory builds the generated code's syntax trees and whose printer prints them:
 * the `typescript` package openapi-typescript prints the types with, so that a run loads one compiler, not two.
 * It is CommonJS: `require` loads it directly, where an ESM import first scans its whole bundle for export names.
 */
export const ts = createRequire(import.meta.url)("typescript") as typeof import("typescript");
