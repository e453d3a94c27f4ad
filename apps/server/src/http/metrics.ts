import type { FastifyInstance, FastifyRequest } from 'fastify';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { Db } from '../db/database.ts';

// GET /metrics in the Prometheus text format (prom-client), only when METRICS=1 (config.metrics);
// otherwise the path does not exist (404). Served on the same port as the API: expose it only to
// the scraper (firewall or proxy rule), it is not authenticated.
//
//   keyward_requests_total{namespace,operation,status}   requests answered, per operation
//   keyward_request_duration_seconds{namespace,operation} answer time histogram
//   keyward_errors_total{type}                            error answers by type (badRequest, notFound…)
//   keyward_device_channels_open                          push channels held by this instance
//   keyward_device_messages_total                         heartbeats and states handled on them
//   keyward_dns_queries_total{transport,outcome}          Keyward DNS queries answered (issue 33):
//                                                         allowed, cached, blocked, refusedUnknown,
//                                                         refusedBudget (a flood), formerr, notimp, servfail
//   keyward_job_runs_total{job,outcome}                   scheduled job runs on this instance
//   keyward_job_runs_recorded{job}                        job runs claimed in job_runs (all instances)
//   process_* / nodejs_*                                  prom-client's default process metrics
//
// Label values are bounded: operations not in the contract count as `unknown`.

export interface Metrics {
  /** Scheduled jobs report each run (no-op when METRICS is off). */
  jobRun(job: string, outcome: 'ok' | 'failed' | 'skipped', seconds: number): void;
  /** A device message (heartbeat, state, ping) handled on a push channel. */
  deviceMessage(): void;
  /** Issue 33: a Keyward DNS query answered, by transport (doh, dot) and outcome. */
  dnsQuery(transport: string, outcome: string): void;
}

declare module 'fastify' {
  interface FastifyInstance {
    metrics: Metrics;
  }
}

interface MetricsDeps {
  enabled: boolean;
  db: Db;
  /** Operation names per namespace, to keep labels bounded. */
  operations: Record<string, Set<string>>;
  openChannels: () => number;
}

const started = Symbol('metricsStart');
type Timed = FastifyRequest & { [started]?: bigint };

export function registerMetrics(app: FastifyInstance, deps: MetricsDeps): void {
  if (!deps.enabled) {
    app.decorate('metrics', { jobRun() {}, deviceMessage() {}, dnsQuery() {} } satisfies Metrics);
    return;
  }
  const registry = new Registry();
  collectDefaultMetrics({ register: registry, prefix: 'keyward_' });

  const requests = new Counter({
    name: 'keyward_requests_total',
    help: 'Requests answered, by operation and HTTP status',
    labelNames: ['namespace', 'operation', 'status'] as const,
    registers: [registry],
  });
  const duration = new Histogram({
    name: 'keyward_request_duration_seconds',
    help: 'Time to answer a request, by operation',
    labelNames: ['namespace', 'operation'] as const,
    buckets: [0.001, 0.0025, 0.005, 0.01, 0.02, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
    registers: [registry],
  });
  const errors = new Counter({
    name: 'keyward_errors_total',
    help: 'Error answers by error type',
    labelNames: ['type'] as const,
    registers: [registry],
  });
  new Gauge({
    name: 'keyward_device_channels_open',
    help: 'Mac push channels held open by this instance',
    registers: [registry],
    collect() {
      this.set(deps.openChannels());
    },
  });
  const deviceMessages = new Counter({
    name: 'keyward_device_messages_total',
    help: 'Device messages (heartbeats, filter states, pings) handled on push channels',
    registers: [registry],
  });
  const dnsQueries = new Counter({
    name: 'keyward_dns_queries_total',
    help: 'Keyward DNS queries answered, by transport and outcome',
    labelNames: ['transport', 'outcome'] as const,
    registers: [registry],
  });
  const jobRuns = new Counter({
    name: 'keyward_job_runs_total',
    help: 'Scheduled job runs on this instance, by outcome',
    labelNames: ['job', 'outcome'] as const,
    registers: [registry],
  });
  const jobSeconds = new Histogram({
    name: 'keyward_job_duration_seconds',
    help: 'Duration of scheduled job runs on this instance',
    labelNames: ['job'] as const,
    buckets: [0.1, 1, 10, 60, 300, 1800],
    registers: [registry],
  });
  new Gauge({
    name: 'keyward_job_runs_recorded',
    help: 'Job runs claimed in the job_runs table (all instances)',
    labelNames: ['job'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      const rows = await deps.db
        .selectFrom('job_runs')
        .select(['job', (eb) => eb.fn.countAll<number | string>().as('runs')])
        .groupBy('job')
        .execute();
      for (const row of rows) this.set({ job: row.job }, Number(row.runs));
    },
  });

  app.decorate('metrics', {
    jobRun(job, outcome, seconds) {
      jobRuns.inc({ job, outcome });
      jobSeconds.observe({ job }, seconds);
    },
    deviceMessage() {
      deviceMessages.inc();
    },
    dnsQuery(transport, outcome) {
      dnsQueries.inc({ transport, outcome });
    },
  } satisfies Metrics);

  const labelsOf = (request: FastifyRequest) => {
    const route = request.routeOptions.url ?? 'unknown';
    const match = /^\/pairql\/([^/]+)\/:op$/.exec(route);
    if (match) {
      const namespace = match[1]!;
      const op = (request.params as { op?: string }).op ?? '';
      return { namespace, operation: deps.operations[namespace]?.has(op) ? op : 'unknown' };
    }
    if (route === '/macos-app/channel') return { namespace: 'macos-app', operation: 'channel' };
    if (route === '/dns-query/:deviceId') return { namespace: 'dns', operation: 'doh' };
    if (route === '/healthz' || route === '/metrics')
      return { namespace: 'http', operation: route };
    return { namespace: 'http', operation: route.startsWith('/pairql/') ? 'unknown' : 'static' };
  };

  app.addHook('onRequest', async (request) => {
    (request as Timed)[started] = process.hrtime.bigint();
  });
  app.addHook('onSend', async (_request, reply, payload) => {
    if (reply.statusCode >= 400) {
      const text = typeof payload === 'string' ? payload.slice(0, 300) : '';
      const type = /"type":"(\w{1,40})"/.exec(text)?.[1] ?? `http${reply.statusCode}`;
      errors.inc({ type });
    }
    return payload;
  });
  app.addHook('onResponse', async (request, reply) => {
    const start = (request as Timed)[started];
    const labels = labelsOf(request);
    requests.inc({ ...labels, status: String(reply.statusCode) });
    if (start !== undefined) {
      duration.observe(labels, Number(process.hrtime.bigint() - start) / 1e9);
    }
  });

  app.get('/metrics', async (_request, reply) => {
    const text = await registry.metrics();
    return reply.header('cache-control', 'no-store').type(registry.contentType).send(text);
  });
}
