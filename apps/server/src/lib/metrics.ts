/**
 * Prometheus metrics (GET /metrics, plugins/metrics.ts; the table is in docs/operations.md). One registry per
 * app (tests build many apps in one process); the process's own metrics (memory, event loop, GC) once per
 * process, merged in. Counting never throws: a metric must not break a request, a charger's call or a payment.
 */
import { BOOKING_STATUSES } from '@ev/shared';
import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import type { CommandOutcome } from '../ocpp/commands.ts';

/** What a settled charge or refund came to. */
export type PaymentOutcome = 'succeeded' | 'manual' | 'declined';

export interface PaymentMetrics {
  /** A charge or refund whose outcome this process committed: told once per operation, after the commit. */
  settled(kind: 'charge' | 'refund', method: string, outcome: PaymentOutcome, amountBaht: number): void;
}

/** The part of an ocpp-rpc client the metrics listen to. */
export interface OcppEvents {
  on(event: string, listener: (event: unknown) => void): unknown;
}

export interface OcppMetrics {
  /** Counts what a connected charger sends (its calls and how they were answered, its bad frames). */
  watch(client: OcppEvents): void;
  /** A command sent to a charger, what became of it, and how long it took (s). */
  commandSent(action: string, outcome: CommandOutcome, seconds: number): void;
  /** Frames the message log did not write (ocpp/message-log.ts): its queue was full, or the write failed. */
  messageLogDropped(reason: 'queue_full' | 'write_failed', frames: number): void;
}

/** Metrics off (no METRICS_TOKEN): nothing is counted. */
export const NO_METRICS: OcppMetrics & PaymentMetrics = {
  watch() {},
  commandSent() {},
  messageLogDropped() {},
  settled() {},
};

/** How long the booking counts are kept: counting a million rows is not for every scrape. */
export const BOOKING_COUNTS_TTL_MS = 60_000;

/** The actions a charger may call (OCPP 1.6, charge point to central system); any other is counted as 'other'. */
const CHARGER_ACTIONS = new Set([
  'Authorize',
  'BootNotification',
  'DataTransfer',
  'DiagnosticsStatusNotification',
  'FirmwareStatusNotification',
  'Heartbeat',
  'MeterValues',
  'StartTransaction',
  'StatusNotification',
  'StopTransaction',
]);

/** An answer that refuses (an id tag Blocked or Invalid, DataTransfer UnknownVendorId, a command Rejected). */
function refused(answer: unknown): boolean {
  const value = answer as { status?: unknown; idTagInfo?: { status?: unknown } } | null | undefined;
  const status = value?.idTagInfo?.status ?? value?.status;
  return status !== undefined && status !== 'Accepted' && status !== 'RebootRequired';
}

function safely<A extends unknown[]>(run: (...args: A) => void): (...args: A) => void {
  return (...args) => {
    try {
      run(...args);
    } catch {
      // A metric that cannot be counted is lost; the work it describes goes on.
    }
  };
}

let processRegistry: Registry | null = null;
/** Memory, CPU, event-loop lag, GC, handles: properties of the process, collected once however many apps. */
function processMetrics(): Registry {
  if (!processRegistry) {
    processRegistry = new Registry();
    collectDefaultMetrics({ register: processRegistry });
  }
  return processRegistry;
}

export interface MetricSources {
  /** Chargers connected to this process now. */
  chargers: () => number;
  /** Bookings by status (not deleted); null when they could not be counted (the last counts are kept). */
  bookings: () => Promise<Array<{ status: string; count: number }> | null>;
  /** Several processes (NATS_URL): whether the NATS server is reachable now. Absent: one process. */
  broker?: () => boolean;
}

export class Metrics implements OcppMetrics, PaymentMetrics {
  readonly registry = new Registry();
  private scraped: Registry;
  private readonly startedAt = Date.now();
  private lastHeardAt: number | null = null;
  private sources: MetricSources = { chargers: () => 0, bookings: async () => [] };
  private bookingCounts: { at: number; pending: Promise<void> | null } = { at: 0, pending: null };

