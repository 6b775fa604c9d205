import { userStatusLabel } from '@ev/shared';
import { Tag } from 'antd';
import type { ColumnType } from 'antd/es/table/interface';

/** 'Status' of both user lists: Available (active) or Locked (document 2, section 4); sorts on `active`. */
export function statusColumn<T extends { active: boolean }>(): ColumnType<T> {
  return {
    title: 'Status',
    dataIndex: 'active',
    key: 'active',
    sorter: true,
    // With the Action column, stays in view when a wide list scrolls sideways (as the kit's active switch).
    fixed: 'right',
    render: (active: boolean) => <Tag color={active ? 'green' : 'red'}>{userStatusLabel(active)}</Tag>,
  };
}

/** 'Verify Email' and 'Verify Mobile Number': Verified or Not Verified. */
export function verifiedColumn<T>(title: string, key: keyof T & string): ColumnType<T> {
  return {
    title,
    dataIndex: key,
    key,
    sorter: true,
    render: (verified: boolean) => (verified ? <Tag color="blue">Verified</Tag> : <Tag>Not Verified</Tag>),
  };
}

/** The text of a cell that may be empty. */
export const orDash = (value: string | null | undefined) => (value ? value : '-');
