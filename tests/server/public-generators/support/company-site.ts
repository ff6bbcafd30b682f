import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { createCanvas } from '@napi-rs/canvas';
import { BRIGHTWATER_ARTICLE } from '../../web-fetch/fixture-pages';

/**
 * A loopback company website for the public-generator tests (server and end-to-end): a home page
 * with a PNG logo, a page whose logo is an SVG carrying a script, a page without any logo, and a
 * page with too little text. Counts the requests it answers, per path. `?delay=<ms>` on any path
 * answers that much later (a slow site, to watch loading views in the browser).
 */
export interface CompanySite {
  origin: string;
  hits: Map<string, number>;
  close(): Promise<void>;
}

const page = (logo: string, extraHead = '') => `<!doctype html>
<html lang="en"><head>
  <meta charset="utf-8">
  <title>Brightwater Analytics | Water monitoring for cities</title>
  <meta name="description" content="Brightwater Analytics builds acoustic sensors and cloud software that detect leaks in city water networks.">
  <meta property="og:site_name" content="Brightwater">
  ${extraHead}
</head><body>
  <header><nav><a href="/">Home</a> <a href="/about">About</a>${logo}</nav></header>
  <main><article>
${BRIGHTWATER_ARTICLE}
    <p>Engineers at Brightwater <b>never</b> write &lt;script&gt;alert("x")&lt;/script&gt; into a report, and neither should a generator.</p>
  </article></main>
  <footer><p>Copyright 2024 Brightwater Analytics B.V. All rights reserved.</p></footer>
  <script>var tracking = "this is not content";</script>
</body></html>`;

/** A 200×80 PNG logo: a blue tile with a white wave. */
export function drawLogoPng(): Buffer {
  const canvas = createCanvas(200, 80);
  const ctx = canvas.getContext('2d');
  ctx.fillStyle = '#0b5cad';
  ctx.fillRect(0, 0, 200, 80);
  ctx.strokeStyle = '#ffffff';
  ctx.lineWidth = 8;
  ctx.beginPath();
  ctx.moveTo(10, 50);
  ctx.bezierCurveTo(50, 10, 90, 90, 130, 40);
  ctx.lineTo(190, 40);
  ctx.stroke();
  return canvas.toBuffer('image/png');
}

export const SVG_LOGO = `<?xml version="1.0"?>
<svg xmlns="http://www.w3.org/2000/svg" width="120" height="60" viewBox="0 0 120 60">
  <script>alert('svg script')</script>
  <rect width="120" height="60" fill="#c2185b"/>
  <circle cx="30" cy="30" r="20" fill="#fff"/>
</svg>`;

type Route = { type: string; body: string | Buffer; status?: number };

/** Starts the site on 127.0.0.1 at a random port. */
export async function startCompanySite(): Promise<CompanySite> {
  const logoPng = drawLogoPng();
  const routes: Record<string, Route> = {
    '/': { type: 'text/html; charset=utf-8', body: page('<img class="site-logo" src="/img/logo.png" alt="Brightwater">') },
    '/svg-logo': { type: 'text/html; charset=utf-8', body: page('<img class="site-logo" src="/img/logo.svg" alt="Brightwater">') },
    '/no-logo': { type: 'text/html; charset=utf-8', body: page('') },
    '/broken-logo': { type: 'text/html; charset=utf-8', body: page('<img class="site-logo" src="/img/missing.png" alt="Brightwater">') },
    '/tiny': { type: 'text/html; charset=utf-8', body: '<!doctype html><html><head><title>Hi</title></head><body><p>Hi.</p></body></html>' },
    '/img/logo.png': { type: 'image/png', body: logoPng },
    '/img/logo.svg': { type: 'image/svg+xml', body: SVG_LOGO },
  };
  const hits = new Map<string, number>();
  const sockets = new Set<Socket>();
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://fixture.local');
    const delay = Math.min(Number(url.searchParams.get('delay')) || 0, 10_000);
    if (delay > 0) setTimeout(() => answer(url.pathname, res), delay);
    else answer(url.pathname, res);
  });
  function answer(path: string, res: http.ServerResponse) {
    hits.set(path, (hits.get(path) ?? 0) + 1);
    const route = routes[path];
    if (!route) {
      res.writeHead(404, { 'content-type': 'text/plain' });
      res.end('not found');
      return;
    }
    res.writeHead(route.status ?? 200, { 'content-type': route.type });
    res.end(route.body);
  }
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    origin: `http://127.0.0.1:${port}`,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}
