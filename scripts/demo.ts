// `npm run demo`: starts the mock in-process and runs the generated client through a realistic flow: an OCR job
// that outlasts the hold (202), polled to completion and its result downloaded; a workflow variant; a voice job
// in queue mode; a webhook delivered to a local receiver, verified and deduplicated. Exits 0 when every step
// worked, 1 otherwise.
import http from "node:http";
import type { AddressInfo } from "node:net";
import { addJob, createClient, downloadFile, type JobProgress, testWebhook } from "../generated/index.js";
import { createWebhookProcessor } from "../generated/webhooks.js";
import { startMock } from "../mock/index.js";

const TOKEN = "svc_sk_demo_0000000000000001";
const SECRET = "demo-webhook-secret";

let step = 0;
function say(text: string): void {
  console.log(`\n[${++step}] ${text}`);
}
function detail(text: string): void {
  console.log(`    ${text}`);
}
const progress = (p: JobProgress) => detail(`job ${p.jobId}: ${p.previousStatus ?? "submitted"} -> ${p.status} (poll ${p.polls})`);

function check(condition: unknown, message: string): asserts condition {
  if (!condition) throw new Error(`check failed: ${message}`);
}

async function main(): Promise<void> {
  say("Starting the mock of the service");
  const mock = await startMock({ holdMs: 400, jobDurationMs: 200 });
  detail(mock.startupLine);

  const received: { raw: Buffer; headers: http.IncomingHttpHeaders }[] = [];
  const seen: string[] = [];
  const processDelivery = createWebhookProcessor({
    secret: SECRET,
    on: {
      "document.created": (event) => {
        seen.push(event.event_id);
      },
    },
  });
  const receiver = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const raw = Buffer.concat(chunks);
      received.push({ raw, headers: req.headers });
      void processDelivery(raw, req.headers).then((outcome) => {
        res.writeHead(outcome.status, { "content-type": "application/json" });
        res.end(JSON.stringify(outcome.body));
      });
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
  const receiverUrl = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/webhooks`;

  try {
    const client = createClient({ baseUrl: mock.url, token: TOKEN, pollIntervalMs: { min: 150, max: 250 } });
    const pdf = new Blob(["%PDF-1.4\n%demo\n"], { type: "application/pdf" });

    say("OCR job (service_aiocr___generate / us_tax_forms) that outlasts the 400 ms hold");
    const ocr = await addJob(
      client,
      "service_aiocr___generate",
      { file_1: { data: pdf, filename: "w2.pdf" }, model: "premium", idp_collection: "us_tax_forms", idp_fields: ["wages"] },
      { headers: { "x-mock-job-duration-ms": "1500" }, onProgress: progress },
    );
    detail(
      `submission answered HTTP ${ocr.submitMeta?.status}; completed after ${ocr.polls} polls; charged ${ocr.submitMeta?.billing?.credits_billed ?? "?"} credits`,
    );
    check(ocr.submitMeta?.status === 202, "the submission should have outlasted the hold (202)");
    const url = (ocr.data as { download_url?: string }).download_url;
    check(typeof url === "string", "the OCR result carries a download URL");
    const file = await downloadFile(client, url);
    const bytes = (await file.blob()).size;
    detail(`downloaded ${file.fileName ?? "(no name)"} (${file.contentType ?? "?"}, ${bytes} bytes)`);
    check(bytes > 0, "the download has content");

    say("Workflow variant pdf_ai_split on a stored document (pofid)");
    const split = await addJob(
      client,
      "workflow",
      { template: "pdf_ai_split", pofid: "POF-DEMO-1", locale: "de_DE" },
      { onProgress: progress },
    );
    detail(
      `job ${split.jobId} finished ${split.polls === 0 ? "within the hold" : `after ${split.polls} polls`}; payload keys: ${Object.keys(split.data).join(", ")}`,
    );

    say("Voice job (service_voice___tts) in queue mode");
    const tts = await addJob(
      client,
      "service_voice___tts",
      { text: "Hello from the mock", voice: "anna", priority: "queue" },
      { onProgress: progress },
    );
    detail(`queued job ${tts.jobId} completed after ${tts.polls} polls; audio files: ${(tts.data.output_files ?? []).length}`);
    check(tts.polls > 0, "queue mode answers at once and is polled");

    say("Webhook subscription to a local receiver");
    // The generated subscribeWebhook refuses loopback receivers on the client side, as the service does; the mock
    // accepts them, so the demo subscribes through the client's openapi-fetch instance, typed by the description.
    const { data: created, response } = await client.openapi.POST("/webhooks/subscribe", {
      body: { name: "demo", url: receiverUrl, events: ["document.created"], secret: SECRET, retry_policy: "exponential", max_retries: 2 },
    });
    if (created?.subscription_id === undefined) throw new Error(`subscribing failed: HTTP ${response.status}`);
    const subscriptionId = created.subscription_id;
    detail(`subscription ${subscriptionId} -> ${receiverUrl}`);
    await testWebhook(client, { subscription_id: subscriptionId, event_type: "document.created" });
    await mock.webhooksIdle();
    check(received.length === 1, "one delivery received");
    check(seen.length === 1, "the delivery verified and handled once");
    detail(`delivery ${seen[0]} verified (X-Service-Signature) and handled`);

    say("The same delivery again: deduplicated by X-Service-Event-ID");
    const first = received[0]!;
    const replay = await fetch(receiverUrl, {
      method: "POST",
      headers: Object.fromEntries(
        Object.entries(first.headers).filter(([k]) => k.startsWith("x-service-") || k === "content-type"),
      ) as Record<string, string>,
      body: new Uint8Array(first.raw),
    });
    const outcome = (await replay.json()) as { status?: string };
    detail(`receiver answered HTTP ${replay.status} ${JSON.stringify(outcome)}`);
    check(outcome.status === "duplicate" && seen.length === 1, "the replay is recognised as a duplicate and not handled again");
    const log = mock.deliveries(subscriptionId);
    detail(`mock delivery log: ${log.map((a) => `attempt ${a.attempt} -> ${a.status ?? a.error}`).join(", ")}`);

    say("Mock counters");
    detail(`requests: ${JSON.stringify(mock.stats.requests)}; jobs created: ${mock.stats.jobsCreated}`);
    check(
      mock.stats.invalidResponses.length === 0,
      `every mock answer matched the description (${mock.stats.invalidResponses.join("; ")})`,
    );
  } finally {
    say("Stopping the mock");
    receiver.closeAllConnections();
    await new Promise<void>((resolve) => receiver.close(() => resolve()));
    await mock.stop();
  }
  console.log("\nDemo finished: every step worked.");
}

main().catch((error: unknown) => {
  console.error(`\nDemo failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  process.exitCode = 1;
});
