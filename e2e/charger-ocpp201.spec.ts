import { RPCClient } from '@ev/server/ocpp/rpc';
import { notification, openAs } from './fixtures/auth.ts';
import { chargerRow } from './fixtures/charger.ts';
import { createCharger, QUIET_CHARGER } from './fixtures/ocpp.ts';
import { shoot } from './fixtures/screenshot.ts';
import { expect, test } from './fixtures/test.ts';
import { ROLE_USERS } from './fixtures/users.ts';

// Issue 33: an OCPP 2.0.1 charger beside the demo's 1.6 ones. The charger is a bare ocpp-rpc client of this
// test (strict: every frame checked against the 2.0.1 schemas), not the simulator: it boots, answers
// GetBaseReport by sending its device model in two NotifyReport parts, and takes a SetVariables.

type Params = Record<string, unknown>;

const entry = (component: Params, variable: Params, value: string, mutability: string, unit?: string) => ({
  component,
  variable,
  variableAttribute: [{ type: 'Actual', value, mutability }],
  variableCharacteristics: { dataType: 'integer', supportsMonitoring: false, ...(unit ? { unit } : {}) },
});

test('the list shows each charger’s protocol; a 2.0.1 charger’s configuration lists its variables, and one is changed', async ({
  page,
  baseURL,
}) => {
  test.setTimeout(90_000);
  const id = `E2E-201-${Date.now()}`;
  const remove = await createCharger(page.request, id, '2.0.1');
  const asked: Array<{ action: string; params: Params }> = [];
  const client = new RPCClient({
    endpoint: `${baseURL!.replace(/^http/, 'ws')}/ocpp`,
    identity: id,
    protocols: ['ocpp2.0.1'],
    strictMode: true,
    reconnect: false,
  } as never);
  const values: Record<string, string> = { HeartbeatInterval: '60' };
  client.handle('GetBaseReport', (({ params }: { params: Params }) => {
    asked.push({ action: 'GetBaseReport', params });
    setTimeout(async () => {
      const part = (seqNo: number, tbc: boolean, reportData: unknown[]) =>
        client.call('NotifyReport', {
          requestId: params.requestId,
          generatedAt: new Date().toISOString(),
          seqNo,
          tbc,
          reportData,
        });
      await part(0, true, [
        entry(
          { name: 'OCPPCommCtrlr' },
          { name: 'HeartbeatInterval' },
          values.HeartbeatInterval!,
          'ReadWrite',
          's',
        ),
        entry({ name: 'SampledDataCtrlr' }, { name: 'TxUpdatedInterval' }, '30', 'ReadWrite', 's'),
      ]);
      await part(1, false, [
        entry({ name: 'EVSE', evse: { id: 1 } }, { name: 'Power' }, '60000', 'ReadOnly', 'W'),
        entry({ name: 'SecurityCtrlr' }, { name: 'SecurityProfile' }, '1', 'ReadOnly'),
      ]);
    }, 100);
    return { status: 'Accepted' };
  }) as never);
  client.handle('SetVariables', (({ params }: { params: Params }) => {
    asked.push({ action: 'SetVariables', params });
    const data = (
      params.setVariableData as Array<{ component: Params; variable: Params; attributeValue: string }>
    )[0]!;
    values[data.variable.name as string] = data.attributeValue;
    return {
      setVariableResult: [
        { attributeStatus: 'Accepted', component: data.component, variable: data.variable },
      ],
    };
  }) as never);
  try {
    await client.connect();
    await client.call('BootNotification', {
      reason: 'PowerUp',
      chargingStation: { model: 'Raw 201', vendorName: 'E2E', firmwareVersion: '2.0.1-e2e' },
    });
    await client.call('StatusNotification', {
      timestamp: new Date().toISOString(),
      connectorStatus: 'Available',
      evseId: 1,
      connectorId: 1,
    });

    // The list: the 2.0.1 charger and a demo (1.6) charger, each with its protocol.
    await openAs(page, ROLE_USERS.admin, `/charger?id=${id}`);
    await expect(chargerRow(page, id)).toContainText('OCPP 2.0.1');
    await page.goto(`/charger?id=${QUIET_CHARGER}`);
    await expect(chargerRow(page, QUIET_CHARGER)).toContainText('OCPP 1.6J');
    await page.goto(`/charger?id=${id}`);
    await expect(chargerRow(page, id)).toContainText('OCPP 2.0.1');
    await shoot(page, 'charger-list-protocol.png');

    // Its configuration: no report yet, so the screen asks for one and shows it when it is in.
    await page.goto(`/charger/${id}`);
    await page.getByTestId('read-configuration').click();
    const model = page.getByTestId('device-model');
    await expect(notification(page, 'Ask for the device model report: Accepted')).toBeVisible();
    const variables = page.getByTestId('device-model-variables');
    await expect(variables.locator('tr.ant-table-row')).toHaveCount(4, { timeout: 15_000 });
    await expect(model).toContainText('Device model reported');
    const heartbeat = variables.locator('tr.ant-table-row').filter({ hasText: 'HeartbeatInterval' });
    await expect(heartbeat).toContainText('OCPPCommCtrlr');
    await expect(heartbeat).toContainText('60 s');
    await expect(heartbeat).toContainText('ReadWrite');
    const power = variables.locator('tr.ant-table-row').filter({ hasText: 'Power' });
    await expect(power).toContainText('EVSE 1');
    await expect(power).toContainText('Read-only');
    await expect(power.getByRole('button', { name: 'Edit' })).toHaveCount(0);
    expect(asked.filter((a) => a.action === 'GetBaseReport')).toHaveLength(1);

    // A ReadWrite variable is changed through SetVariables.
    await heartbeat.getByRole('button', { name: 'Edit' }).click();
    await model.getByLabel('New value').fill('120');
    await model.getByRole('button', { name: 'Change', exact: true }).click();
    await expect(notification(page, 'Change OCPPCommCtrlr.HeartbeatInterval: Accepted')).toBeVisible();
    await expect(heartbeat).toContainText('120 s');
    expect(asked.filter((a) => a.action === 'SetVariables').map((a) => a.params)).toEqual([
      {
        setVariableData: [
          {
            attributeValue: '120',
            component: { name: 'OCPPCommCtrlr' },
            variable: { name: 'HeartbeatInterval' },
          },
        ],
      },
    ]);
    await model.scrollIntoViewIfNeeded();
    await shoot(page, 'charger-ocpp201-configuration.png');
  } finally {
    await client.close({ force: true }).catch(() => undefined);
    await remove();
  }
});
