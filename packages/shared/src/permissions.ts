/**
 * The one table of who may do what, built from section 6 of the three specification documents.
 * The sidebar reads MENU; the server enforces PERMISSIONS on every API route.
 */
import { ADMIN_ROLES, type AdminRole } from './enums.ts';

const ALL: readonly AdminRole[] = ADMIN_ROLES;

export interface MenuLeaf {
  key: string;
  label: string;
  /** The route the entry opens. */
  path: string;
  roles: readonly AdminRole[];
}
export interface MenuGroup {
  key: string;
  label: string;
  children: readonly MenuLeaf[];
}
export type MenuEntry = MenuLeaf | MenuGroup;

export const isMenuGroup = (entry: MenuEntry): entry is MenuGroup => 'children' in entry;

/**
 * Sidebar menu by role (document 1, section 6; documents 2 and 3, section 6).
 * A group has no roles of its own: it shows when at least one of its entries does.
 */
export const MENU: readonly MenuEntry[] = [
  // Issue 35: the network at a glance, for every role (in its scope); the home route stays /user-detail.
  { key: 'dashboard', label: 'Dashboard', path: '/dashboard', roles: ALL },
  {
    key: 'site',
    label: 'Site',
    path: '/landlord',
    roles: ['admin', 'merchant', 'party', 'callcenter', 'station'],
  },
  { key: 'group', label: 'Group', path: '/party', roles: ['admin'] },
  { key: 'cluster', label: 'Cluster', path: '/merchant', roles: ['admin', 'callcenter'] },
  {
    key: 'devices',
    label: 'Devices',
    children: [
      {
        key: 'charger',
        label: 'Charger',
        path: '/charger',
        roles: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'station'],
      },
      { key: 'charger-brand', label: 'Charger Brand', path: '/charger-brand', roles: ['admin'] },
    ],
  },
  { key: 'price', label: 'Price', path: '/price', roles: ['admin', 'marketting'] },
  {
    key: 'private-station',
    label: 'Private station',
    children: [
      { key: 'member', label: 'Member', path: '/user-promotion', roles: ['admin', 'station'] },
      { key: 'code', label: 'Code', path: '/promotion/landlord', roles: ['admin', 'marketting'] },
    ],
  },
  {
    key: 'coupon-point',
    label: 'Coupon&point Management',
    children: [
      {
        key: 'promotion-code',
        label: 'Promotion Code',
        path: '/promotion/discount',
        roles: ['admin', 'marketting'],
      },
      { key: 'point-code', label: 'Point Code', path: '/promotion/point', roles: ['admin', 'marketting'] },
      {
        key: 'discount-report',
        label: 'Discount Report',
        path: '/user-promotion-report',
        roles: ['admin', 'marketting'],
      },
    ],
  },
  {
    key: 'marketing',
    label: 'Marketing',
    children: [
      { key: 'point-setup', label: 'Point Setup', path: '/point-setup', roles: ['admin', 'marketting'] },
    ],
  },
  { key: 'web-admin', label: 'Web Admin User', path: '/web-admin', roles: ['admin'] },
  {
    key: 'member-mobile-user',
    label: 'Member Mobile User',
    path: '/member-mobile-user',
    roles: ['admin', 'callcenter'],
  },
  { key: 'transaction', label: 'Transaction Management', path: '/charging-payment', roles: ['admin'] },
  {
    key: 'booking-management',
    label: 'Booking Management',
    path: '/booking-management',
    roles: ['admin', 'callcenter', 'station'],
  },
  {
    key: 'booking-report',
    label: 'Booking Report',
    path: '/booking-report',
    roles: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'marketting', 'station'],
  },
  {
    key: 'statistics',
    label: 'Statistics',
    path: '/statistics',
    // Issue 35: the roles of the Booking Report, whose figures it draws.
    roles: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'marketting', 'station'],
  },
  {
    key: 'tutorial',
    label: 'Tutorial Management',
    children: [
      { key: 'guide', label: 'Tutorials', path: '/guide', roles: ['admin', 'marketting'] },
      {
        key: 'guide-manage',
        label: 'Manage Tutorials',
        path: '/guide-manage',
        roles: ['admin', 'marketting'],
      },
    ],
  },
  {
    key: 'policy',
    label: 'Policy Management',
    children: [
      {
        key: 'term-condition',
        label: 'Term&Condition',
        path: '/term-condition',
        roles: ['admin', 'marketting'],
      },
      {
        key: 'privacy-policy',
        label: 'Privacy Policy',
        path: '/privacy-policy',
        roles: ['admin', 'marketting'],
      },
    ],
  },
  { key: 'contact-us', label: 'Contact Us', path: '/contact-us', roles: ['admin', 'marketting'] },
  // Issue 36: what every role hears about in its scope; who did what and the alerts' thresholds, the admin's.
  { key: 'alerts', label: 'Alerts', path: '/alerts', roles: ALL },
  { key: 'audit-log', label: 'Audit Log', path: '/audit-log', roles: ['admin'] },
  { key: 'alert-settings', label: 'Alert Settings', path: '/alert-settings', roles: ['admin'] },
];

