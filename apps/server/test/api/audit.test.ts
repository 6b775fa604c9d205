import type { AuditEntry } from '@ev/shared';
import { sql } from 'drizzle-orm';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signedInUser } from '../helpers/factories.ts';
import { startTestApp, type TestApp } from '../helpers/test-app.ts';

let t: TestApp;
let admin: { user: { id: number; email: string }; token: string };
let marketing: { user: { id: number; email: string }; token: string };

const plan = {
  descEn: 'Audit plan',
  descTh: 'แผน',
  method: 'KW',
  calculateMethod: 'BAHT_HRS',
  bahtPerKwh: 7.5,
  bahtPerHour: 0,
  penaltyBahtPerMin: 5,
  penaltyDCFullBahtPerMin: 10,
  penaltyDCFullDelayMin: 15,
  overrideWeekdays: [],
  overrides: [],
};

beforeAll(async () => {
  t = await startTestApp();
  admin = await signedInUser(t, { role: 'admin' });
  marketing = await signedInUser(t, { role: 'marketting' });
});
afterAll(() => t.close());

const entriesOf = async (query: string) => {
  const response = await t.call('GET', `/api/audit-log?${query}`, { token: admin.token });
  expect(response.status).toBe(200);
  return response.body.entries as AuditEntry[];
};

describe('a price plan: each change is one entry, with what changed', () => {
  let id: number;
  it('create: who, from where, every field set', async () => {
    const created = await t.call('POST', '/api/price', { token: marketing.token, body: plan });
    expect(created.status).toBe(200);
    id = created.body.id;
    const entries = await entriesOf(`entity=price&entityId=${id}`);
    expect(entries).toHaveLength(1);
    const [entry] = entries;
    expect(entry).toMatchObject({
      userId: marketing.user.id,
      userEmail: marketing.user.email,
      role: 'marketting',
      ip: '127.0.0.1',
      entity: 'price',
      entityId: String(id),
      action: 'create',
    });
    const fields = Object.fromEntries(entry!.changes.map((c) => [c.field, [c.before, c.after]]));
    expect(fields.descEn).toEqual([null, 'Audit plan']);
    expect(fields.bahtPerKwh).toEqual([null, 7.5]);
  });

  it('update: only the fields that changed, before → after', async () => {
    const saved = await t.call('PATCH', `/api/price/${id}`, {
      token: marketing.token,
      body: { ...plan, bahtPerKwh: 8, descEn: 'Audit plan 2' },
    });
    expect(saved.status).toBe(200);
    const [entry] = await entriesOf(`entity=price&entityId=${id}&action=update`);
    expect(entry!.changes).toEqual(
      expect.arrayContaining([
        { field: 'descEn', before: 'Audit plan', after: 'Audit plan 2' },
        { field: 'bahtPerKwh', before: 7.5, after: 8 },
      ]),
    );
    expect(entry!.changes.map((c) => c.field).sort()).toEqual(['bahtPerKwh', 'descEn']);
  });

  it('a field cleared is a change to null; the override rows replaced are changes of their own table', async () => {
    const weekly = {
      dayOfWeek: 3,
      validTimeFrom: '10:00',
      validTimeTo: '11:00',
      bahtPerKwh: 6,
      bahtPerHour: 0,
    };
    await t.call('PATCH', `/api/price/${id}`, {
      token: marketing.token,
      body: { ...plan, bahtPerKwh: 8, descEn: 'Audit plan 2', overrideWeekdays: [weekly] },
    });
    const [added] = await entriesOf(`entity=price&entityId=${id}&action=update`);
    const row = added!.changes.find((c) => c.field.startsWith('priceOverrideWeekdays#'));
    expect(row?.field).toMatch(/^priceOverrideWeekdays#\d+\./);
    expect(added!.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ before: null, after: '10:00:00' })]),
    );
    await t.call('PATCH', `/api/price/${id}`, {
      token: marketing.token,
      body: { ...plan, bahtPerKwh: 8, descEn: 'Audit plan 2' },
    });
    const [removed] = await entriesOf(`entity=price&entityId=${id}&action=update`);
    expect(removed!.changes).toEqual(
      expect.arrayContaining([expect.objectContaining({ before: '10:00:00', after: null })]),
    );
  });

  it('toggle and delete are entries of their own', async () => {
    expect(
      (await t.call('PATCH', `/api/price/${id}`, { token: admin.token, body: { active: false } })).status,
    ).toBe(200);
    expect((await t.call('DELETE', `/api/price/${id}`, { token: admin.token })).status).toBe(200);
    const entries = await entriesOf(`entity=price&entityId=${id}`);
    expect(entries.map((e) => e.action)).toEqual([
      'delete',
      'toggle',
      'update',
      'update',
      'update',
      'create',
    ]);
    expect(entries[1]!.changes).toEqual([{ field: 'active', before: true, after: false }]);
    expect(entries[0]!.changes).toEqual(
      expect.arrayContaining([{ field: 'descEn', before: 'Audit plan 2', after: null }]),
    );
  });

  it('a refused change writes nothing (the entry rolls back with it)', async () => {
    const before = (await entriesOf('entity=price')).length;
    const created = await t.call('POST', '/api/price', { token: admin.token, body: plan });
    const active = created.body.id;
    const refused = await t.call('DELETE', `/api/price/${active}`, { token: admin.token });
    expect(refused.status).toBe(409);
    expect(await entriesOf('entity=price')).toHaveLength(before + 1);
  });
});

