// The loopback server of the request benchmark: answers every request with the same small JSON body, keep-alive.
// Runs in its own process so that it does not share an event loop with the clients it measures. Prints its port.
import { createServer } from "node:http";

const BODY = JSON.stringify({ job_id: "job_0123456789", job_status: "completed", processing_time: "0.004s" });
const server = createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, { "content-type": "application/json", "content-length": Buffer.byteLength(BODY) });
    res.end(BODY);
  });
});
server.keepAliveTimeout = 60_000;
server.listen(0, "127.0.0.1", () => {
  const address = server.address();
  console.log(JSON.stringify({ port: typeof address === "object" && address !== null ? address.port : 0 }));
});
// Ends with its parent: stdin closes when the parent exits or closes it.
process.stdin.resume();
process.stdin.on("end", () => server.close(() => process.exit(0)));
