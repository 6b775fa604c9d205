import { type Charger, protocolText } from '@ev/shared';
import { Descriptions } from 'antd';
import { formatThaiDateTime } from '../../lib/format.ts';
import { OnlineTag, ProfileTag } from './status-tag.tsx';

/** What the charger last told the server over OCPP (read-only): connection, last frame, boot data. */
export function ConnectionInfo({ charger }: { charger: Charger }) {
  return (
    <Descriptions
      size="small"
      bordered
      column={{ xs: 1, md: 2, xl: 3 }}
      style={{ marginBottom: 24 }}
      data-testid="connection-info"
      items={[
        { key: 'online', label: 'Connection', children: <OnlineTag online={charger.online} /> },
        { key: 'lastSeen', label: 'Last Seen', children: formatThaiDateTime(charger.lastSeenAt) },
        { key: 'protocol', label: 'Protocol', children: protocolText(charger.protocol) },
        { key: 'vendor', label: 'Vendor', children: charger.vendor ?? '-' },
        { key: 'model', label: 'Model', children: charger.model ?? '-' },
        { key: 'firmware', label: 'Firmware', children: charger.firmwareVersion ?? '-' },
        { key: 'password', label: 'OCPP Password', children: charger.hasOcppPassword ? 'Set' : 'None' },
        // Only once a site's limit made the server send one (issue 34).
        ...(charger.defaultProfileStatus
          ? [
              {
                key: 'profile',
                label: 'Power profile',
                children: <ProfileTag status={charger.defaultProfileStatus} at={charger.defaultProfileAt} />,
              },
            ]
          : []),
      ]}
    />
  );
}
