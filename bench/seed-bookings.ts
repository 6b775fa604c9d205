import type { Db } from '@ev/server/db/client';
import { sql } from 'drizzle-orm';

const SITES = 50;
const CHARGERS = 200;
const CONNECTORS = CHARGERS * 2;
/** A member for every 25 bookings (40,000 at 1M), as a network's regulars and occasional drivers; BENCH_MEMBERS sets it. */
export const membersFor = (rows: number) =>
  Number(process.env.BENCH_MEMBERS ?? Math.max(40, Math.round(rows / 25)));

/** Given names in Thai script and their romanization (the e-mail's), and names as members type them in Latin. */
const THAI_FIRST: ReadonlyArray<readonly [string, string]> = [
  ['สมชาย', 'somchai'],
  ['สมหญิง', 'somying'],
  ['ศิริพร', 'siriporn'],
  ['ณัฐวุฒิ', 'nattawut'],
  ['กมลชนก', 'kamonchanok'],
  ['ธีรวัฒน์', 'teerawat'],
  ['วรรณา', 'wanna'],
  ['สุรชัย', 'surachai'],
  ['อรวรรณ', 'orawan'],
  ['ปิยะพงษ์', 'piyapong'],
  ['พลอย', 'ploy'],
  ['เฉลิมชัย', 'chalermchai'],
  ['วิภาวดี', 'wipawadee'],
  ['ประเสริฐ', 'prasert'],
  ['มานี', 'manee'],
  ['ชัยวัฒน์', 'chaiwat'],
];
const THAI_LAST: ReadonlyArray<readonly [string, string]> = [
  ['ใจดี', 'jaidee'],
  ['ใจงาม', 'jaingam'],
  ['แก้วมณี', 'kaewmanee'],
  ['คงสมบูรณ์', 'khongsomboon'],
  ['แสงทอง', 'saengthong'],
  ['บุญมา', 'boonma'],
  ['พรหมมา', 'promma'],
  ['ทองประเสริฐ', 'thongprasert'],
  ['มีสุข', 'meesuk'],
  ['ศรีสวัสดิ์', 'srisawat'],
  ['รัตนพร', 'rattanaporn'],
  ['อินทรสุข', 'intarasuk'],
  ['ทองดี', 'thongdee'],
  ['มั่นคง', 'mankhong'],
  ['วงศ์สุวรรณ', 'wongsuwan'],
  ['ชัยมงคล', 'chaimongkol'],
  ['สุวรรณรัตน์', 'suwannarat'],
  ['บุญยรัตน์', 'boonyarat'],
];
const LATIN_FIRST = [
  'Somchai',
  'Nattapong',
  'Araya',
  'Kittisak',
  'Apinya',
  'Pornthip',
  'Anan',
  'Chanida',
  'Worawit',
  'Supaporn',
  'Thanawat',
  'Pimchanok',
  'Krit',
  'Ratchanee',
  'Lalita',
  'Nisa',
  'Wichai',
  'Tanawat',
  'Phakphum',
  'Manee',
  'Thanakorn',
  'Jirawat',
  'Kanyarat',
  'Siriporn',
  'Panida',
  'Sakchai',
  'Wanida',
  'Yuttana',
  'Duangjai',
  'Ekkachai',
  'John',
  'Sarah',
  'Michael',
  'Jessica',
  'David',
  'Emma',
  'Oliver',
  'Daniel',
  'Sophie',
  'Benjamin',
  'Emily',
  'James',
  'Hiroshi',
  'Yuki',
  'Wei',
  'Mei',
  'Anna',
  'Lucas',
];
const LATIN_LAST = [
  'Jaidee',
  'Saetang',
  'Chaiyasit',
  'Wongsuwan',
  'Thongdee',
  'Srisuk',
  'Kaewkla',
  'Rattanakosin',
  'Phromsri',
  'Inthawong',
  'Chaimongkol',
  'Suwannarat',
  'Sombat',
  'Wattana',
  'Boonyarat',
  'Phanthong',
  'Rungruang',
  'Limsakul',
  'Jantarasiri',
  'Chuenjai',
  'Boonmee',
  'Phanphon',
  'Wongsa',
  'Srisawat',
  'Kongsuk',
  'Pattanapong',
  'Miller',
  'Thompson',
  'Chen',
  'Nguyen',
  'Wilson',
  'Roberts',
  'Brown',
  'Kim',
  'Martin',
  'Clark',
  'Carter',
  'Brooks',
  'Tanaka',
  'Sato',
  'Wang',
  'Li',
  'Schmidt',
  'Dubois',
];
const DOMAINS = ['gmail.com', 'hotmail.com', 'yahoo.co.th', 'outlook.com', 'icloud.com', 'example.co.th'];

