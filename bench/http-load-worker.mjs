// The worker of http-load.ts (plain JavaScript: a worker thread does not get tsx's loader).
import http from 'node:http';
import { parentPort, workerData } from 'node:worker_threads';

/** @param {import('./http-load.ts').LoadJob} job */
async function run({ url, headers, connections, seconds }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: connections });
  const latencies = [];
  let errors = 0;
  const one = () =>
    new Promise((resolve) => {
      const started = performance.now();
      const request = http.get(url, { agent, headers }, (response) => {
        response.resume();
        response.on('end', () => {
          if (response.statusCode === 200) latencies.push(performance.now() - started);
          else errors++;
          resolve();
        });
      });
      request.on('error', () => {
        errors++;
        resolve();
      });
    });
  const until = performance.now() + seconds * 1000;
  const loop = async () => {
    while (performance.now() < until) await one();
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  latencies.sort((a, b) => a - b);
  const at = (q) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
  return { rps: latencies.length / seconds, p50: at(0.5), p99: at(0.99), errors };
}

parentPort?.postMessage(await run(workerData));
