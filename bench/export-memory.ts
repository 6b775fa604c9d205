/**
 * Peak memory of a streamed site export: seeds ROWS sites (10,000 by default) on a fresh database
 * (PGlite in memory, or a scratch database when DATABASE_URL is set), then downloads
 * GET /api/landlord?mode=xlsx while sampling the process's RSS, and prints the growth over the idle baseline.
 * Server and client share this process, so the figure is an upper bound for the server.
 *
 *   node --import tsx bench/export-memory.ts        BENCH_ROWS=10000 by default
 */
import { sql } from 'drizzle-orm';
import { signIn } from './common.ts';
import { BENCH_ADMIN as ADMIN, startInProcessServer } from './in-process-server.ts';

const rows = Number(process.env.BENCH_ROWS ?? 10_000);
const server = await startInProcessServer({ webDist: '', databaseUrl: process.env.DATABASE_URL });
const { base: address, db, kind } = server;

try {
  await db.execute(sql`insert into merchants (name_en, name_th) values ('Bench Cluster', 'คลัสเตอร์')`);
  await db.execute(sql`
    insert into landlords (merchant_id, name_en, name_th, latitude, longitude, business_hours_type, addr_en, addr_th, tel)
    select (select min(id) from merchants), 'Site ' || n, 'สถานี ' || n, 13.7 + n / 1e6, 100.5 + n / 1e6, '24H',
           n || ' Sukhumvit Rd, Khlong Toei, Bangkok 10110', n || ' ถนนสุขุมวิท คลองเตย กรุงเทพฯ', '02' || lpad(n::text, 7, '0')
    from generate_series(1, ${rows}) as n`);
  const accessToken = await signIn(address, ADMIN);

  global.gc?.();
  await new Promise((resolve) => setTimeout(resolve, 200));
  const baseline = process.memoryUsage().rss;
  let peak = baseline;
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().rss);
  }, 5);
  const started = performance.now();
  const response = await fetch(`${address}/api/landlord?mode=xlsx`, {
    headers: { 'x-access-token': accessToken },
  });
  let bytes = 0;
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) bytes += chunk.length;
  clearInterval(sampler);
  const mb = (value: number) => (value / 1024 / 1024).toFixed(1);
  console.log(
    `${kind}: ${rows} sites, status ${response.status}, ${mb(bytes)} MB xlsx in ${((performance.now() - started) / 1000).toFixed(1)} s; ` +
      `RSS baseline ${mb(baseline)} MB, peak ${mb(peak)} MB, growth ${mb(peak - baseline)} MB`,
  );
} finally {
  await server.close();
}
