// `paperoffice-sdk publish` with the TypeScript target against a Verdaccio on 127.0.0.1, found through npm's own
// configuration (a user npmrc naming the scope's registry, its token as ${NODE_AUTH_TOKEN}): two releases of the SDK
// and the runtime once, the older release published after the newer one leaving `latest` on the newer, the token never
// printed, a version held with other content refused before anything is published, and fresh projects installing the SDK pinned to each release, compiling against it and calling the mock.
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { releaseToVersion } from "../../generator/releases/version.js";
import { listReleases } from "../support/service-releases.js";
import { type MockServer, startMock } from "../../mock/index.js";
import { npm, run, tarballs } from "../package/helpers.js";
import { editedReleases, publishCli, RELEASES, ROOT, writeConfig } from "./cli.js";
import { type LocalRegistry, startVerdaccio } from "./servers.js";

const SDK = "@paperoffice/sdk";
const LIMIT = 900_000;
const program = (url: string) => `import { createClient, listWebhooks, RELEASE } from "${SDK}";
const client = createClient({ baseUrl: ${JSON.stringify(url)}, token: "svc_sk_publish0123456789", retry: { maxRetries: 0 } });
const read = await listWebhooks(client);
console.log(JSON.stringify({ release: RELEASE, status: read.data.status }));
`;

describe("publish to an npm registry", () => {
  const [older = "", newer = ""] = listReleases().slice(-2);
  let dir: string;
  let project: string;
  let registry: LocalRegistry & { readonly token: string };
  let mock: MockServer;
  let env: Record<string, string>;

  beforeAll(async () => {
    dir = await mkdtemp(join(tmpdir(), "publish-npm-"));
    project = join(dir, "project");
    await mkdir(project);
    const [{ runtime }, started, server] = await Promise.all([
      tarballs(),
      startVerdaccio(join(dir, "verdaccio")),
      startMock({ holdMs: 1_000, jobDurationMs: 100 }),
    ]);
    [registry, mock] = [started, server];
    const npmrc = join(dir, "npmrc");
    const host = registry.url.replace(/^http:/, "");
    await writeFile(npmrc, `@paperoffice:registry=${registry.url}\n${host}:_authToken=\${NODE_AUTH_TOKEN}\n`);
    env = { NPM_CONFIG_USERCONFIG: npmrc, NODE_AUTH_TOKEN: registry.token, npm_config_prefer_offline: "true" };
    await writeConfig(project, { releases: RELEASES, languages: ["typescript"], typescript: { package: SDK, runtimePackage: runtime } });
  }, 600_000);
  afterAll(async () => {
    await Promise.all([registry?.stop(), mock?.stop()]);
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const distTags = async () => JSON.parse((await npm(["view", SDK, "dist-tags", "--json"], dir, env)).stdout) as Record<string, string>;

  it(
    "publishes the newest release and the runtime (killed after the runtime went out, then rerun), as `latest`, never printing the token",
    async () => {
      const dry = await publishCli(project, [], env);
      expect(dry.code, dry.stderr).toBe(0);
      expect(dry.stdout).toMatch(new RegExp(`npm @paperoffice/sdk-runtime@0\\.1\\.0 +${registry.url}: would publish`));
      expect(dry.stdout).toMatch(
        new RegExp(`npm ${SDK}@${releaseToVersion(newer).replaceAll(".", "\\.")} .*: would publish \\(dist-tag latest\\)`),
      );
      // Killed right after its first upload, the runtime: the registry holds the runtime and not the SDK (the run's
      // build folder, left behind, is below the test's folder).
      const killed = await publishCli(project, ["--yes"], { ...env, PAPEROFFICE_SDK_PUBLISH_KILL_AFTER: "1", TMPDIR: dir });
      expect(killed.signal, killed.stderr).toBe("SIGKILL");
      expect((await npm(["view", "@paperoffice/sdk-runtime@0.1.0", "version"], dir, env)).stdout.trim()).toBe("0.1.0");
      await expect(npm(["view", SDK, "versions", "--json"], dir, env)).rejects.toThrow(/E404|404/);
      // The rerun publishes the SDK only.
      const ran = await publishCli(project, ["--yes"], env);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/sdk-runtime@0\.1\.0 .*: already there, same content \(skipped\)/);
      expect(ran.stdout).toContain("published 1, skipped 1 already there");
      for (const printed of [dry, killed, ran]) expect(`${printed.stdout}${printed.stderr}`).not.toContain(registry.token);
      expect(await distTags()).toEqual({ latest: releaseToVersion(newer) });
    },
    LIMIT,
  );

  it(
    "publishes an older release afterwards without taking `latest`, and skips the runtime",
    async () => {
      const ran = await publishCli(project, ["--yes", "--release", older], env);
      expect(ran.code, ran.stderr).toBe(0);
      expect(ran.stdout).toMatch(/sdk-runtime@0\.1\.0 .*: already there, same content \(skipped\)/);
      expect(ran.stdout).toContain("published 1, skipped 1 already there");
      expect(await distTags()).toEqual({ latest: releaseToVersion(newer), [`release-${older}`]: releaseToVersion(older) });
      const again = await publishCli(project, ["--yes", "--release", older], env);
      expect(again.stdout).toContain("published 0, skipped 2 already there");
    },
    LIMIT,
  );

  it(
    "refuses a version the registry holds with other content, before publishing anything",
    async () => {
      const edited = await editedReleases(dir, older, newer);
      const other = join(dir, "other");
      await mkdir(other);
      const { runtime } = await tarballs();
      await writeConfig(other, { releases: edited, languages: ["typescript"], typescript: { package: SDK, runtimePackage: runtime } });
      const before = await distTags();
      for (const args of [[], ["--yes"]]) {
        const ran = await publishCli(other, args, env);
        expect(ran.code, ran.stdout).toBe(1);
        expect(ran.stderr).toMatch(
          new RegExp(`^error: npm ${SDK}@${releaseToVersion(newer).replaceAll(".", "\\.")} already exists in \\S+ with other content`, "m"),
        );
        expect(ran.stderr).toContain("a published version is never replaced");
        expect(ran.stderr).not.toMatch(/\n\s+at /);
        expect(`${ran.stdout}${ran.stderr}`).not.toContain(registry.token);
      }
      expect(await distTags()).toEqual(before);
    },
    LIMIT,
  );

  it(
    "gives each release back pinned: fresh projects install, compile and call the mock",
    async () => {
      for (const release of [older, newer]) {
        const user = join(dir, `user-${release}`);
        await mkdir(user);
        await writeFile(join(user, "package.json"), `${JSON.stringify({ name: "user", private: true, type: "module" })}\n`);
        await npm(["install", `${SDK}@${releaseToVersion(release)}`], user, env);
        await writeFile(join(user, "main.ts"), program(mock.url));
        const tsconfig = {
          compilerOptions: {
            strict: true,
            module: "NodeNext",
            moduleResolution: "NodeNext",
            target: "ES2022",
            types: [],
            lib: ["ES2023", "DOM"],
            outDir: "dist",
          },
          include: ["main.ts"],
        };
        await writeFile(join(user, "tsconfig.json"), JSON.stringify(tsconfig));
        await run(process.execPath, [join(ROOT, "node_modules", "typescript", "bin", "tsc"), "-p", "."], user);
        const { stdout } = await run(process.execPath, ["dist/main.js"], user);
        expect(JSON.parse(stdout)).toEqual({ release, status: "success" });
      }
    },
    LIMIT,
  );
});
