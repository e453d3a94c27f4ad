import type {
  BrowserMoreTimeRequest,
  BrowserSuspensionRequest,
  BrowserUnlockRequest,
} from '@keyward/contract/browser';
import { minutesInWords } from '@keyward/domain/screen-time';
import { pausedWords, timesUpWords } from './screen-time.ts';
import {
  blockedUrlOf,
  describeSuspensionEnd,
  offerableParts,
  SUSPENSION_CHOICES,
} from './block-page.ts';
import { callServer, ServerError, UnreachableError } from './server.ts';
import { readLocal, writeLocal } from './storage.ts';

// The block page: `blocked.html#<blocked URL>`. The child sees what was blocked and can ask a
// parent for it (with parts of the page the tab also had blocked), or ask to turn the filter off
// for a while. Both show their live status; when a parent says yes the page goes to the site.

const POLL_MS = 4_000;
const $ = <T extends HTMLElement>(id: string) => document.getElementById(id) as T;

const pageUrl = blockedUrlOf(location.hash);
const tabParam = new URLSearchParams(location.search).get('tab');

let watchedUnlockIds: string[] = [];
let watchedSuspensionId: string | undefined;
// Go to the site when a request is accepted while this page watches it pending (not when the page
// opens on an old yes: a key that does not cover this address would bring it straight back).
let isWaitingForUnlock = false;
let isWaitingForSuspension = false;
let watchedMoreTimeId: string | undefined;
let isWaitingForMoreTime = false;

function say(id: string, text: string, tone: 'neutral' | 'good' | 'bad' = 'neutral') {
  const element = $(id);
  element.textContent = text;
  element.dataset.tone = tone;
}

async function connection() {
  const { connection } = await readLocal('connection');
  if (!connection) throw new Error('not connected');
  return connection;
}

function problemWords(error: unknown): string {
  if (error instanceof UnreachableError) {
    return "Keyward can't reach the internet right now. Try again in a moment.";
  }
  if (error instanceof ServerError && error.status === 429) {
    return 'You asked a lot of times. Wait a few minutes, then ask again.';
  }
  return (error instanceof ServerError && error.userMessage) || 'That did not work. Try again.';
}

async function goToSite() {
  if (!pageUrl) return;
  // The new rules first, so the site does not come straight back here.
  await chrome.runtime.sendMessage({ type: 'checkInNow' }).catch(() => undefined);
  location.replace(pageUrl);
}

// --- ask for this site ------------------------------------------------------------------------------

function showUnlockStatus(requests: BrowserUnlockRequest[]) {
  const main = requests.find((r) => r.url === pageUrl) ?? requests[0];
  if (!main) return;
  switch (main.status) {
    case 'pending':
      say('ask-status', 'Asked! Waiting for a parent to answer…');
      $<HTMLButtonElement>('ask-button').disabled = true;
      isWaitingForUnlock = true;
      break;
    case 'accepted':
      if (isWaitingForUnlock) {
        isWaitingForUnlock = false;
        say('ask-status', 'A parent said yes! Opening the page…', 'good');
        void goToSite();
      } else {
        say('ask-status', 'A parent said yes to this page.', 'good');
        $('try-again').hidden = false;
      }
      break;
    case 'rejected':
      say(
        'ask-status',
        main.responseComment
          ? `A parent said no. They wrote: “${main.responseComment}”`
          : 'A parent said no this time.',
        'bad',
      );
      $<HTMLButtonElement>('ask-button').disabled = false;
      isWaitingForUnlock = false;
      break;
  }
}

async function askForSite() {
  if (!pageUrl) return;
  const ticked = [...document.querySelectorAll<HTMLInputElement>('#parts input:checked')].map(
    (box) => box.value,
  );
  const comment = $<HTMLTextAreaElement>('ask-comment').value.trim();
  $<HTMLButtonElement>('ask-button').disabled = true;
  say('ask-status', 'Asking…');
  try {
    const c = await connection();
    const requests = await callServer(
      c.serverUrl,
      'CreateUnlockRequests',
      { urls: [pageUrl, ...ticked], ...(comment ? { comment } : {}) },
      c.token,
    );
    watchedUnlockIds = requests.map((r) => r.id);
    const { unlockRequestIds = {} } = await readLocal('unlockRequestIds');
    unlockRequestIds[pageUrl] = watchedUnlockIds;
    await writeLocal({ unlockRequestIds });
    showUnlockStatus(requests);
  } catch (error) {
    say('ask-status', problemWords(error), 'bad');
    $<HTMLButtonElement>('ask-button').disabled = false;
  }
}

async function pollUnlockRequests() {
  if (watchedUnlockIds.length === 0) return;
  try {
    const c = await connection();
    showUnlockStatus(
      await callServer(c.serverUrl, 'GetUnlockRequests', { ids: watchedUnlockIds }, c.token),
    );
  } catch {
    // the next poll tries again
  }
}

