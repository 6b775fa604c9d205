import fs from 'node:fs';
import path from 'node:path';
import fastifyStatic from '@fastify/static';
import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { NatsConnection } from '@nats-io/transport-node';
import Fastify, { type FastifyInstance, type FastifyReply } from 'fastify';
import {
  jsonSchemaTransform,
  jsonSchemaTransformObject,
  serializerCompiler,
  validatorCompiler,
  type ZodTypeProvider,
} from 'fastify-type-provider-zod';
import { ChargerBus } from './cluster/bus.ts';
import type { Config } from './config.ts';
import { registerBackupEndpoint } from './db/backup-endpoint.ts';
import type { DatabaseKind, Db } from './db/client.ts';
import { Background } from './lib/background.ts';
import { Lifecycle } from './lib/lifecycle.ts';
import { loggerOptions } from './lib/log.ts';
import { createMailer, type Mailer } from './lib/mail.ts';
import { Metrics, NO_METRICS } from './lib/metrics.ts';
import { alertRoutes } from './modules/alerts/alerts.routes.ts';
import { Alerts, type TickResult } from './modules/alerts/alerts.ts';
import type { DeliveryRound } from './modules/alerts/deliveries.ts';
import { auditRoutes } from './modules/audit/audit.routes.ts';
import { pruneAudit } from './modules/audit/audit.service.ts';
import { registerAudit } from './modules/audit/audit.ts';
import { authRoutes } from './modules/auth/auth.routes.ts';
import { bookingRoutes } from './modules/booking/booking.routes.ts';
import { bookingChargerEvents } from './modules/booking/booking-charger-events.ts';
import { cancelAtCharger } from './modules/booking/charger-reservation.ts';
import { chargerRoutes } from './modules/charger/charger.routes.ts';
import { chargerCommandRoutes } from './modules/charger/command.routes.ts';
import { chargerLocalListRoutes } from './modules/charger/local-list.routes.ts';
import { chargerMessageRoutes } from './modules/charger/message.routes.ts';
import { chargerOperationRoutes } from './modules/charger/operation.routes.ts';
import { chargerBrandRoutes } from './modules/charger-brand/charger-brand.routes.ts';
import { chargerFileRoutes } from './modules/charger-file/charger-file.routes.ts';
import { chargerFileEvents } from './modules/charger-file/charger-file-events.ts';
import { ocppFileRoutes } from './modules/charger-file/ocpp-file.routes.ts';
import { contactUsRoutes } from './modules/contact-us/contact-us.routes.ts';
import { idTagRoutes } from './modules/id-tag/id-tag.routes.ts';
import { landlordRoutes } from './modules/landlord/landlord.routes.ts';
import { legalRoutes } from './modules/legal/legal.routes.ts';
import { memberRoutes } from './modules/member/member.routes.ts';
import { expireReservations } from './modules/member/member.service.ts';
import { merchantRoutes } from './modules/merchant/merchant.routes.ts';
import { pageRoutes } from './modules/page/page.routes.ts';
import { partyRoutes } from './modules/party/party.routes.ts';
import { paymentRoutes } from './modules/payment/payment.routes.ts';
import { ManualSettlementGateway, type PaymentGateway } from './modules/payment/payment-gateway.ts';
import { type PaymentContext, settlePending } from './modules/payment/settlement.ts';
import { pointRoutes } from './modules/point/point.routes.ts';
import { withPower } from './modules/power/power-charger-events.ts';
import { POWER_CLOSE_MS, PowerManager } from './modules/power/power-manager.ts';
import { powerLoadRoutes } from './modules/power-load/power-load.routes.ts';
import { withPowerSamples } from './modules/power-load/power-load-events.ts';
import {
  PRUNE_MS as POWER_SAMPLES_PRUNE_MS,
  PowerSamples,
  prunePowerSamples,
} from './modules/power-load/power-samples.ts';
import { priceRoutes } from './modules/price/price.routes.ts';
import { promotionRoutes } from './modules/promotion/promotion.routes.ts';
import { referenceRoutes } from './modules/reference/reference.routes.ts';
import { reportRoutes } from './modules/report/report.routes.ts';
import { selfRoutes } from './modules/self/self.routes.ts';
import { rollupStatistics } from './modules/statistics/rollup.ts';
import { statisticsRoutes } from './modules/statistics/statistics.routes.ts';
import { uploadRoutes } from './modules/upload/upload.routes.ts';
import { userRoutes } from './modules/user/user.routes.ts';
import { userPromotionRoutes } from './modules/user-promotion/user-promotion.routes.ts';
import { OcppCentral } from './ocpp/central.ts';
import type { ChargerCommands } from './ocpp/commands.ts';
import { forgetSessionsHere, onForgetSessions, registerAuth } from './plugins/auth.ts';
import { registerCompression } from './plugins/compression.ts';
import { registerErrorHandler } from './plugins/errors.ts';
import { registerInputGuard } from './plugins/input.ts';
import { countBookingsByStatus, registerMetrics } from './plugins/metrics.ts';
import { registerSecurityHeaders } from './plugins/security-headers.ts';
import type { Services } from './services.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The periodic jobs, callable at once (tests give a later `now` rather than wait). */
    jobs: {
      expireReservations(now?: number): Promise<number>;
      /** The work started after an answer (ReserveNow, CancelReservation) has ended. */
      settled(): Promise<void>;
      /** Deletes power samples older than 3 h before `now` (modules/power-load); answers how many. */
      prunePowerSamples(now?: number): Promise<number>;
      /** Writes the power samples queued now (they trail the meter values by a moment). */
      flushPowerSamples(): Promise<void>;
      /**
       * Recomputes the statistics' daily rollups of the settled days that are dirty or were never rolled up
       * (modules/statistics/rollup.ts); answers how many days. Once a minute and at start, in every process.
       */
      rollupStatistics(now?: number): Promise<number>;
      /** Deletes the audit entries past their retention (AUDIT_RETENTION_DAYS); answers how many. */
      pruneAudit(now?: number): Promise<number>;
      /**
       * The alerts' pass at `now` (modules/alerts, docs/alerts.md): probes the database, evaluates every
       * condition (opens, clears and resolves incidents, queues their deliveries), tells the live streams, then
       * sends what is due. At start and every ALERTS_EVERY_MS, in every process.
       */
      evaluateAlerts(now?: number): Promise<TickResult>;
      /** Sends the alerts' mail and webhooks due at `now` (retries with backoff); also on a timer of its own. */
      deliverAlerts(now?: number): Promise<DeliveryRound>;
    };
    /** The alerts of this process: its live streams (`alerts.hub.settled()` is the tests' sync point). */
    alerts: Alerts;
    /** ChargerCommands: every command to a charger, wherever it is connected. */
    commands: ChargerCommands;
    /** The power sharing of limited sites (modules/power): `settled()` is the tests' sync point. */
    power: PowerManager;
  }
}

