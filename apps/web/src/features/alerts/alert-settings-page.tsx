import {
  ALERT_CONDITION_LABELS,
  type AlertCondition,
  type AlertSetting,
  type AlertSettingBody,
  alertSettingBody,
} from '@ev/shared';
import {
  App,
  Button,
  Card,
  Flex,
  Form,
  Input,
  Skeleton,
  Switch,
  Table,
  type TableProps,
  Tag,
  Tooltip,
  Typography,
} from 'antd';
import { useRef, useState } from 'react';
import { useLeaveWarning } from '../../components/form/leave-warning.ts';
import { NumberInput } from '../../components/form/number-input.tsx';
import { withoutFieldPrefix } from '../../components/form/server-message.ts';
import { useSuccessPopup } from '../../components/success-popup.ts';
import { notifyCallError } from '../../lib/notify.ts';
import { optionalZodRule, zodRule } from '../../lib/zod-rule.ts';
import { bodyOf, type RowValues, type Values, valuesOf } from './alert-forms.ts';
import { saveAlertSetting, useAlertSettings } from './api.ts';
import './alerts.css';

const shape = alertSettingBody.shape;
const THRESHOLD_RULES = [zodRule(shape.thresholdMin)];
const URL_RULES = [optionalZodRule(shape.webhookUrl)];
const SECRET_RULES = [optionalZodRule(shape.webhookSecret)];
const FIELD = { style: { marginBottom: 0 } };

/**
 * /alert-settings (issue 36, admin): per condition, the minutes it must hold before it fires, whether it is on,
 * and the webhook that hears of it. Each row saves by itself (PATCH /api/alert-settings/:condition). The secret
 * is write-only: the page says whether one is set, takes a new one, or clears it.
 */
