import { createHash } from 'node:crypto';
import { idTags, users } from '@ev/server/db/schema/index';
import type { AdminRole } from '@ev/shared';
import type { DemoPlaces, DemoTx } from './demo-data.ts';
import { DEMO_SITES, type DemoClusterKey } from './demo-places.ts';

/**
 * Demo people (issue 4): app members for Member Mobile User, and more back-office staff for Web Admin User so
 * every role has several users linked to real demo clusters, sites and groups. The staff sign in with the
 * demo password; the e2e users and tools/src/demo-users.ts stay as they are.
 */

interface DemoStaff {
  role: AdminRole;
  email: string;
  firstName: string;
  lastName: string;
  tel: string;
  cluster?: DemoClusterKey;
  /** A site of `cluster`. */
  site?: string;
  group?: string;
  active?: boolean;
}

/** Eight more admin users, two per scoped role kind; the locked one shows the list's Delete. */
export const DEMO_STAFF: readonly DemoStaff[] = [
  {
    role: 'merchant',
    email: 'thanakorn.boonmee@example.com',
    firstName: 'Thanakorn',
    lastName: 'Boonmee',
    tel: '0812345611',
    cluster: 'thaiWay',
  },
  {
    role: 'merchant',
    email: 'siriporn.k@example.com',
    firstName: 'ศิริพร',
    lastName: 'แก้วมณี',
    tel: '0812345612',
    cluster: 'goldenLotus',
    active: false,
  },
  {
    role: 'landlord',
    email: 'jirawat.p@example.com',
    firstName: 'Jirawat',
    lastName: 'Phanphon',
    tel: '0812345613',
    cluster: 'goldenLotus',
    site: 'glPatong',
  },
  {
    role: 'landlord',
    email: 'emily.carter@example.com',
    firstName: 'Emily',
    lastName: 'Carter',
    tel: '0812345614',
    cluster: 'cptu',
    site: 'cptuEngineering',
  },
  {
    role: 'party',
    email: 'chalermchai.i@example.com',
    firstName: 'เฉลิมชัย',
    lastName: 'อินทรสุข',
    tel: '0812345615',
    group: 'southernBeaches',
  },
  {
    role: 'station',
    email: 'kanyarat.wongsa@example.com',
    firstName: 'Kanyarat',
    lastName: 'Wongsa',
    tel: '0812345616',
    group: 'corporateFleet',
  },
  {
    role: 'callcenter',
    email: 'daniel.brooks@example.com',
    firstName: 'Daniel',
    lastName: 'Brooks',
    tel: '0812345617',
  },
  {
    role: 'marketting',
    email: 'ploy.rattanaporn@example.com',
    firstName: 'พลอย',
    lastName: 'รัตนพร',
    tel: '0812345618',
  },
];

/**
 * [first name, last name, email, mobile number, flags]: flags hold 'e' (email verified), 't' (number verified),
 * 'L' (locked) and 'R' (a Ruejai partner member). Members who signed up with an email only have no name.
 */
type Member = readonly [string, string, string, string | null, string];

