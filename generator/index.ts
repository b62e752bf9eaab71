// The toolchain's programmatic entry: what the command does, for build scripts that call it from code.
export { type GenerateOptions, type Generation, generate, writeFiles } from "./generate.js";
export type { EmittedFile, Emitter } from "./emit/kit.js";
