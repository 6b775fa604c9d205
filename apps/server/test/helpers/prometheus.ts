/**
 * A reader of Prometheus' text exposition format (version 0.0.4), strict enough to fail on what a real
 * scraper would refuse: a sample line that does not parse, a sample of a family with no TYPE, a TYPE given twice.
 */
export interface Sample {
  name: string;
  labels: Record<string, string>;
  value: number;
}

export interface Exposition {
  samples: Sample[];
  /** TYPE of each family (counter, gauge, histogram, summary, untyped). */
  types: Map<string, string>;
  help: Map<string, string>;
  /** The samples of `name` whose labels include `labels`. */
  find(name: string, labels?: Record<string, string>): Sample[];
  /** The sum of those samples' values (0 when there is none). */
  sum(name: string, labels?: Record<string, string>): number;
}

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*$/;
const LABEL_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** As Prometheus reads a value (Go's ParseFloat): NaN and Inf in any case; prom-client writes `Nan`. */
function parseValue(text: string): number {
  const word = text.toLowerCase();
  if (word === 'nan') return Number.NaN;
  if (word === '+inf' || word === 'inf') return Number.POSITIVE_INFINITY;
  if (word === '-inf') return Number.NEGATIVE_INFINITY;
  const value = Number(text);
  if (text === '' || Number.isNaN(value)) throw new Error(`bad value ${JSON.stringify(text)}`);
  return value;
}

/** Reads `{a="x",b="y\"z"}` from `line` at `start`: the labels and where they end. */
function parseLabels(line: string, start: number): { labels: Record<string, string>; end: number } {
  const labels: Record<string, string> = {};
  let i = start + 1;
  for (;;) {
    while (line[i] === ' ') i++;
    if (line[i] === '}') return { labels, end: i + 1 };
    const equals = line.indexOf('=', i);
    if (equals < 0) throw new Error(`no '=' in labels: ${line}`);
    const name = line.slice(i, equals).trim();
    if (!LABEL_NAME.test(name)) throw new Error(`bad label name ${JSON.stringify(name)}: ${line}`);
    if (line[equals + 1] !== '"') throw new Error(`unquoted label value: ${line}`);
    let value = '';
    i = equals + 2;
    for (;;) {
      const c = line[i];
      if (c === undefined) throw new Error(`unterminated label value: ${line}`);
      if (c === '"') break;
      if (c === '\\') {
        const next = line[i + 1];
        value += next === 'n' ? '\n' : next === '\\' ? '\\' : next === '"' ? '"' : `\\${next}`;
        i += 2;
      } else {
        value += c;
        i++;
      }
    }
    if (name in labels) throw new Error(`label ${name} twice: ${line}`);
    labels[name] = value;
    i++;
    if (line[i] === ',') i++;
  }
}

/** The family a sample belongs to: a histogram's `_bucket`, `_sum` and `_count` are its own name's. */
function familyOf(name: string, types: Map<string, string>): string | undefined {
  if (types.has(name)) return name;
  const base = name.replace(/_(bucket|sum|count)$/, '');
  return types.get(base) === 'histogram' || types.get(base) === 'summary' ? base : undefined;
}

export function parseExposition(text: string): Exposition {
  const samples: Sample[] = [];
  const types = new Map<string, string>();
  const help = new Map<string, string>();
  for (const line of text.split('\n')) {
    if (line.trim() === '') continue;
    if (line.startsWith('#')) {
      const [, keyword, name, ...rest] = line.split(' ');
      if (keyword === 'TYPE') {
        if (types.has(name!)) throw new Error(`TYPE of ${name} twice`);
        types.set(name!, rest.join(' '));
      } else if (keyword === 'HELP') {
        help.set(name!, rest.join(' '));
      }
      continue;
    }
    const brace = line.indexOf('{');
    const space = line.indexOf(' ');
    const nameEnd = brace >= 0 && brace < space ? brace : space;
    const name = line.slice(0, nameEnd);
    if (!NAME.test(name)) throw new Error(`bad metric name: ${line}`);
    const { labels, end } = nameEnd === brace ? parseLabels(line, brace) : { labels: {}, end: nameEnd };
    const [value, timestamp, extra] = line.slice(end).trim().split(/ +/);
    if (extra !== undefined || (timestamp !== undefined && !/^-?\d+$/.test(timestamp))) {
      throw new Error(`bad sample line: ${line}`);
    }
    if (!familyOf(name, types)) throw new Error(`sample of a family with no TYPE: ${line}`);
    samples.push({ name, labels, value: parseValue(value ?? '') });
  }
  const find = (name: string, labels: Record<string, string> = {}) =>
    samples.filter(
      (sample) =>
        sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value),
    );
  return {
    samples,
    types,
    help,
    find,
    sum: (name, labels) => find(name, labels).reduce((total, sample) => total + sample.value, 0),
  };
}