/**
 * The bench's members, ids in a row: 30 % with a Thai-script name, 66 % a Latin one, 4 % signed up with an
 * e-mail only (no name); e-mails `first.last<n>@domain` (Thai names romanized), mobile numbers 06/08/09 and
 * eight digits spread by a multiplicative hash, 5 % without one.
 */
async function seedMembers(db: Db, count: number) {
  const list = (values: readonly string[]) => sql.raw(`array[${values.map((v) => `'${v}'`).join(',')}]`);
  await db.execute(sql`
    insert into users (type, email, first_name, last_name, tel, email_verified)
    select 'mobile', lower(e.first || '.' || e.last || n || '@') || (${list(DOMAINS)})[1 + n % ${DOMAINS.length}],
      case when n % 25 = 0 then '' else f.name end, case when n % 25 = 0 then '' else f.surname end,
      case when n % 20 = 7 then null
        else (array['06', '08', '09'])[1 + n % 3] || lpad(((n::bigint * 48271 + 12345) % 100000000)::text, 8, '0') end,
      n % 3 > 0
    from generate_series(1, ${count}) as n
    cross join lateral (select case when n % 10 < 3
      then (${list(THAI_FIRST.map(([thai]) => thai))})[1 + n % ${THAI_FIRST.length}]
      else (${list(LATIN_FIRST)})[1 + n % ${LATIN_FIRST.length}] end as name,
      case when n % 10 < 3
      then (${list(THAI_LAST.map(([thai]) => thai))})[1 + (n / 7) % ${THAI_LAST.length}]
      else (${list(LATIN_LAST)})[1 + (n / 7) % ${LATIN_LAST.length}] end as surname) f
    cross join lateral (select case when n % 10 < 3
      then (${list(THAI_FIRST.map(([, roman]) => roman))})[1 + n % ${THAI_FIRST.length}] else f.name end as first,
      case when n % 10 < 3
      then (${list(THAI_LAST.map(([, roman]) => roman))})[1 + (n / 7) % ${THAI_LAST.length}] else f.surname end
      as last) e`);
}

export interface SeedOptions {
  /** Members (membersFor(rows) by default). */
  members?: number;
  /** The bookings are spread over the last `days` days (90 by default). */
  days?: number;
  /**
   * Money as the statistics see it (bench:stats): a discount code redeemed on every 20th paid booking (10 %
   * off, one promotion of 1,000 codes), green points (100 = 10 baht) on every 25th, and every 40th payment
   * refunded (half of it; succeeded, manual, or still pending: a pending one pays nothing back yet).
   */
  adjustments?: boolean;
}

/**
 * `rows` bookings spread evenly over the last 90 days (`days`; newest first by id order), on 50 sites of one
 * cluster, 400 connectors and a member for every 25 bookings (membersFor): 80 % paid (with a payment), the rest
 * cancelled, unpaid, or charging today; discounts, points and refunds with `adjustments`.
 * Generated inside the database (generate_series), then VACUUM ANALYZE, as a production table would be.
 */