describe('append-only', () => {
  it('the database refuses an UPDATE, a DELETE and a TRUNCATE, even by the owner', async () => {
    const db = t.database.db;
    await expect(db.execute(sql`update audit_log set action = 'create'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_log`)).rejects.toThrow();
    await expect(db.execute(sql`truncate audit_log cascade`)).rejects.toThrow();
    await expect(db.execute(sql`update audit_changes set changes = '{}'`)).rejects.toThrow();
    await expect(db.execute(sql`delete from audit_changes`)).rejects.toThrow();
    // The pruning's own flag does not open recent entries.
    await expect(
      db.transaction(async (tx) => {
        await tx.execute(sql`select set_config('ev.audit_prune', 'on', true)`);
        await tx.execute(sql`delete from audit_log`);
      }),
    ).rejects.toThrow();
    expect((await entriesOf('entity=price')).length).toBeGreaterThan(0);
  });

  it('no route changes or deletes an entry', async () => {
    const [entry] = await entriesOf('');
    for (const method of ['PATCH', 'PUT', 'DELETE', 'POST']) {
      const response = await t.call(method, `/api/audit-log/${entry!.id}`, { token: admin.token, body: {} });
      expect(response.status).toBe(404);
    }
    expect((await t.call('POST', '/api/audit-log', { token: admin.token, body: {} })).status).toBe(404);
  });

  it('retention: the pruning deletes the entries past it, and only those', async () => {
    const db = t.database.db;
    const total = async () =>
      (await t.call('GET', '/api/audit-log?size=1', { token: admin.token })).body.total;
    // Entries of 3 years and of 1 year ago (inserting is what the log allows), one with a change row.
    const old = await db.execute<{ id: number }>(sql`
      insert into audit_log (at, entity, entity_id, action) values
        (now() - interval '3 years', 'price', '1', 'update'), (now() - interval '1 year', 'price', '1', 'update')
      returning id`);
    const [oldest] = (old as unknown as { rows: { id: number }[] }).rows;
    await db.execute(sql`insert into audit_changes (entry_id, table_name, row_id, op, changes)
      values (${oldest!.id}, 'prices', '1', 'UPDATE', '{"active": [true, false]}')`);
    const count = await total();
    expect(await t.app.jobs.pruneAudit()).toBe(1);
    expect(await total()).toBe(count - 1);
    expect(await t.app.jobs.pruneAudit()).toBe(0);
    // A `now` in the future cannot reach entries younger than the minimum retention: the database refuses.
    await expect(t.app.jobs.pruneAudit(Date.now() + 3 * 366 * 86_400_000)).rejects.toThrow();
    expect(await total()).toBe(count - 1);
  });
});

describe('reading', () => {
  it("is the admin's: another role gets 403", async () => {
    expect((await t.call('GET', '/api/audit-log', { token: marketing.token })).status).toBe(403);
    expect((await t.call('GET', '/api/audit-log')).status).toBe(401);
  });

  it('filters by user, action and time, and refuses bad filters', async () => {
    await t.call('POST', '/api/price', { token: marketing.token, body: plan });
    const mine = await entriesOf(`userId=${marketing.user.id}&action=create`);
    expect(mine.length).toBeGreaterThan(0);
    expect(mine.every((e) => e.userId === marketing.user.id && e.action === 'create')).toBe(true);
    const future = await entriesOf(`from=${encodeURIComponent(new Date(Date.now() + 60_000).toISOString())}`);
    expect(future).toEqual([]);
    for (const bad of ['action=rename', 'entity=nothing', 'userId=x', 'from=yesterday', 'sort=email']) {
      const response = await t.call('GET', `/api/audit-log?${bad}`, { token: admin.token });
      expect(response.status, bad).toBe(400);
      expect(response.body.message).toBeTruthy();
    }
  });

  it('exports xlsx, and the export itself is an entry', async () => {
    const response = await fetch(`${t.url}/api/audit-log?mode=xlsx&entity=price`, {
      headers: { 'X-ACCESS-TOKEN': admin.token },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-disposition')).toMatch(/AuditLog_\d{14}\.xlsx/);
    const book = new ExcelJS.Workbook();
    await book.xlsx.load(Buffer.from(await response.arrayBuffer()) as unknown as ExcelJS.Buffer);
    const sheet = book.worksheets[0]!;
    expect(sheet.getRow(1).getCell(9).value).toBe('Changes');
    const changes = sheet.getColumn(9).values.slice(2).join('\n');
    expect(changes).toContain('descEn: Audit plan → Audit plan 2');
    const [entry] = await entriesOf('action=export');
    expect(entry).toMatchObject({ entity: 'audit-log', userId: admin.user.id });
    expect(entry!.details).toMatchObject({ query: { entity: 'price', mode: 'xlsx' } });
  });
});
