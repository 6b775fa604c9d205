import type { UserListItem } from '@ev/shared';
import { useQuery } from '@tanstack/react-query';
import { Form, Select } from 'antd';
import { useEffect, useState } from 'react';
import { api } from '../../lib/api.ts';

/** How many staff users one search offers. */
const MATCHES = 20;
const TYPING_PAUSE_MS = 300;

function useSettled(value: string, ms: number): string {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setSettled(value), ms);
    return () => clearTimeout(timer);
  }, [value, ms]);
  return settled;
}

/** '' (no choice) shows the placeholder, and clearing the select chooses it again (the filter kit's way). */
const emptyAsNone = (value: string | undefined) => ({ value: value || undefined });
const noneAsEmpty = (value: string | undefined) => value ?? '';

/**
 * The User filter: the staff user who acted, found by typing part of their email. There is no dropdown of
 * users: the Web Admin User list's email filter (`GET /api/user?admin=true&email=`) answers the search, and
 * the filter sends the chosen user's id (`userId`).
 */
export function UserFilter() {
  const [typed, setTyped] = useState('');
  const search = useSettled(typed.trim(), TYPING_PAUSE_MS);
  const users = useQuery({
    queryKey: ['audit', 'users', search],
    queryFn: ({ signal }) =>
      api<{ users: UserListItem[] }>(
        `/user?${new URLSearchParams({ admin: 'true', page: '1', size: String(MATCHES), sort: 'email', order: 'asc', ...(search ? { email: search } : {}) })}`,
        { signal },
      ).then((body) => body.users),
    staleTime: 30_000,
  });
  const options = (users.data ?? []).map((user) => ({ value: String(user.id), label: user.email }));
  return (
    <Form.Item
      label="User"
      name="userId"
      style={{ marginBottom: 0 }}
      getValueProps={emptyAsNone}
      normalize={noneAsEmpty}
    >
      <Select
        allowClear
        showSearch={{ filterOption: false, onSearch: setTyped, searchValue: typed }}
        placeholder="Any user (type an email)"
        loading={users.isFetching}
        options={options}
        // A user chosen before (the URL) who is not among this search's matches: shown by id.
        labelRender={({ value, label }) => label ?? `User #${value}`}
        onClear={() => setTyped('')}
        onBlur={() => setTyped('')}
        notFoundContent={users.isFetching ? 'Searching…' : 'No matching user'}
      />
    </Form.Item>
  );
}
