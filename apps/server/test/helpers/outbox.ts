import fs from 'node:fs';
import path from 'node:path';
import type { TestApp } from './test-app.ts';

export interface Mail {
  file: string;
  to: string;
  subject: string;
  /** The decoded text of every part (plain and HTML), joined. */
  text: string;
}

const outboxDir = (t: TestApp) => path.join(t.dataDir, 'outbox');

/** The .eml file names in the outbox now (none when the directory does not exist yet). */
export function outboxFiles(t: TestApp): string[] {
  const dir = outboxDir(t);
  return fs.existsSync(dir) ? fs.readdirSync(dir).filter((name) => name.endsWith('.eml')) : [];
}

/** The mails written since `before` (a list from outboxFiles), oldest first. */
export function mailsSince(t: TestApp, before: string[]): Mail[] {
  const seen = new Set(before);
  return outboxFiles(t)
    .filter((name) => !seen.has(name))
    .sort()
    .map((name) => readMail(path.join(outboxDir(t), name)));
}

function decodeQuotedPrintable(body: string): string {
  const bytes = body
    .replace(/=\r?\n/g, '')
    .replace(/=([0-9A-F]{2})/gi, (_match, hex: string) => String.fromCharCode(Number.parseInt(hex, 16)));
  return Buffer.from(bytes, 'latin1').toString('utf8');
}

function decodePart(part: string): string {
  const split = part.search(/\r?\n\r?\n/);
  if (split < 0) return '';
  const headers = part.slice(0, split);
  const body = part.slice(split).trimStart();
  const encoding = /content-transfer-encoding:\s*([\w-]+)/i.exec(headers)?.[1]?.toLowerCase();
  if (encoding === 'quoted-printable') return decodeQuotedPrintable(body);
  if (encoding === 'base64') return Buffer.from(body.replace(/\s+/g, ''), 'base64').toString('utf8');
  return body;
}

const header = (raw: string, name: string) =>
  new RegExp(`^${name}:\\s*(.*)$`, 'im').exec(raw.slice(0, raw.search(/\r?\n\r?\n/)))?.[1]?.trim() ?? '';

/** Reads one .eml: its To and Subject headers and the decoded text of its parts. */
export function readMail(file: string): Mail {
  const raw = fs.readFileSync(file, 'utf8');
  const boundary = /boundary="?([^";\r\n]+)"?/i.exec(raw)?.[1];
  const parts = boundary ? raw.split(`--${boundary}`).slice(1, -1) : [raw];
  return {
    file,
    to: header(raw, 'To'),
    subject: header(raw, 'Subject'),
    text: parts.map(decodePart).join('\n'),
  };
}

/** The reset links (`…/reset-password?token=…`) a mail carries, deduplicated. */
export function resetLinks(mail: Mail): string[] {
  const found = mail.text.match(/https?:\/\/[^\s"'<>]+\/reset-password\?token=[A-Za-z0-9_%-]+/g) ?? [];
  return [...new Set(found)];
}

/** The token of the single reset link in a mail. */
export function resetToken(mail: Mail): string {
  const links = resetLinks(mail);
  if (links.length !== 1) throw new Error(`expected one reset link in ${mail.file}, found ${links.length}`);
  return decodeURIComponent(new URL(links[0]!).searchParams.get('token') ?? '');
}