export const DEMO_MEMBERS: readonly Member[] = [
  ['Somchai', 'Jaidee', 'somchai.jaidee@example.com', '0812233445', 'et'],
  ['สมหญิง', 'ใจงาม', 'somying.j@example.co.th', '0891234567', 'et'],
  ['Nattapong', 'Saetang', 'nattapong.s@example.com', '0865551234', 'e'],
  ['Araya', 'Chaiyasit', 'araya.c@example.net', '0927778899', 'et'],
  ['ปิยะพงษ์', 'ศรีสวัสดิ์', 'piyapong.sri@example.co.th', '0614445566', 't'],
  ['John', 'Miller', 'john.miller@example.com', '0958812345', 'et'],
  ['Sarah', 'Thompson', 'sarah.t@example.com', '0987654321', 'e'],
  ['Kittisak', 'Wongsuwan', 'kittisak.w@example.com', '0823344556', 'etR'],
  ['วรรณา', 'พรหมมา', 'wanna.p@example.co.th', '0634567890', 'etR'],
  ['Apinya', 'Thongdee', 'apinya.thongdee@example.com', '0845671234', 'tR'],
  ['Michael', 'Chen', 'michael.chen@example.net', '0901122334', 'et'],
  ['Pornthip', 'Srisuk', 'pornthip.s@example.com', null, 'e'],
  ['ธีรวัฒน์', 'บุญมา', 'teerawat.b@example.co.th', '0867788990', 'etL'],
  ['Anan', 'Kaewkla', 'anan.k@example.com', '0819988776', ''],
  ['Jessica', 'Nguyen', 'jessica.nguyen@example.com', '0972233441', 'et'],
  ['Chanida', 'Rattanakosin', 'chanida.r@example.com', '0625566778', 'etR'],
  ['Worawit', 'Phromsri', 'worawit.p@example.net', '0836677889', 't'],
  ['กมลชนก', 'แสงทอง', 'kamonchanok.s@example.co.th', '0949900112', 'et'],
  ['David', 'Wilson', 'david.wilson@example.com', '0803344112', 'eL'],
  ['Supaporn', 'Inthawong', 'supaporn.i@example.com', '0887766554', 'etR'],
  ['Thanawat', 'Chaimongkol', 'thanawat.c@example.com', '0651239876', 'et'],
  ['', '', 'newrider2024@example.com', null, ''],
  ['Emma', 'Roberts', 'emma.roberts@example.net', '0963344558', 'e'],
  ['ณัฐวุฒิ', 'คงสมบูรณ์', 'nattawut.k@example.co.th', '0829911223', 'tR'],
  ['Pimchanok', 'Suwannarat', 'pimchanok.suw@example.com', '0934455667', 'et'],
  ['Krit', 'Sombat', 'krit.sombat@example.com', '0856677881', 'L'],
  ['Oliver', 'Brown', 'oliver.brown@example.com', '0912345670', 'et'],
  ['Ratchanee', 'Wattana', 'ratchanee.w@example.com', '0648899001', 'etR'],
  ['สุรชัย', 'ทองประเสริฐ', 'surachai.t@example.co.th', '0817766550', 'e'],
  ['Lalita', 'Boonyarat', 'lalita.b@example.net', '0892211334', 'et'],
  ['Daniel', 'Kim', 'daniel.kim@example.com', '0975566443', 't'],
  ['Nisa', 'Phanthong', 'nisa.p@example.com', '0636677554', 'etL'],
  ['Wichai', 'Rungruang', 'wichai.r@example.com', '0843322110', 'etR'],
  ['', '', 'ev.driver.bkk@example.com', '0955544332', 't'],
  ['อรวรรณ', 'มีสุข', 'orawan.m@example.co.th', '0861122998', 'et'],
  ['Tanawat', 'Limsakul', 'tanawat.l@example.com', '0824455990', 'e'],
  ['Sophie', 'Martin', 'sophie.martin@example.net', '0906677332', 'etL'],
  ['Phakphum', 'Jantarasiri', 'phakphum.j@example.com', '0617788221', 'etR'],
  ['Manee', 'Chuenjai', 'manee.c@example.com', null, ''],
  ['Benjamin', 'Clark', 'ben.clark@example.com', '0989900887', 'et'],
];

function idOf(ids: ReadonlyMap<string, number>, key: string | undefined, what: string): number | null {
  if (key === undefined) return null;
  const id = ids.get(key);
  if (id === undefined) throw new Error(`Demo people: unknown ${what} '${key}'`);
  return id;
}

/**
 * A demo member's app id tag, as the member sign-in would make it (APP + 16 hex digits), but derived from the
 * email so the demo history (demo-bookings.ts) and every fresh demo database agree on it.
 */
export const demoMemberTag = (email: string) =>
  `APP${createHash('sha256').update(`demo-tag:${email}`).digest('hex').slice(0, 16).toUpperCase()}`;

/**
 * Loads the demo members and staff. Members sign in to the member API with the demo password (the member
 * simulator and a newcomer trying /api/docs do), each with an app id tag. Returns a summary fragment.
 */
export async function loadDemoPeople(tx: DemoTx, places: DemoPlaces): Promise<string> {
  for (const staff of DEMO_STAFF) {
    const site = DEMO_SITES.find((candidate) => candidate.key === staff.site);
    if (site && site.cluster !== staff.cluster)
      throw new Error(`Demo people: ${staff.email}'s site is not in its cluster`);
  }
  await tx.insert(users).values(
    DEMO_STAFF.map((staff) => ({
      type: 'admin' as const,
      email: staff.email,
      passHash: places.passHash,
      firstName: staff.firstName,
      lastName: staff.lastName,
      tel: staff.tel,
      adminRole: staff.role,
      merchantId: idOf(places.clusterIds, staff.cluster, 'cluster'),
      landlordId: idOf(places.siteIds, staff.site, 'site'),
      partyId: idOf(places.groupIds, staff.group, 'group'),
      active: staff.active ?? true,
      emailVerified: true,
    })),
  );
  const members = await tx
    .insert(users)
    .values(
      DEMO_MEMBERS.map(([firstName, lastName, email, tel, flags], index) => ({
        type: 'mobile' as const,
        email,
        passHash: places.passHash,
        firstName,
        lastName,
        tel,
        emailVerified: flags.includes('e'),
        telVerified: flags.includes('t'),
        active: !flags.includes('L'),
        partnerUserType: flags.includes('R') ? ('ruejai' as const) : ('mobile' as const),
        point: (index * 37) % 250,
      })),
    )
    .returning({ id: users.id, email: users.email });
  await tx.insert(idTags).values(
    members.map((member) => ({
      idTag: demoMemberTag(member.email),
      userId: member.id,
      kind: 'app' as const,
    })),
  );
  return `${DEMO_STAFF.length} more admin users, ${DEMO_MEMBERS.length} mobile users (member API sign-in, app id tags)`;
}
