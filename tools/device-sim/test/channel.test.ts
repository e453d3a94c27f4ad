import { describe, expect, test } from 'vitest';
import { reconnectDelayMs } from '../src/channel.ts';

// issue 20: the pause before each reconnection try, as the app backs off
describe('reconnectDelayMs', () => {
  test.each<[number, number]>([
    [0, 1000],
    [1, 2000],
    [2, 4000],
    [4, 16_000],
    [5, 30_000],
    [50, 30_000],
  ])('try %i waits %i ms (without jitter)', (attempt, expected) => {
    expect(reconnectDelayMs(attempt, () => 0.5)).toBe(expected);
  });

  test.each<[number, number]>([
    [0, 800],
    [1, 1200],
  ])('jitter %f gives ±20%%', (random, expected) => {
    expect(reconnectDelayMs(0, () => random)).toBe(expected);
  });
});
