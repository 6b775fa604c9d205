import { ADMIN_ROLE_LABELS, ADMIN_ROLES, can, USER_MESSAGES, type UserListItem } from '@ev/shared';
import { Button, Form } from 'antd';
import { useMemo, useState } from 'react';
import { callbackActionColumn } from '../../components/list/columns.tsx';
import {
  ANY,
  MultiFilter,
  OneFilter,
  STATUS_OPTIONS,
  TextFilter,
} from '../../components/list/filter-fields.tsx';
import type { ListColumns } from '../../components/list/fit-columns.ts';
import { ListPage } from '../../components/list/list-page.tsx';
import { roleLabel } from '../../lib/format.ts';
import { useLandlordDropdown, useMerchantDropdown, usePartyDropdown } from '../../lib/reference.ts';
import { useRole } from '../../lib/session.ts';
import { AdminUserModal } from './admin-user-modal.tsx';
import { EMAIL_COLUMN, NAME_COLUMN, orDash, statusColumn } from './user-columns.tsx';

const ENDPOINT = '/user';
const FILTERS = {
  email: 'one',
  merchantId: 'many',
  partyId: 'many',
  landlordId: 'many',
  adminRole: 'one',
  active: 'one',
} as const;
const ROLE_OPTIONS = [ANY, ...ADMIN_ROLES.map((value) => ({ value, label: ADMIN_ROLE_LABELS[value] }))];

function AdminUserFilters() {
  const merchantIds: string[] = Form.useWatch('merchantId', Form.useFormInstance()) ?? [];
  const merchants = useMerchantDropdown();
  const parties = usePartyDropdown();
  const landlords = useLandlordDropdown(merchantIds);
  return (
    <>
      <TextFilter label="Email" name="email" placeholder="Username" />
      <MultiFilter label="Cluster Name" name="merchantId" placeholder="All clusters" items={merchants.data} />
      <MultiFilter
        label="Group Name"
        name="partyId"
        placeholder="All groups"
        items={parties.data}
        selectAll
      />
      <MultiFilter label="Site Name" name="landlordId" placeholder="All sites" items={landlords.data} />
      <OneFilter label="Role" name="adminRole" options={ROLE_OPTIONS} />
      <OneFilter label="Status" name="active" options={STATUS_OPTIONS} />
    </>
  );
}

/**
 * The user's email always shows; with less room the group goes first, then the site, the cluster, the role
 * and the name.
 */
function columnsFor(open: (user: UserListItem) => void, canWrite: boolean): ListColumns<UserListItem> {
  return [
    EMAIL_COLUMN,
    NAME_COLUMN,
    {
      title: 'Role',
      dataIndex: 'adminRole',
      key: 'adminRole',
      sorter: true,
      kind: 'label',
      priority: 2,
      render: roleLabel,
    },
    {
      title: 'Cluster Name',
      dataIndex: 'merchantNameEn',
      key: 'merchantNameEn',
      sorter: true,
      priority: 3,
      render: orDash,
    },
    {
      title: 'Group Name',
      dataIndex: 'partyNameEn',
      key: 'partyNameEn',
      sorter: true,
      priority: 5,
      render: orDash,
    },
    {
      title: 'Site Name',
      dataIndex: 'landlordNameEn',
      key: 'landlordNameEn',
      sorter: true,
      priority: 4,
      render: orDash,
    },
    statusColumn<UserListItem>(),
    callbackActionColumn<UserListItem>(ENDPOINT, {
      onOpen: open,
      nameOf: (user) => user.email,
      canDelete: canWrite,
    }),
  ];
}

/** Web Admin User (/web-admin): admin only. New User and Edit open a modal. */
export function AdminUserListPage() {
  const role = useRole();
  const canWrite = can(role, 'user.admin.write');
  const [editing, setEditing] = useState<UserListItem | 'new' | null>(null);
  const columns = useMemo(() => columnsFor(setEditing, canWrite), [canWrite]);
  return (
    <>
      <ListPage<UserListItem, typeof FILTERS>
        title="Web Admin User"
        endpoint={ENDPOINT}
        baseQuery="admin=true"
        itemsKey="users"
        filterSpec={FILTERS}
        filters={<AdminUserFilters />}
        exportSpec={{ fileName: 'User-Admin', notFoundMessage: USER_MESSAGES.adminNotFound }}
        actions={
          canWrite && (
            <Button type="primary" onClick={() => setEditing('new')}>
              New User
            </Button>
          )
        }
        columns={columns}
        rowKey="id"
      />
      {editing && (
        <AdminUserModal user={editing === 'new' ? undefined : editing} onClose={() => setEditing(null)} />
      )}
    </>
  );
}
