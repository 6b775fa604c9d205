import { ALERT_CONDITION_LABELS, ALERT_CONDITIONS } from '@ev/shared';
import { Button, Card, Flex, Form, Skeleton, Switch, Table, Typography } from 'antd';
import { useRef, useState } from 'react';
import { useLeaveWarning } from '../../components/form/leave-warning.ts';
import { useSuccessPopup } from '../../components/success-popup.ts';
import { notifyCallError } from '../../lib/notify.ts';
import { type Choices, choicesOf } from './alert-forms.ts';
import { saveAlertSubscriptions, useAlertSubscriptions } from './api.ts';

const ROWS = ALERT_CONDITIONS.map((condition) => ({ condition }));

/**
 * 'My subscriptions': per condition, whether the user hears of it in the app (the bell) and by mail. One Save
 * for all of them (PUT /api/alert-subscriptions); unsaved switches warn before leaving, as a form does.
 */
export function SubscriptionsCard() {
  const subscriptions = useAlertSubscriptions();
  const [form] = Form.useForm<Choices>();
  const dirty = useRef(false);
  const [saving, setSaving] = useState(false);
  const showSuccess = useSuccessPopup();
  useLeaveWarning(dirty);

  const submit = async (values: Choices) => {
    dirty.current = false;
    setSaving(true);
    try {
      await saveAlertSubscriptions(
        ALERT_CONDITIONS.map((condition) => ({
          condition,
          inApp: values[condition]?.inApp ?? true,
          mail: values[condition]?.mail ?? false,
        })),
      );
    } catch (error) {
      dirty.current = true;
      setSaving(false);
      notifyCallError(error, undefined);
      return;
    }
    await showSuccess();
    setSaving(false);
    void subscriptions.refetch();
  };

  return (
    <Card
      title={
        <Typography.Title level={4} style={{ margin: 0 }}>
          My subscriptions
        </Typography.Title>
      }
      data-testid="alert-subscriptions"
    >
      {subscriptions.data === undefined ? (
        <Skeleton active />
      ) : (
        <Form<Choices>
          form={form}
          initialValues={choicesOf(subscriptions.data)}
          onValuesChange={() => {
            dirty.current = true;
          }}
          onFinish={(values) => void submit(values)}
          disabled={saving}
        >
          <Table
            size="small"
            pagination={false}
            rowKey="condition"
            dataSource={ROWS}
            columns={[
              {
                title: 'Condition',
                key: 'condition',
                render: (_, { condition }) => ALERT_CONDITION_LABELS[condition],
              },
              {
                title: 'In app',
                key: 'inApp',
                width: 96,
                align: 'center',
                render: (_, { condition }) => (
                  <Form.Item name={[condition, 'inApp']} valuePropName="checked" noStyle>
                    <Switch aria-label={`${ALERT_CONDITION_LABELS[condition]} in app`} />
                  </Form.Item>
                ),
              },
              {
                title: 'Mail',
                key: 'mail',
                width: 96,
                align: 'center',
                render: (_, { condition }) => (
                  <Form.Item name={[condition, 'mail']} valuePropName="checked" noStyle>
                    <Switch aria-label={`${ALERT_CONDITION_LABELS[condition]} by mail`} />
                  </Form.Item>
                ),
              },
            ]}
          />
          <Flex justify="end" style={{ marginTop: 16 }}>
            <Button type="primary" htmlType="submit" loading={saving} disabled={saving}>
              Save
            </Button>
          </Flex>
        </Form>
      )}
    </Card>
  );
}
