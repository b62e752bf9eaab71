// MCP tasks (protocol 2025-11-25, the SDK's experimental API) on the service's server, driven by the official
// client over stdio and Streamable HTTP against the bundled mock: a job tool called as a task, polled with
// tasks/get, its payload by tasks/result; tasks/cancel stopping the wait and naming the job, which goes on; and
// notifications/tasks/status when a task ends.
import { spawn } from "node:child_process";
import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { type CallToolResult, CallToolResultSchema, type Task, TaskStatusNotificationSchema } from "@modelcontextprotocol/sdk/types.js";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { tools as generatedTools } from "../../../generated/mcp/tools.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import {
  type Connection,
  connectStdio,
  type HttpServerProcess,
  jobCall,
  root,
  SERVICE_MAIN,
  serviceEnv,
  startHttp,
  TOKEN,
  textOf,
} from "./support.js";

/** Every message of a task-augmented call as the client's stream gives it, and its progress notifications. */
async function callAsTask(
  client: Client,
  name: string,
  args: Record<string, unknown>,
  task: { ttl?: number } = {},
): Promise<{ created: Task; statuses: Task[]; result: CallToolResult | undefined; error: Error | undefined; progress: string[] }> {
  const progress: string[] = [];
  const statuses: Task[] = [];
  let created: Task | undefined;
  let result: CallToolResult | undefined;
  let error: Error | undefined;
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, {
    task,
    onprogress: (p) => progress.push(p.message ?? ""),
    timeout: 60_000,
  });
  for await (const message of stream) {
    if (message.type === "taskCreated") created = message.task;
    else if (message.type === "taskStatus") statuses.push(message.task);
    else if (message.type === "result") result = message.result as CallToolResult;
    else error = message.error;
  }
  expect(created, "the server answers with a task").toBeDefined();
  return { created: created!, statuses, result, error, progress };
}

/** The first message of a task-augmented call: its task, the call going on at the server. */
async function startTask(client: Client, name: string, args: Record<string, unknown>): Promise<Task> {
  const stream = client.experimental.tasks.callToolStream({ name, arguments: args }, CallToolResultSchema, { task: {} });
  const first = await stream.next();
  // Stops the client's own polling: the test polls from here.
  await stream.return();
  if (first.done === true || first.value.type !== "taskCreated") throw new Error(`no task: ${JSON.stringify(first.value)}`);
  return first.value.task;
}

