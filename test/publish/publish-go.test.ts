// `paperoffice-sdk publish` with the Go target into a module proxy folder: the runtime module once and the SDK module
// of two releases at v0.<yyyymmdd>.<hhmm>, the older published after the newer; a publish killed after the runtime
// went out, completed by a rerun that uploads only the SDK; a version whose files in the proxy
// differ refused; and new modules outside the repository fetching each release with `go get` from that folder alone,
// building a program that calls the mock.
import { copyFile, mkdir, mkdtemp, readdir, readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { listReleases } from "../support/service-releases.js";
import { type MockServer, startMock } from "../../mock/index.js";
import { goModuleVersion } from "../../targets/go/emit/version.js";
import { RUNTIME_MODULE, RUNTIME_VERSION } from "../../targets/go/emit/view.js";
import { modproxy } from "../../targets/go/publish/modproxy.js";
import { goRun } from "../../targets/go/test/go-module.js";
import { publishCli, RELEASES, writeConfig } from "./cli.js";

const LIMIT = 600_000;
const MODULE = "example.com/publish-test/document-sdk-go";

const program = (url: string) => `package main

import (
	"context"
	"encoding/json"
	"fmt"
	"os"

	sdk "${MODULE}"
)

func main() {
	c, err := sdk.New(sdk.WithBaseURL(${JSON.stringify(url)}), sdk.WithToken("svc_sk_go_publish"))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	hooks, err := c.ListWebhooks(context.Background())
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	out, _ := json.Marshal(map[string]any{"release": sdk.Release, "status": hooks.Data.Status})
	fmt.Println(string(out))
}
`;

describe("publish to a Go module proxy folder", () => {
  const [older = "", newer = ""] = listReleases().slice(-2);
  let dir: string;
  let project: string;
  let proxy: string;
  let mock: MockServer;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "publish-go-"));
    project = join(dir, "project");
    proxy = join(dir, "proxy");
    await mkdir(project);
    mock = await startMock({ holdMs: 1_000, jobDurationMs: 100 });
    await writeConfig(project, { releases: RELEASES, languages: ["go"], go: { module: MODULE, proxy } });
  });
  afterAll(async () => {
    await mock?.stop();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it(
    "publishes the newer release with the runtime (killed half-way, then rerun), then the older one, each version once",
    async () => {
      const dry = await publishCli(project, []);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(new RegExp(`Go ${RUNTIME_MODULE}@${RUNTIME_VERSION} .*: would publish`));
      expect(dry.stdout).toContain(`Go ${MODULE}@${goModuleVersion(newer)}`);
      // Killed right after its first upload, the runtime: the SDK's version is not listed (its build folder, left behind,
      // is below the test's folder).
      const killed = await publishCli(project, ["--yes"], { PAPEROFFICE_SDK_PUBLISH_KILL_AFTER: "1", TMPDIR: dir });
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      expect(await readFile(join(proxy, RUNTIME_MODULE, "@v", "list"), "utf8")).toBe(`${RUNTIME_VERSION}\n`);
      await expect(readFile(join(proxy, MODULE, "@v", "list"), "utf8")).rejects.toThrow(/ENOENT/);
      // The rerun publishes only the SDK.
      const first = await publishCli(project, ["--yes"]);
      expect(first.code, first.stderr).toBe(0);
      expect(first.stdout).toMatch(/sdk-runtime-go@\S+ .*: already there, same content \(skipped\)/);
      expect(first.stdout).toContain("published 1, skipped 1 already there");
      const second = await publishCli(project, ["--yes", "--release", older]);
      expect(second.code, second.stderr).toBe(0);
      expect(second.stdout).toMatch(/sdk-runtime-go@\S+ .*: already there, same content \(skipped\)/);
      expect(second.stdout).toContain("published 1, skipped 1 already there");
      const list = await readFile(join(proxy, MODULE, "@v", "list"), "utf8");
      expect(list.trim().split("\n").sort()).toEqual([goModuleVersion(older), goModuleVersion(newer)].sort());
    },
    LIMIT,
  );

  it(
    "gives each release back with go get from the proxy folder alone, built into a program calling the mock",
    async () => {
      for (const release of [older, newer]) {
        const user = join(dir, `user-${release}`);
        await mkdir(user);
        const env = {
          GOPROXY: pathToFileURL(proxy).href,
          GOSUMDB: "off",
          GOFLAGS: "-mod=mod -modcacherw",
          GOMODCACHE: join(dir, "modcache"),
          GOWORK: "off",
          GOTOOLCHAIN: "local",
        };
        for (const args of [
          ["mod", "init", "example.com/user"],
          ["get", `${MODULE}@${goModuleVersion(release)}`],
        ]) {
          const ran = await goRun(user, "go", args, env);
          expect(ran.code, ran.output).toBe(0);
        }
        await writeFile(join(user, "main.go"), program(mock.url));
        const built = await goRun(user, "go", ["build", "-o", "user-program", "."], env);
        expect(built.code, built.output).toBe(0);
        const ran = await goRun(user, join(user, "user-program"), [], env);
        expect(ran.code, ran.output).toBe(0);
        expect(JSON.parse(ran.output)).toEqual({ release, status: "success" });
      }
    },
    LIMIT,
  );

  it(
    "refuses to publish a release whose checks fail, before asking the proxy or writing to it",
    async () => {
      // The Go release check is gofmt over the generated module; a gofmt first on PATH that finds a file it cannot
      // parse stands for a release whose output is broken. The project publishes into a proxy folder of its own.
      const broken = join(dir, "broken-check");
      const tools = join(broken, "bin");
      const brokenProxy = join(broken, "proxy");
      await mkdir(tools, { recursive: true });
      await writeFile(join(tools, "gofmt"), "#!/bin/sh\necho \"go/client.go:1:1: expected 'package', found 'EOF'\" >&2\nexit 2\n", {
        mode: 0o755,
      });
      await writeConfig(broken, { releases: RELEASES, languages: ["go"], go: { module: MODULE, proxy: brokenProxy } });
      for (const args of [[], ["--yes"]]) {
        const ran = await publishCli(broken, args, { PATH: `${tools}:${process.env.PATH ?? ""}` });
        expect(ran.code, ran.stdout).toBe(1);
        expect(ran.stderr).toMatch(new RegExp(`^error: release ${newer} failed its checks; nothing was published:`, "m"));
        expect(ran.stderr).toContain("go: go/client.go:1:1: expected 'package', found 'EOF'");
        expect(ran.stderr).not.toMatch(/\n\s+at /);
        expect(ran.stdout).not.toMatch(/would publish|published \d/);
        await expect(readdir(brokenProxy)).rejects.toThrow(/ENOENT/);
      }
    },
    LIMIT,
  );

  it(
    "refuses a version the proxy holds with other files",
    async () => {
      // The version's zip replaced by one of a module holding nothing but its go.mod, written by the same program.
      const other = join(dir, "other-module");
      await mkdir(other);
      await writeFile(join(other, "go.mod"), `module ${MODULE}\n`);
      await modproxy(["add", join(dir, "other-proxy"), other, MODULE, goModuleVersion(newer) ?? "", "2026-01-01T00:00:00Z"]);
      const zip = `${goModuleVersion(newer)}.zip`;
      await copyFile(join(dir, "other-proxy", MODULE, "@v", zip), join(proxy, MODULE, "@v", zip));
      const ran = await publishCli(project, ["--yes"]);
      expect(ran.code).toBe(1);
      expect(ran.stderr).toMatch(
        new RegExp(`^error: Go ${MODULE}@${goModuleVersion(newer)} already exists in ${proxy} with other content`, "m"),
      );
      expect(ran.stderr).not.toMatch(/\n\s+at /);
    },
    LIMIT,
  );
});
