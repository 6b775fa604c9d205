import { BellOutlined } from '@ant-design/icons';
import { ALERT_CONDITION_LABELS, type AlertItem } from '@ev/shared';
import { useQueryClient } from '@tanstack/react-query';
import { App, Badge, Button, Empty, Flex, Popover, Spin, Tag, Typography } from 'antd';
import { useCallback, useState } from 'react';
import { useNavigate } from 'react-router';
import { LIST_QUERY_KEY } from '../../components/list/use-list-query.ts';
import { ALERTS_QUERY_KEY, markAlertsRead, useAlertStream, useBellAlerts } from '../../lib/alerts.ts';
import { formatThaiDateTime } from '../../lib/format.ts';
import { useSession } from '../../lib/session.ts';
import { ALERTS_PATH } from '../route-table.ts';

/** How long a live alert's notice stays (s); it never waits for the pointer to leave it. */
const NOTICE_SECONDS = 6;

/** Refreshes the bell and the /alerts list (its list kit's key). */
function useRefreshAlerts() {
  const queryClient = useQueryClient();
  return useCallback(() => {
    void queryClient.invalidateQueries({ queryKey: [ALERTS_QUERY_KEY] });
    void queryClient.invalidateQueries({ queryKey: [LIST_QUERY_KEY, '/alerts'] });
  }, [queryClient]);
}

function AlertRow({ alert, onOpen }: { alert: AlertItem; onOpen: (alert: AlertItem) => void }) {
  return (
    <button
      type="button"
      className={alert.read ? 'alert-bell-item' : 'alert-bell-item unread'}
      onClick={() => onOpen(alert)}
      data-alert-id={alert.id}
    >
      <Flex justify="space-between" gap={8} align="center">
        <Typography.Text strong={!alert.read} className="alert-bell-condition">
          {ALERT_CONDITION_LABELS[alert.condition] ?? alert.condition}
        </Typography.Text>
        {alert.resolvedAt ? <Tag color="green">Resolved</Tag> : <Tag color="red">Open</Tag>}
      </Flex>
      <div className="alert-bell-message">{alert.message}</div>
      <Typography.Text type="secondary" className="alert-bell-time">
        {formatThaiDateTime(alert.firedAt)}
      </Typography.Text>
    </button>
  );
}

/**
 * The header's bell: the unread count, and on click the latest alerts, each opening its charger or payment.
 * Live: every alert event of the stream refreshes it and shows a short notice.
 */
export function AlertBell() {
  const token = useSession()?.accessToken ?? null;
  const navigate = useNavigate();
  const { notification } = App.useApp();
  const [open, setOpen] = useState(false);
  const bell = useBellAlerts(token !== null);
  const refresh = useRefreshAlerts();

  useAlertStream(token, {
    onOpen: refresh,
    onAlert: (alert) => {
      refresh();
      // A resolved alert only updates the lists; a new one says so for a moment.
      if (alert.resolvedAt) return;
      const link = alert.link;
      notification.warning({
        key: `alert:${alert.id}`,
        title: ALERT_CONDITION_LABELS[alert.condition] ?? 'Alert',
        description: alert.message,
        placement: 'bottomRight',
        duration: NOTICE_SECONDS,
        pauseOnHover: false,
        className: 'alert-notice',
        onClick: link
          ? () => {
              notification.destroy(`alert:${alert.id}`);
              navigate(link);
            }
          : undefined,
      });
    },
  });

  const openAlert = (alert: AlertItem) => {
    setOpen(false);
    if (!alert.read) void markAlertsRead({ ids: [alert.id] }).then(refresh, () => {});
    if (alert.link) navigate(alert.link);
  };
  const readAll = () => void markAlertsRead({ all: true }).then(refresh, () => {});

  const unread = bell.data?.unread ?? 0;
  const alerts = bell.data?.alerts ?? [];
  const panel = (
    <div className="alert-bell-panel" data-testid="alert-bell-panel">
      <Flex justify="space-between" align="center" className="alert-bell-head">
        <Typography.Text strong>Alerts</Typography.Text>
        <Button type="link" size="small" disabled={unread === 0} onClick={readAll}>
          Mark all as read
        </Button>
      </Flex>
      {bell.isPending ? (
        <Flex justify="center" className="alert-bell-empty">
          <Spin size="small" />
        </Flex>
      ) : alerts.length === 0 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description="No alerts" className="alert-bell-empty" />
      ) : (
        <div className="alert-bell-list">
          {alerts.map((alert) => (
            <AlertRow key={alert.id} alert={alert} onOpen={openAlert} />
          ))}
        </div>
      )}
      <Flex justify="center" className="alert-bell-foot">
        <Button
          type="link"
          size="small"
          onClick={() => {
            setOpen(false);
            navigate(ALERTS_PATH);
          }}
        >
          See all
        </Button>
      </Flex>
    </div>
  );

  return (
    <Popover
      content={panel}
      trigger="click"
      placement="bottomRight"
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (next) refresh();
      }}
      arrow={false}
    >
      <Button
        type="text"
        className="alert-bell"
        aria-label={unread > 0 ? `Alerts, ${unread} unread` : 'Alerts'}
        icon={
          <Badge count={unread} size="small" overflowCount={99} data-testid="alert-bell-count">
            <BellOutlined className="alert-bell-icon" />
          </Badge>
        }
      />
    </Popover>
  );
}
