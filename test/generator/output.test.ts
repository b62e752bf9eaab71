// Writing a run's output: confined to the output folder, swapped in whole only when every file is written,
// unchanged files left as they are, and folders holding files of someone else's refused.
import { mkdir, mkdtemp, readdir, readFile, stat, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { confinedPath, openOutput, writeOutput } from "../../generator/output.js";

const manifest = (paths: string[]) => ({
  path: "manifest.json",
  content: JSON.stringify({ files: Object.fromEntries(paths.map((p) => [p, "x"])) }),
});

describe("confinedPath", () => {
  it.each([
    { given: "index.ts", want: "ok" },
    { given: "python/pkg/client.py", want: "ok" },
    { given: "../escape.ts", want: "refused" },
    { given: "a/../../escape.ts", want: "refused" },
    { given: "/etc/passwd", want: "refused" },
    { given: "C:/x.ts", want: "refused" },
    { given: "a\\..\\..\\x.ts", want: "refused" },
    { given: "a//b.ts", want: "refused" },
    { given: "./a.ts", want: "refused" },
    { given: "", want: "refused" },
  ])("$given: $want", ({ given, want }) => {
    const outcome = (() => {
      try {
        confinedPath("/out", given);
        return "ok";
      } catch {
        return "refused";
      }
    })();
    expect(outcome).toBe(want);
  });
});

describe("writeOutput", () => {
  it("replaces an earlier run's output, keeps unchanged files' inode and time, removes stale files", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await writeOutput(out, [{ path: "a.ts", content: "a" }, { path: "old.ts", content: "old" }, manifest(["a.ts", "old.ts"])]);
    const before = await stat(join(out, "a.ts"));
    const report = await writeOutput(out, [{ path: "a.ts", content: "a" }, { path: "b/c.ts", content: "c" }, manifest(["a.ts", "b/c.ts"])]);
    expect(report).toEqual({ written: ["b/c.ts", "manifest.json"], unchanged: ["a.ts"], removed: ["old.ts"] });
    const after = await stat(join(out, "a.ts"));
    expect([after.ino, after.mtimeMs]).toEqual([before.ino, before.mtimeMs]);
    expect((await readdir(out)).sort()).toEqual(["a.ts", "b", "manifest.json"]);
    expect(await readdir(join(out, ".."))).toEqual(["out"]); // no temporary sibling left
  });

  it("leaves the previous output as it was when a write fails, and no temporary folder behind", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await writeOutput(out, [{ path: "a.ts", content: "a" }, manifest(["a.ts"])]);
    // "x" as a file and as a folder: the second write fails half-way.
    await expect(
      writeOutput(out, [
        { path: "a.ts", content: "changed" },
        { path: "x", content: "1" },
        { path: "x/y", content: "2" },
      ]),
    ).rejects.toThrow();
    expect(await readFile(join(out, "a.ts"), "utf8")).toBe("a");
    expect(await readdir(join(out, ".."))).toEqual(["out"]);
  });

  it("refuses a path outside the folder before writing anything", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await expect(
      writeOutput(out, [
        { path: "ok.ts", content: "" },
        { path: "../evil.ts", content: "" },
      ]),
    ).rejects.toThrow(/must stay inside the output folder/);
    expect(await readdir(join(out, ".."))).toEqual([]);
  });

  it("refuses a folder holding files no run wrote, and the current folder", async () => {
    const out = await mkdtemp(join(tmpdir(), "output-"));
    await writeFile(join(out, "mine.ts"), "mine");
    await expect(writeOutput(out, [{ path: "a.ts", content: "a" }])).rejects.toThrow(/holds files and no manifest\.json/);
    await writeFile(join(out, "manifest.json"), JSON.stringify({ files: { "a.ts": "x" } }));
    await expect(writeOutput(out, [{ path: "a.ts", content: "a" }])).rejects.toThrow(/mine\.ts were not written by the generator/);
    expect(await readFile(join(out, "mine.ts"), "utf8")).toBe("mine");
    await expect(writeOutput(process.cwd(), [{ path: "a.ts", content: "a" }])).rejects.toThrow(/current folder/);
  });

  it("carries a package's node_modules and dist over, and drops caches", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await writeOutput(out, [{ path: "a.py", content: "a" }, manifest(["a.py"])]);
    await mkdir(join(out, "node_modules", "x"), { recursive: true });
    await writeFile(join(out, "node_modules", "x", "i.js"), "kept");
    await mkdir(join(out, "__pycache__"));
    await writeFile(join(out, "__pycache__", "a.pyc"), "cache");
    await writeOutput(out, [{ path: "a.py", content: "a" }, manifest(["a.py"])]);
    expect(await readFile(join(out, "node_modules", "x", "i.js"), "utf8")).toBe("kept");
    expect((await readdir(out)).sort()).toEqual(["a.py", "manifest.json", "node_modules"]);
  });

  it("carries the build folders a target declares (a Maven build below java/), refused without the declaration", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    const files = [{ path: "java/pom.xml", content: "<project/>" }, manifest(["java/pom.xml"])];
    await writeOutput(out, files);
    await mkdir(join(out, "java", "target", "classes"), { recursive: true });
    await writeFile(join(out, "java", "target", "classes", "Client.class"), "built");
    await expect(writeOutput(out, files)).rejects.toThrow(/java\/target\/classes\/Client\.class were not written by the generator/);
    await writeOutput(out, files, { buildFolders: ["java/target"] });
    expect(await readFile(join(out, "java", "target", "classes", "Client.class"), "utf8")).toBe("built");
    expect((await readdir(join(out, "java"))).sort()).toEqual(["pom.xml", "target"]);
    await expect(writeOutput(out, files, { buildFolders: ["../elsewhere"] })).rejects.toThrow(
      /build folder "\.\.\/elsewhere" must be a relative path/,
    );
  });
});

