// The loopback server of the request benchmark: answers every request with the same small JSON body, keep-alive.
// Runs in its own process so that it does not share an event loop with the clients it measures. Prints its port, and
// for each line "connections" on stdin a JSON line with the number of sockets it has accepted so far.
import { createServer } from "node:http";
import { createInterface } from "node:readline";

const BODY = JSON.stringify({ job_id: "job_0123456789", job_status: "completed", processing_time: "0.004s" });
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
    res.end(BODY);
  });
});
server.keepAliveTimeout = 60_000;
let accepted = 0;
server.on("connection", () => {
  accepted++;
});
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 }));
});
// Ends with its parent: stdin closes when the parent exits or closes it.
const lines = createInterface({ input: process.stdin });
lines.on("line", (line) => {
  if (line.trim() === "connections") console.log(JSON.stringify({ connections: accepted }));
});
lines.on("close", () => {
  server.close(() => process.exit(0));
  // Idle keep-alive sockets of clients still running would hold close() open.
  server.closeAllConnections();
});
