import { asc } from 'drizzle-orm';
import { PgDialect } from 'drizzle-orm/pg-core';
import { describe, expect, it } from 'vitest';
import { landlords, merchants } from '../db/schema/index.ts';
import { AppError } from './errors.ts';
import { deleteUnlessUsed, isForeignKeyViolation, ordering, paging } from './list-query.ts';

const dialect = new PgDialect();
const render = (parts: ReturnType<typeof ordering>) =>
  parts.map((part) => dialect.sqlToQuery(part).sql).join(', ');
const sorts = { nameEn: merchants.nameEn, active: merchants.active };

describe('paging', () => {
  it('turns page and size into limit and offset', () => {
    expect(paging({ page: 1, size: 10 })).toEqual({ limit: 10, offset: 0 });
    expect(paging({ page: 3, size: 25 })).toEqual({ limit: 25, offset: 50 });
  });
});

describe('ordering', () => {
  it('orders by the id alone when no sort is asked', () => {
    expect(render(ordering({}, sorts, [merchants.id]))).toBe('"merchants"."id" asc');
    expect(render(ordering({ order: 'desc' }, sorts, [merchants.id]))).toBe('"merchants"."id" desc');
  });

  it('sorts by a whitelisted key, then by the id so pages are stable', () => {
    expect(render(ordering({ sort: 'nameEn', order: 'desc' }, sorts, [merchants.id]))).toBe(
      '"merchants"."name_en" desc, "merchants"."id" asc',
    );
    expect(render(ordering({ sort: 'active' }, sorts, [merchants.id]))).toBe(
      '"merchants"."active" asc, "merchants"."id" asc',
    );
  });

  it('refuses a key outside the whitelist, even one inherited from Object', () => {
    for (const sort of ['tel', 'constructor', 'name_en; drop table merchants']) {
      expect(() => ordering({ sort }, sorts, [merchants.id])).toThrow(/must be one of nameEn, active/);
    }
  });

  it('accepts SQL expressions as sort targets', () => {
    const parts = ordering({ sort: 'site' }, { site: asc(landlords.nameEn) }, [landlords.id]);
    expect(parts).toHaveLength(2);
  });
});

describe('isForeignKeyViolation', () => {
  it('finds the code 23503 or 23001 on the error or its causes', () => {
    expect(isForeignKeyViolation({ code: '23503' })).toBe(true);
    expect(isForeignKeyViolation(new Error('restrict', { cause: { code: '23001' } }))).toBe(true);
    expect(isForeignKeyViolation(new Error('query failed', { cause: { code: '23503' } }))).toBe(true);
    expect(isForeignKeyViolation(new Error('x', { cause: { code: '23505' } }))).toBe(false);
    expect(isForeignKeyViolation(null)).toBe(false);
  });
});

describe('deleteUnlessUsed', () => {
  it('refuses an active record without deleting', async () => {
    let called = false;
    const error = await deleteUnlessUsed(true, async () => {
      called = true;
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AppError);
    expect((error as AppError).statusCode).toBe(409);
    expect(called).toBe(false);
  });

  it('turns a foreign-key refusal into 409 "Can\'t delete already used item"', async () => {
    const error = await deleteUnlessUsed(false, async () => {
      throw new Error('fk', { cause: { code: '23503' } });
    }).catch((e: unknown) => e);
    expect((error as AppError).statusCode).toBe(409);
    expect((error as AppError).message).toBe("Can't delete already used item");
  });

  it('passes other failures through', async () => {
    const error = await deleteUnlessUsed(false, async () => {
      throw new Error('disk full');
    }).catch((e: unknown) => e);
    expect(error).not.toBeInstanceOf(AppError);
  });
});
