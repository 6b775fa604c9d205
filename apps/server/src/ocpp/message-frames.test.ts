import { describe, expect, it } from 'vitest';
import {
  frameForLog,
  MAX_PAYLOAD_CHARS,
  PREVIEW_CHARS,
  parseFrame,
  REDACTED,
  redactPayload,
  redactText,
} from './message-frames.ts';

describe('parseFrame', () => {
  it('reads a CALL, a CALLRESULT and a CALLERROR', () => {
    expect(parseFrame('[2,"m1","Heartbeat",{}]')).toEqual({
      kind: 'call',
      messageId: 'm1',
      action: 'Heartbeat',
      payload: {},
    });
    expect(parseFrame('[3,"m1",{"currentTime":"2026-11-28T00:00:00Z"}]')).toEqual({
      kind: 'result',
      messageId: 'm1',
      action: null,
      payload: { currentTime: '2026-11-28T00:00:00Z' },
    });
    expect(parseFrame('[4,"m2","NotImplemented","No such action",{}]')).toEqual({
      kind: 'error',
      messageId: 'm2',
      action: null,
      payload: { code: 'NotImplemented', description: 'No such action', details: {} },
    });
    // Missing parts are null, never undefined (the column is NOT NULL jsonb).
    expect(parseFrame('[2,"m3","Heartbeat"]').payload).toBeNull();
    expect(parseFrame('[4,"m4"]').payload).toEqual({ code: null, description: null, details: null });
  });

  it('keeps a malformed frame as a short text with the reason, whatever it is', () => {
    const cases: Array<[string, string, string]> = [
      ['not json', 'not JSON', ''],
      ['{"a":1}', 'not a JSON array', ''],
      ['[]', 'unknown message type', ''],
      ['[5,"m","x"]', 'unknown message type', ''],
      ['[2,7,"Heartbeat",{}]', 'the message id is not a string', ''],
      ['[2,"m9",{},{}]', 'the action is not a string', 'm9'],
      ['null', 'not a JSON array', ''],
      ['"[2,"', 'not a JSON array', ''],
    ];
    for (const [text, reason, messageId] of cases) {
      expect(parseFrame(text)).toEqual({
        kind: 'malformed',
        messageId,
        action: null,
        payload: { reason, text },
      });
    }
    const long = `[2,"m","A",${'x'.repeat(10_000)}`;
    const payload = parseFrame(long).payload as { text: string };
    expect(payload.text).toHaveLength(PREVIEW_CHARS);
  });

  it('never throws on odd input', () => {
    for (const text of ['', '[', '\u0000', '\ud800', '[2,"a","b",{"x":"\\ud800"}]', '1e999999', '[4]']) {
      expect(() => frameForLog(text)).not.toThrow();
    }
  });
});

