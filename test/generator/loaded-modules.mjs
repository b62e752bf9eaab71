// Preloaded (`node --import`) into a command under test: at exit, the file LOADED_MODULES names holds every module
// the process loaded, one address or path a line: the ES modules through a load hook (which Node runs on a thread of
// its own, hence the appends), the CommonJS ones from require's cache. Plain JavaScript: it loads before tsx.
import { appendFileSync, writeFileSync } from "node:fs";
import { createRequire, register } from "node:module";

const HOOKS = `import { appendFileSync } from "node:fs";
let file;
export function initialize(data) { file = data; }
export async function load(url, context, next) { appendFileSync(file, url + "\\n"); return next(url, context); }`;

const file = process.env.LOADED_MODULES;
if (file) {
  writeFileSync(file, "");
  register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, import.meta.url, { data: file });
  process.on("exit", () => appendFileSync(file, `${Object.keys(createRequire(import.meta.url).cache).join("\n")}\n`));
}
