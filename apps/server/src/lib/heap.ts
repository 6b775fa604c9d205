import v8 from 'node:v8';

/**
 * How far V8 lets the old generation grow past what the last full collection left alive, in percent: the
 * server's heap may reach twice its live size before the next full collection.
 *
 * V8 picks the factor itself (up to 4x) by how fast the program allocates next to how fast it collects. An
 * export allocates fast (every row read from the driver is promoted to the old generation before it dies), so
 * a 1,000,000-row booking report grew the process by ~190 MB against a live heap of ~45 MB. At 2x it grows by
 * ~105 MB at the same rows/s, and the booking list's latencies are unchanged (bench/README.md). Full
 * collections come more often, but their marking runs beside the program and the heap they walk is smaller.
 */
export const HEAP_GROWING_PERCENT = 100;

const HEAP_FLAG = /^--heap[-_]growing[-_]percent(=|$)/;

/** Whether the process was started with a factor of its own (`node --heap-growing-percent=…` or NODE_OPTIONS). */
export const heapFactorGiven = (execArgv: readonly string[], nodeOptions = '') =>
  [...execArgv, ...nodeOptions.split(/\s+/)].some((arg) => HEAP_FLAG.test(arg));

/** Sets the server's factor unless the process was started with one of its own. */
export function tuneHeap(): void {
  if (heapFactorGiven(process.execArgv, process.env.NODE_OPTIONS)) return;
  v8.setFlagsFromString(`--heap-growing-percent=${HEAP_GROWING_PERCENT}`);
}
