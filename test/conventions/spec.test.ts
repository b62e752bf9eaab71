// The conventions extensions: their checks (each problem at its JSON pointer), what the IR carries, and what the
// release diff reports when they change.
import { readFile } from "node:fs/promises";
import { describe, expect, it } from "vitest";
import { diffReleases } from "../../generator/diff/index.js";
import { buildIR } from "../../generator/ir/build.js";
import { checkDescription } from "../../generator/spec/load.js";
import { SpecError } from "../../generator/spec/problems.js";
import { parseDescription } from "../../generator/spec/read.js";
import { currentRelease, releaseFile } from "../support/service-releases.js";
import { changed, base } from "../diff/helpers.js";

// biome-ignore lint/suspicious/noExplicitAny: the mutations reach into arbitrary places of a parsed document
type Json = any;

const ROOT = "/x-paperoffice-conventions";
const SUBMIT = "/paths/~1job~1add~1{pipeline}/post";
const POLL = "/paths/~1job~1get~1{job_id}/get";
const DOWNLOAD = "/paths/~1job~1download~1{token}/get";
const AUDIT = "/paths/~1analytics~1audit-center/get";

async function problemsAfter(mutate: (doc: Json) => void): Promise<string[]> {
  const file = releaseFile(currentRelease());
  const text = await readFile(file, "utf8");
  const document = parseDescription(file, text);
  mutate(document);
  try {
    await checkDescription({ source: "broken.yaml", text, document });
  } catch (error) {
    expect(error).toBeInstanceOf(SpecError);
    return (error as SpecError).problems.map((p) => `${p.pointer}: ${p.message}`);
  }
  return [];
}

const op = (doc: Json, pointer: string): Json =>
  pointer
    .slice(1)
    .split("/")
    .reduce((n: Json, t) => n[t.replaceAll("~1", "/").replaceAll("~0", "~")], doc);

