// A switch between the e2e run's upstream-mode front end and its backend (the platform instance):
// it forwards HTTP requests and socket upgrades to the backend until told to go down, and then
// cuts every open connection and refuses new ones, as a backend that stops answering does. The
// upstream failure test (tests/e2e/upstream/backend-down.spec.ts) turns it down and up again with
// POST /__switch/down and /__switch/up; nothing else reaches the switch.
import http from "node:http";
import net from "node:net";

export function startBackendSwitch({ port, backendPort }) {
  let up = true;
  const open = new Set();
  const track = (socket) => {
    open.add(socket);
    socket.on("close", () => open.delete(socket));
  };
  const server = http.createServer((req, res) => {
    if (req.url === "/__switch/down" || req.url === "/__switch/up") {
      up = req.url.endsWith("/up");
      // every connection but this control call's own
      if (!up) for (const socket of open) if (socket !== req.socket) socket.destroy();
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ up }));
      return;
    }
    if (!up) return req.socket.destroy();
    const forward = http.request(
      { host: "127.0.0.1", port: backendPort, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forward.on("error", () => req.socket.destroy());
    track(forward.socket ?? req.socket);
    forward.on("socket", track);
    req.pipe(forward);
  });
  server.on("connection", track);
  // socket upgrades (the market feed's §4 socket): the raw bytes both ways
  server.on("upgrade", (req, client, head) => {
    if (!up) return client.destroy();
    const target = net.connect(backendPort, "127.0.0.1", () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      target.write(`${lines.join("\r\n")}\r\n\r\n`);
      if (head.length) target.write(head);
      target.pipe(client);
      client.pipe(target);
    });
    track(target);
    target.on("error", () => client.destroy());
    client.on("error", () => target.destroy());
  });
  return new Promise((resolve) => server.listen(port, "127.0.0.1", () => resolve(server)));
}

// run as its own process (the e2e run's Playwright call blocks the parent's event loop)
if (process.argv[1] && import.meta.url === new URL(`file://${process.argv[1]}`).href) {
  const [port, backendPort] = process.argv.slice(2).map(Number);
  await startBackendSwitch({ port, backendPort });
}
