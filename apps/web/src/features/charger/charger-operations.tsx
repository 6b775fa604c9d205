import {
  AVAILABILITY_TYPES,
  type Charger,
  type ConfigurationResponse,
  type Connector,
  can,
  type OperationResponse,
  TRIGGER_MESSAGES,
  type TriggerMessage,
} from '@ev/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, Col, Flex, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useState } from 'react';
import { FormSection } from '../../components/form/fields.tsx';
import { ApiError, api } from '../../lib/api.ts';
import { notifyNotDone } from '../../lib/not-done.tsx';
import { notify } from '../../lib/notify.ts';
import { useRole } from '../../lib/session.ts';
import { DeviceModelPanel } from './device-model-panel.tsx';
import { LocalListPanel } from './local-list-panel.tsx';
import { StatusTag } from './status-tag.tsx';

/** How a charger's answer reads: done, done later, or not done (its own word in each case). */
export function noticeKind(status: string): 'success' | 'info' | 'warning' {
  if (status === 'Accepted' || status === 'Unlocked') return 'success';
  if (status === 'Scheduled' || status === 'RebootRequired') return 'info';
  return 'warning';
}

export interface Operation {
  /** What the notice calls it: 'Unlock connector 1'. */
  what: string;
  path: string;
  method?: 'POST' | 'PATCH';
  body?: unknown;
}

/** Sends one operation; the notice titles the charger's own answer, or says why it failed (offline, no answer). */
export function useOperation(chargerId: string, after?: () => void) {
  const send = useMutation({
    meta: { silent: true },
    mutationFn: (operation: Operation) =>
      api<OperationResponse>(`/charger/${encodeURIComponent(chargerId)}/${operation.path}`, {
        method: operation.method ?? 'POST',
        body: operation.body ?? {},
      }),
    onSuccess: (answer, operation) => {
      // The detail: the 2.0.1 charger's own word behind the 1.6 one, or why nothing was sent.
      const about = answer.detail ? `Charger ${chargerId}: ${answer.detail}` : `Charger ${chargerId}`;
      notify(noticeKind(answer.status), `${operation.what}: ${answer.status}`, about);
      after?.();
    },
    onError: (error, operation) => notifyNotDone(operation.what, error),
  });
  return {
    run: (operation: Operation) => send.mutate(operation),
    pending: send.isPending,
    sent: send.variables,
  };
}

function ConnectorOperations({
  connector,
  operation,
}: {
  connector: Connector;
  operation: ReturnType<typeof useOperation>;
}) {
  const n = connector.ocppConnectorId;
  const unavailable = connector.status === 'UNAVAILABLE';
  const busy = (what: string) => operation.pending && operation.sent?.what === what;
  const unlock = `Unlock connector ${n}`;
  const availability = `Connector ${n} ${unavailable ? 'Operative' : 'Inoperative'}`;
  const status = `Status of connector ${n}`;
  return (
    <Flex wrap gap="small" align="center" data-testid={`operations-connector-${n}`}>
      <Typography.Text strong style={{ minWidth: 110 }}>
        Connector {n}
      </Typography.Text>
      <Typography.Text type="secondary" ellipsis={{ tooltip: connector.nameEn }} style={{ maxWidth: 220 }}>
        {connector.nameEn}
      </Typography.Text>
      <StatusTag status={connector.status ?? ''} errorCode={connector.errorCode} />
      <Button
        size="small"
        loading={busy(unlock)}
        onClick={() => operation.run({ what: unlock, path: 'unlock', body: { connectorId: n } })}
      >
        Unlock
      </Button>
      <Button
        size="small"
        loading={busy(availability)}
        onClick={() =>
          operation.run({
            what: availability,
            path: 'availability',
            body: { connectorId: n, type: unavailable ? 'Operative' : 'Inoperative' },
          })
        }
      >
        {unavailable ? 'Make operative' : 'Make inoperative'}
      </Button>
      <Button
        size="small"
        loading={busy(status)}
        onClick={() =>
          operation.run({
            what: status,
            path: 'trigger',
            body: { requestedMessage: 'StatusNotification', connectorId: n },
          })
        }
      >
        Ask status
      </Button>
    </Flex>
  );
}