/** The menu as one role sees it: entries it may open, groups with at least one such entry. */
export function menuForRole(role: AdminRole): MenuEntry[] {
  const visible: MenuEntry[] = [];
  for (const entry of MENU) {
    if (isMenuGroup(entry)) {
      const children = entry.children.filter((child) => child.roles.includes(role));
      if (children.length > 0) visible.push({ ...entry, children });
    } else if (entry.roles.includes(role)) {
      visible.push(entry);
    }
  }
  return visible;
}

/** Every leaf of the menu, in order. */
export const MENU_LEAVES: readonly MenuLeaf[] = MENU.flatMap((entry) =>
  isMenuGroup(entry) ? entry.children : [entry],
);

const menuRoles = (key: string): readonly AdminRole[] => {
  const leaf = MENU_LEAVES.find((entry) => entry.key === key);
  if (!leaf) throw new Error(`No menu entry ${key}`);
  return leaf.roles;
};

const CHARGER = menuRoles('charger');
const BOOKING = menuRoles('booking-management');
const CONTENT = menuRoles('guide');

/**
 * API permissions by role. Reads of reference lists (dropdowns) are open to every role and narrowed by
 * the data scope on the server; screens' own data follows the menu; field-level rules are separate keys.
 */
export const PERMISSIONS = {
  // document 1
  'self.read': ALL,
  'self.update': ALL,
  'terms.accept': ALL,
  'province.read': ALL,
  'pea.read': ['admin'],
  'merchant.dropdown': ALL,
  'merchant.read': menuRoles('cluster'),
  'merchant.write': menuRoles('cluster'),
  'landlord.dropdown': ALL,
  'landlord.read': ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'station'],
  'landlord.create': ['admin', 'merchant', 'landlord', 'callcenter'],
  'landlord.update': ['admin', 'merchant', 'landlord', 'callcenter'],
  'landlord.delete': ['admin', 'merchant', 'landlord', 'callcenter'],
  'landlord.choose-merchant': ['admin', 'callcenter'],
  // document 2
  'user.admin.read': menuRoles('web-admin'),
  'user.admin.write': menuRoles('web-admin'),
  'user.mobile.read': menuRoles('member-mobile-user'),
  'user.mobile.write': menuRoles('member-mobile-user'),
  'charger-brand.dropdown': ALL,
  'charger-brand.read': menuRoles('charger-brand'),
  'charger-brand.write': menuRoles('charger-brand'),
  'price.dropdown': ALL,
  'price.read': menuRoles('price'),
  'price.write': menuRoles('price'),
  'charger.read': CHARGER,
  'charger.write': CHARGER,
  'charger.batch': ['admin'],
  'connector-type.read': ALL,
  'connector.blocker': CHARGER,
  // Operations on one charger (issue 32, docs/permissions.md): unlock, availability, trigger, soft reset and
  // the message log for every charger role in its scope; configuration, hard reset, the authorization cache,
  // diagnostics and firmware for the admin.
  'charger.operate': CHARGER,
  'charger.configure': ['admin'],
  // The local authorization list of one charger (issue 32 §4): who may start offline there. Sending it to
  // every charger is a batch (charger.batch).
  'charger.local-list': ['admin', 'callcenter'],
  // What the charger said (issue 32 section 3): its message log and connections, in the same scope.
  'charger.messages': CHARGER,
  'contact-us.read': menuRoles('contact-us'),
  'contact-us.write': menuRoles('contact-us'),
  // document 3
  'party.dropdown': ALL,
  'party.read': menuRoles('group'),
  'party.write': menuRoles('group'),
  'booking.read': BOOKING,
  'booking.stop': BOOKING,
  'booking.force-stop': ['admin', 'callcenter'],
  'booking.delete': BOOKING,
  'booking.delete-charging': ['admin'],
  'booking.payment': BOOKING,
  'payment.read': menuRoles('transaction'),
  'payment.refund': menuRoles('transaction'),
  'promotion.read': menuRoles('promotion-code'),
  'promotion.write': menuRoles('promotion-code'),
  'promotion.codes': ['admin'],
  'point.read': menuRoles('point-setup'),
  'point.write': menuRoles('point-setup'),
  'user-promotion.read': menuRoles('member'),
  'report.booking': menuRoles('booking-report'),
  'report.booking.raw': ['admin', 'merchant', 'callcenter', 'marketting'],
  'report.user-promotion': menuRoles('discount-report'),
  // Issue 35: the statistics have the Booking Report's roles; every role has a dashboard of its own scope.
  'statistics.read': menuRoles('booking-report'),
  'dashboard.read': ALL,
  // Issue 36 (docs/audit.md): the audit log is the admin's only; every role has alerts of its own scope.
  'audit.read': menuRoles('audit-log'),
  'alert.read': ALL,
  'alert.settings': menuRoles('alert-settings'),
  'page.read': CONTENT,
  'page.write': CONTENT,
} as const satisfies Record<string, readonly AdminRole[]>;

