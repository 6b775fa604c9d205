import { ADMIN_ROLES, type AdminRole, type SelfUser } from '@ev/shared';
import { useSyncExternalStore } from 'react';

export interface Session {
  accessToken: string;
  adminRole: AdminRole;
  user: SelfUser;
  termAccept: boolean;
}

/** The part of the Web Storage API the store uses, so tests can hand in plain objects. */
export interface StorageLike {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
  removeItem(key: string): void;
}

export interface SessionStorages {
  /** Survives a browser restart: used only with 'Remember me'. */
  persistent: StorageLike | null;
  /** Lives as long as the tab. */
  temporary: StorageLike | null;
}

export interface SessionStore {
  get(): Session | null;
  subscribe(listener: () => void): () => void;
  signIn(session: Session, remember: boolean): void;
  /** Changes the current session in place (same storage); ignored when signed out. */
  update(patch: Partial<Omit<Session, 'accessToken'>>): void;
  clear(): void;
  /** Reads the storages again (another tab changed them). */
  reload(): void;
}

export const SESSION_KEY = 'ev.session';

const isText = (value: unknown) => typeof value === 'string';
const isTextOrNull = (value: unknown) => value === null || typeof value === 'string';

/**
 * The stored profile has the shape of the shared `selfUser` schema (a unit test holds the two together).
 * Checked by hand: this store loads with every page, /login included, and zod would double the JavaScript
 * a cold sign-in page downloads. The profile was the server's answer when it was stored.
 */
export function isSelfUser(value: unknown): value is SelfUser {
  if (typeof value !== 'object' || value === null) return false;
  const user = value as Record<keyof SelfUser, unknown>;
  return (
    Number.isInteger(user.id) &&
    isTextOrNull(user.avatar) &&
    isText(user.firstName) &&
    isText(user.lastName) &&
    isText(user.email) &&
    isTextOrNull(user.tel) &&
    typeof user.point === 'number' &&
    Number.isFinite(user.point) &&
    ADMIN_ROLES.includes(user.adminRole as AdminRole) &&
    typeof user.termAccept === 'boolean'
  );
}

function parse(raw: string | null): Session | null {
  if (!raw) return null;
  try {
    const value = JSON.parse(raw) as Partial<Session>;
    if (
      typeof value.accessToken !== 'string' ||
      value.accessToken.length === 0 ||
      !ADMIN_ROLES.includes(value.adminRole as AdminRole) ||
      !isSelfUser(value.user)
    ) {
      return null;
    }
    return {
      accessToken: value.accessToken,
      adminRole: value.adminRole as AdminRole,
      user: value.user,
      termAccept: value.termAccept === true,
    };
  } catch {
    return null;
  }
}

// Storage can throw (quota, disabled storage); a session that cannot be saved still works for this tab.
function safely(action: () => void) {
  try {
    action();
  } catch {
    /* keep the in-memory session */
  }
}

function readItem(storage: StorageLike | null): string | null {
  try {
    return storage?.getItem(SESSION_KEY) ?? null;
  } catch {
    return null;
  }
}

export function createSessionStore(storages: SessionStorages): SessionStore {
  const listeners = new Set<() => void>();
  let current: Session | null = null;
  let remembered = false;

  const load = () => {
    const fromPersistent = parse(readItem(storages.persistent));
    current = fromPersistent ?? parse(readItem(storages.temporary));
    remembered = fromPersistent !== null;
  };
  const emit = () => {
    for (const listener of listeners) listener();
  };
  const write = () => {
    const target = remembered ? storages.persistent : storages.temporary;
    const other = remembered ? storages.temporary : storages.persistent;
    safely(() => other?.removeItem(SESSION_KEY));
    if (current) safely(() => target?.setItem(SESSION_KEY, JSON.stringify(current)));
    else safely(() => target?.removeItem(SESSION_KEY));
  };

  load();
  return {
    get: () => current,
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    signIn(session, remember) {
      current = session;
      remembered = remember;
      write();
      emit();
    },
    update(patch) {
      if (!current) return;
      current = { ...current, ...patch };
      write();
      emit();
    },
    clear() {
      current = null;
      safely(() => storages.persistent?.removeItem(SESSION_KEY));
      safely(() => storages.temporary?.removeItem(SESSION_KEY));
      emit();
    },
    reload() {
      load();
      emit();
    },
  };
}

function browserStorage(pick: () => Storage): StorageLike | null {
  try {
    return pick();
  } catch {
    return null;
  }
}

const inBrowser = typeof window !== 'undefined';

/** The one session of the app; the API client and the route guards read it. */
export const session: SessionStore = createSessionStore({
  persistent: inBrowser ? browserStorage(() => window.localStorage) : null,
  temporary: inBrowser ? browserStorage(() => window.sessionStorage) : null,
});

if (inBrowser) {
  // Log Out in another tab of a remembered session signs this tab out too.
  window.addEventListener('storage', (event) => {
    if (event.key === SESSION_KEY || event.key === null) session.reload();
  });
}

export function useSession(): Session | null {
  return useSyncExternalStore(session.subscribe, session.get, session.get);
}

/** The signed-in user's role; screens show fields and buttons by it (the server enforces the same table). */
export function useRole(): AdminRole | null {
  return useSession()?.adminRole ?? null;
}
