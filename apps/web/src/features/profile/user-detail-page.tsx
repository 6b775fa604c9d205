import { allowed } from '@ev/shared';
import { Button, Card, Descriptions, Flex, Grid, Skeleton, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useState } from 'react';
import { useSuccessPopup } from '../../components/success-popup.ts';
import { ApiError } from '../../lib/api.ts';
import { fullName, roleLabel } from '../../lib/format.ts';
import { notify, notifyInfo } from '../../lib/notify.ts';
import { useSelfQuery } from '../../lib/self.ts';
import { useSession } from '../../lib/session.ts';
import { PEA_NOT_CONFIGURED_STATUS, usePeaToken, useReloadSelf } from './api.ts';
import { NameModal } from './name-modal.tsx';
import { PasswordModal } from './password-modal.tsx';

export const MASKED_PASSWORD = '********';

function Row({ value, onEdit, editLabel }: { value: ReactNode; onEdit?: () => void; editLabel?: string }) {
  return (
    <Flex justify="space-between" align="center" gap={16} wrap>
      <span className="user-detail-value">{value}</span>
      {onEdit && (
        <Button type="link" onClick={onEdit} aria-label={editLabel} style={{ paddingInline: 0 }}>
          Edit
        </Button>
      )}
    </Flex>
  );
}

export function UserDetailPage() {
  const self = useSelfQuery();
  const signedIn = useSession();
  const user = self.data ?? signedIn?.user;
  const [editing, setEditing] = useState<'name' | 'password' | null>(null);
  const showSuccess = useSuccessPopup();
  const reloadSelf = useReloadSelf();
  const pea = usePeaToken();
  // Phones get the labels above the values: side by side leaves the values too narrow.
  const wide = Grid.useBreakpoint().sm ?? true;

  const afterSave = async () => {
    await showSuccess();
    await reloadSelf();
  };

  const seePeaToken = () =>
    pea.mutate(undefined, {
      onSuccess: ({ token, tokenC }) =>
        notifyInfo({
          title: 'PEA Token',
          duration: 0,
          description: (
            <Flex vertical gap={4}>
              <Typography.Text copyable={{ text: token }}>token: {token}</Typography.Text>
              <Typography.Text copyable={{ text: tokenC }}>tokenC: {tokenC}</Typography.Text>
            </Flex>
          ),
        }),
      // The generic notice covers every other failure (the query client's handler).
      onError: (error) => {
        if (error instanceof ApiError && error.status === PEA_NOT_CONFIGURED_STATUS) {
          notify('warning', 'PEA Token', error.message);
        }
      },
    });

  if (!user) {
    return (
      <Card>
        <Skeleton active />
      </Card>
    );
  }

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          User Detail
        </Typography.Title>
      }
    >
      <Descriptions
        bordered
        column={1}
        layout={wide ? 'horizontal' : 'vertical'}
        styles={wide ? { label: { width: 180 } } : undefined}
        items={[
          {
            key: 'name',
            label: 'Name-Surname',
            children: (
              <Row value={fullName(user)} onEdit={() => setEditing('name')} editLabel="Edit Name-Surname" />
            ),
          },
          { key: 'email', label: 'Email', children: <Row value={user.email} /> },
          { key: 'role', label: 'Role', children: <Row value={roleLabel(user.adminRole)} /> },
          {
            key: 'password',
            label: 'Password',
            children: (
              <Row value={MASKED_PASSWORD} onEdit={() => setEditing('password')} editLabel="Edit Password" />
            ),
          },
        ]}
      />
      {allowed(user.adminRole, 'seePeaToken') && (
        <Button
          type="link"
          onClick={seePeaToken}
          loading={pea.isPending}
          style={{ paddingInline: 0, marginTop: 16 }}
        >
          See pea token
        </Button>
      )}
      {editing === 'name' && (
        <NameModal user={user} onClose={() => setEditing(null)} onSaved={() => void afterSave()} />
      )}
      {editing === 'password' && (
        <PasswordModal onClose={() => setEditing(null)} onSaved={() => void afterSave()} />
      )}
    </Card>
  );
}