// --- ask to turn the filter off ----------------------------------------------------------------------

function showSuspensionStatus(request: BrowserSuspensionRequest) {
  switch (request.status) {
    case 'pending':
      say('suspend-status', 'Asked! Waiting for a parent to answer…');
      $<HTMLButtonElement>('suspend-button').disabled = true;
      isWaitingForSuspension = true;
      break;
    case 'accepted': {
      const endsAt = request.suspension ? new Date(request.suspension.endsAt) : undefined;
      const isRunning = endsAt !== undefined && endsAt > new Date();
      say(
        'suspend-status',
        isRunning
          ? `A parent said yes: the filter is off ${describeSuspensionEnd(endsAt, new Date())}.`
          : 'A parent said yes.',
        'good',
      );
      if (isRunning && isWaitingForSuspension) {
        isWaitingForSuspension = false;
        void goToSite();
      }
      $<HTMLButtonElement>('suspend-button').disabled = false;
      break;
    }
    case 'rejected':
      say(
        'suspend-status',
        request.responseComment
          ? `A parent said no. They wrote: “${request.responseComment}”`
          : 'A parent said no this time.',
        'bad',
      );
      $<HTMLButtonElement>('suspend-button').disabled = false;
      break;
  }
}

async function askToSuspend() {
  const seconds = Number($<HTMLSelectElement>('suspend-duration').value);
  const comment = $<HTMLTextAreaElement>('suspend-comment').value.trim();
  $<HTMLButtonElement>('suspend-button').disabled = true;
  say('suspend-status', 'Asking…');
  try {
    const c = await connection();
    const request = await callServer(
      c.serverUrl,
      'CreateSuspensionRequest',
      { seconds, ...(comment ? { comment } : {}) },
      c.token,
    );
    watchedSuspensionId = request.id;
    await writeLocal({ suspensionRequest: request });
    showSuspensionStatus(request);
  } catch (error) {
    say('suspend-status', problemWords(error), 'bad');
    $<HTMLButtonElement>('suspend-button').disabled = false;
  }
}

async function pollSuspensionRequest() {
  if (!watchedSuspensionId) return;
  try {
    const c = await connection();
    const request = await callServer(
      c.serverUrl,
      'GetSuspensionRequest',
      { id: watchedSuspensionId },
      c.token,
    );
    if (request.status === 'accepted') {
      await chrome.runtime.sendMessage({ type: 'checkInNow' }).catch(() => undefined);
    }
    showSuspensionStatus(request);
  } catch {
    // the next poll tries again
  }
}

// --- ask for more time (issue 34) -----------------------------------------------------------------

function showMoreTimeStatus(request: BrowserMoreTimeRequest) {
  const button = $<HTMLButtonElement>('more-time-button');
  switch (request.status) {
    case 'pending':
      say('more-time-status', 'Asked! Waiting for a parent to answer…');
      button.disabled = true;
      isWaitingForMoreTime = true;
      break;
    case 'accepted':
      say(
        'more-time-status',
        `A parent gave you ${minutesInWords(request.grantedMinutes ?? request.requestedMinutes)} more. Opening the page…`,
        'good',
      );
      button.disabled = false;
      if (isWaitingForMoreTime) {
        isWaitingForMoreTime = false;
        void goToSite();
      }
      break;
    case 'rejected':
      say(
        'more-time-status',
        request.responseComment
          ? `A parent said no. They wrote: “${request.responseComment}”`
          : 'A parent said no this time.',
        'bad',
      );
      button.disabled = false;
      isWaitingForMoreTime = false;
      break;
  }
}

async function askForMoreTime() {
  const picked = document.querySelector<HTMLInputElement>('input[name="more-minutes"]:checked');
  const minutes = Number(picked?.value ?? 15) as 15 | 30 | 60;
  const comment = $<HTMLTextAreaElement>('more-time-comment').value.trim();
  $<HTMLButtonElement>('more-time-button').disabled = true;
  say('more-time-status', 'Asking…');
  try {
    const c = await connection();
    const request = await callServer(
      c.serverUrl,
      'CreateMoreTimeRequest',
      { minutes, ...(comment ? { comment } : {}) },
      c.token,
    );
    watchedMoreTimeId = request.id;
    await writeLocal({ moreTimeRequest: request });
    showMoreTimeStatus(request);
  } catch (error) {
    say('more-time-status', problemWords(error), 'bad');
    $<HTMLButtonElement>('more-time-button').disabled = false;
  }
}

async function pollMoreTimeRequest() {
  if (!watchedMoreTimeId) return;
  try {
    const c = await connection();
    const request = await callServer(
      c.serverUrl,
      'GetMoreTimeRequest',
      { id: watchedMoreTimeId },
      c.token,
    );
    if (request.status === 'accepted') {
      await chrome.runtime.sendMessage({ type: 'checkInNow' }).catch(() => undefined);
    }
    await writeLocal({ moreTimeRequest: request });
    showMoreTimeStatus(request);
  } catch {
    // the next poll tries again
  }
}

