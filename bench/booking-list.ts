/**
 * GET /api/booking against the same SQL run raw through the driver, in the same process: seeds BENCH_ROWS
 * bookings over 90 days (1,000,000 by default on PostgreSQL, 200,000 on PGlite) on a fresh database, then
 * measures req/s, p50 and p99 of five list calls (today's default page, a 90-day range sorted by date on page 1
 * and on a deep page, one site's today, yesterday's whole day; then the member search `userName` over the 90 days
 * by e-mail, by name, by a Thai name, by phone digits and by two characters) over HTTP (http-load.ts: keep-alive connections
 * on a worker thread of their own, latencies to the microsecond), and the very statements the endpoint keeps
 * for that shape of query, with the same values (count and page, at once), through the driver with the same
 * concurrency. Prints the ratios and the plans (EXPLAIN ANALYZE).
 *
 *   DATABASE_URL=postgres://… npm run bench:booking      BENCH_ROWS, BENCH_SECONDS=10, BENCH_CONNECTIONS=10,
 *                                                        BENCH_SEEDED_URL (a database seeded before, kept),
 *                                                        BENCH_CASES=1,4 (which cases, from 1;
 *                                                        6-10 are the searches)
 */

import { listBookingsStatements } from '@ev/server/modules/booking/booking.service';
import { bangkokDayStart, bookingListQuery } from '@ev/shared';
import { signIn } from './common.ts';
import { httpLoad } from './http-load.ts';
import { BENCH_ADMIN, startInProcessServer } from './in-process-server.ts';
import { seedBookings } from './seed-bookings.ts';

const databaseUrl = process.env.DATABASE_URL;
const rows = Number(process.env.BENCH_ROWS ?? (databaseUrl ? 1_000_000 : 200_000));
const seconds = Number(process.env.BENCH_SECONDS ?? 10);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 10);

// BENCH_SEEDED_URL: a PostgreSQL database seeded before (by this bench's seed), used as it is: the 1M seed
// takes minutes.
const seededUrl = process.env.BENCH_SEEDED_URL;
const server = await startInProcessServer({ webDist: '', databaseUrl, existingDatabaseUrl: seededUrl });
const { base, db, kind } = server;
type Client = { query(text: string, params: unknown[]): Promise<unknown> };
const client = (db as unknown as { $client: Client }).$client;

interface Figures {
  rps: number;
  p50: number;
  p99: number;
}

/** The same statements the endpoint runs, through the driver, `connections` at a time for `seconds`. */
async function raw(
  statements: Array<{ sql: string; params: unknown[] }>,
  duration: number,
): Promise<Figures> {
  const latencies: number[] = [];
  const until = performance.now() + duration * 1000;
  const worker = async () => {
    while (performance.now() < until) {
      const started = performance.now();
      // As the endpoint does: the count and the page at once.
      await Promise.all(statements.map((statement) => client.query(statement.sql, statement.params)));
      latencies.push(performance.now() - started);
    }
  };
  await Promise.all(Array.from({ length: connections }, worker));
  latencies.sort((a, b) => a - b);
  const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))]!;
  return { rps: latencies.length / duration, p50: at(0.5), p99: at(0.99) };
}

async function http(url: string, token: string, duration: number): Promise<Figures> {
  const result = await httpLoad({
    url,
    headers: { 'x-access-token': token },
    connections,
    seconds: duration,
  });
  if (result.errors) throw new Error(`${url}: ${result.errors} errors`);
  return result;
}

/** What the seed gives, read from a database it seeded before. */
async function seededAlready() {
  const { rows: found } = (await client.query(
    `select (select count(*) from bookings)::int as bookings, (select min(id) from landlords) as "landlordId",
       (select count(*) from users where type = 'mobile')::int as members`,
    [],
  )) as { rows: Array<{ bookings: number; landlordId: number; members: number }> };
  const [figures] = found;
  if (figures!.bookings !== rows) throw new Error(`BENCH_SEEDED_URL holds ${figures!.bookings} bookings`);
  return { ms: 0, landlordId: figures!.landlordId, members: figures!.members };
}

