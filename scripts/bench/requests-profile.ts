// Profiling aid of the request benchmark: runs one client's GETs in a loop, to be started under node --cpu-prof.
// Usage: node --import tsx --cpu-prof --cpu-prof-dir .tmp/bench/prof scripts/bench/requests-profile.ts ["our client (getJob)"] [count]
import { requestClients, startServer } from "./request-clients.js";

const [name = "our client (getJob)", count = "20000"] = process.argv.slice(2);
const server = await startServer();
try {
  const clients = requestClients(server.origin);
  const one = clients[name as keyof typeof clients];
  if (one === undefined) throw new Error(`unknown client ${name}: ${Object.keys(clients).join(", ")}`);
  const started = performance.now();
  for (let i = 0; i < Number(count); i++) await one();
  console.log(JSON.stringify({ client: name, usPerRequest: ((performance.now() - started) * 1000) / Number(count) }));
} finally {
  server.stop();
}
