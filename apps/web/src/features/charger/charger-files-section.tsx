import {
  type Charger,
  type ChargerFile,
  type ChargerFileKind,
  type ChargerFileRequest,
  can,
  type DiagnosticsResponse,
  type OperationResponse,
} from '@ev/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Button, Col, DatePicker, Flex, Select, Space, Steps, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { ChargerFileTable } from '../../components/charger-file-table.tsx';
import { FormSection } from '../../components/form/fields.tsx';
import { bangkokInstantField } from '../../components/form/instant-field.ts';
import { api } from '../../lib/api.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import { notifyNotDone } from '../../lib/not-done.tsx';
import { notify } from '../../lib/notify.ts';
import { useRole } from '../../lib/session.ts';
import { noticeKind } from './charger-operations.tsx';
import { requestOutcome, stepItems } from './file-steps.ts';

/** While a request is open its steps are asked for every 2 s. */
const POLL_MS = 2000;

const chargerPath = (chargerId: string, what: string) => `/charger/${encodeURIComponent(chargerId)}/${what}`;

/** The charger's latest requests of one kind, polled while the newest is open. */
function useRequests(chargerId: string, kind: ChargerFileKind) {
  return useQuery({
    meta: { silent: true },
    queryKey: ['charger', chargerId, 'requests', kind],
    queryFn: () =>
      api<{ requests: ChargerFileRequest[] }>(`${chargerPath(chargerId, kind)}?size=5`).then(
        (body) => body.requests,
      ),
    refetchInterval: (query) => (query.state.data?.[0]?.open ? POLL_MS : false),
    staleTime: 0,
  });
}

function RequestSteps({ kind, request }: { kind: ChargerFileKind; request: ChargerFileRequest }) {
  const items = stepItems(kind, request);
  // The step under way, else the last one reached: antd draws it as the current one.
  const current = Math.max(
    items.findIndex((item) => item.state === 'process'),
    items.findLastIndex((item) => item.state !== 'wait'),
  );
  return (
    <Steps
      size="small"
      current={Math.max(current, 0)}
      data-testid={`${kind}-steps`}
      items={items.map((item) => ({
        title: item.title,
        status: item.state,
        description: item.at ? formatThaiDateTime(item.at) : undefined,
      }))}
    />
  );
}

/** Sends UpdateFirmware or GetDiagnostics; the notice titles the charger's answer; the requests refresh. */
function useFileCommand<T extends { status: string }>(
  chargerId: string,
  kind: ChargerFileKind,
  what: string,
  send: () => Promise<T>,
  describe: (answer: T) => string,
) {
  const queryClient = useQueryClient();
  return useMutation({
    meta: { silent: true },
    mutationFn: send,
    onSuccess: (answer) => notify(noticeKind(answer.status), `${what}: ${answer.status}`, describe(answer)),
    onError: (error) => notifyNotDone(what, error),
    onSettled: () =>
      void queryClient.invalidateQueries({ queryKey: ['charger', chargerId, 'requests', kind] }),
  });
}

/** The newest request: who asked when, how it went, and its steps as they come. */
function LatestRequest({
  kind,
  request,
}: {
  kind: ChargerFileKind;
  request: ChargerFileRequest | undefined;
}) {
  if (!request) return <Typography.Text type="secondary">None sent yet.</Typography.Text>;
  const file =
    kind === 'firmware' ? `${request.fileName ?? '(deleted file)'} (${request.version ?? '-'})` : null;
  return (
    <Space direction="vertical" size={8} style={{ width: '100%' }} data-testid={`${kind}-request`}>
      <Typography.Text>
        {formatThaiDateTime(request.requestedAt)}
        {file && <> · {file}</>}
        {request.requestedByEmail && <> · by {request.requestedByEmail}</>}
        {' · '}
        <Typography.Text strong data-testid={`${kind}-outcome`}>
          {requestOutcome(request)}
        </Typography.Text>
      </Typography.Text>
      {(request.answer === 'Accepted' || request.answer === 'Timeout' || request.answer === null) && (
        <RequestSteps kind={kind} request={request} />
      )}
    </Space>
  );
}

