import { describe, expect, it } from 'vitest';
import { isUuid } from '../src/uuid.ts';

describe('isUuid', () => {
  it.each([
    ['0b8e6d4c-1a2b-4c3d-8e9f-0a1b2c3d4e5f', true],
    ['0B8E6D4C-1A2B-4C3D-8E9F-0A1B2C3D4E5F', true],
    ['00000000-0000-0000-0000-000000000000', true],
    ['', false],
    ['0b8e6d4c1a2b4c3d8e9f0a1b2c3d4e5f', false],
    ['0b8e6d4c-1a2b-4c3d-8e9f-0a1b2c3d4e5', false],
    [' 0b8e6d4c-1a2b-4c3d-8e9f-0a1b2c3d4e5f', false],
    ['0b8e6d4c-1a2b-4c3d-8e9f-0a1b2c3d4e5g', false],
    ['*', false],
  ])('%j → %s', (value, expected) => {
    expect(isUuid(value)).toBe(expected);
  });
});
