import { type Charger, type ChargerPowerProfile, protocolText } from '@ev/shared';
import { Descriptions } from 'antd';
import { formatThaiDateTime } from '../../lib/format.ts';
import { OnlineTag, ProfileTag } from './status-tag.tsx';

/**
 * What the charger last told the server over OCPP (read-only): connection, last frame, boot data, and its
 * answer to the power sharing's profiles once it was sent one (issue 34).
 */
export function ConnectionInfo({
  charger,
  powerProfile = null,
}: {
  charger: Charger;
  powerProfile?: ChargerPowerProfile | null;
}) {
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
        ...(powerProfile
          ? [
              {
                key: 'profile',
                label: 'Power profile',
                children: <ProfileTag status={powerProfile.status} at={powerProfile.at} />,
              },
            ]
          : []),
      ]}
    />
  );
}