export function AlertSettingsPage() {
  const settings = useAlertSettings();
  const [form] = Form.useForm<Values>();
  const { modal } = App.useApp();
  const showSuccess = useSuccessPopup();
  const [saving, setSaving] = useState<AlertCondition | null>(null);
  const changed = useRef(new Set<AlertCondition>());
  const dirty = useRef(false);
  useLeaveWarning(dirty);
  const markChanged = (conditions: string[]) => {
    for (const condition of conditions) changed.current.add(condition as AlertCondition);
    dirty.current = changed.current.size > 0;
  };
  const markSaved = (condition: AlertCondition) => {
    changed.current.delete(condition);
    dirty.current = changed.current.size > 0;
  };

  const patch = async (condition: AlertCondition, body: AlertSettingBody) => {
    setSaving(condition);
    try {
      await saveAlertSetting(condition, body);
    } catch (error) {
      setSaving(null);
      notifyCallError(withoutFieldPrefix(error), undefined);
      return false;
    }
    await showSuccess();
    setSaving(null);
    await settings.refetch();
    return true;
  };

  const save = async (condition: AlertCondition) => {
    try {
      await form.validateFields([
        [condition, 'thresholdMin'],
        [condition, 'webhookUrl'],
        [condition, 'webhookSecret'],
      ]);
    } catch {
      return;
    }
    const row = form.getFieldValue(condition) as RowValues;
    // Clean while saving; a failed save leaves the row changed again.
    markSaved(condition);
    if (await patch(condition, bodyOf(row))) form.setFieldValue([condition, 'webhookSecret'], '');
    else markChanged([condition]);
  };

  const clearSecret = (setting: AlertSetting) =>
    modal.confirm({
      title: `Clear the webhook secret of '${ALERT_CONDITION_LABELS[setting.condition]}'?`,
      content: 'Its webhook calls are then sent unsigned.',
      centered: true,
      okText: 'Clear',
      okButtonProps: { danger: true },
      cancelText: 'Cancel',
      onOk: () => void patch(setting.condition, { webhookSecret: null }),
    });

  const columns: TableProps<AlertSetting>['columns'] = [
    {
      title: 'Condition',
      key: 'condition',
      width: 180,
      render: (_, setting) => (
        <Typography.Text strong>
          {ALERT_CONDITION_LABELS[setting.condition] ?? setting.condition}
        </Typography.Text>
      ),
    },
    {
      title: 'Threshold (minutes)',
      key: 'thresholdMin',
      width: 140,
      render: (_, { condition }) => (
        <Form.Item name={[condition, 'thresholdMin']} rules={THRESHOLD_RULES} {...FIELD}>
          <NumberInput<number>
            maxLength={6}
            inputMode="numeric"
            aria-label={`${ALERT_CONDITION_LABELS[condition]} threshold (minutes)`}
          />
        </Form.Item>
      ),
    },
    {
      title: 'Enabled',
      key: 'enabled',
      width: 90,
      align: 'center',
      render: (_, { condition }) => (
        <Form.Item name={[condition, 'enabled']} valuePropName="checked" {...FIELD}>
          <Switch aria-label={`${ALERT_CONDITION_LABELS[condition]} enabled`} />
        </Form.Item>
      ),
    },
    {
      title: 'Webhook URL',
      key: 'webhookUrl',
      render: (_, { condition }) => (
        <Form.Item name={[condition, 'webhookUrl']} rules={URL_RULES} {...FIELD}>
          <Input
            maxLength={500}
            placeholder="https://…"
            aria-label={`${ALERT_CONDITION_LABELS[condition]} webhook URL`}
          />
        </Form.Item>
      ),
    },
    {
      title: 'Webhook secret',
      key: 'webhookSecret',
      width: 280,
      render: (_, setting) => (
        <Flex vertical gap={4}>
          <Flex gap={8} align="center">
            {setting.hasWebhookSecret ? (
              <Tag color="green" data-secret="set">
                Set
              </Tag>
            ) : (
              <Tag data-secret="unset">Not set</Tag>
            )}
            {setting.hasWebhookSecret && (
              // The server signs every webhook call: a saved URL keeps its secret until the URL goes.
              <Tooltip
                title={
                  setting.webhookUrl === null
                    ? undefined
                    : 'Remove the webhook URL first: its calls are signed with the secret.'
                }
              >
                <Button
                  size="small"
                  danger
                  type="link"
                  disabled={saving !== null || setting.webhookUrl !== null}
                  onClick={() => clearSecret(setting)}
                  aria-label={`Clear ${ALERT_CONDITION_LABELS[setting.condition]} webhook secret`}
                >
                  Clear
                </Button>
              </Tooltip>
            )}
          </Flex>
          <Form.Item name={[setting.condition, 'webhookSecret']} rules={SECRET_RULES} {...FIELD}>
            <Input.Password
              maxLength={200}
              autoComplete="new-password"
              placeholder={setting.hasWebhookSecret ? 'New secret (replaces the set one)' : 'New secret'}
              aria-label={`${ALERT_CONDITION_LABELS[setting.condition]} new webhook secret`}
            />
          </Form.Item>
        </Flex>
      ),
    },
    {
      title: 'Action',
      key: 'action',
      width: 80,
      render: (_, { condition }) => (
        <Button
          type="primary"
          size="small"
          loading={saving === condition}
          disabled={saving !== null}
          onClick={() => void save(condition)}
          aria-label={`Save ${ALERT_CONDITION_LABELS[condition]}`}
        >
          Save
        </Button>
      ),
    },
  ];

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          Alert Settings
        </Typography.Title>
      }
    >
      <Typography.Paragraph type="secondary">
        A condition fires once it has held for longer than its threshold, and resolves when it clears. Its
        webhook receives each firing and resolving as JSON, signed with the secret (X-EV-Signature).
      </Typography.Paragraph>
      {settings.data === undefined ? (
        <Skeleton active />
      ) : (
        <Form<Values>
          form={form}
          initialValues={valuesOf(settings.data)}
          onValuesChange={(changedValues) => markChanged(Object.keys(changedValues))}
          className="alert-settings-form"
        >
          <Table<AlertSetting>
            className="alert-settings-table"
            size="small"
            pagination={false}
            rowKey="condition"
            dataSource={settings.data}
            columns={columns}
            tableLayout="fixed"
            scroll={{ x: 1000 }}
          />
        </Form>
      )}
    </Card>
  );
}
