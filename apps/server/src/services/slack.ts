import { type Logger, LogLevel, WebClient } from '@slack/web-api';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import { linksIn, writeToOutbox } from './outbox.ts';

// Slack messages (server-behaviour §6.3) through the Web API's chat.postMessage with the parent's
// bot token (the maintained @slack/web-api client, pointed at SLACK_API_URL), to the method's
// channel id, as the app's display name, text cut at 2900 characters. `ok: false` makes the client
// throw. Without a Slack API base URL each message is written to DATA_DIR/outbox and logged instead.

export const SLACK_TEXT_LIMIT = 2900;

export interface SlackMessage {
  /** The parent's bot token (plaintext, decrypted just for this call). */
  token: string;
  channelId: string;
  /** For the log only. */
  channelName?: string;
  text: string;
}

export interface SlackSender {
  post(message: SlackMessage): Promise<void>;
}

export function truncateForSlack(text: string): string {
  return text.length <= SLACK_TEXT_LIMIT ? text : `${text.slice(0, SLACK_TEXT_LIMIT - 1)}…`;
}

const TIMEOUT_MS = 15_000;

export function createSlackSender(
  config: Pick<Config, 'slackApiUrl' | 'dataDir' | 'appName'>,
  log: FastifyBaseLogger,
): SlackSender {
  const { slackApiUrl } = config;
  if (!slackApiUrl) {
    return {
      async post({ channelId, channelName, text }) {
        const body = truncateForSlack(text);
        const target = channelName ? `${channelName} (${channelId})` : channelId;
        const file = await writeToOutbox(
          config.dataDir,
          'slack',
          `Channel: ${target}\n\n${body}\n`,
        );
        log.info(
          { channelId, file, links: linksIn(body) },
          `Slack message to ${target} written to ${file}: ${body}`,
        );
      },
    };
  }

  return {
    async post({ token, channelId, text }) {
      const client = new WebClient(token, {
        slackApiUrl,
        // one attempt: the caller decides what a failure means (§3.8, §6.1)
        retryConfig: { retries: 0 },
        rejectRateLimitedCalls: true,
        timeout: TIMEOUT_MS,
        allowAbsoluteUrls: false,
        logger: silentLogger,
      });
      await client.chat.postMessage({
        channel: channelId,
        text: truncateForSlack(text),
        username: config.appName,
      });
      log.info({ channelId }, 'Slack message sent');
    },
  };
}

// The client's own console logger would print outside the server log; failures reach the caller.
const silentLogger: Logger = {
  debug() {},
  info() {},
  warn() {},
  error() {},
  setLevel() {},
  getLevel: () => LogLevel.ERROR,
  setName() {},
};