describe("a job tool called as an MCP task over stdio", () => {
  let mock: MockServer;
  let connection: Connection;
  const { tool, args } = jobCall();

  beforeAll(async () => {
    // The hold ends before the job does: the task polls the job.
    mock = await startMock({ holdMs: 50, jobDurationMs: 2500, recordRequests: true });
    connection = await connectStdio(SERVICE_MAIN, serviceEnv(mock.url));
  });
  afterAll(async () => {
    await connection?.client.close();
    await mock?.stop();
  });

  it("says which tools run as tasks: the job tools and the wait tool, and no other", async () => {
    expect(connection.client.getServerCapabilities()?.tasks).toMatchObject({ list: {}, cancel: {}, requests: { tools: { call: {} } } });
    const { tools } = await connection.client.listTools();
    const tasked = tools.filter((t) => t.execution?.taskSupport === "optional").map((t) => t.name);
    expect(tasked).toContain(tool.name);
    expect(tasked).toContain("wait_job");
    const jobs = new Set(generatedTools.filter((t) => t.send === "job").map((t) => t.name));
    expect(jobs.size).toBeGreaterThan(0);
    for (const t of tools) expect(t.execution?.taskSupport === "optional", t.name).toBe(t.name === "wait_job" || jobs.has(t.name));
  });

  it("answers with a task at once, reports the job while polled, and gives its payload by tasks/result", async () => {
    const started = Date.now();
    const { created, statuses, result, error, progress } = await callAsTask(connection.client, tool.name, args, { ttl: 120_000 });
    expect(error).toBeUndefined();
    expect(created.status).toBe("working");
    expect(created.ttl).toBe(120_000);
    expect(created.pollInterval).toBeGreaterThan(0);
    // The job takes 2.5 s: the task was polled while it ran, and its status message said how the job went.
    expect(Date.now() - started).toBeGreaterThan(2000);
    expect(statuses.some((s) => s.status === "working")).toBe(true);
    expect(statuses.at(-1)?.status).toBe("completed");
    expect(statuses.map((s) => s.statusMessage ?? "").join("\n")).toMatch(/submitted|waiting for the job|job job_\S+: \S+/);
    expect(result?.isError, result === undefined ? "" : textOf(result)).toBeFalsy();
    const structured = result!.structuredContent as { jobId: string; done: boolean; payload: unknown };
    expect(structured).toMatchObject({ done: true });
    expect(structured.jobId).toMatch(/^job_/);
    expect(structured.payload).toBeDefined();
    // The same output schema as the call without a task.
    const { tools } = await connection.client.listTools();
    const ajv = new Ajv2020({ strict: false });
    expect(ajv.validate(tools.find((t) => t.name === tool.name)!.outputSchema!, structured), ajv.errorsText()).toBe(true);
    // Progress notifications go on after the task is answered, while the job runs.
    expect(progress[0]).toBe("submitted");
    expect(progress.length).toBeGreaterThan(1);
    // The task is kept for tasks/get and tasks/result after it ends, and tasks/list lists it.
    expect((await connection.client.experimental.tasks.getTask(created.taskId)).status).toBe("completed");
    const again = await connection.client.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
    expect(again.structuredContent).toEqual(structured);
    const listed = await connection.client.experimental.tasks.listTasks();
    expect(listed.tasks.map((t) => t.taskId)).toContain(created.taskId);
    expect(JSON.stringify([created, statuses, result, progress]) + connection.stderr()).not.toContain(TOKEN);
  });

  it("on tasks/cancel stops waiting for the job, says that the job goes on, charged, and how to resume it", async () => {
    const task = await startTask(connection.client, tool.name, args);
    // Cancelled while the job runs (it takes 2.5 s); the answer waits for the submission, so it knows the job.
    const cancelled = await connection.client.experimental.tasks.cancelTask(task.taskId);
    expect(cancelled.status).toBe("cancelled");
    const jobId = /the job (job_\S+), which goes on at the service and is charged/.exec(cancelled.statusMessage ?? "")?.[1];
    expect(jobId, cancelled.statusMessage).toBeDefined();
    expect(cancelled.statusMessage).toContain(`Call wait_job with {"job_id":"${jobId}"}`);
    expect((await connection.client.experimental.tasks.getTask(task.taskId)).status).toBe("cancelled");
    // The server polls that job no more.
    const polls = () => mock.requestLog().filter((r) => r.operationId === "getJob" && Object.values(r.params).includes(jobId!)).length;
    const before = polls();
    await new Promise((done) => setTimeout(done, 2500));
    expect(polls()).toBe(before);
    // The job was not stopped: the wait tool, without a task, gets its payload.
    const resumed = (await connection.client.callTool({ name: "wait_job", arguments: { job_id: jobId } }, undefined, {
      timeout: 60_000,
    })) as CallToolResult;
    expect(resumed.isError, textOf(resumed)).toBeFalsy();
    expect(resumed.structuredContent).toMatchObject({ jobId, done: true });
    // A task that has ended cannot be cancelled.
    await expect(connection.client.experimental.tasks.cancelTask(task.taskId)).rejects.toThrow(/terminal status: cancelled/);
  });

  it("ends a task whose arguments are refused as failed, its result the refusal with the field's pointer", async () => {
    const { created, result, error } = await callAsTask(connection.client, tool.name, { ...args, wait_secs: 1 });
    // The client's stream says the task failed; tasks/get says why, tasks/result gives the call's result.
    expect(error?.message).toMatch(/failed/);
    const task = await connection.client.experimental.tasks.getTask(created.taskId);
    expect(task.status).toBe("failed");
    expect(task.statusMessage).toContain("/wait_secs");
    expect(result).toBeUndefined();
    const refused = await connection.client.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
    expect(refused.isError).toBe(true);
    expect(JSON.parse(textOf(refused))).toMatchObject({ error: "invalid-argument", pointer: "/wait_secs" });
  });

  it("resumes a job's wait as a task through the wait tool", async () => {
    const held = (await connection.client.callTool({
      name: tool.name,
      arguments: { ...args, [tool.waitArgument!]: 0.2 },
    })) as CallToolResult;
    const handle = held.structuredContent as { jobId: string; done: boolean; resume: { tool: string; arguments: Record<string, unknown> } };
    expect(handle.done, textOf(held)).toBe(false);
    const { result, error } = await callAsTask(connection.client, handle.resume.tool, handle.resume.arguments);
    expect(error).toBeUndefined();
    expect(result?.structuredContent).toMatchObject({ jobId: handle.jobId, done: true });
  });

  it("sends notifications/tasks/status with the task when it ends: completed, and cancelled naming the job", async () => {
    const notified: Task[] = [];
    connection.client.setNotificationHandler(TaskStatusNotificationSchema, (n) => {
      notified.push(n.params);
    });
    try {
      const { created, result } = await callAsTask(connection.client, tool.name, args);
      expect(result?.isError, result === undefined ? "" : textOf(result)).toBeFalsy();
      // Sent before the result is stored for tasks/result: it has arrived by the time the stream ends.
      await expect.poll(() => notified.filter((t) => t.taskId === created.taskId).map((t) => t.status)).toEqual(["completed"]);
      const ended = notified.find((t) => t.taskId === created.taskId)!;
      expect(ended).toMatchObject({ taskId: created.taskId, status: "completed", ttl: created.ttl });
      const task = await startTask(connection.client, tool.name, args);
      const cancelled = await connection.client.experimental.tasks.cancelTask(task.taskId);
      await expect.poll(() => notified.filter((t) => t.taskId === task.taskId).map((t) => t.status)).toEqual(["cancelled"]);
      expect(notified.find((t) => t.taskId === task.taskId)?.statusMessage).toBe(cancelled.statusMessage);
      expect(cancelled.statusMessage).toMatch(/the job job_\S+, which goes on/);
      expect(JSON.stringify(notified)).not.toContain(TOKEN);
    } finally {
      connection.client.removeNotificationHandler("notifications/tasks/status");
    }
  });

  it("refuses a task for a tool that does not run as one, saying so", async () => {
    const stream = connection.client.experimental.tasks.callToolStream({ name: "listWebhooks", arguments: {} }, CallToolResultSchema, {
      task: {},
    });
    const messages = [];
    for await (const m of stream) messages.push(m);
    expect(messages).toHaveLength(1);
    const only = messages[0]!;
    expect(only.type).toBe("error");
    expect(only.type === "error" ? only.error.message : "").toMatch(/"listWebhooks" does not run as a task/);
    // Called without a task, it answers as ever.
    expect(((await connection.client.callTool({ name: "listWebhooks", arguments: {} })) as CallToolResult).isError).toBeFalsy();
  });
});

