// The Go target's emitter: the templates beside this file, fed with the view computed from the IR.
import type { Emitter } from "../../../generator/emit/kit.js";
import { templatedEmitter } from "../../../generator/emit/templated.js";
import { type GoOptions, goView } from "./view.js";

const TEMPLATES = new URL("../templates/", import.meta.url);

/** The Go module with the given names: go/ of the output folder (go.mod, README.md, the package's files). */
export const goEmitter = (options: GoOptions = {}): Emitter => {
  const emit = templatedEmitter(TEMPLATES, (ir) => goView(ir, options));
  // Named for the progress line, which names the emitters still running.
  return Object.defineProperty(emit, "name", { value: "emitGo" });
};

/** The Go module with the names derived from the description's title. */
export const emitGo = goEmitter();