describe('redactPayload', () => {
  it('redacts AuthorizationKey in ChangeConfiguration and in the GetConfiguration answer', () => {
    expect(redactPayload({ key: 'AuthorizationKey', value: '0011223344556677' })).toEqual({
      key: 'AuthorizationKey',
      value: REDACTED,
    });
    expect(
      redactPayload({
        configurationKey: [
          { key: 'HeartbeatInterval', readonly: false, value: '60' },
          { key: 'AuthorizationKey', readonly: false, value: 'secret-key-value' },
          { key: 'WifiPassword', readonly: false, value: 'hunter2' },
        ],
        unknownKey: [],
      }),
    ).toEqual({
      configurationKey: [
        { key: 'HeartbeatInterval', readonly: false, value: '60' },
        { key: 'AuthorizationKey', readonly: false, value: REDACTED },
        { key: 'WifiPassword', readonly: false, value: REDACTED },
      ],
      unknownKey: [],
    });
    // The key names alone (a GetConfiguration request) are no secret.
    expect(redactPayload({ key: ['AuthorizationKey'] })).toEqual({ key: ['AuthorizationKey'] });
  });

  it('redacts values of credential keys at any depth, but not 2.0.1 id tokens', () => {
    expect(
      redactPayload({
        a: { password: 'p', apnPassword: 'q', clientSecret: 's', token: 't', nested: [{ accessToken: 'x' }] },
        idToken: { idToken: 'CARD-1', type: 'ISO14443' },
        groupIdToken: { idToken: 'G', type: 'Central' },
        empty: { password: null },
      }),
    ).toEqual({
      a: {
        password: REDACTED,
        apnPassword: REDACTED,
        clientSecret: REDACTED,
        token: REDACTED,
        nested: [{ accessToken: REDACTED }],
      },
      idToken: { idToken: 'CARD-1', type: 'ISO14443' },
      groupIdToken: { idToken: 'G', type: 'Central' },
      empty: { password: null },
    });
  });

  it("redacts OCPP 2.0.1's BasicAuthPassword in SetVariables, GetVariables and NotifyReport", () => {
    const variable = { name: 'BasicAuthPassword' };
    const component = { name: 'SecurityCtrlr' };
    expect(redactPayload({ setVariableData: [{ attributeValue: 'pw-123', component, variable }] })).toEqual({
      setVariableData: [{ attributeValue: REDACTED, component, variable }],
    });
    expect(
      redactPayload({
        getVariableResult: [
          { attributeStatus: 'Accepted', attributeValue: 'pw-123', component, variable },
          { attributeStatus: 'Accepted', attributeValue: '60', component, variable: { name: 'Interval' } },
        ],
      }),
    ).toEqual({
      getVariableResult: [
        { attributeStatus: 'Accepted', attributeValue: REDACTED, component, variable },
        { attributeStatus: 'Accepted', attributeValue: '60', component, variable: { name: 'Interval' } },
      ],
    });
    expect(
      redactPayload({
        reportData: [{ component, variable, variableAttribute: [{ type: 'Actual', value: 'pw' }] }],
      }),
    ).toEqual({
      reportData: [{ component, variable, variableAttribute: [{ type: 'Actual', value: REDACTED }] }],
    });
  });

  it('redacts one-time file tokens, token parameters and URL passwords inside strings', () => {
    expect(
      redactPayload({
        location: 'https://cs.example.com/ocpp-files/firmware/AbC123-tok_EN/fw-2.1.bin',
        retrieveDate: '2026-11-28T00:00:00Z',
      }),
    ).toEqual({
      location: `https://cs.example.com/ocpp-files/firmware/${REDACTED}/fw-2.1.bin`,
      retrieveDate: '2026-11-28T00:00:00Z',
    });
    expect(redactText('http://h/ocpp-files/diagnostics/t0k3n')).toBe(
      `http://h/ocpp-files/diagnostics/${REDACTED}`,
    );
    expect(redactText('https://h/up?id=1&token=abc&x=2')).toBe(`https://h/up?id=1&token=${REDACTED}&x=2`);
    expect(redactText('https://h/up?access_token=abc')).toBe(`https://h/up?access_token=${REDACTED}`);
    expect(redactText('ftp://user:pa55@ftp.example.com/diag')).toBe(
      `ftp://user:${REDACTED}@ftp.example.com/diag`,
    );
    expect(redactText('plain text, no secrets')).toBe('plain text, no secrets');
  });

  it('leaves its input as it was', () => {
    const input = { key: 'AuthorizationKey', value: 'v' };
    redactPayload(input);
    expect(input.value).toBe('v');
  });
});

describe('frameForLog', () => {
  it('redacts a ChangeConfiguration of AuthorizationKey', () => {
    const frame = frameForLog('[2,"c1","ChangeConfiguration",{"key":"AuthorizationKey","value":"00112233"}]');
    expect(frame).toEqual({
      kind: 'call',
      messageId: 'c1',
      action: 'ChangeConfiguration',
      payload: { key: 'AuthorizationKey', value: REDACTED },
    });
  });

  it('finds a secret key spelled with escapes, and makes NUL and lone surrogates storable', () => {
    const frame = frameForLog('[3,"r1",{"pass\\u0077ord":"x","note":"a\\u0000b\\ud800c"}]');
    expect(frame.payload).toEqual({ password: REDACTED, note: 'a\uFFFDb\uFFFDc' });
    const malformed = frameForLog('[2,"x\u0000');
    expect((malformed.payload as { text: string }).text).toBe('[2,"x\uFFFD');
  });

  it('keeps a preview of a payload too large to store whole', () => {
    const big = JSON.stringify([
      2,
      'b1',
      'DataTransfer',
      { vendorId: 'V', data: 'z'.repeat(MAX_PAYLOAD_CHARS) },
    ]);
    const frame = frameForLog(big);
    expect(frame.action).toBe('DataTransfer');
    const payload = frame.payload as { truncated: boolean; chars: number; text: string };
    expect(payload.truncated).toBe(true);
    expect(payload.chars).toBeGreaterThan(MAX_PAYLOAD_CHARS);
    expect(payload.text).toHaveLength(PREVIEW_CHARS);
  });
});