/** GetConfiguration's keys, and a change of one (admin). */
function ConfigurationPanel({ chargerId }: { chargerId: string }) {
  const [open, setOpen] = useState(false);
  const [key, setKey] = useState<string | undefined>();
  const [value, setValue] = useState('');
  const path = `/charger/${encodeURIComponent(chargerId)}/configuration`;
  const configuration = useQuery({
    meta: { silent: true },
    queryKey: ['charger', 'configuration', chargerId],
    queryFn: () => api<ConfigurationResponse>(path),
    enabled: open,
    retry: false,
    staleTime: 0,
  });
  const operation = useOperation(chargerId, () => void configuration.refetch());
  if (!open) {
    return (
      <Button onClick={() => setOpen(true)} data-testid="read-configuration">
        Read configuration
      </Button>
    );
  }
  if (configuration.data?.protocol === 'ocpp2.0.1')
    return <DeviceModelPanel chargerId={chargerId} configuration={configuration} operation={operation} />;
  const keys = configuration.data?.configurationKey ?? [];
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Flex gap="small" align="center" wrap>
        <Button onClick={() => void configuration.refetch()} loading={configuration.isFetching}>
          Read again
        </Button>
        {configuration.isError && (
          <Typography.Text type="danger">
            {configuration.error instanceof ApiError ? configuration.error.message : 'Not read'}
          </Typography.Text>
        )}
      </Flex>
      <Table
        size="small"
        rowKey="key"
        pagination={false}
        scroll={{ y: 320 }}
        loading={configuration.isFetching}
        dataSource={keys}
        columns={[
          { title: 'Key', dataIndex: 'key', key: 'key' },
          { title: 'Value', dataIndex: 'value', key: 'value', render: (text: string | null) => text ?? '-' },
          {
            title: 'Read-only',
            dataIndex: 'readonly',
            key: 'readonly',
            width: 110,
            render: (readonly: boolean) => (readonly ? <Tag>Read-only</Tag> : null),
          },
        ]}
        data-testid="configuration-keys"
      />
      {(configuration.data?.unknownKey.length ?? 0) > 0 && (
        <Typography.Text type="secondary">
          Unknown keys: {configuration.data?.unknownKey.join(', ')}
        </Typography.Text>
      )}
      <Flex gap="small" wrap align="center">
        <Select
          showSearch
          allowClear
          placeholder="Key to change"
          aria-label="Key to change"
          style={{ minWidth: 260 }}
          value={key}
          onChange={(chosen: string | undefined) => {
            setKey(chosen);
            setValue(keys.find((entry) => entry.key === chosen)?.value ?? '');
          }}
          options={keys
            .filter((entry) => !entry.readonly)
            .map((entry) => ({ value: entry.key, label: entry.key }))}
        />
        <Input
          aria-label="New value"
          placeholder="New value"
          style={{ width: 260 }}
          maxLength={500}
          value={value}
          onChange={(event) => setValue(event.target.value)}
        />
        <Button
          type="primary"
          disabled={!key}
          loading={operation.pending}
          onClick={() =>
            key &&
            operation.run({
              what: `Change ${key}`,
              path: 'configuration',
              method: 'PATCH',
              body: { key, value },
            })
          }
        >
          Change
        </Button>
      </Flex>
    </Space>
  );
}

/**
 * Operations on the charger (issue 32): per connector unlock, availability and a status request; for the whole
 * charger a soft or hard reset, availability, a triggered message and the authorization cache; the
 * configuration for the admin. The connectors' statuses refresh every few seconds, so a change the charger
 * reports shows here.
 */
export function ChargerOperations({ charger }: { charger: Charger }) {
  const role = useRole();
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [message, setMessage] = useState<TriggerMessage>('StatusNotification');
  const live = useQuery({
    queryKey: ['charger', 'operations', charger.id],
    queryFn: () =>
      api<{ charger: Charger }>(`/charger/${encodeURIComponent(charger.id)}`).then((body) => body.charger),
    refetchInterval: 3000,
    initialData: charger,
  });
  const refresh = () =>
    setTimeout(
      () => void queryClient.invalidateQueries({ queryKey: ['charger', 'operations', charger.id] }),
      500,
    );
  const operation = useOperation(charger.id, refresh);
  if (!can(role, 'charger.operate')) return null;
  const admin = can(role, 'charger.configure');
  const current = live.data ?? charger;
  const confirmReset = (type: 'Soft' | 'Hard') =>
    modal.confirm({
      title: `${type} reset ${charger.id}?`,
      content:
        type === 'Hard'
          ? 'The charger restarts at once: a session in progress stops.'
          : 'The charger restarts once its sessions have ended.',
      okText: `${type} reset`,
      onOk: () => operation.run({ what: `${type} reset`, path: 'reset', body: { type } }),
    });
  return (
    <FormSection title="Operations">
      <Col span={24}>
        <Space
          direction="vertical"
          size="middle"
          style={{ width: '100%', marginBottom: 24 }}
          data-testid="charger-operations"
        >
          {current.connectors.map((connector) => (
            <ConnectorOperations key={connector.id} connector={connector} operation={operation} />
          ))}
          <Flex wrap gap="small" align="center">
            <Typography.Text strong style={{ minWidth: 110 }}>
              Charger
            </Typography.Text>
            <Button size="small" onClick={() => confirmReset('Soft')}>
              Soft reset
            </Button>
            {admin && (
              <Button size="small" danger onClick={() => confirmReset('Hard')}>
                Hard reset
              </Button>
            )}
            {[...AVAILABILITY_TYPES].reverse().map((type) => (
              <Button
                key={type}
                size="small"
                onClick={() =>
                  operation.run({
                    what: `Charger ${type}`,
                    path: 'availability',
                    body: { connectorId: 0, type },
                  })
                }
              >
                All {type.toLowerCase()}
              </Button>
            ))}
            {admin && (
              <Button
                size="small"
                onClick={() => operation.run({ what: 'Clear authorization cache', path: 'clear-cache' })}
              >
                Clear cache
              </Button>
            )}
          </Flex>
          <Flex wrap gap="small" align="center">
            <Typography.Text strong style={{ minWidth: 110 }}>
              Trigger
            </Typography.Text>
            <Select
              size="small"
              aria-label="Message to trigger"
              style={{ minWidth: 260 }}
              value={message}
              onChange={setMessage}
              options={TRIGGER_MESSAGES.map((value) => ({ value, label: value }))}
            />
            <Button
              size="small"
              onClick={() =>
                operation.run({
                  what: `Trigger ${message}`,
                  path: 'trigger',
                  body: { requestedMessage: message },
                })
              }
            >
              Send
            </Button>
          </Flex>
          {can(role, 'charger.local-list') && <LocalListPanel chargerId={charger.id} />}
          {admin && <ConfigurationPanel chargerId={charger.id} />}
        </Space>
      </Col>
    </FormSection>
  );
}