export type Permission = keyof typeof PERMISSIONS;

export function can(role: string | null | undefined, permission: Permission): boolean {
  return role != null && (PERMISSIONS[permission] as readonly string[]).includes(role);
}

/** Field-level rules of the screens (section 6 of each document). */
export const FIELD_RULES = {
  seePeaToken: ['admin'],
  siteClusterField: ['admin', 'callcenter'],
  siteNewAndDelete: ['admin', 'merchant', 'landlord', 'callcenter'],
  chargerClusterColumn: ['admin', 'callcenter'],
  chargerSiteColumn: ['admin', 'merchant', 'party', 'callcenter', 'station'],
  chargerFormClusterField: ['admin', 'callcenter', 'marketting'],
  chargerFormSiteField: ['admin', 'merchant', 'party', 'callcenter', 'station', 'marketting'],
  chargerBatchButtons: ['admin'],
  bookingClusterFilter: ['admin', 'callcenter'],
  bookingForceStop: ['admin', 'callcenter'],
  bookingDeleteCharging: ['admin'],
  promotionDownloadCodes: ['admin'],
  memberClusterFilter: ['admin'],
  bookingReportClusterFilter: ['admin', 'callcenter', 'marketting'],
  bookingReportSiteFilter: ['admin', 'merchant', 'party', 'callcenter', 'station', 'marketting'],
  bookingReportRawStyle: ['admin', 'merchant', 'callcenter', 'marketting'],
} as const satisfies Record<string, readonly AdminRole[]>;

export function allowed(role: string | null | undefined, rule: keyof typeof FIELD_RULES): boolean {
  return role != null && (FIELD_RULES[rule] as readonly string[]).includes(role);
}