describe("a job tool called as an MCP task over Streamable HTTP", () => {
  let mock: MockServer;
  let http: HttpServerProcess;

  beforeAll(async () => {
    mock = await startMock({ holdMs: 50, jobDurationMs: 2500 });
    http = await startHttp(SERVICE_MAIN, serviceEnv(mock.url));
  });
  afterAll(async () => {
    http?.child.kill();
    await mock?.stop();
  });

  it("keeps the task between requests: created in one, polled and answered in the next ones, from another client too", async () => {
    const { tool, args } = jobCall();
    const client = await http.connect();
    const other = await http.connect();
    try {
      expect(client.getServerCapabilities()?.tasks).toMatchObject({ cancel: {}, requests: { tools: { call: {} } } });
      // Every client's tasks share the process's store: none is listed to another.
      expect(client.getServerCapabilities()?.tasks).not.toHaveProperty("list");
      await client.listTools();
      const { created, statuses, result, error } = await callAsTask(client, tool.name, args);
      expect(error).toBeUndefined();
      expect(statuses.at(-1)?.status).toBe("completed");
      expect(result?.structuredContent).toMatchObject({ done: true });
      // The task's id alone reads it, from any client.
      const read = await other.experimental.tasks.getTaskResult(created.taskId, CallToolResultSchema);
      expect(read.structuredContent).toEqual(result?.structuredContent);
      await expect(other.experimental.tasks.listTasks()).rejects.toThrow(/tasks\/list is not served over Streamable HTTP/);
      expect(JSON.stringify([created, statuses, result]) + http.stderr()).not.toContain(TOKEN);
    } finally {
      await client.close();
      await other.close();
    }
  });

  it("cancels a task from another request, naming the job, which the wait tool then finishes", async () => {
    const { tool, args } = jobCall();
    const client = await http.connect();
    try {
      const task = await startTask(client, tool.name, args);
      const cancelled = await client.experimental.tasks.cancelTask(task.taskId);
      expect(cancelled.status).toBe("cancelled");
      const jobId = /the job (job_\S+), which goes on at the service/.exec(cancelled.statusMessage ?? "")?.[1];
      expect(jobId, cancelled.statusMessage).toBeDefined();
      const resumed = (await client.callTool({ name: "wait_job", arguments: { job_id: jobId } }, undefined, {
        timeout: 60_000,
      })) as CallToolResult;
      expect(resumed.structuredContent).toMatchObject({ jobId, done: true });
    } finally {
      await client.close();
    }
  });
});

