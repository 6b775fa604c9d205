import type { AdminRole } from '@ev/shared';

export const DEMO_PASSWORD = 'Demo1234';

/** One web admin user of each role, with realistic Thai and English names. */
export const DEMO_USERS: ReadonlyArray<{
  role: AdminRole;
  email: string;
  firstName: string;
  lastName: string;
  tel: string;
}> = [
  {
    role: 'admin',
    email: 'admin.demo@example.com',
    firstName: 'Somchai',
    lastName: 'Rattanakul',
    tel: '0812345601',
  },
  { role: 'merchant', email: 'cluster@example.com', firstName: 'สมศรี', lastName: 'มั่นคง', tel: '0812345602' },
  {
    role: 'party',
    email: 'group@example.com',
    firstName: 'Nattapong',
    lastName: 'Srisuk',
    tel: '0812345603',
  },
  { role: 'landlord', email: 'site@example.com', firstName: 'วิภาวดี', lastName: 'ทองดี', tel: '0812345604' },
  {
    role: 'callcenter',
    email: 'callcenter@example.com',
    firstName: 'Kanokwan',
    lastName: 'Phromma',
    tel: '0812345605',
  },
  {
    role: 'station',
    email: 'station@example.com',
    firstName: 'ธนพล',
    lastName: 'วงศ์สวัสดิ์',
    tel: '0812345606',
  },
  {
    role: 'marketting',
    email: 'marketing@example.com',
    firstName: 'Pimchanok',
    lastName: 'Chaiyaporn',
    tel: '0812345607',
  },
];
