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
  connectors: [],
};

describe('ConnectionInfo', () => {
  it("shows the charger's answer to its power profiles once there is one: red unless accepted or pending", () => {
    expect(renderToStaticMarkup(<ConnectionInfo charger={charger} />)).not.toContain('Power profile');
    expect(renderToStaticMarkup(<ConnectionInfo charger={charger} powerProfile={null} />)).not.toContain(
      'Power profile',
    );
    const rejected = renderToStaticMarkup(
      <ConnectionInfo charger={charger} powerProfile={{ status: 'Rejected', at: '2026-05-01T03:04:05Z' }} />,
    );
    expect(rejected).toContain('Power profile');
    expect(rejected).toMatch(/data-profile-status="Rejected" class="[^"]*ant-tag-red[^"]*">Rejected</);
    const accepted = renderToStaticMarkup(
      <ConnectionInfo charger={charger} powerProfile={{ status: 'Accepted', at: null }} />,
    );
    expect(accepted).toMatch(/data-profile-status="Accepted" class="[^"]*ant-tag-green/);
    const pending = renderToStaticMarkup(
      <ConnectionInfo charger={charger} powerProfile={{ status: 'Pending', at: null }} />,
    );
    expect(pending).toMatch(/data-profile-status="Pending" class="[^"]*ant-tag-blue/);
  });
});
