// Ctrl-C and SIGTERM while a command writes: the handler puts things back (removes a staging folder, say) and says
// so, then the process ends with the signal's conventional code, instead of dying with its temporary files left behind.

const CODES = { SIGINT: 130, SIGTERM: 143 } as const;
type Signal = keyof typeof CODES;

/** Runs `restore` on SIGINT or SIGTERM, then exits; returns what takes the handlers off again. */
export function onInterrupt(restore: (signal: Signal) => Promise<void>): () => void {
  const handlers = (Object.keys(CODES) as Signal[]).map((signal) => {
    const handler = () => {
      stop();
      // A second signal while restoring ends the process at once, as usual.
      restore(signal).finally(() => process.exit(CODES[signal]));
    };
    process.once(signal, handler);
    return [signal, handler] as const;
  });
  const stop = () => {
    for (const [signal, handler] of handlers) process.removeListener(signal, handler);
  };
  return stop;
}
