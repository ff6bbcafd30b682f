import http from 'node:http';
import type { AddressInfo } from 'node:net';

/** A tiny loopback web site for the website-reader tests: routes map a path to a handler. */
export type Route = (req: http.IncomingMessage, res: http.ServerResponse) => void;

export interface FixtureSite {
  origin: string;
  port: number;
  close(): Promise<void>;
}

/** Starts a node:http server on 127.0.0.1 with the given routes (404 otherwise). */
export async function startFixtureSite(routes: Record<string, Route>): Promise<FixtureSite> {
  const sockets = new Set<import('node:net').Socket>();
  const server = http.createServer((req, res) => {
    const path = (req.url ?? '/').split('?')[0];
    const route = routes[path];
    if (route) route(req, res);
    else {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
    }
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    origin: `http://127.0.0.1:${port}`,
    port,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

/** Sends an HTML page. */
export function html(body: string, status = 200): Route {
  return (_req, res) => {
    res.writeHead(status, { 'content-type': 'text/html; charset=utf-8' });
    res.end(body);
  };
}

/** Sends a redirect. */
export function redirect(location: string, status = 302): Route {
  return (_req, res) => {
    res.writeHead(status, { location });
    res.end();
  };
}