try {
  const seeded = seededUrl ? await seededAlready() : await seedBookings(db, rows);
  console.log(
    `${kind}: ${rows.toLocaleString('en-US')} bookings of ${seeded.members.toLocaleString('en-US')} members seeded in ${(seeded.ms / 1000).toFixed(1)} s`,
  );
  const accessToken = await signIn(base, BENCH_ADMIN);

  const ninety = new Date(Date.now() - 90 * 86_400_000).toISOString();
  const midnight = bangkokDayStart(Date.now());
  const yesterday = {
    start: new Date(midnight - 86_400_000).toISOString(),
    end: new Date(midnight - 1).toISOString(),
  };
  const now = new Date().toISOString();
  const deepPage = Math.max(1, Math.floor(rows / 10 / 20));
  const cases: Array<[string, string]> = [
    ['today (default), page 1', ''],
    ['90 days by date, page 1', `createdAfter=${ninety}&createdBefore=${now}&sort=createdAt&order=desc`],
    [
      `90 days by date, page ${deepPage}`,
      `createdAfter=${ninety}&createdBefore=${now}&sort=createdAt&order=desc&page=${deepPage}`,
    ],
    ['today, one site', `landlordId=${seeded.landlordId}`],
    // A whole day (today's depends on the hour the bench runs: at 06:00 in Bangkok it holds a quarter day).
    ['yesterday (a full day)', `createdAfter=${yesterday.start}&createdBefore=${yesterday.end}`],
  ];
  // The call center's member search (userName) over the 90 days, with terms of a member a third of the way in.
  const member = (
    (await client.query(
      `select email, first_name || ' ' || last_name as name, tel from users where type = 'mobile'
         and first_name ~ '^[A-Z]' and tel is not null order by id offset $1 limit 1`,
      [Math.floor(seeded.members / 3)],
    )) as { rows: Array<{ email: string; name: string; tel: string }> }
  ).rows[0]!;
  const search = (term: string) =>
    `createdAfter=${ninety}&createdBefore=${now}&userName=${encodeURIComponent(term)}`;
  cases.push(
    [`search: e-mail (${member.email})`, search(member.email)],
    [`search: name (${member.name})`, search(member.name)],
    ['search: Thai name (สมชาย)', search('สมชาย')],
    [`search: phone digits (${member.tel.slice(1)})`, search(member.tel.slice(1))],
    ['search: 2 characters (ch)', search('ch')],
  );

  console.log(
    `\n${connections} connections, ${seconds} s each (2 s warm-up); raw = the endpoint's SQL via the driver`,
  );
  console.log(`${'case'.padEnd(48)}| raw req/s  p50 ms  p99 ms | HTTP req/s  p50 ms  p99 ms | p99 ratio`);
  const only = process.env.BENCH_CASES?.split(',').map(Number); // e.g. BENCH_CASES=1,4
  for (const [name, query] of cases.filter((_, i) => !only || only.includes(i + 1))) {
    const parsed = bookingListQuery.parse(Object.fromEntries(new URLSearchParams(query)));
    // The statements the endpoint keeps for the query's shape, with this call's values.
    const statements = listBookingsStatements(db, { kind: 'all' }, parsed);
    await raw(statements, 2);
    const baseline = await raw(statements, seconds);
    const url = `${base}/api/booking${query ? `?${query}` : ''}`;
    await http(url, accessToken, 2);
    const measured = await http(url, accessToken, seconds);
    const fmt = (f: Figures) =>
      `${f.rps.toFixed(0).padStart(9)} ${f.p50.toFixed(1).padStart(7)} ${f.p99.toFixed(1).padStart(7)}`;
    console.log(
      `${name.padEnd(48)}|${fmt(baseline)} |${fmt(measured).padStart(10)}  | ${(measured.p99 / Math.max(baseline.p99, 0.01)).toFixed(2)}x`,
    );
    if (process.env.BENCH_EXPLAIN !== '0') {
      for (const statement of statements) {
        const plan = (await client.query(
          `explain (analyze, buffers off) ${statement.sql}`,
          statement.params,
        )) as {
          rows: Array<Record<string, string>>;
        };
        console.log(plan.rows.map((line) => `    ${Object.values(line)[0]}`).join('\n'));
      }
    }
  }
} finally {
  await server.close();
}