export async function seedBookings(
  db: Db,
  rows: number,
  { members = membersFor(rows), days = 90, adjustments = false }: SeedOptions = {},
): Promise<{ ms: number; landlordId: number; members: number }> {
  const started = performance.now();
  await db.execute(sql`insert into merchants (name_en, name_th) values ('Bench Cluster', 'คลัสเตอร์')`);
  await db.execute(sql`
    insert into landlords (merchant_id, name_en, name_th, latitude, longitude, business_hours_type)
    select (select min(id) from merchants), 'Site ' || n, 'สถานี ' || n, 13.7, 100.5, '24H'
    from generate_series(1, ${SITES}) as n`);
  await db.execute(
    sql`insert into charger_brands (name, power_type, min_power_kw) values ('Bench DC', 'DC', 50)`,
  );
  await db.execute(sql`
    insert into prices (desc_en, desc_th, method, calculate_method, baht_per_kwh)
    values ('Bench', 'ราคา', 'KW', 'BAHT_HRS', 7.5)`);
  await db.execute(sql`
    insert into chargers (id, name_en, name_th, merchant_id, landlord_id, charger_brand_id)
    select 'BENCH-' || n, 'Charger ' || n, 'เครื่อง ' || n, l.merchant_id, l.id, (select min(id) from charger_brands)
    from generate_series(0, ${CHARGERS - 1}) as n
    join (select id, merchant_id, row_number() over (order by id) - 1 as i from landlords) l on l.i = n % ${SITES}`);
  await db.execute(sql`
    insert into connectors (id, charger_id, token, name_en, name_th, connector_type_id, max_power_kw, price_id, ocpp_connector_id)
    select 900000 + n, 'BENCH-' || (n / 2), 'token-' || n, 'Connector ' || n, 'หัว ' || n, 4, 60,
           (select min(id) from prices), n % 2 + 1
    from generate_series(0, ${CONNECTORS - 1}) as n`);
  await seedMembers(db, members);
  // Spread over `days` days, newest first: n = 1 is now.
  await db.execute(sql`
    insert into bookings (user_id, charger_id, connector_id, merchant_id, landlord_id, connector_type_id, status,
      created_at, start_time, stop_time, avaliable_at, energy_wh, price_by_power, price_by_duration,
      price_by_penalty, total_amount, payment_method, paid_at, price_snapshot)
    select u.first + 1 + (n % ${members}), c.charger_id, c.id, ch.merchant_id, ch.landlord_id, 4,
      s.status, t.at, t.at + interval '2 minutes', t.at + interval '62 minutes', t.at + interval '65 minutes',
      12000 + (n % 50) * 100, (90 + (n % 50) * 0.75)::numeric(12, 2), 0, 0, (90 + (n % 50) * 0.75)::numeric(12, 2),
      case when s.status = 'paid' then (array['qr','credit','truemoney','linepay','manual'])[1 + n % 5] end,
      case when s.status = 'paid' then t.at + interval '70 minutes' end,
      case when s.status = 'charging' then '{"method":"KW","calculateMethod":"BAHT_HRS","bahtPerKwh":7.5,"bahtPerHour":0,"penaltyBahtPerMin":0,"penaltyDCFullBahtPerMin":0,"penaltyDCFullDelayMin":0,"overrideWeekdays":[],"overrides":[]}'::jsonb end
    from generate_series(1, ${rows}) as n
    cross join lateral (select now() - (n::double precision * ${days} / ${rows}) * interval '1 day' as at) t
    cross join lateral (select case
      when n % 10 < 8 then 'paid' when n % 10 = 8 then 'cancelled'
      when n <= ${Math.ceil(rows / days)} then 'charging' else 'stopped' end as status) s
    cross join (select min(id) - 1 as first from users where type = 'mobile') u
    join connectors c on c.id = 900000 + n % ${CONNECTORS}
    join chargers ch on ch.id = c.charger_id`);
  await db.execute(sql`
    update bookings set start_time = now() - interval '30 minutes', stop_time = null, avaliable_at = null,
      price_by_power = null, price_by_duration = null, price_by_penalty = null, total_amount = null
    where status = 'charging'`);
  if (adjustments) await redeemDiscounts(db);
  // A discount and points come off the booking's total before it is charged (the payment's amount).
  await db.execute(sql`
    insert into payments (invoice_no, booking_id, user_id, merchant_id, landlord_id, method, amount, created_at, gateway,
      discount_amount, point_used, point_amount)
    select 'INV-' || extract(year from b.paid_at)::int || '-' || lpad(row_number() over (order by b.paid_at, b.id)::text, 7, '0'),
      b.id, b.user_id, b.merchant_id, b.landlord_id, b.payment_method,
      b.total_amount - coalesce(r.discount, 0) - p.baht, b.paid_at, 'manual', coalesce(r.discount, 0), p.used, p.baht
    from bookings b
    left join promotion_redemptions r on r.booking_id = b.id
    cross join lateral (select case when ${sql.raw(String(adjustments))} and b.id % 25 = 7 then 100 else 0 end as used) u
    cross join lateral (select u.used, (u.used / 10)::numeric(12, 2) as baht) p
    where b.status = 'paid'`);
  if (adjustments) await refundSome(db);
  await db.execute(sql`vacuum analyze bookings`);
  await db.execute(sql`vacuum analyze payments`);
  await db.execute(sql`vacuum analyze users`);
  if (adjustments) await db.execute(sql`vacuum analyze promotion_redemptions`);
  const [site] = (
    (await db.execute(sql`select min(id) as id from landlords`)) as unknown as { rows: Array<{ id: number }> }
  ).rows;
  return { ms: performance.now() - started, landlordId: Number(site!.id), members };
}

