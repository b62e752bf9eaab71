import { Worker } from "node:worker_threads";

/** A worker thread that answers once and then stops. */
export interface OneShotWorker<T> {
  /** The worker's one message; rejects when the worker fails or stops without answering. */
  readonly answer: Promise<T>;
  post(message: unknown): void;
  stop(): void;
}

/**
 * Runs `code` (CommonJS, reading `workerData`) in a worker thread. The generator's workers exist so that a large
 * description's longest steps run on the other core; each answers with one message.
 */
export function oneShotWorker<T>(code: string, workerData: unknown, name: string): OneShotWorker<T> {
  const worker = new Worker(code, { eval: true, workerData });
  const answer = new Promise<T>((resolve, reject) => {
    worker.once("message", (message: T) => {
      void worker.terminate();
      resolve(message);
    });
    worker.once("error", reject);
    worker.once("exit", (code) => reject(new Error(`${name}'s worker stopped (exit code ${code})`)));
  });
  return { answer, post: (message) => worker.postMessage(message), stop: () => void worker.terminate() };
}
