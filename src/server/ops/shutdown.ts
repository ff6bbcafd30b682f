import type { FastifyInstance } from 'fastify';

/**
 * Stops a listening Fastify app gracefully: it takes no new connections, answers every request
 * already received (also one whose body is still arriving), and closes each kept-alive connection
 * as soon as it is idle (Node's server.close() only closes those idle at the moment it is called,
 * so a connection whose request ends later would hold the close for the keep-alive timeout).
 */
export async function closeGracefully(app: FastifyInstance): Promise<void> {
  const server = app.server;
  const sweep = setInterval(() => server.closeIdleConnections?.(), 50);
  try {
    await app.close();
  } finally {
    clearInterval(sweep);
  }
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
