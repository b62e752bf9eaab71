// Progress on a terminal: a step that lasts more than about a second shows on stderr with its elapsed time, and
// the line is cleared when the run ends. Off a terminal (pipes, CI logs) nothing is printed but the summary.

const DELAY_MS = 1000;
const FRAMES = ["⠋", "⠙", "⠹", "⠸", "⠼", "⠴", "⠦", "⠧", "⠇", "⠏"];

export interface Progress {
  step(text: string): void;
  done(): void;
}

export function progress(stream: NodeJS.WriteStream = process.stderr): Progress {
  if (!stream.isTTY || process.env.CI) return { step: () => {}, done: () => {} };
  let text = "";
  let since = performance.now();
  let frame = 0;
  let shown = false;
  const timer = setInterval(() => {
    const elapsed = performance.now() - since;
    if (elapsed < DELAY_MS) return;
    const width = Math.max(20, (stream.columns ?? 80) - 12);
    const line = text.length > width ? `${text.slice(0, width - 1)}…` : text;
    stream.write(`\r\x1b[K${FRAMES[frame++ % FRAMES.length]} ${line} (${(elapsed / 1000).toFixed(1)} s)`);
    shown = true;
  }, 120);
  timer.unref();
  return {
    step(next) {
      if (next !== text) [text, since] = [next, performance.now()];
    },
    done() {
      clearInterval(timer);
      if (shown) stream.write("\r\x1b[K");
    },
  };
}