// --- the page ----------------------------------------------------------------------------------------

async function showParts() {
  if (!pageUrl) return;
  const tabId = tabParam ? Number(tabParam) : (await chrome.tabs.getCurrent())?.id;
  const answer = (await chrome.runtime
    .sendMessage({ type: 'blockedParts', ...(tabId !== undefined ? { tabId } : {}) })
    .catch(() => undefined)) as { ok: boolean; value?: string[] } | undefined;
  const parts = offerableParts(answer?.value ?? [], pageUrl);
  if (parts.length === 0) return;
  const list = $('parts-list');
  for (const url of parts) {
    const label = document.createElement('label');
    const box = document.createElement('input');
    box.type = 'checkbox';
    box.value = url;
    label.append(box, ` ${url}`);
    const item = document.createElement('li');
    item.append(label);
    list.append(item);
  }
  $('parts').hidden = false;
}

async function start() {
  const duration = $<HTMLSelectElement>('suspend-duration');
  for (const choice of SUSPENSION_CHOICES) {
    duration.append(new Option(choice.label, String(choice.seconds)));
  }
  $('address').textContent = pageUrl ?? 'this page';
  if (tabParam) $('title').textContent = 'Ask for this page';

  const {
    status,
    connection: c,
    unlockRequestIds = {},
    suspensionRequest,
    moreTimeRequest,
  } = await readLocal(
    'status',
    'connection',
    'unlockRequestIds',
    'suspensionRequest',
    'moreTimeRequest',
  );
  if (!c) {
    $('not-connected').hidden = false;
    $('ask').hidden = true;
    $('suspend').hidden = true;
    return;
  }
  if (status?.mode === 'downtime') {
    $('title').textContent = "It's downtime";
    $('why').textContent = 'Everything is blocked until downtime ends. You can still ask a parent.';
  }
  // issue 34: time's up and pause say so; asking for a site or a suspension does not help there
  if (status?.mode === 'timesUp' && status.screenTime) {
    document.title = "Time's up";
    $('title').textContent = "Time's up";
    $('why').textContent = timesUpWords(status.screenTime, new Date());
    $('ask').hidden = true;
    $('suspend').hidden = true;
    $('more-time').hidden = false;
    $('more-time-button').addEventListener('click', () => void askForMoreTime());
    $<HTMLButtonElement>('more-time-button').disabled = false;
    if (moreTimeRequest?.status === 'pending') {
      watchedMoreTimeId = moreTimeRequest.id;
      showMoreTimeStatus(moreTimeRequest);
    }
  }
  if (status?.mode === 'paused') {
    document.title = 'The internet is paused';
    $('title').textContent = 'The internet is paused';
    $('why').textContent = pausedWords(status.pausedUntil);
    $('ask').hidden = true;
    $('suspend').hidden = true;
  }
  if (!pageUrl) $('ask').hidden = true;
  $('ask-button').addEventListener('click', () => void askForSite());
  $('suspend-button').addEventListener('click', () => void askToSuspend());
  $('try-again').addEventListener('click', () => void goToSite());
  // the page's HTML shows both buttons disabled until a click can be heard (blocked.html)
  $<HTMLButtonElement>('ask-button').disabled = false;
  $<HTMLButtonElement>('suspend-button').disabled = false;
  await showParts();

  watchedUnlockIds = pageUrl ? (unlockRequestIds[pageUrl] ?? []) : [];
  if (watchedUnlockIds.length > 0) void pollUnlockRequests();
  if (suspensionRequest?.status === 'pending') {
    watchedSuspensionId = suspensionRequest.id;
    showSuspensionStatus(suspensionRequest);
  }

  // Decisions arrive on the service worker's channel; polling covers a channel that is down.
  chrome.storage.onChanged.addListener((changes, area) => {
    if (area !== 'local') return;
    const decisions = changes.unlockDecisions?.newValue as
      | Record<string, BrowserUnlockRequest>
      | undefined;
    if (decisions) {
      const ours = watchedUnlockIds.map((id) => decisions[id]).filter((r) => r !== undefined);
      if (ours.length > 0) showUnlockStatus(ours);
    }
    const suspension = changes.suspensionRequest?.newValue as BrowserSuspensionRequest | undefined;
    if (suspension && suspension.id === watchedSuspensionId) showSuspensionStatus(suspension);
    // issue 34: more time granted reaches the worker first (rulesChanged): it reopens this tab
    const status = changes.status?.newValue as { mode?: string } | undefined;
    if (status?.mode === 'filtering' && isWaitingForMoreTime) void pollMoreTimeRequest();
  });
  setInterval(() => {
    void pollUnlockRequests();
    void pollSuspensionRequest();
    void pollMoreTimeRequest();
  }, POLL_MS);
}

void start();
