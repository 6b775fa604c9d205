import {
  AUDIT_ACTIONS,
  AUDIT_ENTITIES,
  AUDIT_REDACTED,
  type AuditAction,
  type AuditEntity,
  type AuditEntry,
  PROMOTION_TYPES,
} from '@ev/shared';

/** The entities by their screen names (the glossary: merchant is Cluster, landlord Site, party Group). */
export const AUDIT_ENTITY_LABELS: Record<AuditEntity, string> = {
  user: 'Web Admin User',
  member: 'Member Mobile User',
  merchant: 'Cluster',
  landlord: 'Site',
  party: 'Group',
  price: 'Price',
  'charger-brand': 'Charger Brand',
  charger: 'Charger',
  connector: 'Connector',
  'id-tag': 'ID Tag',
  'charger-file': 'Charger File',
  page: 'Tutorial / Policy Page',
  promotion: 'Promotion',
  point: 'Point Setup',
  'user-promotion': 'Private Station Member',
  booking: 'Booking',
  payment: 'Payment',
  'contact-us': 'Contact Us',
  report: 'Report',
  statistics: 'Statistics',
  'alert-setting': 'Alert Setting',
  'alert-subscription': 'Alert Subscription',
  'audit-log': 'Audit Log',
  session: 'Session',
};

export const AUDIT_ACTION_LABELS: Record<AuditAction, string> = {
  create: 'Create',
  update: 'Update',
  delete: 'Delete',
  toggle: 'Active switch',
  refund: 'Refund',
  'set-amount': 'Set amount',
  pay: 'Pay',
  'cancel-payment': 'Cancel payment',
  stop: 'Stop',
  'force-stop': 'Force stop',
  avaliable: 'Set available',
  command: 'Charger command',
  batch: 'Batch command',
  export: 'Export',
  upload: 'Upload',
  'sign-in': 'Sign in',
  'sign-in-failed': 'Sign-in failed',
  'sign-out': 'Sign out',
  'password-reset-request': 'Password reset request',
  'password-reset': 'Password reset',
  'password-change': 'Password change',
};

const ANY = { value: '', label: 'Any' };
export const ENTITY_OPTIONS = [
  ANY,
  ...[...AUDIT_ENTITIES]
    .map((value) => ({ value, label: AUDIT_ENTITY_LABELS[value] }))
    .sort((a, b) => a.label.localeCompare(b.label)),
];
export const ACTION_OPTIONS = [
  ANY,
  ...AUDIT_ACTIONS.map((value) => ({ value, label: AUDIT_ACTION_LABELS[value] })),
];

export const entityLabel = (entity: string) => AUDIT_ENTITY_LABELS[entity as AuditEntity] ?? entity;
export const actionLabel = (action: string) => AUDIT_ACTION_LABELS[action as AuditAction] ?? action;

/** The setting screens a record opens on, by entity. */
const RECORD_PATHS: Partial<Record<AuditEntity, string>> = {
  merchant: '/merchant',
  landlord: '/landlord',
  party: '/party',
  price: '/price',
  'charger-brand': '/charger-brand',
  charger: '/charger',
};

/**
 * The screen that shows an entry's record, where there is one: a setting page, the booking list filtered to
 * the booking, the single screens of the contact details, the point rates and the alerts' settings. A deleted
 * record's page then says it is not found.
 */
export function recordLink(entry: Pick<AuditEntry, 'entity' | 'entityId' | 'details'>): string | null {
  const { entity, entityId } = entry;
  if (entity === 'contact-us') return '/contact-us';
  if (entity === 'point') return '/point-setup';
  if (entity === 'alert-setting') return '/alert-settings';
  if (entityId === null || entityId === '') return null;
  const id = encodeURIComponent(entityId);
  const path = RECORD_PATHS[entity];
  if (path) return `${path}/${id}`;
  if (entity === 'booking') return `/booking-management?bookingId=${id}`;
  if (entity === 'promotion') {
    // The promotion's screen is per type; an entry that names it links there.
    const type = entry.details?.type;
    if (typeof type === 'string' && (PROMOTION_TYPES as readonly string[]).includes(type))
      return `/promotion/${type}/${id}`;
  }
  return null;
}

/** How a value reads: one line in the cell, and whole (JSON pretty) in the tooltip. */
export interface ValueText {
  line: string;
  whole: string;
  kind: 'empty' | 'redacted' | 'json' | 'text';
}

export function valueText(value: unknown): ValueText {
  if (value === null || value === undefined) return { line: '—', whole: 'empty', kind: 'empty' };
  if (value === AUDIT_REDACTED) return { line: AUDIT_REDACTED, whole: AUDIT_REDACTED, kind: 'redacted' };
  if (typeof value === 'object')
    return { line: JSON.stringify(value), whole: JSON.stringify(value, null, 2), kind: 'json' };
  return { line: String(value), whole: String(value), kind: 'text' };
}
