import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

/**
 * V8's full garbage collection, as `--expose-gc` gives it, for a process started without that flag: the flag set at
 * run time takes effect in a context made after it (the way Jest's leak detector gets it).
 */
function fullCollection(): () => void {
  const exposed = (globalThis as { gc?: () => void }).gc;
  if (typeof exposed === "function") return exposed;
  try {
    setFlagsFromString("--expose-gc");
    const gc: unknown = runInNewContext("gc");
    if (typeof gc === "function") return gc as () => void;
  } catch {
    // A runtime without V8's flags: its own collector decides, as it would without this.
  }
  return () => {};
}

/** How much a large description's heap may grow between two emitters before its garbage is collected. */
export const EMITTER_GARBAGE_BYTES = 128 * 2 ** 20;

/**
 * Lets the garbage go when the heap has grown by more than `bytes` since the last time: V8 grows a busy heap
 * rather than collect, and between two emitters of a large description (each making tens of MB of text out of
 * hundreds of MB of short-lived strings) what it keeps is mostly garbage, which the process's peak would count.
 */
export function garbageCollector(bytes: number): () => void {
  let collect: (() => void) | undefined;
  let base = process.memoryUsage().heapUsed;
  return () => {
    if (process.memoryUsage().heapUsed - base <= bytes) return;
    collect ??= fullCollection();
    collect();
    base = process.memoryUsage().heapUsed;
  };
}