describe("a stdio server whose client leaves with tasks", () => {
  let mock: MockServer;

  beforeAll(async () => {
    // A job far longer than the test: its task is still waiting when stdin ends.
    mock = await startMock({ holdMs: 50, jobDurationMs: 600_000 });
  });
  afterAll(async () => {
    await mock?.stop();
  });

  it("ends its process when stdin ends, neither waiting for a running task's job nor keeping an ended task", async () => {
    const { tool, args } = jobCall();
    const child = spawn(process.execPath, ["--import", "tsx", SERVICE_MAIN], {
      cwd: root,
      env: { PATH: process.env.PATH ?? "", ...serviceEnv(mock.url) },
      stdio: ["pipe", "pipe", "ignore"],
    });
    const exited = new Promise<number | null>((done) => child.on("exit", done));
    let out = "";
    child.stdout.on("data", (c: Buffer) => {
      out += c.toString("utf8");
    });
    const answered = async (id: number) => {
      for (let i = 0; i < 300 && !out.includes(`"id":${id}`); i++) await new Promise((done) => setTimeout(done, 50));
      const line = out.split("\n").find((l) => l.includes(`"id":${id}`));
      expect(line, out).toBeDefined();
      return JSON.parse(line!) as { result?: { task?: Task } };
    };
    const send = (message: unknown) => child.stdin.write(`${JSON.stringify(message)}\n`);
    send({
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-11-25", capabilities: {}, clientInfo: { name: "leaving", version: "1.0.0" } },
    });
    await answered(1);
    send({ jsonrpc: "2.0", method: "notifications/initialized" });
    // One task that ends at once (a job the service does not know), kept for ten minutes; one whose job runs on.
    send({
      jsonrpc: "2.0",
      id: 2,
      method: "tools/call",
      params: { name: "wait_job", arguments: { job_id: "job_missing" }, task: { ttl: 600_000 } },
    });
    send({ jsonrpc: "2.0", id: 3, method: "tools/call", params: { name: tool.name, arguments: args, task: { ttl: 600_000 } } });
    expect((await answered(2)).result?.task?.taskId).toBeDefined();
    expect((await answered(3)).result?.task?.status).toBe("working");
    // The job's submission answered: the task is waiting for it.
    await new Promise((done) => setTimeout(done, 1000));
    child.stdin.end();
    const timer = setTimeout(() => child.kill(), 20_000);
    try {
      expect(await exited).toBe(0);
    } finally {
      clearTimeout(timer);
    }
  });
});
