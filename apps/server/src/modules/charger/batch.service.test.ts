import { describe, expect, it } from 'vitest';
import { checkBatchToken, resultOf } from './batch.service.ts';

describe('checkBatchToken', () => {
  it('accepts only the configured token, and nothing when none is configured', () => {
    expect(() => checkBatchToken('s3cret-token', 's3cret-token')).not.toThrow();
    expect(() => checkBatchToken('s3cret-token', 's3cret-tokeN')).toThrow('The batch token is not valid.');
    expect(() => checkBatchToken('s3cret-token', 's3cret-token-and-more')).toThrow('not valid');
    expect(() => checkBatchToken('s3cret-token', '')).toThrow('not valid');
    expect(() => checkBatchToken(undefined, 'anything')).toThrow('BATCH_COMMAND_TOKEN is not set');
  });
});

describe('resultOf', () => {
  it('maps every outcome to one of the five batch results', () => {
    expect(resultOf({ status: 'offline' })).toEqual({ result: 'Offline', detail: null });
    expect(resultOf({ status: 'timeout' })).toEqual({ result: 'Timeout', detail: null });
    expect(resultOf({ status: 'answered', response: { status: 'Accepted' } }).result).toBe('Accepted');
    expect(resultOf({ status: 'answered', response: { status: 'RebootRequired' } })).toEqual({
      result: 'Accepted',
      detail: 'RebootRequired',
    });
    expect(resultOf({ status: 'answered', response: { status: 'Rejected' } })).toEqual({
      result: 'Rejected',
      detail: null,
    });
    expect(resultOf({ status: 'answered', response: { status: 'NotSupported' } }).result).toBe(
      'NotSupported',
    );
    expect(resultOf({ status: 'error', code: 'NotImplemented', message: '' }).result).toBe('NotSupported');
    expect(resultOf({ status: 'error', code: 'InternalError', message: '' })).toEqual({
      result: 'Rejected',
      detail: 'InternalError',
    });
  });
});
