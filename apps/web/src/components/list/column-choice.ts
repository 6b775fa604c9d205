import { useCallback, useState } from 'react';
import type { StorageLike } from '../../lib/session.ts';
import { useSession } from '../../lib/session.ts';
import type { ColumnChoice } from './fit-columns.ts';

/** Where a user's choice of a list's columns is kept: per user and list, in this browser. */
export const columnChoiceKey = (userId: number, list: string) => `ev.columns.${userId}.${list}`;

/** The stored choice, or none: anything but an object of true/false by column key is ignored. */
export function readColumnChoice(storage: StorageLike | null, key: string): ColumnChoice {
  try {
    const stored: unknown = JSON.parse(storage?.getItem(key) ?? 'null');
    if (typeof stored !== 'object' || stored === null || Array.isArray(stored)) return {};
    return Object.fromEntries(
      Object.entries(stored).filter((entry): entry is [string, boolean] => typeof entry[1] === 'boolean'),
    );
  } catch {
    return {};
  }
}

/** Keeps the choice (none: the stored one goes, the list is placed automatically again). */
export function writeColumnChoice(storage: StorageLike | null, key: string, choice: ColumnChoice): void {
  try {
    if (Object.keys(choice).length === 0) storage?.removeItem(key);
    else storage?.setItem(key, JSON.stringify(choice));
  } catch {
    // Storage full or refused (a private window): the choice holds until the page is left.
  }
}

const browserStorage = (): StorageLike | null => {
  try {
    return window.localStorage;
  } catch {
    return null;
  }
};

/** The signed-in user's choice of the list's columns, remembered in this browser across sessions. */
export function useColumnChoice(list: string): [ColumnChoice, (choice: ColumnChoice) => void] {
  const userId = useSession()?.user.id ?? 0;
  const key = columnChoiceKey(userId, list);
  const [held, setHeld] = useState(() => ({ key, choice: readColumnChoice(browserStorage(), key) }));
  // Another user, or another list on the same screen component: read its own choice.
  const current = held.key === key ? held.choice : readColumnChoice(browserStorage(), key);
  const setChoice = useCallback(
    (choice: ColumnChoice) => {
      writeColumnChoice(browserStorage(), key, choice);
      setHeld({ key, choice });
    },
    [key],
  );
  return [current, setChoice];
}