/**
 * A discount promotion of 1,000 codes (10 % off, no limit per code), redeemed on every 20th paid booking: each
 * member's n-th such booking takes code n (a member redeems a code once).
 */
async function redeemDiscounts(db: Db) {
  await db.execute(sql`
    insert into promotions (code, name_en, name_th, type, internal, valid_from, valid_to, discount_percent, count)
    values ('BENCHTEN', 'Bench 10 % off', 'ลด 10 %', 'discount', false, now() - interval '3 years', now() + interval '1 year',
      10, 1000)`);
  await db.execute(sql`
    insert into promotion_codes (promotion_id, code)
    select (select max(id) from promotions), 'BENCHTEN' || lpad(n::text, 4, '0') from generate_series(1, 1000) as n`);
  await db.execute(sql`
    insert into promotion_redemptions (user_id, code_id, promotion_id, booking_id, discount, created_at)
    select b.user_id, c.first + (b.nth - 1) % 1000, c.promotion_id, b.id, round(b.total_amount / 10, 2),
      b.start_time - interval '5 minutes'
    from (select id, user_id, total_amount, start_time, row_number() over (partition by user_id order by id) as nth
          from bookings where status = 'paid' and id % 20 = 3) b
    cross join (select min(id) as first, min(promotion_id) as promotion_id from promotion_codes) c
    on conflict do nothing`);
  await db.execute(sql`
    update promotion_codes c set used = r.uses
    from (select code_id, count(*)::int as uses from promotion_redemptions group by code_id) r
    where r.code_id = c.id`);
}

/** Half of every 40th payment paid back a day later: succeeded, manual, or pending (no refundedAt yet). */
async function refundSome(db: Db) {
  await db.execute(sql`
    update promotion_redemptions r set payment_id = p.id from payments p where p.booking_id = r.booking_id`);
  await db.execute(sql`
    update payments set refund_amount = round(amount / 2, 2),
      refund_status = (array['succeeded', 'manual', 'pending'])[1 + (id / 40) % 3],
      refunded_at = case when (id / 40) % 3 < 2 then created_at + interval '1 day' end,
      credit_note_no = case when (id / 40) % 3 < 2 then 'CN-' || lpad(id::text, 8, '0') end
    where id % 40 = 13`);
}