// A run writes each emitter's files as they are made (generateInto); the output changes only at commit.
describe("openOutput", () => {
  it("writes files as they are given, changes the output only at commit, and reports as writeOutput does", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await writeOutput(out, [{ path: "a.ts", content: "a" }, { path: "old.ts", content: "old" }, manifest(["a.ts", "old.ts"])]);
    const output = await openOutput(out);
    await output.add([{ path: "a.ts", content: "a" }]);
    await output.add([{ path: "b/c.ts", content: "c" }, manifest(["a.ts", "b/c.ts"])]);
    expect((await readdir(out)).sort()).toEqual(["a.ts", "manifest.json", "old.ts"]); // not yet swapped in
    expect(output.sizes.get("b/c.ts")).toBe(1);
    expect(await output.commit()).toEqual({ written: ["b/c.ts", "manifest.json"], unchanged: ["a.ts"], removed: ["old.ts"] });
    expect((await readdir(out)).sort()).toEqual(["a.ts", "b", "manifest.json"]);
    expect(await readdir(join(out, ".."))).toEqual(["out"]);
  });

  it("leaves the previous output as it was on abort, on a path outside the folder and on a file given twice", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await writeOutput(out, [{ path: "a.ts", content: "a" }, manifest(["a.ts"])]);
    for (const [bad, error] of [
      [{ path: "../evil.ts", content: "" }, /must stay inside the output folder/],
      [{ path: "a.ts", content: "again" }, /a\.ts was written twice/],
    ] as const) {
      const output = await openOutput(out);
      await output.add([{ path: "a.ts", content: "changed" }]);
      await expect(output.add([bad])).rejects.toThrow(error);
      await output.abort();
      expect(await readFile(join(out, "a.ts"), "utf8")).toBe("a");
      expect(await readdir(join(out, ".."))).toEqual(["out"]);
      await expect(output.commit()).rejects.toThrow(/no longer open/);
    }
  });

  it("refuses a folder holding files no run wrote: at once without a manifest, at commit for files the run did not write", async () => {
    const out = await mkdtemp(join(tmpdir(), "output-"));
    await writeFile(join(out, "mine.ts"), "mine");
    await expect(openOutput(out)).rejects.toThrow(/holds files and no manifest\.json/);
    await writeFile(join(out, "manifest.json"), JSON.stringify({ files: { "a.ts": "x" } }));
    const output = await openOutput(out);
    await output.add([{ path: "a.ts", content: "a" }]);
    await expect(output.commit()).rejects.toThrow(/mine\.ts were not written by the generator/);
    expect(await readFile(join(out, "mine.ts"), "utf8")).toBe("mine");
    expect((await readdir(join(out, ".."))).filter((f) => f.startsWith(`.${basename(out)}.`))).toEqual([]);
    await expect(openOutput(process.cwd())).rejects.toThrow(/current folder/);
  });
});

