// Preloaded into every node process of a measured command (NODE_OPTIONS=--import): at exit, writes the process's own
// CPU time and peak RSS (worker threads included) to BENCH_RUSAGE_DIR/<pid>.json. Node cannot read its children's
// resource usage, so each process reports its own and the parent adds them up. Plain JavaScript: it loads before tsx.
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { isMainThread } from "node:worker_threads";

const dir = process.env.BENCH_RUSAGE_DIR;
if (dir && isMainThread) {
  process.on("exit", () => {
    const usage = process.resourceUsage();
    const report = {
      pid: process.pid,
      argv: process.argv.slice(1, 3),
      userUs: usage.userCPUTime,
      systemUs: usage.systemCPUTime,
      maxRssKiB: usage.maxRSS,
    };
    writeFileSync(join(dir, `${process.pid}.json`), JSON.stringify(report));
  });
}
