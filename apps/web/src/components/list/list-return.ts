import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';

/** What a list hands to the setting page it opens, so the way back restores its filters, page and sort. */
interface ListReturnState {
  listSearch?: string;
}

/** Opens a setting page (Edit, New) carrying the list's search string. */
export function useOpenSetting() {
  const navigate = useNavigate();
  const { search } = useLocation();
  return useCallback(
    (path: string) => navigate(path, { state: { listSearch: search } satisfies ListReturnState }),
    [navigate, search],
  );
}

/** Returns from a setting page to `listPath` with the search string the list handed over, if any. */
export function useBackToList(listPath: string) {
  const navigate = useNavigate();
  const location = useLocation();
  const listSearch = (location.state as ListReturnState | null)?.listSearch ?? '';
  return useCallback(() => navigate(`${listPath}${listSearch}`), [navigate, listPath, listSearch]);
}