  private readonly httpRequests: Counter<'method' | 'route' | 'status_code'>;
  private readonly httpDuration: Histogram<'method' | 'route' | 'status_code'>;
  private readonly ocppReceived: Counter<'action' | 'outcome'>;
  private readonly ocppCommands: Counter<'action' | 'outcome'>;
  private readonly ocppCommandDuration: Histogram<'action'>;
  private readonly messageLogDrops: Counter<'reason'>;
  private readonly payments: Counter<'method' | 'outcome'>;
  private readonly paymentBaht: Counter<'method'>;
  private readonly refunds: Counter<'method' | 'outcome'>;
  private readonly refundBaht: Counter<'method'>;

  constructor() {
    const registers = [this.registry];
    this.httpRequests = new Counter({
      name: 'ev_http_requests_total',
      help: 'HTTP requests answered, by method, route pattern (unmatched: no route) and status code.',
      labelNames: ['method', 'route', 'status_code'],
      registers,
    });
    this.httpDuration = new Histogram({
      name: 'ev_http_request_duration_seconds',
      help: 'Time from receiving an HTTP request to the end of its answer, in seconds.',
      labelNames: ['method', 'route', 'status_code'],
      buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60],
      registers,
    });
    const sources = () => this.sources;
    new Gauge({
      name: 'ev_ocpp_chargers_connected',
      help: 'Chargers connected to this server process over OCPP now.',
      registers,
      collect() {
        this.set(sources().chargers());
      },
    });
    const lastHeard = () => this.lastHeardAt ?? this.startedAt;
    new Gauge({
      name: 'ev_ocpp_last_message_age_seconds',
      help: 'Seconds since any charger last sent a frame to this process (since the start if none has).',
      registers,
      collect() {
        this.set(Math.max(0, (Date.now() - lastHeard()) / 1000));
      },
    });
    this.ocppReceived = new Counter({
      name: 'ev_ocpp_messages_received_total',
      help:
        'Calls received from chargers, by action and outcome: accepted, rejected (answered with a refusal, ' +
        'e.g. an id tag Blocked), invalid (the charger sent a bad call or frame: CALLERROR), ' +
        'error (our handler failed: InternalError).',
      labelNames: ['action', 'outcome'],
      registers,
    });
    this.ocppCommands = new Counter({
      name: 'ev_ocpp_commands_total',
      help:
        'Commands sent to chargers, by action and outcome: accepted, rejected, error (a CALLERROR), timeout, ' +
        'offline (not connected: nothing sent).',
      labelNames: ['action', 'outcome'],
      registers,
    });
    this.ocppCommandDuration = new Histogram({
      name: 'ev_ocpp_command_duration_seconds',
      help: 'Round trip of a command a charger answered (a result or an error), in seconds.',
      labelNames: ['action'],
      buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
      registers,
    });
    this.messageLogDrops = new Counter({
      name: 'ev_ocpp_message_log_dropped_total',
      help:
        'OCPP frames the message log did not write, by reason: queue_full (more frames waited than its ' +
        'bound), write_failed (the database refused or was away).',
      labelNames: ['reason'],
      registers,
    });
    const bookings: Gauge<'status'> = new Gauge({
      name: 'ev_bookings',
      help: `Bookings (not deleted) by status, counted at most every ${BOOKING_COUNTS_TTL_MS / 1000} s.`,
      labelNames: ['status'],
      registers,
      collect: (): Promise<void> => this.countBookings(bookings),
    });
    this.payments = new Counter({
      name: 'ev_payments_total',
      help: 'Charges settled, by method and outcome (succeeded, manual: recorded for manual settlement, declined).',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.paymentBaht = new Counter({
      name: 'ev_payments_amount_baht_total',
      help: 'Baht charged by the charges that succeeded (or were recorded for manual settlement), by method.',
      labelNames: ['method'],
      registers,
    });
    this.refunds = new Counter({
      name: 'ev_refunds_total',
      help: 'Refunds settled, by method and outcome (succeeded, manual, declined).',
      labelNames: ['method', 'outcome'],
      registers,
    });
    this.refundBaht = new Counter({
      name: 'ev_refunds_amount_baht_total',
      help: 'Baht paid back by the refunds that succeeded (or were recorded for manual settlement), by method.',
      labelNames: ['method'],
      registers,
    });
    this.scraped = Registry.merge([processMetrics(), this.registry]);
  }

  /** Where the collect-time gauges read from (set once the OCPP central and the database are there). */
  observe(sources: MetricSources): void {
    this.sources = sources;
    this.bookingCounts = { at: 0, pending: null };
    const { broker } = sources;
    if (broker && !this.registry.getSingleMetric('ev_cluster_broker_connected')) {
      new Gauge({
        name: 'ev_cluster_broker_connected',
        help: 'Several processes: 1 while this process reaches the NATS server, 0 while it is away (commands for chargers held elsewhere fail meanwhile).',
        registers: [this.registry],
        collect() {
          this.set(broker() ? 1 : 0);
        },
      });
      // A merged registry holds the metrics of its parts as they were: merge again with this one in.
      this.scraped = Registry.merge([processMetrics(), this.registry]);
    }
  }

  readonly contentType = Registry.PROMETHEUS_CONTENT_TYPE;

  /** The text exposition of every metric. */
  scrape(): Promise<string> {
    return this.scraped.metrics();
  }

  readonly httpAnswered = safely((method: string, route: string, statusCode: number, seconds: number) => {
    const labels = { method, route, status_code: String(statusCode) };
    this.httpRequests.inc(labels);
    this.httpDuration.observe(labels, seconds);
  });

  readonly watch = safely((client: OcppEvents): void => {
    // The action is the charger's text: only the known ones become label values.
    const received = (action: unknown, outcome: string) =>
      this.ocppReceived.inc({
        action: typeof action === 'string' && CHARGER_ACTIONS.has(action) ? action : 'other',
        outcome,
      });
    client.on(
      'message',
      safely((event) => {
        if (!(event as { outbound?: boolean }).outbound) this.lastHeardAt = Date.now();
      }),
    );
    client.on(
      'callResult',
      safely((event) => {
        const { outbound, method, result } = event as {
          outbound?: boolean;
          method?: unknown;
          result?: unknown;
        };
        if (!outbound) received(method, refused(result) ? 'rejected' : 'accepted');
      }),
    );
    client.on(
      'callError',
      safely((event) => {
        const { outbound, method, error } = event as {
          outbound?: boolean;
          method?: unknown;
          error?: { rpcErrorCode?: string };
        };
        if (!outbound) received(method, error?.rpcErrorCode === 'InternalError' ? 'error' : 'invalid');
      }),
    );
    client.on(
      'badMessage',
      safely(() => this.ocppReceived.inc({ action: 'malformed', outcome: 'invalid' })),
    );
  });

  readonly commandSent = safely((action: string, outcome: CommandOutcome, seconds: number) => {
    const label =
      outcome.status === 'answered' ? (refused(outcome.response) ? 'rejected' : 'accepted') : outcome.status;
    this.ocppCommands.inc({ action, outcome: label });
    if (outcome.status === 'answered' || outcome.status === 'error') {
      this.ocppCommandDuration.observe({ action }, seconds);
    }
  });

  readonly messageLogDropped = safely((reason: 'queue_full' | 'write_failed', frames: number) => {
    this.messageLogDrops.inc({ reason }, frames);
  });

  readonly settled = safely(
    (kind: 'charge' | 'refund', method: string, outcome: PaymentOutcome, amountBaht: number) => {
      const [count, baht] =
        kind === 'charge' ? [this.payments, this.paymentBaht] : [this.refunds, this.refundBaht];
      count.inc({ method, outcome });
      if (outcome !== 'declined' && amountBaht > 0) baht.inc({ method }, amountBaht);
    },
  );

  /**
   * Sets the booking gauge from counts at most BOOKING_COUNTS_TTL_MS old; concurrent scrapes share one query.
   * Every status is set (0 when none), so the series never vanish and always add up to the total.
   */
  private async countBookings(gauge: Gauge<'status'>): Promise<void> {
    if (Date.now() - this.bookingCounts.at < BOOKING_COUNTS_TTL_MS) return;
    this.bookingCounts.pending ??= (async () => {
      try {
        const rows = await this.sources.bookings();
        if (!rows) return;
        const counts = new Map(rows.map((row) => [row.status, row.count]));
        for (const status of BOOKING_STATUSES) gauge.set({ status }, counts.get(status) ?? 0);
        this.bookingCounts.at = Date.now();
      } catch {
        // Kept as last counted; the source logs why.
      } finally {
        this.bookingCounts.pending = null;
      }
    })();
    await this.bookingCounts.pending;
  }
}
