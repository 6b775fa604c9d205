import type { Db } from '@ev/server/db/client';
import { sql } from 'drizzle-orm';

const SITES = 50;
const CHARGERS = 200;
const CONNECTORS = CHARGERS * 2;
const MEMBERS = 5000;

/**
 * `rows` bookings spread evenly over the last 90 days (newest first by id order), on 50 sites of one cluster,
 * 400 connectors and 5,000 members: 80 % paid (with a payment), the rest cancelled, unpaid, or charging today.
 * Generated inside the database (generate_series), then VACUUM ANALYZE, as a production table would be.
 */
export async function seedBookings(db: Db, rows: number): Promise<{ ms: number; landlordId: number }> {
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
  await db.execute(sql`
    insert into users (type, email, first_name, last_name, tel)
    select 'mobile', 'member' || n || '@example.com', 'Member' || n, 'Driver', '08' || lpad(n::text, 8, '0')
    from generate_series(1, ${MEMBERS}) as n`);
  // Spread over 90 days, newest first: n = 1 is now.
  await db.execute(sql`
    insert into bookings (user_id, charger_id, connector_id, merchant_id, landlord_id, connector_type_id, status,
      created_at, start_time, stop_time, avaliable_at, energy_wh, price_by_power, price_by_duration,
      price_by_penalty, total_amount, payment_method, paid_at, price_snapshot)
    select u.first + (n % ${MEMBERS}), c.charger_id, c.id, ch.merchant_id, ch.landlord_id, 4,
      s.status, t.at, t.at + interval '2 minutes', t.at + interval '62 minutes', t.at + interval '65 minutes',
      12000 + (n % 50) * 100, (90 + (n % 50) * 0.75)::numeric(12, 2), 0, 0, (90 + (n % 50) * 0.75)::numeric(12, 2),
      case when s.status = 'paid' then (array['qr','credit','truemoney','linepay','manual'])[1 + n % 5] end,
      case when s.status = 'paid' then t.at + interval '70 minutes' end,
      case when s.status = 'charging' then '{"method":"KW","calculateMethod":"BAHT_HRS","bahtPerKwh":7.5,"bahtPerHour":0,"penaltyBahtPerMin":0,"penaltyDCFullBahtPerMin":0,"penaltyDCFullDelayMin":0,"overrideWeekdays":[],"overrides":[]}'::jsonb end
    from generate_series(1, ${rows}) as n
    cross join lateral (select now() - (n::double precision * 90 / ${rows}) * interval '1 day' as at) t
    cross join lateral (select case
      when n % 10 < 8 then 'paid' when n % 10 = 8 then 'cancelled'
      when n <= ${Math.ceil(rows / 90)} then 'charging' else 'stopped' end as status) s
    cross join (select min(id) - 1 as first from users where type = 'mobile') u
    join connectors c on c.id = 900000 + n % ${CONNECTORS}
    join chargers ch on ch.id = c.charger_id`);
  await db.execute(sql`
    update bookings set start_time = now() - interval '30 minutes', stop_time = null, avaliable_at = null,
      price_by_power = null, price_by_duration = null, price_by_penalty = null, total_amount = null
    where status = 'charging'`);
  await db.execute(sql`
    insert into payments (invoice_no, booking_id, user_id, merchant_id, landlord_id, method, amount, created_at, gateway)
    select 'INV-' || extract(year from paid_at)::int || '-' || lpad(row_number() over (order by paid_at, id)::text, 7, '0'),
      id, user_id, merchant_id, landlord_id, payment_method, total_amount, paid_at, 'manual'
    from bookings where status = 'paid'`);
  await db.execute(sql`vacuum analyze bookings`);
  await db.execute(sql`vacuum analyze payments`);
  await db.execute(sql`vacuum analyze users`);
  const [site] = (
    (await db.execute(sql`select min(id) as id from landlords`)) as unknown as { rows: Array<{ id: number }> }
  ).rows;
  return { ms: performance.now() - started, landlordId: Number(site!.id) };
}
