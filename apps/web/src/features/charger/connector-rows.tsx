import { QrcodeOutlined } from '@ant-design/icons';
import { type Charger, type Connector, can, protocolText } from '@ev/shared';
import { useMutation } from '@tanstack/react-query';
import { Button, Flex, Table, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { lazy, Suspense, useState } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
import { useRole } from '../../lib/session.ts';
import { useOperation } from './charger-operations.tsx';
import { StatusTag } from './status-tag.tsx';

// The QR code library loads with its dialog, not with the charger screens.
const QrModal = lazy(() => import('./qr-modal.tsx').then((m) => ({ default: m.QrModal })));

type BlockerAction = 'open' | 'close';

/**
 * Open blocker / Close blocker (`POST /api/connector/{id}/{open|close}-blocker`), with the spec's notices and,
 * on failure, the server's reason (offline, rejected, no answer) as a second line.
 */
function BlockerButton({ connector, action }: { connector: Connector; action: BlockerAction }) {
  const send = useMutation({
    meta: { silent: true },
    mutationFn: () => api(`/connector/${connector.id}/${action}-blocker`, { method: 'POST' }),
    onSuccess: () => notify('success', `Send ${action} blocker successfully!`),
    onError: (error) =>
      notify(
        'error',
        'Failed!',
        <>
          Failed to send {action} blocker.
          <br />
          {error instanceof ApiError ? error.message : String(error)}
        </>,
      ),
  });
  const label = action === 'open' ? 'Open blocker' : 'Close blocker';
  return (
    <Button
      size="small"
      // The spec offers the blocker only where the connector has a number on it (judjodId).
      disabled={typeof connector.judjodId !== 'number'}
      loading={send.isPending}
      aria-label={`${label} ${connector.id}`}
      onClick={() => send.mutate()}
    >
      {label}
    </Button>
  );
}

/** What the charger said of itself at its last boot: vendor, model, firmware version. */
function BootInfo({ charger }: { charger: Charger }) {
  const facts = [
    ['Protocol', charger.protocol ? protocolText(charger.protocol) : null],
    ['Vendor', charger.vendor],
    ['Model', charger.model],
    ['Firmware', charger.firmwareVersion],
  ] as const;
  return (
    <Flex gap="large" wrap style={{ margin: '4px 0 8px' }} data-testid={`boot-info-${charger.id}`}>
      {facts.map(([label, value]) => (
        <Typography.Text key={label} type="secondary">
          {label}: <Typography.Text>{value ?? '-'}</Typography.Text>
        </Typography.Text>
      ))}
    </Flex>
  );
}

/**
 * Unlock from the list (issue 32: per connector in the expanded row, where it fits): a driver's stuck cable is
 * the call center's most frequent call; the charger's own answer is the notice, as on the charger's screen.
 */
function UnlockButton({ charger, connector }: { charger: Charger; connector: Connector }) {
  const operation = useOperation(charger.id);
  const n = connector.ocppConnectorId;
  return (
    <Button
      size="small"
      loading={operation.pending}
      aria-label={`Unlock ${connector.id}`}
      onClick={() =>
        operation.run({ what: `Unlock connector ${n}`, path: 'unlock', body: { connectorId: n } })
      }
    >
      Unlock
    </Button>
  );
}

/** A charger's connectors under its expanded row (with its boot facts): status, blockers, Unlock and the QR code. */
export function ConnectorRows({ charger }: { charger: Charger }) {
  const [qrOf, setQrOf] = useState<Connector | null>(null);
  const operate = can(useRole(), 'charger.operate');
  const columns: ColumnsType<Connector> = [
    { title: 'Connector Id', dataIndex: 'id', key: 'id', width: 130 },
    { title: 'Connector Name', dataIndex: 'nameEn', key: 'nameEn' },
    { title: 'Connector Type', dataIndex: 'connectorTypeName', key: 'connectorTypeName', width: 150 },
    {
      title: 'Charging Speed (kW)',
      dataIndex: 'maxPowerKw',
      key: 'maxPowerKw',
      align: 'right',
      width: 170,
      render: (kw: number) => kw.toFixed(2),
    },
    {
      title: 'Status',
      dataIndex: 'status',
      key: 'status',
      width: 150,
      render: (status: string, row) => <StatusTag status={status} errorCode={row.errorCode} />,
    },
    {
      title: 'Action',
      key: 'action',
      render: (_, row) => (
        <Flex gap={8} wrap>
          <BlockerButton connector={row} action="open" />
          <BlockerButton connector={row} action="close" />
          {operate && <UnlockButton charger={charger} connector={row} />}
          <Button
            size="small"
            icon={<QrcodeOutlined />}
            aria-label={`QR ${row.id}`}
            onClick={() => setQrOf(row)}
          >
            QR
          </Button>
        </Flex>
      ),
    },
  ];
  return (
    <div data-testid={`connectors-${charger.id}`}>
      <BootInfo charger={charger} />
      <Table<Connector>
        rowKey="id"
        size="small"
        columns={columns}
        dataSource={charger.connectors}
        pagination={false}
        locale={{ emptyText: 'No connectors' }}
      />
      {qrOf && (
        <Suspense fallback={null}>
          <QrModal chargerName={charger.nameEn} connector={qrOf} onClose={() => setQrOf(null)} />
        </Suspense>
      )}
    </div>
  );
}
