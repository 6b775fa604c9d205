import { describe, expect, it } from 'vitest';
import { chooseSubprotocol } from './negotiation.ts';

const offer = (...protocols: string[]) => new Set(protocols);

describe('chooseSubprotocol', () => {
  it('Automatic takes the newest both speak, whatever order the charger lists them in', () => {
    expect(chooseSubprotocol('auto', offer('ocpp1.6', 'ocpp2.0.1'))).toEqual({ protocol: 'ocpp2.0.1' });
    expect(chooseSubprotocol('auto', offer('ocpp2.0.1', 'ocpp1.6'))).toEqual({ protocol: 'ocpp2.0.1' });
    expect(chooseSubprotocol('auto', offer('ocpp1.5', 'ocpp1.6'))).toEqual({ protocol: 'ocpp1.6' });
    expect(chooseSubprotocol('auto', offer('ocpp2.1', 'ocpp2.0.1'))).toEqual({ protocol: 'ocpp2.0.1' });
  });

  it('a version setting takes only that version', () => {
    expect(chooseSubprotocol('1.6', offer('ocpp2.0.1', 'ocpp1.6'))).toEqual({ protocol: 'ocpp1.6' });
    expect(chooseSubprotocol('2.0.1', offer('ocpp2.0.1', 'ocpp1.6'))).toEqual({ protocol: 'ocpp2.0.1' });
    expect(chooseSubprotocol('2.0.1', offer('ocpp1.6'))).toEqual({
      message: 'This charger is set to OCPP 2.0.1: offer the subprotocol ocpp2.0.1',
    });
  });

  it('a charger offering neither, or nothing, is told what to offer', () => {
    const refusal = { message: 'Subprotocol ocpp2.0.1 or ocpp1.6 required' };
    expect(chooseSubprotocol('auto', offer('ocpp2.1', 'ocpp1.5'))).toEqual(refusal);
    expect(chooseSubprotocol('auto', offer())).toEqual(refusal);
  });
});
