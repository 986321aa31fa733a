/** A balancer without stickiness: each request (stream or not) goes to the next replica in turn. */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export function roundRobin(ports: number[]): Promise<{ url: string; served: number[]; server: Server }> {
  const served = ports.map(() => 0);
  let next = 0;
  const server = createServer((req, res) => {
    const i = next++ % ports.length;
    served[i] = (served[i] ?? 0) + 1;
    const upstream = request(
      { host: '127.0.0.1', port: ports[i], method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    upstream.on('error', () => res.destroy());
    res.on('close', () => upstream.destroy());
    req.pipe(upstream);
  });
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`, served, server }),
    ),
  );
}
