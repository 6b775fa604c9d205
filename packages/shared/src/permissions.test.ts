import { describe, expect, it } from 'vitest';
import { ADMIN_ROLES, type AdminRole } from './enums.ts';
import { can, FIELD_RULES, isMenuGroup, MENU_LEAVES, menuForRole, PERMISSIONS } from './permissions.ts';

/**
 * The oracle: document 1, section 6 ("Sidebar menu by role"), copied by hand, one line per menu leaf.
 * Grouped rows of the spec (Coupon&point Management; Tutorial Management, Policy Management, Contact Us)
 * are spread over their leaves.
 */
const SPEC_MENU: Record<string, readonly AdminRole[]> = {
  // Issue 35 (not in the spec's table): every role, first.
  Dashboard: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'station', 'marketting'],
  Site: ['admin', 'merchant', 'party', 'callcenter', 'station'],
  Group: ['admin'],
  Cluster: ['admin', 'callcenter'],
  Charger: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'station'],
  'Charger Brand': ['admin'],
  Price: ['admin', 'marketting'],
  Member: ['admin', 'station'],
  Code: ['admin', 'marketting'],
  'Promotion Code': ['admin', 'marketting'],
  'Point Code': ['admin', 'marketting'],
  'Discount Report': ['admin', 'marketting'],
  'Point Setup': ['admin', 'marketting'],
  'Web Admin User': ['admin'],
  'Member Mobile User': ['admin', 'callcenter'],
  'Transaction Management': ['admin'],
  'Booking Management': ['admin', 'callcenter', 'station'],
  'Booking Report': ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'marketting', 'station'],
  // Issue 35: the Booking Report's roles.
  Statistics: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'marketting', 'station'],
  Tutorials: ['admin', 'marketting'],
  'Manage Tutorials': ['admin', 'marketting'],
  'Term&Condition': ['admin', 'marketting'],
  'Privacy Policy': ['admin', 'marketting'],
  'Contact Us': ['admin', 'marketting'],
  // Issue 36 (not in the spec's table): every role's alerts; the audit log and the thresholds, the admin's.
  Alerts: ['admin', 'merchant', 'party', 'landlord', 'callcenter', 'station', 'marketting'],
  'Audit Log': ['admin'],
  'Alert Settings': ['admin'],
};

const leafLabels = (role: AdminRole) =>
  menuForRole(role).flatMap((entry) =>
    (isMenuGroup(entry) ? entry.children : [entry]).map((leaf) => leaf.label),
  );

describe('menuForRole', () => {
  it.each(ADMIN_ROLES)('%s sees the entries of the spec table, in menu order', (role) => {
    const expected = Object.keys(SPEC_MENU).filter((label) => SPEC_MENU[label]!.includes(role));
    expect(leafLabels(role)).toEqual(expected);
  });

  it('has exactly the leaves of the spec table', () => {
    expect(MENU_LEAVES.map((leaf) => leaf.label)).toEqual(Object.keys(SPEC_MENU));
  });

  it('shows a group only with at least one of its entries', () => {
    for (const role of ADMIN_ROLES) {
      for (const entry of menuForRole(role)) {
        if (isMenuGroup(entry)) expect(entry.children.length, `${role} ${entry.label}`).toBeGreaterThan(0);
      }
    }
  });

  it('opens distinct routes', () => {
    const paths = MENU_LEAVES.map((leaf) => leaf.path);
    expect(new Set(paths).size).toBe(paths.length);
    for (const path of paths) expect(path).toMatch(/^\/[a-z-]+(\/[a-z-]+)?$/);
  });
});

describe('PERMISSIONS', () => {
  it('lists only known roles, each at most once, and names at least one role', () => {
    for (const [permission, roles] of Object.entries(PERMISSIONS)) {
      expect(roles.length, permission).toBeGreaterThan(0);
      expect(new Set(roles).size, permission).toBe(roles.length);
      for (const role of roles) expect(ADMIN_ROLES, `${permission}: ${role}`).toContain(role);
    }
  });

  it('lets every role read its own profile and accept the terms', () => {
    for (const role of ADMIN_ROLES) {
      expect(can(role, 'self.read')).toBe(true);
      expect(can(role, 'self.update')).toBe(true);
      expect(can(role, 'terms.accept')).toBe(true);
    }
  });

  it('keeps the PEA token to the admin (document 1, section 6)', () => {
    expect(ADMIN_ROLES.filter((role) => can(role, 'pea.read'))).toEqual(['admin']);
  });

  it('refuses a missing or unknown role', () => {
    expect(can(null, 'self.read')).toBe(false);
    expect(can(undefined, 'self.read')).toBe(false);
    expect(can('superuser', 'self.read')).toBe(false);
    expect(can('', 'self.read')).toBe(false);
  });

  it('field rules list only known roles', () => {
    for (const [rule, roles] of Object.entries(FIELD_RULES)) {
      for (const role of roles) expect(ADMIN_ROLES, `${rule}: ${role}`).toContain(role);
    }
  });
});
