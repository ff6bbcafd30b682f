import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';
import type { FastifyInstance } from 'fastify';
import type { JobOutcome } from '../queue/job-queue';

/**
 * The process's Prometheus metrics: HTTP request durations, job tries and durations, queue depth
 * and Node's default metrics, in a registry of its own (so several servers in one test process
 * never share counts).
 */
export class ServerMetrics {
  readonly registry = new Registry();
  private readonly httpDuration = new Histogram({
    name: 'flowmatic_http_request_duration_seconds',
    help: 'Time to answer an HTTP request, by route and status',
    labelNames: ['method', 'route', 'status'] as const,
    buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
    registers: [this.registry],
  });
  private readonly jobs = new Counter({
    name: 'flowmatic_jobs_total',
    help: 'Job tries that ended in this process: completed, retry (failed, tried again), failed (no tries left, or its process stopped too often), stalled (its process stopped; found here and taken up again)',
    labelNames: ['queue', 'status'] as const,
    registers: [this.registry],
  });
  private readonly jobDuration = new Histogram({
    name: 'flowmatic_job_duration_seconds',
    help: 'Time one job try took, by queue and status',
    labelNames: ['queue', 'status'] as const,
    buckets: [0.01, 0.05, 0.1, 0.5, 1, 5, 15, 60, 300],
    registers: [this.registry],
  });

  constructor(queueDepths?: () => Promise<Record<string, number>>) {
    collectDefaultMetrics({ register: this.registry });
    new Gauge({
      name: 'flowmatic_queue_depth',
      help: 'Jobs waiting to run (due or delayed), by queue',
      labelNames: ['queue'] as const,
      registers: [this.registry],
      async collect() {
        this.reset();
        if (!queueDepths) return;
        for (const [queue, n] of Object.entries(await queueDepths())) this.set({ queue }, n);
      },
    });
  }

  /** Counts one job try (the queues call this as each try ends). */
  readonly observeJob = (o: JobOutcome): void => {
    this.jobs.inc({ queue: o.queue, status: o.status });
    if (o.seconds !== undefined) this.jobDuration.observe({ queue: o.queue, status: o.status }, o.seconds);
  };

  /** Times every answered request; the route is its pattern (e.g. /api/jobs/:id), never the raw URL. */
  instrument(app: FastifyInstance): void {
    app.addHook('onResponse', async (request, reply) => {
      const route = request.routeOptions.url ?? 'unmatched';
      this.httpDuration.observe({ method: request.method, route, status: String(reply.statusCode) }, reply.elapsedTime / 1000);
    });
  }

  async text(): Promise<{ contentType: string; body: string }> {
    return { contentType: this.registry.contentType, body: await this.registry.metrics() };
  }
}
