import type { PqlError } from '@keyward/contract/errors';
import { CLIENT_ERROR_IDS } from '@keyward/contract/constants';
import { describe, expect, test } from 'vitest';
import {
  initialReachability,
  type ReachabilityEvent,
  reachabilityOf,
  reachabilityReducer,
} from './server-reachability';

const network: PqlError = {
  isPqlError: true,
  id: CLIENT_ERROR_IDS.network,
  type: 'clientError',
  debugMessage: 'Failed to fetch',
};
const proxy = (status: number): PqlError => ({
  isPqlError: true,
  id: CLIENT_ERROR_IDS.unexpectedBody,
  type: 'clientError',
  debugMessage: `Unexpected error: status=${status}, body=<html>Bad Gateway</html>`,
});
const refused: PqlError = { isPqlError: true, id: 'x', type: 'badRequest', debugMessage: '' };
const failed = (error: PqlError): ReachabilityEvent => ({ type: 'callFailed', error });

const run = (events: ReachabilityEvent[], isOffline = false) =>
  reachabilityOf(events.reduce(reachabilityReducer, initialReachability(isOffline)));

describe('server reachability (issue 20)', () => {
  test.each<[string, ReachabilityEvent[], boolean, string]>([
    ['nothing happened yet', [], false, 'reachable'],
    ['the browser starts offline', [], true, 'browserOffline'],
    ['a call fails for the network while online', [failed(network)], false, 'serverUnreachable'],
    [
      'a proxy answers 502 for a server that is down',
      [failed(proxy(502))],
      false,
      'serverUnreachable',
    ],
    ['a proxy answers 504', [failed(proxy(504))], false, 'serverUnreachable'],
    ['a 500 is an answer from our server', [failed(proxy(500))], false, 'reachable'],
    ['a refusal is an answer from our server', [failed(refused)], false, 'reachable'],
    [
      'a call succeeds after failures',
      [failed(network), { type: 'callSucceeded' }],
      false,
      'reachable',
    ],
    [
      'offline wins over unreachable',
      [failed(network), { type: 'browserWentOffline' }],
      false,
      'browserOffline',
    ],
    [
      'back online, still unreachable until a call succeeds',
      [failed(network), { type: 'browserWentOffline' }, { type: 'browserCameOnline' }],
      false,
      'serverUnreachable',
    ],
    ['back online after starting offline', [{ type: 'browserCameOnline' }], true, 'reachable'],
    [
      'a network failure while offline says nothing of the server',
      [{ type: 'browserWentOffline' }, failed(network), { type: 'browserCameOnline' }],
      false,
      'reachable',
    ],
  ])('%s → %s', (_name, events, isOffline, expected) => {
    expect(run(events, isOffline)).toBe(expected);
  });
});