describe("checks of the conventions extensions", () => {
  it.each<{ given: string; mutate: (doc: Json) => void; want: unknown[] }>([
    {
      given: "an unknown envelope member",
      mutate: (d) => {
        d["x-paperoffice-conventions"].envelope.colour = "blue";
      },
      want: [`${ROOT}/envelope: x-paperoffice-conventions must NOT have additional properties ("colour")`],
    },
    {
      given: "a token scheme that is not declared",
      mutate: (d) => {
        d["x-paperoffice-conventions"].tokens.scheme = "apiKeyAuth";
      },
      want: [`${ROOT}/tokens/scheme: no security scheme "apiKeyAuth"`],
    },
    {
      given: "a renewal code outside the error catalogue",
      mutate: (d) => {
        d["x-paperoffice-conventions"].tokens.renewOn.push("TOKEN_STALE");
      },
      want: [`${ROOT}/tokens/renewOn/2: error code TOKEN_STALE is not in the error catalogue`],
    },
    {
      given: "a base-path rule a server breaks",
      mutate: (d) => {
        d["x-paperoffice-conventions"].basePath.suffix = "/v2";
      },
      want: ["/servers/0/url: does not end with /v2, the base-path rule of x-paperoffice-conventions"],
    },
    {
      given: "a poll role naming a parameter the operation lacks",
      mutate: (d) => {
        op(d, POLL)["x-paperoffice-job"].jobIdParameter = "id";
      },
      want: [`${POLL}/x-paperoffice-job/jobIdParameter: the operation has no path parameter "id"`],
    },
    {
      given: "a download role that leaves its parameter unnamed on an operation with two",
      mutate: (d) => {
        op(d, DOWNLOAD).parameters.push({ name: "part", in: "path", required: true, schema: { type: "string" } });
        d.paths["/job/download/{token}/{part}"] = d.paths["/job/download/{token}"];
        delete d.paths["/job/download/{token}"];
      },
      want: [
        "/paths/~1job~1download~1{token}~1{part}/get/x-paperoffice-job: the operation has 2 path parameters: name the one to use in tokenParameter",
      ],
    },
    {
      given: "a submission naming an operation that does not poll",
      mutate: (d) => {
        op(d, SUBMIT)["x-paperoffice-job"].poll = "getDocument";
      },
      want: [`${SUBMIT}/x-paperoffice-job/poll: no operation "getDocument" has x-paperoffice-job role poll`],
    },
    {
      given: "two operations holding the download role",
      mutate: (d) => {
        op(d, "/paths/~1documents~1document-get~1{pofid}/get")["x-paperoffice-job"] = { role: "download", tokenParameter: "pofid" };
      },
      want: [
        `/paths/~1documents~1document-get~1{pofid}/get/x-paperoffice-job/role: role "download" is also held at ${DOWNLOAD}/x-paperoffice-job/role`,
      ],
    },
    {
      given: "a role with a member of another role",
      mutate: (d) => {
        op(d, DOWNLOAD)["x-paperoffice-job"].completed = "done";
      },
      want: [`${DOWNLOAD}/x-paperoffice-job: x-paperoffice-job must NOT have additional properties ("completed")`],
    },
    {
      given: "an invalid selector pattern and a refusal code outside the catalogue",
      mutate: (d) => {
        Object.assign(op(d, SUBMIT)["x-paperoffice-job"], { selectorPattern: "([", selectorRefusal: "NOPE" });
      },
      want: [
        `${SUBMIT}/x-paperoffice-job/selectorPattern: is not a valid regular expression`,
        `${SUBMIT}/x-paperoffice-job/selectorRefusal: error code NOPE is not in the error catalogue`,
      ],
    },
    {
      given: "a signature header no webhook declares",
      mutate: (d) => {
        d["x-paperoffice-conventions"].webhooks.signature.header = "X-Service-Hmac";
      },
      want: [`${ROOT}/webhooks/signature/header: none of the 22 webhooks has a header parameter "X-Service-Hmac"`],
    },
    {
      given: "a header name that is not an HTTP token",
      mutate: (d) => {
        d["x-paperoffice-conventions"].webhooks.headers.eventType = "X Service Event";
      },
      want: [`${ROOT}/webhooks/headers/eventType: x-paperoffice-conventions must match pattern "^[!#$%&'*+.^_\`|~0-9A-Za-z-]+$"`],
    },
    {
      given: "a delivery body field the webhooks lack",
      mutate: (d) => {
        d["x-paperoffice-conventions"].webhooks.body.timestamp = "sent_at";
      },
      want: [`${ROOT}/webhooks/body/timestamp: none of the 22 webhooks has a body property "sent_at"`],
    },
    {
      given: "a delivery header one webhook lacks",
      mutate: (d) => {
        d.webhooks["task.overdue"].post.parameters = d.webhooks["task.overdue"].post.parameters.slice(0, 4);
      },
      want: [`${ROOT}/webhooks/signature/header: webhook task.overdue has no header parameter "X-Service-Signature"`],
    },
    {
      given: "a webhook signing without its event id header",
      mutate: (d) => {
        delete d["x-paperoffice-conventions"].webhooks.headers.eventId;
      },
      want: [`${ROOT}/webhooks/headers: x-paperoffice-conventions must have required property 'eventId'`],
    },
    {
      given: "a subscription field no marked body has",
      mutate: (d) => {
        d["x-paperoffice-conventions"].webhookSubscription.maxRetries = "retries";
      },
      want: [`${ROOT}/webhookSubscription/maxRetries: no body marked x-paperoffice-webhook-subscription has a property "retries"`],
    },
    {
      given: "subscription field names without a marked operation",
      mutate: (d) => {
        delete op(d, "/paths/~1webhooks~1subscribe/post")["x-paperoffice-webhook-subscription"];
        delete op(d, "/paths/~1webhooks~1update/post")["x-paperoffice-webhook-subscription"];
      },
      want: [`${ROOT}/webhookSubscription: no operation with a JSON body is marked x-paperoffice-webhook-subscription`],
    },
    {
      given: "a hold that is not a positive number of seconds",
      mutate: (d) => {
        op(d, SUBMIT)["x-paperoffice-job"].maxHoldSeconds = 0;
      },
      want: [`${SUBMIT}/x-paperoffice-job/maxHoldSeconds: x-paperoffice-job must be > 0`],
    },
    {
      given: "paging names the operation does not declare",
      mutate: (d) => {
        Object.assign(op(d, AUDIT)["x-paperoffice-pagination"], { offset: "skip", items: "audit_total", total: "findings" });
      },
      want: [
        `${AUDIT}/x-paperoffice-pagination/offset: the operation has no query parameter "skip"`,
        `${AUDIT}/x-paperoffice-pagination/items: the operation's JSON success answer has no property "audit_total"`,
        `${AUDIT}/x-paperoffice-pagination/total: property "findings" is not a number`,
      ],
    },
    {
      given: "paging without its items field",
      mutate: (d) => {
        delete op(d, AUDIT)["x-paperoffice-pagination"].items;
      },
      want: [`${AUDIT}/x-paperoffice-pagination: x-paperoffice-pagination must have required property 'items'`],
    },
    {
      given: "billed given as a string",
      mutate: (d) => {
        op(d, SUBMIT)["x-paperoffice-billed"] = "yes";
      },
      want: [`${SUBMIT}/x-paperoffice-billed: x-paperoffice-billed must be equal to constant`],
    },
    {
      given: "an operation marked both billed and idempotent",
      mutate: (d) => {
        op(d, SUBMIT)["x-idempotent"] = true;
      },
      want: [`${SUBMIT}/x-idempotent: x-idempotent contradicts x-paperoffice-billed on the same operation`],
    },
  ])("reports $given", async ({ mutate, want }) => {
    const problems = await problemsAfter(mutate);
    for (const line of want) expect(problems).toContainEqual(line);
    expect(problems).toHaveLength(want.length);
  });
});

