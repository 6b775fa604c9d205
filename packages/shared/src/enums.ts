/** Wire values and their screen labels. The wire values are the contract: never rename them. */

export const ADMIN_ROLES = [
  'admin',
  'merchant',
  'party',
  'landlord',
  'callcenter',
  'station',
  'marketting',
] as const;
export type AdminRole = (typeof ADMIN_ROLES)[number];

export const ADMIN_ROLE_LABELS: Record<AdminRole, string> = {
  admin: 'Admin',
  merchant: 'Cluster',
  party: 'Group',
  landlord: 'Site',
  callcenter: 'Call center',
  station: 'Customer station',
  marketting: 'Marketing',
};

export const USER_TYPES = ['admin', 'mobile'] as const;
export type UserType = (typeof USER_TYPES)[number];

export const BUSINESS_HOURS_TYPES = ['24H', 'closed', 'period', 'comingsoon', 'maintenance'] as const;
export type BusinessHoursType = (typeof BUSINESS_HOURS_TYPES)[number];
export const BUSINESS_HOURS_TYPE_LABELS: Record<BusinessHoursType, string> = {
  '24H': 'Always Open',
  closed: 'Closed',
  period: 'Open on Selected Hours',
  comingsoon: 'Coming Soon',
  maintenance: 'Maintenance',
};

/** 1 = Sunday through 7 = Saturday. */
export const DAY_OF_WEEK_LABELS: Record<number, string> = {
  1: 'Sunday',
  2: 'Monday',
  3: 'Tuesday',
  4: 'Wednesday',
  5: 'Thursday',
  6: 'Friday',
  7: 'Saturday',
};

export const DOCUMENT_TYPES = ['terms', 'privacy', 'guide'] as const;
export type DocumentType = (typeof DOCUMENT_TYPES)[number];

export const PARTNER_USER_TYPES = ['mobile', 'ruejai'] as const;
