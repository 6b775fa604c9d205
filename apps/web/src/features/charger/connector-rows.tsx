import { QrcodeOutlined } from '@ant-design/icons';
import type { Charger, Connector } from '@ev/shared';
import { useMutation } from '@tanstack/react-query';
import { Button, Flex, Table } from 'antd';
import type { ColumnsType } from 'antd/es/table/interface';
import { lazy, Suspense, useState } from 'react';
import { ApiError, api } from '../../lib/api.ts';
import { notify } from '../../lib/notify.ts';
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

/** A charger's connectors under its expanded row: status, blockers and the QR code. */
export function ConnectorRows({ charger }: { charger: Charger }) {
  const [qrOf, setQrOf] = useState<Connector | null>(null);
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
