import type { Emitter } from "../../../generator/emit/kit.js";
import { templatedEmitter } from "../../../generator/emit/templated.js";
import { type PythonOptions, pythonView } from "./view.js";

const TEMPLATES = new URL("../templates/", import.meta.url);

/** The Python package with the given names: generated/python/ (pyproject.toml, README.md, <module>/). */
export const pythonEmitter = (options: PythonOptions = {}): Emitter => {
  const emit = templatedEmitter(TEMPLATES, (ir) => pythonView(ir, options));
  // Named for the progress line, which names the emitters still running.
  return Object.defineProperty(emit, "name", { value: "emitPython" });
};

/** The Python package with the names derived from the description's title. */
export const emitPython = pythonEmitter();
