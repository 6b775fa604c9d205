import { describe, expect, it } from 'vitest';
import { ApiError } from '../../lib/api.ts';
import { withoutFieldPrefix } from './server-message.ts';

describe('withoutFieldPrefix', () => {
  it('drops the body.<field> prefix of a validation answer', () => {
    const error = withoutFieldPrefix(new ApiError(400, 'body.nameEn: Cluster Name (EN) is required.'));
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe('Cluster Name (EN) is required.');
    expect((error as ApiError).status).toBe(400);
  });

  it('handles nested and indexed fields', () => {
    const error = withoutFieldPrefix(new ApiError(400, 'body.businessHours.0.openTime: Time is required.'));
    expect((error as ApiError).message).toBe('Time is required.');
  });

  it('leaves other errors as they are', () => {
    const conflict = new ApiError(409, 'used');
    expect(withoutFieldPrefix(conflict)).toBe(conflict);
    const other = new Error('body.x: y');
    expect(withoutFieldPrefix(other)).toBe(other);
  });
});
