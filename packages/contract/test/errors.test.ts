import { describe, expect, it } from 'vitest';
import { CLIENT_ERROR_IDS, ERROR_IDS } from '../src/constants.ts';
import { ERROR_ID_PATTERN, PqlErrorType, ServerPqlError } from '../src/errors.ts';

const serverBody = {
  id: '8df93d61',
  type: 'loggedOut',
  requestId: 'req-1',
  debugMessage: 'Admin token not found',
  showContactSupport: false,
  statusCode: 401,
  version: 1,
};

describe('ServerPqlError', () => {
  it('parses a server error body with and without optional fields', () => {
    expect(ServerPqlError.parse(serverBody)).toStrictEqual(serverBody);
    const notFound = {
      ...serverBody,
      id: '6ac1205a',
      type: 'notFound',
      entityName: 'Child',
      userMessage: 'Child not found.',
      dashboardTag: 'magicLinkTokenNotFound',
      appTag: 'userTokenNotFound',
      userAction: 'Try again',
      statusCode: 404,
    };
    expect(ServerPqlError.parse(notFound)).toStrictEqual(notFound);
  });

  it('never carries the client-side keys', () => {
    const parsed = ServerPqlError.parse({
      ...serverBody,
      isPqlError: true,
      tag: 'x',
      serverRequestId: 'y',
    });
    expect(Object.keys(parsed)).not.toContain('isPqlError');
    expect(Object.keys(parsed)).not.toContain('tag');
    expect(Object.keys(parsed)).not.toContain('serverRequestId');
  });

  it.each([
    ['clientError type', { ...serverBody, type: 'clientError' }],
    ['unknown type', { ...serverBody, type: 'teapot' }],
    ['uppercase id', { ...serverBody, id: '8DF93D61' }],
    ['short id', { ...serverBody, id: '8df93d6' }],
    ['missing requestId', { ...serverBody, requestId: undefined }],
    ['null optional', { ...serverBody, userMessage: null }],
    ['version 2', { ...serverBody, version: 2 }],
  ])('rejects %s', (_, body) => {
    expect(ServerPqlError.safeParse(body).success).toBe(false);
  });
});

describe('error ids', () => {
  it('are 8 lowercase hex digits and unique across client and server', () => {
    const all = [...Object.values(CLIENT_ERROR_IDS), ...Object.values(ERROR_IDS)];
    for (const id of all) expect(id).toMatch(ERROR_ID_PATTERN);
    expect(new Set(all).size).toBe(all.length);
    expect(Object.keys(ERROR_IDS)).toHaveLength(18); // issue 31: createdWithOtherContent
  });

  it('fix the ids the dashboard keys off', () => {
    expect(ERROR_IDS.loggedOut).toBe('8df93d61');
    expect(ERROR_IDS.unknownOperation).toBe('0f5a25c9');
    expect(ERROR_IDS.notFound).toBe('6ac1205a');
    expect(CLIENT_ERROR_IDS).toEqual({
      noToken: '10569a9f',
      network: '34fbe3e3',
      unexpectedBody: 'b3162834',
      wrapped: '59b169c4',
    });
    expect(PqlErrorType.options).toContain('clientError');
  });
});
