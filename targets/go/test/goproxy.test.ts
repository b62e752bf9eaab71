// The generated Go module as a Go user gets it: the service's module and the runtime module in a module proxy folder
// (written by ../publish/modproxy, as `publish` writes it), fetched with `go get` by the version the README names into
// a new module outside the repository, with no other source of modules, then built into a program that calls the mock
// service. And that proxy writer's own Go checks.
import { mkdir, mkdtemp, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { generate, writeFiles } from "../../../generator/generate.js";
import { ensureGoTools } from "../../../scripts/setup/go-tools.mjs";
import { RELEASE_ID } from "../../../generator/spec/releases.js";
import { currentRelease, releaseFile } from "../../../test/support/service-releases.js";
import { type MockServer, startMock } from "../../../mock/index.js";
import { goEmitter } from "../emit/index.js";
import { goModuleVersion } from "../emit/version.js";
import { RUNTIME_MODULE, RUNTIME_VERSION } from "../emit/view.js";
import { modproxy } from "../publish/modproxy.js";
import { GO_RUNTIME, goRun, type Outcome } from "./go-module.js";

const LIMIT = 300_000;
// Upper-case letters, so that the proxy folder's escaped paths (!d, !s) are used too.
const MODULE = "example.com/goproxy-test/Document-SDK-go";
const TOKEN = "svc_sk_go_proxy";
const MODPROXY = fileURLToPath(new URL("../publish/modproxy/", import.meta.url));

const program = `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"time"

	sdk "${MODULE}"
)

func check(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func main() {
	c, err := sdk.New(
		sdk.WithBaseURL(os.Args[1]),
		sdk.WithToken(${JSON.stringify(TOKEN)}),
		sdk.WithPollInterval(50*time.Millisecond, 100*time.Millisecond),
		sdk.WithJobTimeout(60*time.Second),
	)
	check(err)
	ctx := context.Background()
	hooks, err := c.ListWebhooks(ctx)
	check(err)
	job, err := c.SubmitWorkflow(ctx, sdk.WorkflowPDFAiSplit{Pofid: sdk.Ptr("POF-123"), Locale: sdk.Ptr("en_US")})
	check(err)
	out, err := json.Marshal(map[string]any{
		"release":  sdk.Release,
		"webhooks": map[string]any{"status": hooks.Meta.Status, "bodyStatus": hooks.Data.Status},
		"job":      map[string]any{"id": job.JobID, "payload": job.Data},
	})
	check(err)
	fmt.Println(string(out))
}
`;

interface Printed {
  release: string;
  webhooks: { status: number; bodyStatus: string };
  job: { id: string; payload: unknown };
}

/** The time of a release id, as the version's time in the proxy. */
function releaseTime(release: string): string {
  const [, date = "", time = ""] = RELEASE_ID.exec(release) ?? [];
  return `${date.slice(0, 4)}-${date.slice(4, 6)}-${date.slice(6)}T${time.slice(0, 2)}:${time.slice(2)}:00Z`;
}

function ok(outcome: Outcome, what: string): string {
  expect(outcome.code, `${what}\n${outcome.output}`).toBe(0);
  return outcome.output;
}

describe("the generated Go module from a module proxy", () => {
  const release = currentRelease();
  const version = goModuleVersion(release) ?? "";
  let work = "";
  let user = "";
  let readme = "";
  let env: Record<string, string> = {};
  // The h1: hash modproxy gave each module version, by "<module> <version>".
  const written = new Map<string, string>();
  let mock: MockServer | undefined;

  beforeAll(async () => {
    expect(version, release).not.toBe("");
    work = await mkdtemp(join(tmpdir(), "go-proxy-"));
    const sdk = join(work, "sdk");
    const proxy = join(work, "proxy");
    user = join(work, "user");
    const files = (await generate(releaseFile(release), { emitters: [goEmitter({ module: MODULE })] })).files;
    await writeFiles(sdk, files);
    readme = await readFile(join(sdk, "go", "README.md"), "utf8");
    for (const [root, module, at, time] of [
      [GO_RUNTIME, RUNTIME_MODULE, RUNTIME_VERSION, "2026-01-01T00:00:00Z"],
      [join(sdk, "go"), MODULE, version, releaseTime(release)],
    ] as const) {
      written.set(`${module} ${at}`, await modproxy(["add", proxy, root, module, at, time]));
    }
    // The proxy folder is the only source of modules and nothing is checked against a checksum database; the module
    // cache is this test's own (and removable), so that nothing cached earlier stands in for the proxy's zips.
    env = {
      GOPROXY: pathToFileURL(proxy).href,
      GOSUMDB: "off",
      GOFLAGS: "-mod=mod -modcacherw",
      GOMODCACHE: join(work, "modcache"),
      GOWORK: "off",
      GOTOOLCHAIN: "local",
    };
    await mkdir(user);
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
  }, LIMIT);

  afterAll(async () => {
    await mock?.stop();
    if (work !== "") await rm(work, { recursive: true, force: true });
  });

  it("names in its README the version of its release", () => {
    expect(readme).toContain(`\ngo get ${MODULE}@${version}\n`);
  });

  it(
    "is fetched with go get, built into a program and calls the service",
    async () => {
      ok(await goRun(user, "go", ["mod", "init", "example.com/user"], env), "go mod init");
      const line = /^go get (\S+)$/m.exec(readme)?.[1] ?? "";
      ok(await goRun(user, "go", ["get", line], env), `go get ${line}`);
      await writeFile(join(user, "main.go"), program);
      ok(await goRun(user, "go", ["build", "-o", "user-program", "."], env), "go build");

      const modules = ok(await goRun(user, "go", ["list", "-m", "all"], env), "go list -m all");
      expect(modules.trim().split("\n")).toEqual(["example.com/user", `${MODULE} ${version}`, `${RUNTIME_MODULE} ${RUNTIME_VERSION}`]);
      const sums = await readFile(join(user, "go.sum"), "utf8");
      // The hash modproxy gives is the one the go command records.
      for (const [module, at] of [
        [MODULE, version],
        [RUNTIME_MODULE, RUNTIME_VERSION],
      ]) {
        const h1 = written.get(`${module} ${at}`) ?? "";
        expect(h1, `${module} ${at}`).toMatch(/^h1:[A-Za-z0-9+/]{43}=$/);
        expect(sums, "go.sum").toContain(`${module} ${at} ${h1}\n`);
      }

      const printed = JSON.parse(ok(await goRun(user, join(user, "user-program"), [mock!.url], env), "the program")) as Printed;
      expect(printed.release).toBe(release);
      expect(printed.webhooks).toEqual({ status: 200, bodyStatus: "success" });
      expect(printed.job.id).toMatch(/^job_/);
      expect(printed.job.payload).toBeTypeOf("object");
      expect(mock!.stats.invalidResponses).toEqual([]);
    },
    LIMIT,
  );

  it(
    "writes it with a proxy writer that is gofmt-clean and passes go vet and staticcheck",
    async () => {
      // golang.org/x/mod is in the module cache since beforeAll ran the writer.
      const env = { GOWORK: "off", GOFLAGS: "-mod=readonly" };
      const gofmt = ok(await goRun(MODPROXY, "gofmt", ["-l", "."], env), "gofmt");
      expect(gofmt.trim(), "files gofmt would change").toBe("");
      ok(await goRun(MODPROXY, "go", ["vet", "./..."], env), "go vet");
      const { staticcheck = "" } = await ensureGoTools();
      ok(await goRun(MODPROXY, staticcheck, ["./..."], env), "staticcheck");
    },
    LIMIT,
  );
});
