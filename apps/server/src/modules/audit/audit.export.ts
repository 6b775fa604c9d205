import type { AuditEntry, AuditListQuery } from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { sendXlsx } from '../../lib/xlsx.ts';
import { pageOfEntries } from './audit.service.ts';

const text = (value: unknown) =>
  value == null ? '' : typeof value === 'string' ? value : JSON.stringify(value);

/** One line per field change: `field: before → after`, a line each. */
export const changeLines = (entry: AuditEntry) =>
  entry.changes.map((change) => `${change.field}: ${text(change.before)} → ${text(change.after)}`).join('\n');

/** `mode=xlsx`: AuditLog_{timestamp}.xlsx, the list's entries with the same filters and order. */
export function exportAudit(db: Db, query: AuditListQuery, reply: FastifyReply) {
  return sendXlsx<AuditEntry>(reply, {
    name: 'AuditLog',
    emptyMessage: 'No audit entries match',
    batchSize: 1000,
    batch: (offset, limit) => pageOfEntries(db, query, offset, limit),
    columns: [
      { header: 'ID', width: 10, value: (row) => row.id },
      { header: 'Time', width: 20, value: (row) => new Date(row.at) },
      { header: 'User', width: 30, value: (row) => row.userEmail },
      { header: 'Role', width: 12, value: (row) => row.role },
      { header: 'IP', width: 16, value: (row) => row.ip },
      { header: 'Entity', width: 16, value: (row) => row.entity },
      { header: 'Entity ID', width: 14, value: (row) => row.entityId },
      { header: 'Action', width: 16, value: (row) => row.action },
      { header: 'Changes', width: 80, value: changeLines },
      { header: 'Details', width: 60, value: (row) => (row.details ? JSON.stringify(row.details) : '') },
    ],
  });
}
