import { useEffect } from 'react';
import { useSearchParams } from 'react-router';
import { todayRange } from '../../components/list/day-range.ts';

/**
 * The booking list shows today when no service date is chosen (section 2), as the server does without dates.
 * The URL is given today's dates (replacing the entry, no new history step), so the From and To fields, the
 * export and a reload all say which day is shown; Clear Data comes back here.
 *
 * Until the URL has them, the list calls carry the same dates as a base query. The dates are the first
 * filters of the list's spec, so the base query followed by the rest is the very query the URL then gives:
 * one list call, not one without dates and one with.
 */
export function useTodayByDefault(
  fromKey: string,
  toKey: string,
): { baseQuery: string; defaults: Record<string, string> } {
  const [params, setParams] = useSearchParams();
  const missing = !params.get(fromKey) && !params.get(toKey);
  const { from, to } = todayRange();
  useEffect(() => {
    if (!missing) return;
    setParams(
      (current) => {
        if (current.get(fromKey) || current.get(toKey)) return current;
        const next = new URLSearchParams([
          [fromKey, from],
          [toKey, to],
        ]);
        for (const [key, value] of current) next.append(key, value);
        return next;
      },
      { replace: true },
    );
  }, [missing, fromKey, toKey, from, to, setParams]);
  return {
    baseQuery: missing
      ? new URLSearchParams([
          [fromKey, from],
          [toKey, to],
        ]).toString()
      : '',
    // For the filter bar: its date fields show today from the first render (ListPage's defaultFilters).
    defaults: { [fromKey]: from, [toKey]: to },
  };
}
