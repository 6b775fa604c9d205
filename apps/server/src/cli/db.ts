/**
 * The embedded database's tools: `db backup FILE [--force]`, `db restore FILE`, `db move URL`
 * (npm run db:backup / db:restore / db:move; docs/operations.md, "Backup, restore, move to PostgreSQL").
 * DATA_DIR comes from the environment, as for the server.
 */
import path from 'node:path';
import { type Config, loadConfig } from '../config.ts';
import { backupEmbedded } from '../db/backup.ts';
import { DataDirLockedError } from '../db/lock.ts';
import { formatChecks, moveToPostgres } from '../db/move.ts';
import { restoreEmbedded } from '../db/restore.ts';
import { consoleOutput, formatBytes, seconds, ToolError } from '../db/tool-output.ts';

const USAGE = [
  'Usage: db backup FILE [--force]   a consistent backup of the embedded database, even while the server runs',
  '       db restore FILE            a backup into an empty DATA_DIR',
  '       db move URL                the embedded database (server stopped) into an empty PostgreSQL database',
].join('\n');

async function main(args: string[]): Promise<number> {
  const [command, ...rest] = args;
  const force = rest.includes('--force');
  const operands = rest.filter((arg) => arg !== '--force');
  const unknown = operands.filter((arg) => arg.startsWith('--'));
  if (unknown.length > 0) throw new ToolError(`Unknown option ${unknown[0]}\n${USAGE}`);
  if (force && command !== 'backup') throw new ToolError(`--force is an option of backup only\n${USAGE}`);
  if (!command || operands.length !== 1) {
    throw new ToolError(command ? `db ${command} takes one argument\n${USAGE}` : USAGE);
  }
  const operand = operands[0]!;
  let config: Config;
  try {
    config = loadConfig();
  } catch (error) {
    throw new ToolError((error as Error).message);
  }
  const out = consoleOutput;
  const started = performance.now();
  switch (command) {
    case 'backup': {
      if (config.databaseUrl) {
        throw new ToolError(
          'DATABASE_URL is set: the server uses PostgreSQL, back it up with pg_dump (db:backup copies the embedded database in DATA_DIR)',
        );
      }
      const result = await backupEmbedded({ dataDir: config.dataDir, file: operand, force, output: out });
      const from = result.from === 'server' ? `the running server (pid ${result.pid})` : config.dataDir;
      out.out(
        `Backup of ${from} written to ${path.resolve(operand)}: ${formatBytes(result.bytes)} ` +
          `(${formatBytes(result.tarBytes)} of data directory) in ${seconds(started)}`,
      );
      return 0;
    }
    case 'restore': {
      const result = await restoreEmbedded({ dataDir: config.dataDir, file: operand, output: out });
      out.out(
        `Restored ${path.resolve(operand)} into ${config.dataDir} (${result.tables} tables, ` +
          `${result.migrations} migrations) in ${seconds(started)}. Start the server with DATA_DIR=${config.dataDir}.`,
      );
      if (config.databaseUrl)
        out.out('Note: DATABASE_URL is set, so the server would use PostgreSQL, not this.');
      return 0;
    }
    case 'move': {
      const result = await moveToPostgres({ dataDir: config.dataDir, url: operand, output: out });
      out.out(formatChecks(result.checks));
      const bad = result.checks.filter((check) => !check.ok);
      if (bad.length > 0) {
        throw new ToolError(
          `The copy differs from the embedded database in ${bad.map((check) => check.name).join(', ')}: do not use it`,
        );
      }
      out.out(
        `Moved ${result.rows} rows in ${seconds(started)}, every table checked. To go live on PostgreSQL, ` +
          `start the server with DATABASE_URL set to that URL; the embedded database in ${config.dataDir} stays as it was.`,
      );
      return 0;
    }
    default:
      throw new ToolError(`Unknown command ${command}\n${USAGE}`);
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    if (error instanceof ToolError || error instanceof DataDirLockedError) {
      const usage = error.message.includes('Usage:');
      process.stderr.write(`${usage ? error.message : error.message.replace(/\s*\n\s*/g, ' ')}\n`);
    } else {
      process.stderr.write(`Unexpected error: ${(error as Error)?.stack ?? error}\n`);
    }
    process.exit(1);
  },
);
