import { truncate } from './fuzz-values.ts';

interface Finding {
  kind: string;
  cause: string;
  count: number;
  /** One example request per operation. */
  examples: Map<string, string>;
}

/**
 * The root cause of the last error a pino log excerpt holds: the last `caused by:` of its stack (a
 * database error behind Drizzle's 'Failed query'), numbers as N, and the first frame in our source.
 */
export function rootCause(logText: string): { cause: string; where: string } {
  let found = { cause: '', where: '' };
  for (const line of logText.split('\n')) {
    if (!line.includes('"level":50') && !line.includes('"level":60')) continue;
    try {
      const entry = JSON.parse(line) as {
        msg?: string;
        err?: { type?: string; message?: string; stack?: string };
      };
      const stack = entry.err?.stack ?? '';
      const causes = [...stack.matchAll(/caused by: (.*)/g)].map((m) => m[1]);
      const root = causes.at(-1) ?? `${entry.err?.type ?? 'Error'}: ${entry.err?.message ?? entry.msg ?? ''}`;
      const frame = /\(?(\/[^\s()]*\/apps\/server\/src\/[^\s()]+)\)?/.exec(stack)?.[1] ?? '';
      found = {
        cause: truncate(root.replace(/\d+/g, 'N').replace(/\s+/g, ' '), 200),
        where: frame.replace(/^.*\/apps\/server\//, 'apps/server/'),
      };
    } catch {
      // not a JSON line
    }
  }
  return found;
}

/** Bad answers grouped by kind and root cause, with one example per operation: one report shows all. */
export class Findings {
  private readonly groups = new Map<string, Finding>();

  add(kind: string, cause: string, operation: string, example: string) {
    const key = `${kind} | ${cause}`;
    const finding = this.groups.get(key) ?? { kind, cause, count: 0, examples: new Map() };
    finding.count++;
    if (!finding.examples.has(operation)) finding.examples.set(operation, example);
    this.groups.set(key, finding);
  }

  /** Distinct findings (kind and cause). */
  get size() {
    return this.groups.size;
  }

  report(): string {
    const all = [...this.groups.values()].sort((a, b) => b.count - a.count);
    const lines = [
      `${all.reduce((sum, f) => sum + f.count, 0)} bad answers, ${all.length} distinct findings:`,
    ];
    for (const finding of all) {
      const cause = finding.cause ? ` — ${finding.cause}` : '';
      lines.push(
        `\n● ${finding.kind}${cause}: ${finding.count} answers, ${finding.examples.size} operations`,
      );
      for (const example of finding.examples.values()) lines.push(`    ${example}`);
    }
    return lines.join('\n');
  }
}
