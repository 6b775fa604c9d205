/**
 * The booking report of BENCH_ROWS bookings (1,000,000 by default on PostgreSQL, 200,000 on PGlite): seeds them
 * on a fresh database, downloads GET /api/report/booking (90 days, Processed, then Raw) while sampling the
 * process's RSS, and prints rows/s and the RSS growth over the idle baseline. Server and client share this
 * process, so the memory figure is an upper bound for the server.
 *
 *   DATABASE_URL=postgres://… npm run bench:report        BENCH_ROWS, BENCH_STYLES=processed,raw
 */
import { BENCH_ADMIN, startInProcessServer } from './in-process-server.ts';
import { seedBookings } from './seed-bookings.ts';

const databaseUrl = process.env.DATABASE_URL;
const rows = Number(process.env.BENCH_ROWS ?? (databaseUrl ? 1_000_000 : 200_000));
const styles = (process.env.BENCH_STYLES ?? 'processed,raw').split(',');
const server = await startInProcessServer({ webDist: '', databaseUrl });
const { base, db, kind } = server;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

try {
  const seeded = await seedBookings(db, rows);
  console.log(
    `${kind}: ${rows.toLocaleString('en-US')} bookings seeded in ${(seeded.ms / 1000).toFixed(1)} s`,
  );
  const login = await fetch(`${base}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ...BENCH_ADMIN, type: 'admin' }),
  });
  const { accessToken } = (await login.json()) as { accessToken: string };
  const after = new Date(Date.now() - 91 * 86_400_000).toISOString();

  for (const style of styles) {
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    const sampler = setInterval(() => {
      peak = Math.max(peak, process.memoryUsage().rss);
    }, 10);
    const started = performance.now();
    const response = await fetch(`${base}/api/report/booking?createdAfter=${after}&style=${style}`, {
      headers: { 'x-access-token': accessToken },
    });
    let bytes = 0;
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${style.padEnd(9)} status ${response.status}, ${mb(bytes)} MB xlsx, ${rows.toLocaleString('en-US')} rows in ` +
        `${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s; RSS baseline ` +
        `${mb(baseline)} MB, peak ${mb(peak)} MB, growth ${mb(peak - baseline)} MB`,
    );
  }
} finally {
  await server.close();
}
