import type { ConfigurationResponse, DeviceVariable } from '@ev/shared';
import type { UseQueryResult } from '@tanstack/react-query';
import { Button, Flex, Input, Select, Space, Table, Tag, Typography } from 'antd';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ApiError } from '../../lib/api.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import type { useOperation } from './charger-operations.tsx';

/** How long the screen waits for a report it asked for: a charger sends its model in seconds, a large one in a minute. */
const REPORT_WAIT_MS = 90_000;
const POLL_MS = 2000;

const writable = (variable: DeviceVariable) =>
  variable.mutability === 'ReadWrite' || variable.mutability === 'WriteOnly';

/** 'EVSE 1', 'EVSE 1 / connector 2', or nothing for the station as a whole. */
const whereOf = (variable: DeviceVariable) =>
  variable.evseId === null
    ? ''
    : `EVSE ${variable.evseId}${variable.evseConnectorId === null ? '' : ` / connector ${variable.evseConnectorId}`}`;

/** 'OCPPCommCtrlr', 'Connector [x] · EVSE 1 / connector 2'; an EVSE component is named by its EVSE alone. */
const componentText = (variable: DeviceVariable) => {
  const where = whereOf(variable);
  if (variable.component === 'EVSE' && where && !variable.componentInstance) return where;
  const name = variable.component + (variable.componentInstance ? ` [${variable.componentInstance}]` : '');
  return where ? `${name} · ${where}` : name;
};
const variableText = (variable: DeviceVariable) =>
  variable.variable +
  (variable.variableInstance ? ` [${variable.variableInstance}]` : '') +
  (variable.attributeType === 'Actual' ? '' : ` (${variable.attributeType})`);

/**
 * An OCPP 2.0.1 charger's configuration: its device model as its last report (NotifyReport) gave it, shown
 * at once with the report's time; none yet, the charger is asked for one (GetBaseReport) as the panel opens,
 * and Refresh asks again; the panel reads every 2 s until the new report is in. A ReadWrite variable can be
 * changed (SetVariables), by picking it in the list or below.
 */
export function DeviceModelPanel({
  chargerId,
  configuration,
  operation,
}: {
  chargerId: string;
  configuration: UseQueryResult<ConfigurationResponse>;
  operation: ReturnType<typeof useOperation>;
}) {
  const variables = configuration.data?.variables ?? [];
  const reportedAt = configuration.data?.reportedAt ?? null;
  const [waiting, setWaiting] = useState<{ since: number; before: string | null } | null>(null);
  const [search, setSearch] = useState('');
  const [key, setKey] = useState<string | undefined>();
  const [value, setValue] = useState('');
  const asked = useRef(false);

  const askReport = () => {
    setWaiting({ since: Date.now(), before: reportedAt });
    operation.run({ what: 'Ask for the device model report', path: 'configuration/report' });
  };
  // No report stored: ask for one as the panel opens (once).
  useEffect(() => {
    if (configuration.data && reportedAt === null && !asked.current) {
      asked.current = true;
      askReport();
    }
  });
  // Read again until the report is in (or it is not coming).
  const { refetch } = configuration;
  useEffect(() => {
    if (!waiting) return;
    if (reportedAt !== waiting.before || Date.now() - waiting.since > REPORT_WAIT_MS) {
      setWaiting(null);
      return;
    }
    const timer = setTimeout(() => void refetch(), POLL_MS);
    return () => clearTimeout(timer);
  }, [waiting, reportedAt, refetch]);

  const shown = useMemo(() => {
    const words = search.trim().toLowerCase();
    return words
      ? variables.filter((v) => `${v.key} ${v.value ?? ''}`.toLowerCase().includes(words))
      : variables;
  }, [variables, search]);
  const choose = (chosen: string | undefined) => {
    setKey(chosen);
    setValue(variables.find((v) => v.key === chosen)?.value ?? '');
  };

  return (
    <Space direction="vertical" style={{ width: '100%' }} data-testid="device-model">
      <Flex gap="small" align="center" wrap>
        <Typography.Text>
          {reportedAt
            ? `Device model reported ${formatThaiDateTime(reportedAt)}`
            : 'No device model report yet.'}
        </Typography.Text>
        <Button onClick={askReport} loading={waiting !== null}>
          Refresh
        </Button>
        {waiting && <Typography.Text type="secondary">Waiting for the charger's report…</Typography.Text>}
        {configuration.isError && (
          <Typography.Text type="danger">
            {configuration.error instanceof ApiError ? configuration.error.message : 'Not read'}
          </Typography.Text>
        )}
        <Input.Search
          allowClear
          size="small"
          placeholder="Find a variable"
          aria-label="Find a variable"
          style={{ width: 240, marginInlineStart: 'auto' }}
          onChange={(event) => setSearch(event.target.value)}
        />
      </Flex>
      <Table<DeviceVariable>
        size="small"
        rowKey="key"
        pagination={false}
        scroll={{ y: 360 }}
        dataSource={shown}
        locale={{ emptyText: 'No Data yet!' }}
        columns={[
          {
            title: 'Component',
            key: 'component',
            ellipsis: true,
            render: (_, variable) => componentText(variable),
          },
          {
            title: 'Variable',
            key: 'variable',
            ellipsis: true,
            render: (_, variable) => variableText(variable),
          },
          {
            title: 'Value',
            dataIndex: 'value',
            key: 'value',
            ellipsis: true,
            render: (text: string | null, variable) =>
              (text ?? '-') + (variable.unit ? ` ${variable.unit}` : ''),
          },
          {
            title: 'Mutability',
            dataIndex: 'mutability',
            key: 'mutability',
            width: 110,
            render: (mutability: string | null) =>
              mutability === 'ReadOnly' ? <Tag>Read-only</Tag> : (mutability ?? '-'),
          },
          {
            title: '',
            key: 'edit',
            width: 70,
            render: (_, variable) =>
              writable(variable) ? (
                <Button size="small" type="link" onClick={() => choose(variable.key)}>
                  Edit
                </Button>
              ) : null,
          },
        ]}
        data-testid="device-model-variables"
      />
      <Flex gap="small" wrap align="center">
        <Select
          showSearch
          allowClear
          placeholder="Variable to change"
          aria-label="Variable to change"
          style={{ minWidth: 320 }}
          value={key}
          onChange={choose}
          options={variables.filter(writable).map((v) => ({ value: v.key, label: v.key }))}
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
          loading={operation.pending && operation.sent?.path === 'configuration'}
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
      <Typography.Text type="secondary">
        Charger {chargerId} speaks OCPP 2.0.1: its configuration is its device model (components and
        variables).
      </Typography.Text>
    </Space>
  );
}
