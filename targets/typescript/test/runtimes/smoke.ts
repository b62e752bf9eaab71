// The smoke test that Node, Bun and Deno each run (runtimes.test.ts): the generated client, from its TypeScript
// sources, against the mock whose base address is the first argument, then its webhooks entry. It prints one JSON
// line of what it saw; the test compares that line across runtimes. Kept to what every server runtime has.
import { addJob, createClient, getJob, isBrowser, listWebhooks, NotFoundCodeError, ServiceError } from "../../../../generated/index.js";
import { SignatureMismatchError, signWebhook, verify, webhookSigning } from "../../../../generated/webhooks.js";

const baseUrl = process.argv.at(-1) ?? "";
const client = createClient({ baseUrl, token: "svc_sk_runtimes0123456789", pollIntervalMs: { min: 50, max: 100 } });

const read = await listWebhooks(client);
// The mock holds the submission for less than the job takes: 202, then polls until it completes.
const job = await addJob(
  client,
  "workflow",
  { template: "pdf_ai_split", pofid: "POF-RUNTIMES-1", locale: "en_US" },
  { headers: { "x-mock-job-duration-ms": "400" } },
);
let failure: unknown;
try {
  await getJob(client, { job_id: "job_does_not_exist" });
} catch (error) {
  failure = error;
}

// The webhooks entry too: HMAC through whichever crypto the runtime has, and a tampered body refused.
const secret = "whsec_runtimes";
// Signed now: verify's replay window (300 s by default) refuses older deliveries.
const delivery = JSON.stringify({ event_type: "job.completed", event_id: "evt_runtimes_1", timestamp: new Date().toISOString(), data: {} });
const headers = {
  [webhookSigning.signature.header]: await signWebhook(delivery, secret),
  [webhookSigning.headers.eventId]: "evt_runtimes_1",
  [webhookSigning.headers.eventType]: "job.completed",
};
const verified = await verify(delivery, headers, secret);
const tampered = await verify(delivery.replace("evt_runtimes_1", "evt_runtimes_2"), headers, secret).catch((error: unknown) => error);

console.log(
  JSON.stringify({
    browser: isBrowser(),
    read: read.meta.status,
    submitted: job.submitMeta?.status,
    polled: job.polls > 0,
    completed: job.meta.status === 200 && typeof job.data === "object",
    error: {
      isNotFound: failure instanceof NotFoundCodeError,
      isServiceError: failure instanceof ServiceError,
      status: failure instanceof ServiceError ? failure.status : undefined,
      code: failure instanceof ServiceError ? failure.code : undefined,
    },
    webhook: { known: verified.known, type: verified.eventType, tamperedRefused: tampered instanceof SignatureMismatchError },
  }),
);
