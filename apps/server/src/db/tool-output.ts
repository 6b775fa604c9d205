/** An expected condition of the database tools (refusals, bad input): one line for the operator, exit code 1. */
export class ToolError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ToolError';
  }
}

/** Where the tools write: the result on `out`, progress on `progress` (stderr, so `out` can be piped). */
export interface ToolOutput {
  out: (line: string) => void;
  progress: (line: string) => void;
}

export const consoleOutput: ToolOutput = {
  out: (line) => process.stdout.write(`${line}\n`),
  progress: (line) => process.stderr.write(`${line}\n`),
};

export const silentOutput: ToolOutput = { out: () => {}, progress: () => {} };

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 ** 2) return `${(bytes / 1024).toFixed(1)} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}

export const seconds = (since: number) => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** Calls `report` at most once per `everyMs`, and always for the last call (`done`). */
export function throttled(report: (line: string) => void, everyMs = 1000) {
  let last = performance.now();
  return (line: string, done = false) => {
    const now = performance.now();
    if (!done && now - last < everyMs) return;
    last = now;
    report(line);
  };
}

/** The URL without its password, for messages. */
export function redactUrl(url: string): string {
  try {
    const parsed = new URL(url);
    if (parsed.password) parsed.password = '***';
    return parsed.toString();
  } catch {
    return '(unparsable URL)';
  }
}

/**
 * Runs `cleanup` if the operator interrupts the tool (Ctrl-C, SIGTERM), then exits with 130: nothing half
 * done is left behind. Returns the function that stops watching.
 */
export function onInterrupt(cleanup: () => void): () => void {
  const handler = () => {
    try {
      cleanup();
    } finally {
      process.stderr.write('Interrupted: nothing was written\n');
      process.exit(130);
    }
  };
  process.once('SIGINT', handler);
  process.once('SIGTERM', handler);
  return () => {
    process.off('SIGINT', handler);
    process.off('SIGTERM', handler);
  };
}
