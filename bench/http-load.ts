/**
 * A closed-loop HTTP load on a worker thread of its own (as a separate client would be): `connections`
 * keep-alive connections, each sending the next GET as soon as the last answer is read, for `seconds`.
 * Latencies are measured with performance.now() to the microsecond (autocannon rounds them to whole
 * milliseconds, too coarse for calls of 2 ms), so they compare with the raw driver's own timings.
 */
import { Worker } from 'node:worker_threads';

export interface LoadFigures {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

export interface LoadJob {
  url: string;
  headers: Record<string, string>;
  connections: number;
  seconds: number;
}

/** Runs the load on a worker thread and resolves with req/s and the latency percentiles (ms). */
export function httpLoad(job: LoadJob): Promise<LoadFigures> {
  return new Promise((resolve, reject) => {
    const worker = new Worker(new URL('./http-load-worker.mjs', import.meta.url), { workerData: job });
    worker.once('message', resolve);
    worker.once('error', reject);
    worker.once('exit', (code) => {
      if (code !== 0) reject(new Error(`load worker exited with ${code}`));
    });
  });
}
