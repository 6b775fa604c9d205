import type { Charger } from '@ev/shared';
import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { ConnectionInfo } from './connection-info.tsx';

const charger: Charger = {
  id: 'TH-MP-01',
  nameEn: 'Mall 01',
  nameTh: 'ห้าง 01',
  merchantId: 1,
  merchantNameEn: 'Metro',
  landlordId: 2,
  landlordNameEn: 'Siam',
  chargerBrandId: 5,
  chargerBrandName: 'ABB',
  powerType: 'DC',
  minPowerKw: 50,
  active: true,
  online: true,
  lastSeenAt: null,
  vendor: 'ABB',
  model: 'Terra 54',
  firmwareVersion: '1.0',
  hasOcppPassword: false,
  ocppProtocol: 'auto',
  protocol: 'ocpp1.6',
  maxPowerKw: null,
  defaultProfileStatus: null,
  defaultProfileAt: null,
  connectors: [],
};

describe('ConnectionInfo', () => {
  it("shows the default profile's answer once there is one: red unless accepted", () => {
    expect(renderToStaticMarkup(<ConnectionInfo charger={charger} />)).not.toContain('Power profile');
    const rejected = renderToStaticMarkup(
      <ConnectionInfo
        charger={{ ...charger, defaultProfileStatus: 'Rejected', defaultProfileAt: '2026-05-01T03:04:05Z' }}
      />,
    );
    expect(rejected).toContain('Power profile');
    expect(rejected).toMatch(/data-profile-status="Rejected" class="[^"]*ant-tag-red[^"]*">Rejected</);
    const accepted = renderToStaticMarkup(
      <ConnectionInfo charger={{ ...charger, defaultProfileStatus: 'Accepted', defaultProfileAt: null }} />,
    );
    expect(accepted).toMatch(/data-profile-status="Accepted" class="[^"]*ant-tag-green/);
  });
});
