import type { LocalListSendResponse, LocalListVersionResponse } from '@ev/shared';
import { useMutation } from '@tanstack/react-query';
import { Button, Flex, Typography } from 'antd';
import { api } from '../../lib/api.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import { notifyNotDone } from '../../lib/not-done.tsx';
import { notify } from '../../lib/notify.ts';

const versionText = (version: number | null) => {
  if (version === null) return 'unknown';
  if (version === -1) return 'no local list support (-1)';
  return version === 0 ? 'none (0)' : String(version);
};

/**
 * The charger's local authorization list (issue 32 §4; admin and callcenter): the version it holds
 * (GetLocalListVersion) beside the last one it accepted from us, and Send, the members' id tags valid there.
 */
export function LocalListPanel({ chargerId }: { chargerId: string }) {
  const path = `/charger/${encodeURIComponent(chargerId)}/local-list`;
  const failed = (what: string) => (error: unknown) => notifyNotDone(what, error);
  const read = useMutation({
    meta: { silent: true },
    mutationFn: () => api<LocalListVersionResponse>(path),
    onError: failed('Reading the local list version'),
  });
  const send = useMutation({
    meta: { silent: true },
    mutationFn: () => api<LocalListSendResponse>(path, { method: 'POST', body: {} }),
    onSuccess: (answer) => {
      notify(
        answer.status === 'Accepted' ? 'success' : 'warning',
        `Send local list: ${answer.status}`,
        `Charger ${chargerId}: version ${answer.listVersion ?? '-'}, ${answer.tags} id tags in ${answer.messages} message(s)`,
      );
      read.mutate();
    },
    onError: failed('Sending the local list'),
  });
  const version = read.data;
  return (
    <Flex wrap gap="small" align="center" data-testid="local-list">
      <Typography.Text strong style={{ minWidth: 110 }}>
        Local list
      </Typography.Text>
      <Button size="small" loading={read.isPending} onClick={() => read.mutate()}>
        Read version
      </Button>
      <Button size="small" loading={send.isPending} onClick={() => send.mutate()}>
        Send local list
      </Button>
      {version && (
        <Typography.Text type="secondary" data-testid="local-list-version">
          {version.status === 'NotSupported'
            ? 'The charger does not support local lists (NotSupported).'
            : `Charger holds version ${versionText(version.listVersion)}`}
          {`; last accepted from us: ${version.sentVersion ?? 'none'}`}
          {version.sentAt ? ` (${formatThaiDateTime(version.sentAt)})` : ''}
        </Typography.Text>
      )}
    </Flex>
  );
}
