/**
 * The booking report of BENCH_ROWS bookings (1,000,000 by default on PostgreSQL, 200,000 on PGlite): seeds them
 * on a fresh database, downloads GET /api/report/booking (90 days, Processed, then Raw) while sampling the
 * process's RSS, and prints rows/s and the RSS growth over the idle baseline. The client is curl, in a process
 * of its own.
 *
 *   DATABASE_URL=postgres://… npm run bench:report        BENCH_ROWS, BENCH_STYLES=processed,raw
 */
import { execFile } from 'node:child_process';
import { signIn } from './common.ts';
import { BENCH_ADMIN, startInProcessServer } from './in-process-server.ts';
import { seedBookings } from './seed-bookings.ts';

const databaseUrl = process.env.DATABASE_URL;
const rows = Number(process.env.BENCH_ROWS ?? (databaseUrl ? 1_000_000 : 200_000));
const styles = (process.env.BENCH_STYLES ?? 'processed,raw').split(',');
const server = await startInProcessServer({ webDist: '', databaseUrl });
const { base, db, kind } = server;
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);

/** Downloads with curl into /dev/null: '{status} {bytes}'. */
function download(url: string, token: string): Promise<string> {
  return new Promise((resolve, reject) => {
    execFile(
      'curl',
      ['-s', '-o', '/dev/null', '-w', '%{http_code} %{size_download}', '-H', `x-access-token: ${token}`, url],
      { maxBuffer: 1024 * 1024 },
      (error, stdout) => (error ? reject(error) : resolve(stdout.trim())),
    );
  });
}

try {
  const seeded = await seedBookings(db, rows);
  console.log(
    `${kind}: ${rows.toLocaleString('en-US')} bookings seeded in ${(seeded.ms / 1000).toFixed(1)} s`,
  );
  const accessToken = await signIn(base, BENCH_ADMIN);
  const after = new Date(Date.now() - 91 * 86_400_000).toISOString();

  for (const style of styles) {
    global.gc?.();
    await new Promise((resolve) => setTimeout(resolve, 500));
    const baseline = process.memoryUsage().rss;
    let peak = baseline;
    let heapPeak = 0;
    let buffersPeak = 0;
    const sampler = setInterval(() => {
      const memory = process.memoryUsage();
      peak = Math.max(peak, memory.rss);
      heapPeak = Math.max(heapPeak, memory.heapTotal);
      buffersPeak = Math.max(buffersPeak, memory.arrayBuffers);
    }, 10);
    const started = performance.now();
    // The client is curl in a process of its own, as a browser would be: in this process its parsing of the
    // 170 MB took the server's thread.
    const [status, bytes] = (
      await download(`${base}/api/report/booking?createdAfter=${after}&style=${style}`, accessToken)
    )
      .split(' ')
      .map(Number) as [number, number];
    clearInterval(sampler);
    const seconds = (performance.now() - started) / 1000;
    console.log(
      `${style.padEnd(9)} status ${status}, ${mb(bytes)} MB xlsx, ${rows.toLocaleString('en-US')} rows in ` +
        `${seconds.toFixed(1)} s = ${Math.round(rows / seconds).toLocaleString('en-US')} rows/s; RSS baseline ` +
        `${mb(baseline)} MB, peak ${mb(peak)} MB, growth ${mb(peak - baseline)} MB ` +
        `(peak JS heap ${mb(heapPeak)} MB, buffers ${mb(buffersPeak)} MB)`,
    );
  }
} finally {
  await server.close();
}
