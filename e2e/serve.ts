/**
 * The server the browser tests drive: the real app (built web + API) on a fresh database, with the demo
 * data and the e2e users. PGlite in E2E_DATA_DIR, or a new database on the server when DATABASE_URL is set.
 */
import { buildApp } from '@ev/server/app';
import { loadConfig } from '@ev/server/config';
import { openDatabase } from '@ev/server/db/client';
import { alertSubscriptions, pages, termAcceptances, users } from '@ev/server/db/schema/index';
import { tuneHeap } from '@ev/server/lib/heap';
import { hashPassword } from '@ev/server/lib/password';
import { ensureFirstAdmin } from '@ev/server/seed/first-admin';
import { ADMIN_ROLES, ALERT_CONDITIONS } from '@ev/shared';
import { DEMO_USERS, loadDemoData } from '@ev/tools/demo-data';
import { createScratchDatabase } from '@ev/tools/scratch-database';
import { simulateChargers } from '@ev/tools/simulator';
import { fleetFromDatabase } from '@ev/tools/simulator-fleet';
import { and, eq, inArray, notInArray } from 'drizzle-orm';
import { seedBookings } from './fixtures/bookings.ts';
import { E2E_BATCH_TOKEN, OFFLINE_CHARGER, QUIET_CHARGER } from './fixtures/ocpp.ts';
import { E2E_PASSWORD, ROLE_USERS, SPEC_USERS } from './fixtures/users.ts';

// The server process's own heap setting (apps/server/src/main.ts).
tuneHeap();

const dataDir = process.env.E2E_DATA_DIR;
const port = process.env.E2E_PORT;
if (!dataDir || !port) throw new Error('E2E_DATA_DIR and E2E_PORT must be set (by playwright.config.ts)');

const scratch = process.env.DATABASE_URL
  ? await createScratchDatabase(process.env.DATABASE_URL, 'ev_e2e')
  : null;
const databaseUrl = scratch?.url;

const config = loadConfig({
  ...process.env,
  DATABASE_URL: databaseUrl ?? '',
  DATA_DIR: dataDir,
  PORT: port,
  APP_URL: `http://127.0.0.1:${port}`,
  LOG_LEVEL: 'warn',
  PEA_TOKEN: 'e2e-pea-token',
  PEA_TOKEN_C: 'e2e-pea-token-c',
  // No network here: the site map must work without tiles.
  MAP_TILE_URL: '',
  BATCH_COMMAND_TOKEN: E2E_BATCH_TOKEN,
  // Batch commands in the browser tests end within seconds even if a charger stays silent.
  OCPP_COMMAND_TIMEOUT_MS: '5000',
  // The alerts spec waits for an alert to fire: the conditions are checked every second, not every 30 s.
  ALERTS_EVERY_MS: '1000',
});
const database = await openDatabase({ databaseUrl, dataDir: databaseUrl ? undefined : dataDir });
const { db } = database;
await ensureFirstAdmin(db, config.adminEmail, config.adminPassword);
await loadDemoData(db);

const passHash = await hashPassword(E2E_PASSWORD);
// Each role user gets the cluster, site or group of the demo user of its role (doc: tools/src/demo-places.ts):
// e2e-merchant → Metro Plaza Shopping Centres, e2e-landlord → Siam Square Parking B2,
// e2e-party → Bangkok Shopping Malls, e2e-station → its demo group.
const demoLinks = new Map(
  (
    await db
      .select({
        role: users.adminRole,
        merchantId: users.merchantId,
        landlordId: users.landlordId,
        partyId: users.partyId,
      })
      .from(users)
      .where(
        inArray(
          users.email,
          DEMO_USERS.map((user) => user.email),
        ),
      )
  ).map(({ role, ...links }) => [role, links]),
);
const accounts = [
  ...ADMIN_ROLES.map((role) => ({
    email: ROLE_USERS[role],
    role,
    accepted: true,
    active: true,
    ...demoLinks.get(role),
  })),
  ...Object.values(SPEC_USERS).map((user) => ({ active: true, ...user })),
];
const legal = await db.select().from(pages).where(eq(pages.active, true));
for (const account of accounts) {
  const [user] = await db
    .insert(users)
    .values({
      type: 'admin',
      email: account.email,
      passHash,
      firstName: `E2E ${account.role}`,
      lastName: 'Tester',
      adminRole: account.role,
      active: account.active,
      merchantId: 'merchantId' in account ? account.merchantId : null,
      landlordId: 'landlordId' in account ? account.landlordId : null,
      partyId: 'partyId' in account ? account.partyId : null,
    })
    .returning({ id: users.id });
  if (account.accepted && legal.length > 0) {
    await db.insert(termAcceptances).values(legal.map((page) => ({ userId: user!.id, pageId: page.id })));
  }
}

// Alerts (issue 36) reach the alerts spec's users only: every other staff user has the bell and its live
// stream, but hears of no condition in the app, so a notice of an alert that other specs' chargers, batches
// or payments cause never covers what a test clicks (a subscription row per condition, as Save writes it).
const alertListeners = [SPEC_USERS.alerts.email];
const unsubscribed = await db
  .select({ id: users.id })
  .from(users)
  .where(and(eq(users.type, 'admin'), notInArray(users.email, alertListeners)));
if (unsubscribed.length > 0) {
  await db
    .insert(alertSubscriptions)
    .values(
      unsubscribed.flatMap(({ id }) =>
        ALERT_CONDITIONS.map((condition) => ({ userId: id, condition, inApp: false, mail: false })),
      ),
    );
}

// The booking and payment screens' stories (fixtures/bookings.ts).
await seedBookings(db);

const app = await buildApp({ db, databaseKind: database.kind, config });
await app.listen({ port: Number(port), host: '127.0.0.1' });
// The demo chargers live over OCPP (but one), changing statuses now and then: each takes a step every 15 to
// 45 s, several a second over the fleet. At every 10 s (5 to 15 s) the steps alone kept this server busy a
// sixth of a core for the whole run (10 CPU s a minute against 5 now), on a CI machine of 2 cores.
const everyCharger = await fleetFromDatabase(db);
const fleet = everyCharger.filter((charger) => ![OFFLINE_CHARGER, QUIET_CHARGER].includes(charger.id));
const simulation = await simulateChargers(fleet, {
  url: `ws://127.0.0.1:${port}`,
  activity: true,
  activityMs: 30_000,
  rebootMs: 300,
});
const quiet = await simulateChargers(
  everyCharger.filter((charger) => charger.id === QUIET_CHARGER),
  { url: `ws://127.0.0.1:${port}`, rebootMs: 300 },
);
if (quiet.chargers.length !== 1 || quiet.failed.length > 0) {
  throw new Error(`${QUIET_CHARGER} did not connect: ${JSON.stringify(quiet.failed)}`);
}
console.log(
  `e2e server ready on ${port} (${database.kind}), ${fleet.length - simulation.failed.length} simulated chargers`,
);
// Playwright stops this server with SIGTERM (gracefulShutdown in the config): leave nothing behind.
const stop = async () => {
  await simulation.stop();
  await quiet.stop();
  await app.close();
  await database.close();
  await scratch?.drop();
  process.exit(0);
};
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());
