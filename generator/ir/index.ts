// The IR's public module: what a program outside the generator (the mock, a target's tests, another language's
// toolchain) may take of it. The generator's other modules are its own.
export * from "./types.js";
export { flattenObject } from "./flatten.js";
export { toJsonSchema } from "./json-schema.js";
export { pointerTokens, unescapeToken } from "../spec/pointer.js";
