// Node-only helpers, behind the `<package>/node` subpath so that browser bundles of the client never carry them.
export { createHoldDispatcher, DEFAULT_HOLD_TIMEOUT_MS, type HoldDispatcherOptions } from "./dispatcher.js";
export { HOLD_MARGIN_MS, holdTimeoutMs, maxHoldMs } from "./hold.js";