function FirmwarePart({ charger }: { charger: Charger }) {
  const queryClient = useQueryClient();
  const [fileId, setFileId] = useState<number | undefined>();
  const [retrieveDate, setRetrieveDate] = useState<string | undefined>();
  const files = useQuery({
    queryKey: ['charger-file', 'firmware'],
    queryFn: () =>
      api<{ files: ChargerFile[] }>('/charger-file?kind=firmware&size=100').then((body) => body.files),
    staleTime: 0,
  });
  const requests = useRequests(charger.id, 'firmware');
  // Installed: the charger rebooted with the new version, which its record now shows (Connection info).
  const installed = requests.data?.[0]?.status === 'Installed';
  useEffect(() => {
    if (installed) void queryClient.invalidateQueries({ queryKey: ['/charger', 'detail', charger.id] });
  }, [installed, queryClient, charger.id]);
  // The charger's brand's files first (newest first within each group, as the server lists them).
  const offered = [...(files.data ?? [])].sort(
    (a, b) =>
      Number(b.chargerBrandId === charger.chargerBrandId) -
      Number(a.chargerBrandId === charger.chargerBrandId),
  );
  const chosen = fileId ?? offered[0]?.id;
  const update = useFileCommand(
    charger.id,
    'firmware',
    'Update firmware',
    () =>
      api<OperationResponse>(chargerPath(charger.id, 'firmware'), {
        method: 'POST',
        body: { fileId: chosen, ...(retrieveDate ? { retrieveDate } : {}) },
      }),
    () => `Charger ${charger.id}`,
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Flex wrap gap="small" align="center">
        <Typography.Text strong style={{ minWidth: 110 }}>
          Firmware
        </Typography.Text>
        <Select
          aria-label="Firmware file"
          placeholder="No firmware file uploaded"
          style={{ minWidth: 320 }}
          loading={files.isLoading}
          value={chosen}
          onChange={setFileId}
          options={offered.map((file) => ({
            value: file.id,
            label: `${file.name} (${file.version ?? '-'})${file.chargerBrandName ? ` · ${file.chargerBrandName}` : ''}`,
          }))}
        />
        <DatePicker
          aria-label="Retrieve date"
          placeholder="Retrieve now"
          showTime={{ format: 'HH:mm' }}
          format="DD/MM/YYYY HH:mm"
          value={bangkokInstantField.getValueProps(retrieveDate).value}
          onChange={(value) => setRetrieveDate(bangkokInstantField.normalize(value))}
        />
        <Button
          type="primary"
          disabled={chosen === undefined}
          loading={update.isPending}
          onClick={() => update.mutate()}
        >
          Update
        </Button>
        <Typography.Text type="secondary">Files are uploaded on the Charger Brand screen.</Typography.Text>
      </Flex>
      <LatestRequest kind="firmware" request={requests.data?.[0]} />
    </Space>
  );
}

function DiagnosticsPart({ charger }: { charger: Charger }) {
  const requests = useRequests(charger.id, 'diagnostics');
  const latest = requests.data?.[0];
  const files = useQuery({
    meta: { silent: true },
    queryKey: ['charger', charger.id, 'files'],
    queryFn: () =>
      api<{ files: ChargerFile[] }>(`${chargerPath(charger.id, 'file')}?size=5`).then((body) => body.files),
    staleTime: 0,
  });
  // A new step (Uploaded) may come with a new file.
  const { refetch } = files;
  useEffect(() => {
    if (latest?.status) void refetch();
  }, [latest?.status, refetch]);
  const request = useFileCommand(
    charger.id,
    'diagnostics',
    'Request diagnostics',
    () => api<DiagnosticsResponse>(chargerPath(charger.id, 'diagnostics'), { method: 'POST', body: {} }),
    (answer) =>
      answer.status !== 'Accepted'
        ? `Charger ${charger.id}`
        : answer.fileName
          ? `Charger ${charger.id} uploads ${answer.fileName}`
          : `Charger ${charger.id} has no diagnostics to upload.`,
  );
  return (
    <Space direction="vertical" size="middle" style={{ width: '100%' }}>
      <Flex wrap gap="small" align="center">
        <Typography.Text strong style={{ minWidth: 110 }}>
          Diagnostics
        </Typography.Text>
        <Button loading={request.isPending} onClick={() => request.mutate()}>
          Request diagnostics
        </Button>
      </Flex>
      <LatestRequest kind="diagnostics" request={latest} />
      <ChargerFileTable
        files={files.data ?? []}
        loading={files.isFetching && !files.data}
        emptyText="No diagnostics uploaded yet"
        testId="diagnostics-files"
      />
    </Space>
  );
}

/**
 * Firmware & diagnostics of one charger (issue 32, admin only): UpdateFirmware with a file and a retrieve date,
 * GetDiagnostics, the newest request of each with the steps the charger reports (refreshed every 2 s while it
 * is open), and the diagnostics files it uploaded.
 */
export function ChargerFilesSection({ charger }: { charger: Charger }) {
  const role = useRole();
  if (!can(role, 'charger.configure')) return null;
  return (
    <FormSection title="Firmware & diagnostics">
      <Col span={24}>
        <Space
          direction="vertical"
          size="large"
          style={{ width: '100%', marginBottom: 24 }}
          data-testid="charger-files"
        >
          <FirmwarePart charger={charger} />
          <DiagnosticsPart charger={charger} />
        </Space>
      </Col>
    </FormSection>
  );
}
