import { type UserListItem, userStatusLabel } from '@ev/shared';
import { Tag } from 'antd';
import { TAG_CHROME } from '../../components/list/content-width.ts';
import type { ListColumn } from '../../components/list/fit-columns.ts';
import { fullName } from '../../lib/format.ts';

/** 'Email' of both user lists: the user's identity, it always shows. */
export const EMAIL_COLUMN: ListColumn<UserListItem> = {
  title: 'Email',
  dataIndex: 'email',
  key: 'email',
  sorter: true,
};

/** 'Name-Surname' of both user lists; sorts on `name`. The last column but the email to give way. */
export const NAME_COLUMN: ListColumn<UserListItem> = {
  title: 'Name-Surname',
  key: 'name',
  sorter: true,
  priority: 1,
  render: (_, user) => fullName(user),
};

/** 'Status' of both user lists: Available (active) or Locked (document 2, section 4); sorts on `active`. */
export function statusColumn<T extends { active: boolean }>(): ListColumn<T> {
  return {
    title: 'Status',
    dataIndex: 'active',
    key: 'active',
    sorter: true,
    // With the Action column, stays in view when a wide list scrolls sideways (as the kit's active switch).
    fixed: 'right',
    kind: 'label',
    textOf: (row) => userStatusLabel(row.active),
    chrome: TAG_CHROME,
    render: (active: boolean) => <Tag color={active ? 'green' : 'red'}>{userStatusLabel(active)}</Tag>,
  };
}

/** 'Verify Email' and 'Verify Mobile Number': Verified or Not Verified. */
export function verifiedColumn<T>(title: string, key: keyof T & string, priority: number): ListColumn<T> {
  return {
    title,
    dataIndex: key,
    key,
    sorter: true,
    kind: 'label',
    textOf: (row) => (row[key] ? 'Verified' : 'Not Verified'),
    chrome: TAG_CHROME,
    priority,
    render: (verified: boolean) => (verified ? <Tag color="blue">Verified</Tag> : <Tag>Not Verified</Tag>),
  };
}

/** The text of a cell that may be empty. */
export const orDash = (value: string | null | undefined) => (value ? value : '-');
