import {
  ADMIN_ROLE_LABELS,
  PARTNER_USER_TYPE_LABELS,
  USER_MESSAGES,
  type UserListItem,
  type UserListQuery,
  type UserType,
  userStatusLabel,
} from '@ev/shared';
import type { FastifyReply } from 'fastify';
import type { Db } from '../../db/client.ts';
import { users } from '../../db/schema/index.ts';
import { ordering } from '../../lib/list-query.ts';
import { sendXlsx, type XlsxColumn } from '../../lib/xlsx.ts';
import { sortsOf, userRows, userWhere } from './user.service.ts';

const fullName = (row: UserListItem) => [row.firstName, row.lastName].filter(Boolean).join(' ');
const verified = (flag: boolean) => (flag ? 'Verified' : 'Not Verified');

/** The columns of each list (document 2, sections 2.2 and 2.3), in the list's words. */
const COLUMNS: Record<UserType, XlsxColumn<UserListItem>[]> = {
  mobile: [
    { header: 'Type', width: 12, value: (row) => PARTNER_USER_TYPE_LABELS[row.partnerUserType ?? 'mobile'] },
    { header: 'Name-Surname', width: 32, value: fullName },
    { header: 'Email', width: 36, value: (row) => row.email },
    { header: 'Verify Email', width: 14, value: (row) => verified(row.emailVerified) },
    { header: 'Mobile Number', width: 16, value: (row) => row.tel },
    { header: 'Verify Mobile Number', width: 20, value: (row) => verified(row.telVerified) },
    { header: 'Status', width: 12, value: (row) => userStatusLabel(row.active) },
  ],
  admin: [
    { header: 'Email', width: 36, value: (row) => row.email },
    { header: 'Name-Surname', width: 32, value: fullName },
    { header: 'Role', width: 18, value: (row) => (row.adminRole ? ADMIN_ROLE_LABELS[row.adminRole] : null) },
    { header: 'Cluster Name', width: 32, value: (row) => row.merchantNameEn },
    { header: 'Group Name', width: 32, value: (row) => row.partyNameEn },
    { header: 'Site Name', width: 32, value: (row) => row.landlordNameEn },
    { header: 'Status', width: 12, value: (row) => userStatusLabel(row.active) },
  ],
};

/** `mode=xlsx`: the list's rows (same filters and order), saved as User-Mobile_… or User-Admin_…. */
export function exportUsers(db: Db, kind: UserType, query: UserListQuery, reply: FastifyReply) {
  const where = userWhere(kind, query);
  return sendXlsx<UserListItem>(reply, {
    name: kind === 'admin' ? 'User-Admin' : 'User-Mobile',
    emptyMessage: kind === 'admin' ? USER_MESSAGES.adminNotFound : USER_MESSAGES.mobileNotFound,
    columns: COLUMNS[kind],
    batch: (offset, limit) =>
      userRows(db)
        .where(where)
        .orderBy(...ordering(query, sortsOf(kind), [users.id]))
        .limit(limit)
        .offset(offset),
  });
}
