import {
  can,
  PARTNER_USER_TYPE_LABELS,
  PARTNER_USER_TYPES,
  type PartnerUserType,
  USER_MESSAGES,
  type UserListItem,
} from '@ev/shared';
import { Button } from 'antd';
import { useMemo, useState } from 'react';
import { callbackActionColumn } from '../../components/list/columns.tsx';
import { ANY, OneFilter, TextFilter } from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { useRole } from '../../lib/session.ts';
import { MobileUserModal } from './mobile-user-modal.tsx';
import { EMAIL_COLUMN, NAME_COLUMN, orDash, statusColumn, verifiedColumn } from './user-columns.tsx';

const ENDPOINT = '/user';
const FILTERS = {
  name: 'one',
  email: 'one',
  emailVerified: 'one',
  tel: 'one',
  telVerified: 'one',
  type: 'one',
} as const;
const VERIFY_OPTIONS = [ANY, { value: 'true', label: 'Verified' }, { value: 'false', label: 'Not Verified' }];
/** 'Any' plus the mobile user types (docs/spec-deviations.md: the spec's 'Any Role plus the roles'). */
const TYPE_OPTIONS = [
  ANY,
  ...PARTNER_USER_TYPES.map((value) => ({ value, label: PARTNER_USER_TYPE_LABELS[value] })),
];

function MobileUserFilters() {
  return (
    <>
      <TextFilter label="Name-Surname" name="name" />
      <TextFilter label="Email" name="email" />
      <OneFilter label="Verify Email" name="emailVerified" options={VERIFY_OPTIONS} />
      <TextFilter label="Mobile Number" name="tel" />
      <OneFilter label="Verify Mobile Number" name="telVerified" options={VERIFY_OPTIONS} />
      <OneFilter label="Type" name="type" options={TYPE_OPTIONS} />
    </>
  );
}

/**
 * The user's email always shows; with less room the verifications go first, then the type, the mobile
 * number and the name.
 */
function columnsFor(open: (user: UserListItem) => void, canWrite: boolean): ListColumns<UserListItem> {
  return [
    {
      title: 'Type',
      dataIndex: 'partnerUserType',
      key: 'partnerUserType',
      sorter: true,
      kind: 'label',
      priority: 3,
      render: (type: PartnerUserType | null) => PARTNER_USER_TYPE_LABELS[type ?? 'mobile'],
    },
    NAME_COLUMN,
    EMAIL_COLUMN,
    verifiedColumn<UserListItem>('Verify Email', 'emailVerified', 4),
    {
      title: 'Mobile Number',
      dataIndex: 'tel',
      key: 'tel',
      sorter: true,
      kind: 'code',
      priority: 2,
      render: orDash,
    },
    verifiedColumn<UserListItem>('Verify Mobile Number', 'telVerified', 5),
    statusColumn<UserListItem>(),
    callbackActionColumn<UserListItem>(ENDPOINT, {
      onOpen: open,
      nameOf: (user) => user.email,
      canDelete: canWrite,
    }),
  ];
}

/** Member Mobile User (/member-mobile-user): admin and callcenter. New and Edit open a modal. */
export function MobileUserListPage() {
  const role = useRole();
  const canWrite = can(role, 'user.mobile.write');
  // The row being edited, 'new', or nothing: the modal is mounted only while open.
  const [editing, setEditing] = useState<UserListItem | 'new' | null>(null);
  const columns = useMemo(() => columnsFor(setEditing, canWrite), [canWrite]);
  return (
    <>
      <ListPage<UserListItem, typeof FILTERS>
        title="Member Mobile User"
        endpoint={ENDPOINT}
        baseQuery="admin=false"
        itemsKey="users"
        filterSpec={FILTERS}
        filters={<MobileUserFilters />}
        exportSpec={{ fileName: 'User-Mobile', notFoundMessage: USER_MESSAGES.mobileNotFound }}
        actions={
          canWrite && (
            <Button type="primary" onClick={() => setEditing('new')}>
              New Mobile User
            </Button>
          )
        }
        columns={columns}
        rowKey="id"
      />
      {editing && (
        <MobileUserModal user={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