// A run of fewer languages, an interrupted run's leftovers, and the output folder's mode.
describe("what a run may remove and leave", () => {
  const withLanguages = (languages: string[], paths: string[]) => ({
    path: "manifest.json",
    content: JSON.stringify({ languages, files: Object.fromEntries(paths.map((p) => [p, "x"])) }),
  });

  it("refuses a run that would remove another language's output, unless it may prune, and says which it pruned", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await writeOutput(out, [
      { path: "a.ts", content: "a" },
      { path: "go/a.go", content: "g" },
      withLanguages(["go", "typescript"], ["a.ts", "go/a.go"]),
    ]);
    await expect(openOutput(out, { languages: ["typescript"] })).rejects.toThrow(
      /holds the go output of an earlier run, which this run \(languages: typescript\) would remove; .*--prune/,
    );
    await expect(openOutput(out, { languages: [] })).rejects.toThrow(/holds the go, typescript output .*\(languages: none\)/);
    expect(await readFile(join(out, "go/a.go"), "utf8")).toBe("g");
    // The same languages, or more, need no leave.
    await (await openOutput(out, { languages: ["go", "python", "typescript"] })).abort();
    const output = await openOutput(out, { languages: ["typescript"], prune: true });
    expect(output.pruned).toEqual(["go"]);
    await output.add([{ path: "a.ts", content: "a" }, withLanguages(["typescript"], ["a.ts"])]);
    expect((await output.commit()).removed).toEqual(["go/a.go"]);
  });

  it("makes the output folder as any tool does, from the umask, not private to its owner", async () => {
    const out = join(await mkdtemp(join(tmpdir(), "output-")), "out");
    await writeOutput(out, [{ path: "a.ts", content: "a" }, manifest(["a.ts"])]);
    const expected = 0o777 & ~process.umask();
    expect(((await stat(out)).mode & 0o777).toString(8)).toBe(expected.toString(8));
    await writeOutput(out, [{ path: "b.ts", content: "b" }, manifest(["b.ts"])]);
    expect(((await stat(out)).mode & 0o777).toString(8)).toBe(expected.toString(8));
  });

  it("removes what interrupted runs left beside the folder, and nothing of a run still going", async () => {
    const parent = await mkdtemp(join(tmpdir(), "output-"));
    const out = join(parent, "out");
    // Above Linux's largest process id (pid_max is at most 2^22): no running process has it.
    const ended = 2 ** 31 - 2;
    const leftovers = [`.out.tmp-${ended}-0123456789ab`, `.out.old-${ended}-ba9876543210`];
    const running = `.out.tmp-${process.ppid}-aaaaaaaaaaaa`;
    const foreign = ".out.tmp-notours";
    for (const name of [...leftovers, running, foreign]) {
      await mkdir(join(parent, name, "python"), { recursive: true });
      await writeFile(join(parent, name, "python", "x.py"), "x");
    }
    await writeOutput(out, [{ path: "a.ts", content: "a" }, manifest(["a.ts"])]);
    expect((await readdir(parent)).sort()).toEqual([foreign, running, "out"].sort());
  });
});
