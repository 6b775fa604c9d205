import { isMenuGroup, type MenuEntry } from '@ev/shared';

const leavesOf = (entries: readonly MenuEntry[]) =>
  entries.flatMap((entry) => (isMenuGroup(entry) ? entry.children : [entry]));

/** The entry of the current route: the longest menu path the location is, or lies under. */
export function selectedMenuKey(pathname: string, entries: readonly MenuEntry[]): string | undefined {
  let best: { key: string; length: number } | undefined;
  for (const leaf of leavesOf(entries)) {
    const matches = pathname === leaf.path || pathname.startsWith(`${leaf.path}/`);
    if (matches && (!best || leaf.path.length > best.length))
      best = { key: leaf.key, length: leaf.path.length };
  }
  return best?.key;
}

/** The group holding an entry, to open it on load. */
export function groupKeyOf(key: string | undefined, entries: readonly MenuEntry[]): string | undefined {
  if (!key) return undefined;
  return entries.find((entry) => isMenuGroup(entry) && entry.children.some((child) => child.key === key))
    ?.key;
}
