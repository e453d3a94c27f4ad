import { describe, expect, test } from 'vitest';
import { PQL_ERROR_TYPES, PUBLIC_DASHBOARD_OPERATIONS } from '../src/constants.ts';
import { dashboard } from '../src/dashboard.ts';
import { PqlErrorType } from '../src/errors.ts';

describe('plain constants agree with the schemas', () => {
  test('the public operations are exactly those with auth none', () => {
    const publicOps = Object.entries(dashboard)
      .filter(([, def]) => def.auth === 'none')
      .map(([name]) => name)
      .sort();
    expect([...PUBLIC_DASHBOARD_OPERATIONS].sort()).toEqual(publicOps);
  });

  test('the error types are the schema options', () => {
    expect([...PQL_ERROR_TYPES]).toEqual(PqlErrorType.options);
  });
});