export interface BuildOptions {
  db: Db;
  databaseKind: DatabaseKind;
  config: Config;
  /** Where log lines go (tests capture them); stdout by default. */
  logStream?: NodeJS.WritableStream;
  mailer?: Mailer;
  /** Charges and refunds; ManualSettlementGateway by default. */
  paymentGateway?: PaymentGateway;
  /** Several processes, one network (NATS_URL): this process's connection to the NATS server. */
  nats?: NatsConnection;
  /** What GET /api/ready reports (the shutdown marks it stopping); one of its own by default. */
  lifecycle?: Lifecycle;
}

/** Builds the whole server (API, docs, web app) without listening. */
export async function buildApp(options: BuildOptions): Promise<FastifyInstance> {
  const { config } = options;
  const app = Fastify({
    logger: loggerOptions(config.logLevel, options.logStream, config.logFormat),
    trustProxy: config.trustProxy,
    bodyLimit: 1024 * 1024,
    // A malformed URL never reaches the error handler: answer it in the same `{ message }` shape.
    frameworkErrors: (error, _request, reply) => {
      (reply as FastifyReply).status(error.statusCode ?? 400).send({ message: error.message });
    },
  }).withTypeProvider<ZodTypeProvider>();
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  const lifecycle = options.lifecycle ?? new Lifecycle();
  app.decorate('lifecycle', lifecycle);
  app.addHook('onListen', async () => lifecycle.markReady());
  // First of the preClose hooks: readiness turns 503 before anything stops.
  app.addHook('preClose', async () => lifecycle.markStopping());
  const metrics = config.metricsToken ? new Metrics() : null;
  await registerSecurityHeaders(app, config);
  await registerCompression(app);
  registerErrorHandler(app);
  registerInputGuard(app);
  registerMetrics(app, metrics, config.metricsToken);

  const mailer =
    options.mailer ??
    createMailer({
      smtpUrl: config.smtpUrl,
      from: config.mailFrom,
      outboxDir: path.join(config.dataDir, 'outbox'),
      log: app.log,
    });
  // The power sharing sends profiles through the central system it hears the chargers from (built below).
  const power = new PowerManager(
    options.db,
    {
      connected: (ids) => ocpp.commands.connected(ids),
      call: (chargerId, action, params, callOptions) =>
        ocpp.commands.call(chargerId, action, params, callOptions),
      disconnect: (chargerId, reason) => ocpp.commands.disconnect(chargerId, reason),
    },
    app.log,
    { commandTimeoutMs: config.ocpp.commandTimeoutMs },
  );
  // The power each connector of a limited site draws, for its live load chart (issue 34): queued off the
  // charger's call, written in batches, pruned below. What was written may free power (a tapering car).
  const powerSamples = new PowerSamples(options.db, app.log, power.sites, {
    written: (sites) => {
      for (const site of sites) power.schedule(site);
    },
  });
  const ocpp: OcppCentral = new OcppCentral(
    options.db,
    config,
    app.log,
    withPower(
      withPowerSamples(
        {
          ...bookingChargerEvents(options.db, { unknownTags: config.ocpp.unknownTags }),
          files: chargerFileEvents(options.db),
        },
        powerSamples,
      ),
      power,
    ),
    metrics ?? NO_METRICS,
  );
  let bus: ChargerBus | null = null;
  if (options.nats) {
    const joined = new ChargerBus(options.nats, ocpp.nodeId, app.log, ocpp.held, forgetSessionsHere);
    ocpp.join(joined);
    const unhear = onForgetSessions(() => joined.forgetSessions());
    app.addHook('onClose', async () => unhear());
    bus = joined;
  }
  metrics?.observe({
    chargers: () => ocpp.connectedCount,
    bookings: () =>
      countBookingsByStatus(options.db).catch((error: unknown) => {
        app.log.warn({ err: error }, 'metrics: counting bookings failed');
        return null;
      }),
    broker: bus ? () => bus.reachable : undefined,
  });
  ocpp.attach(app.server);
  app.decorate('messageLog', ocpp.messageLog);
  // The commands to chargers, for what has no route yet (SetChargingProfile until the power-limits issue) in tests.
  app.decorate('commands', ocpp.commands);
  app.decorate('power', power);
  // No power work starts once the server is stopping (its chargers leaving are not a reason to share again);
  // what runs ends once the chargers are gone (their calls end with them).
  app.addHook('preClose', async () => power.stop());
  // Before the HTTP server closes: it would wait for the chargers' WebSockets forever.
  app.addHook('preClose', () => ocpp.close());
  app.addHook('onClose', () => power.settled(POWER_CLOSE_MS));
  // Reservations whose slot passed unused are cancelled once a minute (modules/member), and taken back from
  // the chargers that held them (CancelReservation). The tests call it with a later `now` (app.jobs).
  const background = new Background((message) => app.log.warn(message));
  const reservations = { db: options.db, commands: ocpp.commands };
  const expire = (now = Date.now()) =>
    expireReservations(options.db, now, (id) =>
      background.run(`CancelReservation of booking ${id}`, () =>
        cancelAtCharger(reservations, id, 'expired'),
      ),
    );
  const prunePower = (now = Date.now()) => prunePowerSamples(options.db, now);
  // The statistics' rollups: one run at a time in a process, a call during a run runs after it (a test's data
  // written meanwhile is then seen); the timer skips its turn while one runs (the first run over years of
  // history outlasts the minute). The days themselves are locked across processes (rollup.ts).
  let rolling: Promise<unknown> = Promise.resolve();
  let running = 0;
  const rollup = (now?: number) => {
    running++;
    const run = rolling.then(() => rollupStatistics(options.db, now)).finally(() => running--);
    rolling = run.catch(() => undefined);
    return run;
  };
  // Alerts (issue 36 §2): evaluated at start and every ALERTS_EVERY_MS in every process (one incident however
  // many evaluate: modules/alerts/evaluate.ts); the live streams end first at a stop, the jobs after.
  const alerts = new Alerts({
    db: options.db,
    mailer,
    log: app.log,
    appUrl: config.appUrl,
    everyMs: config.alerts.everyMs,
    nodeId: ocpp.nodeId,
    nats: options.nats,
    bus,
  });
  app.decorate('alerts', alerts);
  app.addHook('onReady', async () => alerts.start());
  app.addHook('preClose', async () => alerts.closeStreams());
  app.addHook('onClose', async () => alerts.stop());
  app.decorate('jobs', {
    expireReservations: expire,
    settled: () => background.settled(),
    prunePowerSamples: prunePower,
    flushPowerSamples: () => powerSamples.flush(),
    rollupStatistics: rollup,
    pruneAudit: (now?: number) => pruneAudit(options.db, config.auditRetentionDays, now),
    evaluateAlerts: (now?: number) => alerts.tick(now),
    deliverAlerts: (now?: number) => alerts.deliver(now),
  });
  // The audit log's retention: pruned at start and every 6 hours (modules/audit), in every process (the
  // deletes of one are what the other would do).
  const pruneAuditLater = () =>
    void pruneAudit(options.db, config.auditRetentionDays).catch((error: unknown) =>
      app.log.error({ err: error }, 'pruning the audit log failed'),
    );
  app.addHook('onReady', async () => pruneAuditLater());
  const auditPruning = setInterval(pruneAuditLater, 6 * 3600_000);
  auditPruning.unref();
  app.addHook('onClose', async () => clearInterval(auditPruning));
  const rollupLater = () => {
    if (running > 0) return;
    rollup().catch((error: unknown) => app.log.error({ err: error }, 'statistics rollup failed'));
  };
  app.addHook('onReady', async () => rollupLater());
  const rollups =
    config.statisticsRollupEveryMs > 0 ? setInterval(rollupLater, config.statisticsRollupEveryMs) : null;
  rollups?.unref();
  app.addHook('onClose', async () => {
    if (rollups) clearInterval(rollups);
    await rolling;
  });
  const expiry = setInterval(() => {
    expire().catch((error: unknown) => {
      app.log.error({ err: error }, 'expiring reservations failed');
    });
  }, 60_000);
  expiry.unref();
  app.addHook('onClose', () => clearInterval(expiry));
  const powerPruning = setInterval(() => {
    prunePower().catch((error: unknown) => app.log.error({ err: error }, 'pruning power samples failed'));
  }, POWER_SAMPLES_PRUNE_MS);
  powerPruning.unref();
  app.addHook('onClose', async () => {
    clearInterval(powerPruning);
    // After the chargers' connections closed (preClose), before the database does: what is queued is written.
    await powerSamples.close();
  });
  const payments: PaymentContext = {
    db: options.db,
    gateway: options.paymentGateway ?? new ManualSettlementGateway(),
    timeoutMs: config.payment.timeoutMs,
    metrics: metrics ?? NO_METRICS,
  };
  // Payments and refunds left pending (no answer in time, a crash between the call and its outcome) are asked
  // of the provider again by their key: at start, then once a minute (modules/payment/settlement.ts).
  const settle = () =>
    settlePending(payments, {
      olderThanMs: payments.timeoutMs,
      log: (message, error) => app.log.warn({ err: error }, message),
    }).catch((error: unknown) => app.log.error({ err: error }, 'settling pending payments failed'));
  app.addHook('onReady', async () => {
    void settle();
  });
  const settling = setInterval(() => void settle(), 60_000);
  settling.unref();
  app.addHook('onClose', () => clearInterval(settling));
  const services: Services = {
    db: options.db,
    databaseKind: options.databaseKind,
    config,
    mailer,
    commands: ocpp.commands,
    payments,
    background,
    power,
  };

  await app.register(fastifySwagger, {
    openapi: {
      info: { title: 'EV Charging Back Office API', version: config.version },
      components: {
        securitySchemes: { accessToken: { type: 'apiKey', in: 'header', name: 'X-ACCESS-TOKEN' } },
      },
      security: [{ accessToken: [] }],
    },
    transform: jsonSchemaTransform,
    // Schemas with a `.meta({ id })` become `$ref`s in the routes; this puts their definitions in components.
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: '/api/docs' });

  registerAuth(app, options.db);
  registerAudit(app, options.db);
  // `npm run db:backup` while this server holds DATA_DIR (embedded database only).
  registerBackupEndpoint(app, options.db);
  await app.register(authRoutes(services));
  await app.register(selfRoutes(services));
  await app.register(legalRoutes(services));
  await app.register(referenceRoutes(services));
  await app.register(merchantRoutes(services));
  await app.register(landlordRoutes(services));
  await app.register(partyRoutes(services));
  await app.register(userRoutes(services));
  await app.register(priceRoutes(services));
  await app.register(chargerBrandRoutes(services));
  await app.register(chargerRoutes(services));
  await app.register(chargerCommandRoutes(services));
  await app.register(chargerOperationRoutes(services));
  await app.register(chargerFileRoutes(services));
  await app.register(ocppFileRoutes(services));
  await app.register(chargerLocalListRoutes(services));
  await app.register(idTagRoutes(services));
  await app.register(chargerMessageRoutes(services));
  await app.register(contactUsRoutes(services));
  await app.register(bookingRoutes(services));
  await app.register(paymentRoutes(services));
  await app.register(promotionRoutes(services));
  await app.register(userPromotionRoutes(services));
  await app.register(pointRoutes(services));
  await app.register(powerLoadRoutes(services));
  await app.register(memberRoutes(services));
  await app.register(reportRoutes(services));
  await app.register(statisticsRoutes(services));
  await app.register(pageRoutes(services));
  await app.register(uploadRoutes(services));
  await app.register(auditRoutes(services));
  await app.register(alertRoutes(services, alerts.hub));

  const indexHtml = config.webDist ? path.join(config.webDist, 'index.html') : null;
  const hasWeb = indexHtml !== null && fs.existsSync(indexHtml);
  if (hasWeb && config.webDist) {
    await app.register(fastifyStatic, {
      root: config.webDist,
      wildcard: false,
      index: false,
      // The build writes `.br` and `.gz` beside each text file (apps/web/precompress.ts): sent as asked.
      preCompressed: true,
      setHeaders(res, filePath) {
        const immutable = filePath.includes(`${path.sep}assets${path.sep}`);
        res.header('Cache-Control', immutable ? 'public, max-age=31536000, immutable' : 'no-cache');
      },
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    if (url === '/api' || url.startsWith('/api/') || url.startsWith('/ocpp') || !hasWeb) {
      return reply.status(404).send({ message: 'Not found' });
    }
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return reply.status(404).send({ message: 'Not found' });
    }
    // A path with a file extension is a missing asset, not an app route.
    if (/\.[a-z0-9]{1,8}$/i.test(url.split('?')[0] ?? ''))
      return reply.status(404).send({ message: 'Not found' });
    reply.header('Cache-Control', 'no-cache');
    return reply.sendFile('index.html');
  });
  return app;
}
