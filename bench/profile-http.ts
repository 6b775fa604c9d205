/**
 * A CPU profile of one list call's HTTP path, with nothing else in it: seeds BENCH_ROWS bookings (20,000 by
 * default), warms up, then profiles `BENCH_SECONDS` of GET `BENCH_PATH` (default /api/booking) with autocannon
 * at BENCH_CONNECTIONS and writes /tmp/http.cpuprofile (open it in Chrome's DevTools, or summarise it).
 *
 *   DATABASE_URL=postgres://… node --import tsx bench/profile-http.ts
 */
import fs from 'node:fs';
import { Session } from 'node:inspector/promises';
import autocannon from 'autocannon';
import { signIn } from './common.ts';
import { BENCH_ADMIN, startInProcessServer } from './in-process-server.ts';
import { seedBookings } from './seed-bookings.ts';

const rows = Number(process.env.BENCH_ROWS ?? 20_000);
const seconds = Number(process.env.BENCH_SECONDS ?? 8);
const connections = Number(process.env.BENCH_CONNECTIONS ?? 1);
const server = await startInProcessServer({ webDist: '', databaseUrl: process.env.DATABASE_URL });
try {
  await seedBookings(server.db, rows);
  const accessToken = await signIn(server.base, BENCH_ADMIN);
  const url = `${server.base}${process.env.BENCH_PATH ?? '/api/booking'}`;
  const run = (duration: number) =>
    autocannon({ url, headers: { 'x-access-token': accessToken }, connections, duration, workers: 1 });
  await run(2);
  const session = new Session();
  session.connect();
  await session.post('Profiler.enable');
  await session.post('Profiler.start');
  const result = await run(seconds);
  const { profile } = await session.post('Profiler.stop');
  fs.writeFileSync('/tmp/http.cpuprofile', JSON.stringify(profile));
  console.log(
    `${result.requests.average} req/s, p50 ${result.latency.p50} ms, p99 ${result.latency.p99} ms; /tmp/http.cpuprofile`,
  );
} finally {
  await server.close();
}
