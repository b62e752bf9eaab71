import type { Emitter } from "../kit.js";
import { templatedEmitter } from "../templated.js";
import { type PythonOptions, pythonView } from "./view.js";

/** The Python package with the given names: generated/python/ (pyproject.toml, README.md, <module>/). */
export const pythonEmitter = (options: PythonOptions = {}): Emitter => templatedEmitter("python", (ir) => pythonView(ir, options));

/** The Python package with the names derived from the description's title. */
export const emitPython = pythonEmitter();
