import { ID_TAG_LIMITS, type IdTagItem, idTagValue } from '@ev/shared';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { App, Button, DatePicker, Divider, Flex, Form, Input, Table, Tag, Typography } from 'antd';
import dayjs, { type Dayjs } from 'dayjs';
import { ApiError, api } from '../../lib/api.ts';
import { formatThaiDate } from '../../lib/format.ts';
import { notify } from '../../lib/notify.ts';
import { zodRule } from '../../lib/zod-rule.ts';

const STATE_TAGS: Record<IdTagItem['state'], { color: string; text: string }> = {
  Accepted: { color: 'green', text: 'Valid' },
  Blocked: { color: 'red', text: 'Blocked' },
  Expired: { color: 'orange', text: 'Expired' },
};

interface AddValues {
  idTag: string;
  validUntil?: Dayjs | null;
}

/** The last day a card may be used, as the API's instant: the end of that day in Bangkok (UTC+7 all year). */
const endOfBangkokDay = (day: Dayjs) => `${day.format('YYYY-MM-DD')}T23:59:59.999+07:00`;

const messageOf = (error: unknown) => (error instanceof ApiError ? error.message : String(error));

/**
 * The member's id tags in the Edit Mobile User modal (issue 32 §4): the app's own tag (read-only) and the RFID
 * cards, added (tag, optional last day of use), blocked or unblocked and removed at once, each its own call
 * (GET/POST /api/user/{id}/id-tag, PATCH/DELETE /api/user/{id}/id-tag/{idTag}); the server's refusals show here.
 */
export function IdTagsSection({ userId }: { userId: number }) {
  const { modal } = App.useApp();
  const queryClient = useQueryClient();
  const [form] = Form.useForm<AddValues>();
  const path = `/user/${userId}/id-tag`;
  const tagPath = (idTag: string) => `${path}/${encodeURIComponent(idTag)}`;
  const queryKey = ['user', userId, 'id-tags'];
  const list = useQuery({
    queryKey,
    queryFn: () => api<{ idTags: IdTagItem[] }>(path).then((body) => body.idTags),
  });
  const reload = () => queryClient.invalidateQueries({ queryKey });

  const add = useMutation({
    meta: { silent: true },
    mutationFn: (values: AddValues) =>
      api(path, {
        method: 'POST',
        body: {
          idTag: values.idTag,
          ...(values.validUntil ? { expiresAt: endOfBangkokDay(values.validUntil) } : {}),
        },
      }),
    onSuccess: async (_answer, values) => {
      form.resetFields();
      notify('success', `Card ${values.idTag} added`);
      await reload();
    },
    // The server's words on the field: a tag another member holds, too many cards, a bad character.
    onError: (error) => form.setFields([{ name: 'idTag', errors: [messageOf(error)] }]),
  });
  const change = useMutation({
    meta: { silent: true },
    mutationFn: ({ idTag, blocked }: { idTag: string; blocked: boolean }) =>
      api(tagPath(idTag), { method: 'PATCH', body: { blocked } }),
    onSuccess: async (_answer, { idTag, blocked }) => {
      notify('success', `Card ${idTag} ${blocked ? 'blocked' : 'unblocked'}`);
      await reload();
    },
    onError: (error, { idTag }) => notify('error', 'Failed!', `Card ${idTag}: ${messageOf(error)}`),
  });
  const remove = useMutation({
    meta: { silent: true },
    mutationFn: (idTag: string) => api(tagPath(idTag), { method: 'DELETE' }),
    onSuccess: async (_answer, idTag) => {
      notify('success', `Card ${idTag} removed`);
      await reload();
    },
    onError: (error, idTag) => notify('error', 'Failed!', `Card ${idTag}: ${messageOf(error)}`),
  });
  const confirmRemove = (idTag: string) =>
    modal.confirm({
      title: `Remove card ${idTag}?`,
      content: 'A charger then refuses this card.',
      okText: 'Remove',
      okButtonProps: { danger: true },
      centered: true,
      onOk: () => remove.mutateAsync(idTag).catch(() => undefined),
    });

  return (
    <section aria-label="Id tags" data-testid="id-tags">
      <Divider titlePlacement="start" style={{ marginTop: 8 }}>
        Id tags
      </Divider>
      <Typography.Paragraph type="secondary">
        The app tag comes from the member&apos;s app and can&apos;t be changed here. RFID cards start charging
        as the app does; a blocked card, or one past its last day, is refused at the charger.
      </Typography.Paragraph>
      <Table<IdTagItem>
        size="small"
        rowKey="idTag"
        pagination={false}
        loading={list.isFetching}
        dataSource={list.data ?? []}
        scroll={{ x: 'max-content' }}
        columns={[
          {
            title: 'Id tag',
            dataIndex: 'idTag',
            key: 'idTag',
            render: (text: string) => <Typography.Text code>{text}</Typography.Text>,
          },
          {
            title: 'Kind',
            dataIndex: 'kind',
            key: 'kind',
            render: (kind: IdTagItem['kind']) => (kind === 'app' ? 'App' : 'RFID card'),
          },
          {
            title: 'Valid until',
            dataIndex: 'expiresAt',
            key: 'expiresAt',
            render: (at: string | null) => (at ? formatThaiDate(at) : '-'),
          },
          {
            title: 'State',
            dataIndex: 'state',
            key: 'state',
            render: (state: IdTagItem['state']) => (
              <Tag color={STATE_TAGS[state].color}>{STATE_TAGS[state].text}</Tag>
            ),
          },
          {
            title: 'Action',
            key: 'action',
            render: (_: unknown, tag: IdTagItem) =>
              tag.kind === 'app' ? (
                <Typography.Text type="secondary">Read-only</Typography.Text>
              ) : (
                <Flex gap="small">
                  <Button
                    size="small"
                    loading={change.isPending && change.variables?.idTag === tag.idTag}
                    onClick={() => change.mutate({ idTag: tag.idTag, blocked: !tag.blocked })}
                  >
                    {tag.blocked ? 'Unblock' : 'Block'}
                  </Button>
                  <Button size="small" danger onClick={() => confirmRemove(tag.idTag)}>
                    Remove
                  </Button>
                </Flex>
              ),
          },
        ]}
      />
      {list.isError && <Typography.Text type="danger">{messageOf(list.error)}</Typography.Text>}
      <Form<AddValues>
        form={form}
        name="id-tag-add"
        layout="inline"
        style={{ marginTop: 16, rowGap: 8 }}
        onFinish={(values) => add.mutate(values)}
        disabled={add.isPending}
      >
        <Form.Item label="RFID card" name="idTag" rules={[zodRule(idTagValue)]}>
          <Input maxLength={ID_TAG_LIMITS.length} autoComplete="off" placeholder="Card id" />
        </Form.Item>
        <Form.Item label="Valid until" name="validUntil">
          <DatePicker
            format="DD/MM/YYYY"
            placeholder="No end"
            disabledDate={(day) => day.isBefore(dayjs(), 'day')}
          />
        </Form.Item>
        <Form.Item>
          <Button htmlType="submit" loading={add.isPending}>
            Add card
          </Button>
        </Form.Item>
      </Form>
    </section>
  );
}
