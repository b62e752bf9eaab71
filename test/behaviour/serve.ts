// Runs the scenario server in a process of its own, so that the timings it records do not wait on the event loop
// of a client under test. Prints its two origins as one line of JSON, and stops when its stdin closes.
import { ScenarioServer } from "./server.js";

const server = await ScenarioServer.start();
process.stdout.write(`${JSON.stringify({ main: server.mainOrigin, foreign: server.foreignOrigin })}\n`);
process.stdin.resume();
process.stdin.on("end", () => {
  void server.stop().then(() => process.exit(0));
});
