import { contactUs } from '@ev/server/db/schema/index';
import type { DemoPlaces, DemoTx } from './demo-data.ts';

/** The support contact details the app shows (row 1, seeded empty by the migration). */
export const DEMO_CONTACT = {
  email: 'support@evct.co.th',
  phone: '0212345678',
  facebook: 'https://www.facebook.com/evchargingthailand',
  instagram: 'evchargingthailand',
  line: '@evchargingth',
  address: '88 Sukhumvit Road, 12th Floor\nKhlong Toei, Bangkok 10110\nThailand',
  minVersionAndroid: '2.8.0',
  minVersionIOS: '2.8.1',
} as const;

/** Demo the support contact details (issue 4). Returns a summary fragment for the start banner, or '' when it loads nothing. */
export async function loadDemoContact(tx: DemoTx, _places: DemoPlaces): Promise<string> {
  await tx
    .insert(contactUs)
    .values({ id: 1, ...DEMO_CONTACT })
    .onConflictDoUpdate({ target: contactUs.id, set: { ...DEMO_CONTACT, updatedAt: new Date() } });
  return 'contact details';
}
