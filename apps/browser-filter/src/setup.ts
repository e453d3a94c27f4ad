import type { BrowserFilterOutput } from '@keyward/contract/browser';
import { browserOf, platformOf } from './platform.ts';
import { callServer, connectProblem, normaliseServerUrl } from './server.ts';
import { type Connection, type FilterStatus, readLocal, writeLocal } from './storage.ts';

// The setup page, opened when the extension is installed: a parent types the connection code
// from the dashboard (and the server's address, when this build does not carry one).

const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;
const form = $<HTMLFormElement>('connect-form');
const serverInput = $<HTMLInputElement>('server');
const codeInput = $<HTMLInputElement>('code');
const nameInput = $<HTMLInputElement>('device-name');
const problem = $<HTMLParagraphElement>('problem');
const submit = $<HTMLButtonElement>('connect');

async function configuredServer(): Promise<string | undefined> {
  try {
    const config = (await (await fetch(chrome.runtime.getURL('config.json'))).json()) as {
      serverUrl?: string | null;
    };
    return config.serverUrl ?? undefined;
  } catch {
    return undefined;
  }
}

async function browserDetails() {
  const data = (
    navigator as Navigator & {
      userAgentData?: {
        getHighEntropyValues(
          hints: string[],
        ): Promise<{ fullVersionList?: { brand: string; version: string }[] }>;
      };
    }
  ).userAgentData;
  const values = await data?.getHighEntropyValues(['fullVersionList']).catch(() => undefined);
  return browserOf(navigator.userAgent, values?.fullVersionList ?? []);
}

function showConnected(connection: Connection, status?: FilterStatus) {
  $('connect-section').hidden = true;
  $('connected-section').hidden = false;
  $('child-name').textContent = connection.childName;
  $('server-shown').textContent = connection.serverUrl;
  const words: Record<FilterStatus['mode'], string> = {
    filtering: 'Filtering: websites are blocked unless a key unlocks them.',
    suspended: 'The filter is turned off for a while (a parent allowed it).',
    downtime: 'Downtime: everything is blocked until it ends.',
    notConnected: 'Starting…',
    paused: 'Paused: a parent paused the internet.',
    timesUp: "Time's up: screen time for today is used up.",
  };
  $('mode').textContent = status ? words[status.mode] : words.notConnected;
}

async function showIncognitoHint() {
  const isAllowed = await chrome.extension.isAllowedIncognitoAccess();
  $('incognito-hint').hidden = isAllowed;
}

async function start() {
  const { connection, status } = await readLocal('connection', 'status');
  if (connection) showConnected(connection, status);
  const server = await configuredServer();
  if (server) serverInput.value = server;
  await showIncognitoHint();
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local' || !changes.status) return;
    void readLocal('connection', 'status').then((state) => {
      if (state.connection) showConnected(state.connection, state.status);
    });
  });
}

form.addEventListener('submit', async (event) => {
  event.preventDefault();
  problem.textContent = '';
  const serverUrl = normaliseServerUrl(serverInput.value);
  if (!serverUrl) {
    problem.textContent = "Type the Keyward server's address, like keyward.example.com.";
    serverInput.focus();
    return;
  }
  const code = codeInput.value.replace(/\s+/g, '');
  if (!/^\d{6}$/.test(code)) {
    problem.textContent = 'The connection code has 6 digits.';
    codeInput.focus();
    return;
  }
  submit.disabled = true;
  submit.textContent = 'Connecting…';
  try {
    const browser = await browserDetails();
    const platform = platformOf((await chrome.runtime.getPlatformInfo()).os);
    const deviceName = nameInput.value.trim();
    const output: BrowserFilterOutput<'ConnectBrowser'> = await callServer(
      serverUrl,
      'ConnectBrowser',
      {
        code: Number(code),
        browser: browser.browser,
        browserVersion: browser.version,
        platform,
        extensionVersion: chrome.runtime.getManifest().version,
        ...(deviceName ? { deviceName } : {}),
      },
    );
    const connection: Connection = {
      serverUrl,
      token: output.token,
      deviceId: output.deviceId,
      childId: output.childId,
      childName: output.childName,
      uninstallUrl: output.uninstallUrl,
    };
    await writeLocal({ connection });
    // Connected once the first rules are in force (the service worker checks in first).
    await chrome.runtime.sendMessage({ type: 'connected' }).catch(() => undefined);
    const { status } = await readLocal('status');
    showConnected(connection, status);
  } catch (error) {
    problem.textContent = connectProblem(error, serverUrl);
  } finally {
    submit.disabled = false;
    submit.textContent = 'Connect';
  }
});

void start();
