// Typed webhook events of the generated Python package (generated/python): `unwrap` and `event_of` return the
// delivery as the class of its event type, its body parsed into the event's model, and an event type the
// description does not name as an UnknownWebhookDelivery with every field kept. Strict pyright narrows a receiver
// that checks `known` and then switches on `event_type`; the same program runs and prints what it received.
import { cp, mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPO_ROOT } from "../../../test/support/readme-examples.js";
import { type PyrightReport, pyrightStrict } from "./checkers.js";
import { runPython } from "./python-program.js";

const RECEIVER = `
import json
from datetime import datetime, timezone

from typing_extensions import reveal_type

from document_automation_service import webhooks


def handle(delivery: webhooks.WebhookDelivery) -> str:
    if delivery.known is False:
        reveal_type(delivery)
        return f"unknown {delivery.event_type} {sorted(delivery.event.model_extra or {})}"
    if delivery.event_type == "job.completed":
        reveal_type(delivery)
        reveal_type(delivery.event)
        return f"completed {delivery.event.event_id} {delivery.event.subscription_id}"
    match delivery:
        case webhooks.DocumentUploadedDelivery():
            reveal_type(delivery.event)
            return "uploaded"
        case _:
            return f"other {delivery.event_type}"


def deliver(event_type: str, secret: str = "whsec_typed") -> str:
    stamp = datetime.now(timezone.utc).isoformat().replace("+00:00", "Z")
    body = {"event_type": event_type, "event_id": "0123456789abcdef0123456789abcdef", "timestamp": stamp}
    raw = json.dumps({**body, "subscription_id": 7, "data": {"x": 1}, "later_field": True}).encode()
    headers = {"X-Service-Signature": webhooks.sign(raw, secret), "X-Service-Event-ID": body["event_id"]}
    return handle(webhooks.unwrap(raw, headers, secret))


for name in ["job.completed", "document.uploaded", "task.created", "document.archived_forever"]:
    print(deliver(name))
`;

let dir: string;
let report: PyrightReport;

beforeAll(async () => {
  await mkdir(join(REPO_ROOT, ".tmp"), { recursive: true });
  dir = await mkdtemp(join(REPO_ROOT, ".tmp", "webhook-events-py-"));
  await cp(join(REPO_ROOT, "generated", "python"), dir, { recursive: true });
  await writeFile(join(dir, "receiver.py"), RECEIVER);
  report = await pyrightStrict(dir, ["receiver.py"]);
}, 240_000);

afterAll(async () => {
  if (dir !== undefined) await rm(dir, { recursive: true, force: true });
});

const revealed = (): string[] =>
  report.generalDiagnostics.filter((d) => d.severity === "information").map((d) => d.message.replaceAll('"', ""));

describe("typed webhook events (Python)", () => {
  it("narrow under strict pyright: known first, then the event type, to the event's class and model", () => {
    expect(report.generalDiagnostics.filter((d) => d.severity === "error").map((d) => d.message)).toEqual([]);
    expect(revealed()).toEqual([
      "Type of delivery is UnknownWebhookDelivery",
      "Type of delivery is JobCompletedDelivery",
      "Type of delivery.event is JobCompletedEvent",
      "Type of delivery.event is DocumentUploadedEvent",
    ]);
  });

  it("parse each delivery into its event's model and keep an unknown event type whole", async () => {
    const out = await runPython(`import runpy; runpy.run_path("receiver.py", run_name="__main__")`, [], dir, dir);
    expect(out.trim().split("\n")).toEqual([
      "completed 0123456789abcdef0123456789abcdef 7",
      "uploaded",
      "other task.created",
      "unknown document.archived_forever ['data', 'event_id', 'event_type', 'later_field', 'subscription_id', 'timestamp']",
    ]);
  }, 60_000);
});
