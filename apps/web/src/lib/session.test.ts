import { type SelfUser, selfUser } from '@ev/shared';
import { describe, expect, it, vi } from 'vitest';
import { createSessionStore, isSelfUser, SESSION_KEY, type Session, type StorageLike } from './session.ts';

class MemoryStorage implements StorageLike {
  readonly items = new Map<string, string>();
  getItem(key: string) {
    return this.items.get(key) ?? null;
  }
  setItem(key: string, value: string) {
    this.items.set(key, value);
  }
  removeItem(key: string) {
    this.items.delete(key);
  }
}

const user: SelfUser = {
  id: 1,
  avatar: null,
  firstName: 'Somchai',
  lastName: 'Jaidee',
  email: 'admin@example.com',
  tel: null,
  point: 0,
  adminRole: 'admin',
  termAccept: false,
};
const signedIn: Session = { accessToken: 'token-1', adminRole: 'admin', user, termAccept: false };

function setup() {
  const persistent = new MemoryStorage();
  const temporary = new MemoryStorage();
  return { persistent, temporary, store: createSessionStore({ persistent, temporary }) };
}

describe('session store', () => {
  it('keeps a remembered session in localStorage only', () => {
    const { persistent, temporary, store } = setup();
    store.signIn(signedIn, true);
    expect(JSON.parse(persistent.getItem(SESSION_KEY) ?? 'null')).toEqual(signedIn);
    expect(temporary.getItem(SESSION_KEY)).toBeNull();
  });

  it('keeps a session without Remember me in sessionStorage only', () => {
    const { persistent, temporary, store } = setup();
    store.signIn(signedIn, false);
    expect(temporary.getItem(SESSION_KEY)).not.toBeNull();
    expect(persistent.getItem(SESSION_KEY)).toBeNull();
  });

  it('moves the session when the user signs in again with the other choice', () => {
    const { persistent, temporary, store } = setup();
    store.signIn(signedIn, true);
    store.signIn({ ...signedIn, accessToken: 'token-2' }, false);
    expect(persistent.getItem(SESSION_KEY)).toBeNull();
    expect(JSON.parse(temporary.getItem(SESSION_KEY) ?? '{}').accessToken).toBe('token-2');
  });

  it('restores a stored session, preferring the remembered one', () => {
    const persistent = new MemoryStorage();
    const temporary = new MemoryStorage();
    persistent.setItem(SESSION_KEY, JSON.stringify(signedIn));
    temporary.setItem(SESSION_KEY, JSON.stringify({ ...signedIn, accessToken: 'other' }));
    expect(createSessionStore({ persistent, temporary }).get()?.accessToken).toBe('token-1');
  });

  it('survives a browser restart only when remembered', () => {
    const persistent = new MemoryStorage();
    createSessionStore({ persistent, temporary: new MemoryStorage() }).signIn(signedIn, false);
    // A restart keeps localStorage and loses sessionStorage.
    expect(createSessionStore({ persistent, temporary: new MemoryStorage() }).get()).toBeNull();
    createSessionStore({ persistent, temporary: new MemoryStorage() }).signIn(signedIn, true);
    expect(createSessionStore({ persistent, temporary: new MemoryStorage() }).get()).toEqual(signedIn);
  });

  it('updates in place, in the storage the session lives in', () => {
    const { persistent, temporary, store } = setup();
    store.signIn(signedIn, true);
    store.update({ termAccept: true });
    expect(store.get()?.termAccept).toBe(true);
    expect(JSON.parse(persistent.getItem(SESSION_KEY) ?? '{}').termAccept).toBe(true);
    expect(temporary.getItem(SESSION_KEY)).toBeNull();
  });

  it('clears everything on logout and tells its listeners', () => {
    const { persistent, temporary, store } = setup();
    const listener = vi.fn();
    store.subscribe(listener);
    store.signIn(signedIn, true);
    store.clear();
    expect(store.get()).toBeNull();
    expect(persistent.getItem(SESSION_KEY)).toBeNull();
    expect(temporary.getItem(SESSION_KEY)).toBeNull();
    expect(listener).toHaveBeenCalledTimes(2);
  });

  it('ignores a damaged or foreign stored value', () => {
    const persistent = new MemoryStorage();
    persistent.setItem(SESSION_KEY, '{not json');
    const temporary = new MemoryStorage();
    temporary.setItem(SESSION_KEY, JSON.stringify({ accessToken: 'x', adminRole: 'superuser', user }));
    expect(createSessionStore({ persistent, temporary }).get()).toBeNull();
  });

  it('works without storage (blocked by the browser)', () => {
    const store = createSessionStore({ persistent: null, temporary: null });
    store.signIn(signedIn, true);
    expect(store.get()).toEqual(signedIn);
  });
});

describe('the stored profile check', () => {
  // Each field missing, or of a type the shared schema refuses, and values it accepts.
  const variants: unknown[] = [
    user,
    { ...user, avatar: '/a.png', tel: '02-123-4567', point: 12.5, adminRole: 'marketting', termAccept: true },
    { ...user, extra: 'kept out of the check' },
    null,
    'user',
    [],
    ...Object.keys(user).map((key) => {
      const { [key as keyof SelfUser]: _dropped, ...rest } = user;
      return rest;
    }),
    { ...user, id: 1.5 },
    { ...user, id: '1' },
    { ...user, avatar: 3 },
    { ...user, firstName: null },
    { ...user, lastName: 1 },
    { ...user, email: null },
    { ...user, tel: 5 },
    { ...user, point: '0' },
    { ...user, adminRole: 'root' },
    { ...user, termAccept: 'yes' },
  ];

  it('agrees with the shared selfUser schema on every variant', () => {
    for (const value of variants) {
      expect(isSelfUser(value), JSON.stringify(value)).toBe(selfUser.safeParse(value).success);
    }
    expect(variants.filter((value) => isSelfUser(value))).toHaveLength(3);
  });
});
