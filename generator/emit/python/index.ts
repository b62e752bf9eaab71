import { templatedEmitter } from "../templated.js";
import { pythonView } from "./view.js";

/** generated/python/service_client/: the Python client, rendered from templates/python/ with the view of view.ts. */
export const emitPython = templatedEmitter("python", pythonView);
