// The TypeScript soak driver: many jobs through one generated client (generated/index.ts), a bounded number in
// flight, each call with a deadline; one JSON line per job on stdout (soak.ts describes the protocol). Run in a
// process of its own: `node --import tsx soak.ts` with the configuration as JSON on stdin.
import {
  ConnectionError,
  createClient,
  DeadlineExceededError,
  JobFailedError,
  JobMayExistError,
  MalformedResponseError,
  MayHaveBeenProcessedError,
  ServiceError,
  startJob,
  submitJob,
  waitJob,
} from "../../../generated/index.js";
import {
  deadlineOf,
  modeOf,
  STALL_MIN_MS,
  STALL_TICK_MS,
  type SoakCall,
  type SoakConfig,
  type SoakJob,
  soakBody,
  soakRef,
} from "../soak.js";

function kindOf(error: unknown): string {
  if (error instanceof JobMayExistError) return "job-may-exist";
  if (error instanceof MayHaveBeenProcessedError) return "may-have-been-processed";
  if (error instanceof JobFailedError) return "job-failed";
  if (error instanceof MalformedResponseError) return "malformed";
  if (error instanceof DeadlineExceededError) return "deadline";
  if (error instanceof ConnectionError) return "connection";
  if (error instanceof ServiceError) return "service";
  return `other:${error instanceof Error ? error.name : typeof error}`;
}

async function timed<T>(calls: SoakCall[], op: SoakCall["op"], deadlineMs: number, fn: () => Promise<T>): Promise<T> {
  const startedAt = Date.now();
  const began = performance.now();
  try {
    return await fn();
  } finally {
    calls.push({ op, deadlineMs, startedAt, elapsedMs: Math.round(performance.now() - began) });
  }
}

async function main(): Promise<void> {
  const chunks: Buffer[] = [];
  for await (const chunk of process.stdin) chunks.push(chunk as Buffer);
  const config = JSON.parse(Buffer.concat(chunks).toString("utf8")) as SoakConfig;
  const client = createClient({
    baseUrl: config.baseUrl,
    token: config.token,
    pollIntervalMs: { min: config.pollMs[0], max: config.pollMs[1] },
    retry: {
      maxRetries: config.maxRetries,
      baseDelayMs: config.baseDelayMs,
      maxDelayMs: config.maxDelayMs,
      maxRetryAfterMs: config.maxRetryAfterMs,
    },
  });
  const runJob = async (index: number): Promise<SoakJob> => {
    const deadlineMs = deadlineOf(config, index);
    const ref = soakRef(config, index);
    const mode = modeOf(config, index);
    const body = soakBody(ref, mode);
    const calls: SoakCall[] = [];
    try {
      let jobId: string;
      let hasData: boolean;
      if (mode === "start") {
        const handle = await timed(calls, "start", deadlineMs, () => startJob(client, config.pipeline, body, { deadlineMs }));
        const result = await timed(calls, "wait", deadlineMs, () => waitJob(client, handle.jobId, { deadlineMs }));
        jobId = result.jobId;
        hasData = result.data !== undefined && result.data !== null;
      } else {
        const result = await timed(calls, "submit", deadlineMs, () => submitJob(client, config.pipeline, body, { deadlineMs }));
        jobId = result.jobId;
        hasData = result.data !== undefined && result.data !== null;
      }
      return { ref, mode, ok: true, jobId, hasData, calls };
    } catch (error) {
      const jobId = typeof error === "object" && error !== null ? (error as { jobId?: unknown }).jobId : undefined;
      const message = error instanceof Error ? error.message : String(error);
      return { ref, mode, ok: false, kind: kindOf(error), jobId: typeof jobId === "string" ? jobId : null, message, calls };
    }
  };
  let next = 0;
  const worker = async (): Promise<void> => {
    for (let i = next++; i < config.jobs; i = next++) process.stdout.write(`${JSON.stringify(await runJob(i))}\n`);
  };
  // The process's own stalls: a timer every 20 ms that fires late means the event loop (or the machine) held every
  // call back for as long; the judge does not count that against a call's deadline.
  const stalls: [number, number][] = [];
  let expected = performance.now() + STALL_TICK_MS;
  const ticker = setInterval(() => {
    const now = performance.now();
    const late = Math.round(now - expected);
    if (late >= STALL_MIN_MS) stalls.push([Date.now(), late]);
    expected = now + STALL_TICK_MS;
  }, STALL_TICK_MS);
  await Promise.all(Array.from({ length: config.concurrency }, worker));
  clearInterval(ticker);
  process.stdout.write(`${JSON.stringify({ stalls })}\n`);
}

await main();