describe("the IR of the conventions", () => {
  it("carries the roles, billing and resend decisions of the current release", async () => {
    const { ir } = (await base()).model;
    const byId = new Map(ir.operations.map((o) => [o.id, o]));
    expect(byId.get("addJob")).toMatchObject({ billed: true, idempotent: false, job: { role: "submit", poll: "getJob", jobId: "job_id" } });
    expect(byId.get("getJob")).toMatchObject({ billed: false, idempotent: true, job: { role: "poll", jobIdParameter: "job_id" } });
    expect(byId.get("downloadJobFile")?.job).toEqual({ role: "download", tokenParameter: "token" });
    // A POST that is not billed is still not sent twice: the description does not mark it idempotent.
    expect(byId.get("deleteWebhook")).toMatchObject({ billed: false, idempotent: false });
    expect(ir.conventions?.basePathSuffix).toBe("/latest");
    expect(ir.conventions?.tokens?.kinds.map((k) => k.prefix)).toEqual(["sk_", "ut_", "gt_", "pk_"]);
  });

  it("marks a POST idempotent only when the description says so", async () => {
    const next = await changed((d: Json) => {
      op(d, "/paths/~1webhooks~1delete/post")["x-idempotent"] = true;
    });
    expect(next.ir.operations.find((o) => o.id === "deleteWebhook")?.idempotent).toBe(true);
  });
});

describe("the release diff of the conventions", () => {
  it("reports a renamed poll path and a renamed status field", async () => {
    const old = (await base()).model;
    const next = await changed((d: Json) => {
      d.paths["/job/status/{job_id}"] = d.paths["/job/get/{job_id}"];
      delete d.paths["/job/get/{job_id}"];
      d.paths["/job/status/{job_id}"].get["x-paperoffice-job"].status = "state";
    });
    const rules = diffReleases(old, next).map((c) => `${c.rule} ${c.severity} ${c.pointer}`);
    expect(rules).toContain("conventions.job.operation-moved breaking /paths/~1job~1status~1{job_id}/get/x-paperoffice-job");
    expect(rules).toContain("conventions.job.changed breaking /paths/~1job~1status~1{job_id}/get/x-paperoffice-job/status");
  });

  it("reports billing, resending, envelope and token changes", async () => {
    const old = (await base()).model;
    const next = await changed((d: Json) => {
      delete op(d, SUBMIT)["x-paperoffice-billed"];
      op(d, "/paths/~1webhooks~1delete/post")["x-idempotent"] = true;
      d["x-paperoffice-conventions"].envelope.message = "detail";
      d["x-paperoffice-conventions"].tokens.kinds.push({ prefix: "ak_", name: "agent" });
    });
    const changes = diffReleases(old, next);
    const rules = changes.map((c) => c.rule).sort();
    expect(rules).toEqual([
      "conventions.billed.removed",
      "conventions.envelope.changed",
      "conventions.idempotent.added",
      "conventions.tokens.kind-added",
    ]);
    expect(changes.find((c) => c.rule === "conventions.envelope.changed")).toMatchObject({
      severity: "breaking",
      pointer: "/x-paperoffice-conventions/envelope/message",
    });
  });

  it("leaves a renamed job id parameter to operation.path-parameter-renamed", async () => {
    const old = (await base()).model;
    const next = await changed((d: Json) => {
      d.paths["/job/get/{id}"] = d.paths["/job/get/{job_id}"];
      delete d.paths["/job/get/{job_id}"];
      d.paths["/job/get/{id}"].get.parameters[0].name = "id";
    });
    expect(next.ir.operations.find((o) => o.id === "getJob")?.job).toMatchObject({ role: "poll", jobIdParameter: "id" });
    expect(diffReleases(old, next).filter((c) => c.rule.startsWith("conventions."))).toEqual([]);
  });

  it("reports an idempotency key taken, moved to another header and dropped", async () => {
    const WEBHOOK_DELETE = "/paths/~1webhooks~1delete/post";
    const keyed = (header: string) => (d: Json) => {
      op(d, WEBHOOK_DELETE)["x-idempotency-key"] = { header };
    };
    const old = (await base()).model;
    const taken = await changed(keyed("Idempotency-Key"));
    const moved = await changed(keyed("X-Request-Key"));
    const recased = await changed(keyed("idempotency-key"));
    const rules = (a: typeof old, b: typeof old) =>
      diffReleases(a, b)
        .filter((c) => c.rule.startsWith("conventions."))
        .map((c) => `${c.rule} ${c.severity} ${c.pointer}`);
    const at = `${WEBHOOK_DELETE}/x-idempotency-key`;
    expect(rules(old, taken)).toEqual([`conventions.idempotency-key.added info ${at}`]);
    expect(rules(taken, moved)).toEqual([`conventions.idempotency-key.changed breaking ${at}`]);
    expect(rules(moved, old)).toEqual([`conventions.idempotency-key.removed breaking ${at}`]);
    // Header names are compared without case, as HTTP does.
    expect(rules(taken, recased)).toEqual([]);
  });

  it("reports nothing between two identical releases", async () => {
    const { model } = await base();
    const again = await changed(() => {});
    expect(diffReleases(model, again).filter((c) => c.rule.startsWith("conventions."))).toEqual([]);
  });
});

it("builds the IR of every release with its conventions", async () => {
  const file = releaseFile(currentRelease());
  const text = await readFile(file, "utf8");
  const loaded = await checkDescription({ source: file, text, document: parseDescription(file, text) });
  expect(buildIR(loaded).conventions?.envelope?.code).toBe("code");
});
