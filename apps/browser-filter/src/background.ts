import {
  BrowserChannelMessage,
  BrowserCheckInOutput,
  type BrowserSecurityEvent,
  type BrowserUnlockRequest,
} from '@keyward/contract/browser';
import {
  type CompiledBrowserRules,
  compileBlockEverything,
  compileBrowserRules,
  type ReportedBrowserState,
  reportedBrowserState,
  type DnrRule,
  RULE_IDS,
} from '@keyward/domain/browser-rules';
import { exemptHostMatcher, isCountedHost, minuteBucket } from '@keyward/domain/screen-time';
import { blockedUrlOf } from './block-page.ts';
import {
  minutesToSend,
  remainingMinutes,
  shouldWarn,
  warningKey,
  warningWords,
  withMinute,
  withoutSent,
} from './screen-time.ts';
import { browserOf } from './platform.ts';
import { callServer, channelUrlOf, ServerError } from './server.ts';
import {
  type Connection,
  type ExtensionMessage,
  readLocal,
  type TabMessage,
  readSession,
  type TypedLine,
  writeLocal,
  writeSession,
} from './storage.ts';
import { alarmTime, reconnectDelayMs, scaledSize, shouldReportOffline } from './timing.ts';

// The service worker: checks in, turns the keys into DNR rules, keeps the push channel open,
// reports what the parent asked to see. It may be stopped at any moment; everything it needs to
// go on is in chrome.storage, and every wake-up (start, alarm, message) re-applies and catches up.

const BLOCK_PAGE = chrome.runtime.getURL('blocked.html');
const PING_MS = 20_000;
const CLOCK_TOLERANCE_MS = 5 * 60_000;
const LINES_PER_BATCH = 20;
/** typed lines are sent in batches, at most this long after the first one waits */
const LINES_WAIT_MS = 10_000;
const ALARMS = {
  rules: 'rules',
  checkIn: 'checkIn',
  screenshot: 'screenshot',
  typedLines: 'typedLines',
  channel: 'channel',
} as const;

const extensionVersion = chrome.runtime.getManifest().version;

// --- serialised work ------------------------------------------------------------------------------

let queue: Promise<unknown> = Promise.resolve();
/** Runs `task` after the ones before it (rule updates must not interleave). */
function serially<T>(task: () => Promise<T>): Promise<T> {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
}

function log(...args: unknown[]) {
  console.info('[keyward]', ...args);
}

// --- rules ------------------------------------------------------------------------------------------

type Mode = CompiledBrowserRules['mode'];
const OPENNESS: Record<Mode, number> = {
  suspended: 5,
  filtering: 4,
  timesUp: 3,
  downtime: 2,
  paused: 1,
  notConnected: 0,
};
function isStricter(mode: Mode, than: Mode): boolean {
  return OPENNESS[mode] < OPENNESS[than];
}

function applyRules(): Promise<CompiledBrowserRules> {
  return serially(async () => {
    const state = await readLocal(
      'connection',
      'checkIn',
      'clockSkewMs',
      'suspensionEndReported',
      'status',
      'usedMinutes',
    );
    const now = new Date(Date.now() + (state.clockSkewMs ?? 0));
    const checkIn = state.checkIn;
    // issue 34: a pause, and today's allowance used up (counting the minutes not sent yet)
    const screenTime = checkIn?.screenTime;
    const isTimeUp = remainingMinutes(screenTime, state.usedMinutes ?? {}, now) === 0;
    const compiled = state.connection
      ? compileBrowserRules({
          keychains: checkIn?.keychains ?? [],
          now,
          downtime: checkIn?.downtime,
          suspension: checkIn?.suspension,
          serverOrigin: state.connection.serverUrl,
          blockPageUrl: BLOCK_PAGE,
          ...(checkIn?.pause
            ? { pausedUntil: checkIn.pause.until ? new Date(checkIn.pause.until) : null }
            : {}),
          ...(isTimeUp && screenTime
            ? {
                timesUp: {
                  exemptKeychainIds: screenTime.exemptKeychainIds,
                  resetsAt: new Date(screenTime.resetsAt),
                },
              }
            : {}),
        })
      : compileBlockEverything(BLOCK_PAGE);

    const replaceRules = async (rules: readonly DnrRule[]) => {
      const existing = await chrome.declarativeNetRequest.getDynamicRules();
      await chrome.declarativeNetRequest.updateDynamicRules({
        removeRuleIds: existing.map((rule) => rule.id),
        addRules: rules as unknown as chrome.declarativeNetRequest.Rule[],
      });
    };
    try {
      await replaceRules(compiled.rules);
    } catch (error) {
      // Chrome takes all the rules or none: without the keys the block page and the server
      // still work, and the child can ask.
      log('Chrome refused the rules; keeping only the block page and the server', error);
      await replaceRules(compiled.rules.filter((rule) => rule.id < RULE_IDS.firstKey));
    }
    log(`rules: ${compiled.mode}, ${compiled.rules.length} rules, ${compiled.keysInForce} keys`);
    if (compiled.skippedKeys.length > 0) log('keys left out', compiled.skippedKeys);

    await chrome.alarms.clear(ALARMS.rules);
    if (compiled.nextChangeAt) {
      // nextChangeAt is on the server's clock; the alarm is on this computer's.
      const localChangeAt = new Date(compiled.nextChangeAt.getTime() - (state.clockSkewMs ?? 0));
      chrome.alarms.create(ALARMS.rules, { when: alarmTime(localChangeAt, Date.now()) });
    }

    // A suspension ends on time even offline; the parent hears that it did.
    const suspension = checkIn?.suspension;
    if (
      suspension &&
      new Date(suspension.endsAt) <= now &&
      state.suspensionEndReported !== suspension.endsAt
    ) {
      await writeLocal({ suspensionEndReported: suspension.endsAt });
      // no raw time in the detail (issue 32): the event's own time says when it ended
      await queueEvent('suspensionExpired');
    }

    const isSuspended = compiled.mode === 'suspended';
    reportState(reportedBrowserState(compiled));
    await writeLocal({
      status: {
        mode: compiled.mode,
        ...(state.connection ? { childName: state.connection.childName } : {}),
        ...(isSuspended && suspension ? { suspensionEndsAt: suspension.endsAt } : {}),
        ...(compiled.mode === 'paused' && checkIn?.pause?.until
          ? { pausedUntil: checkIn.pause.until }
          : {}),
        ...(screenTime ? { screenTime } : {}),
        keysInForce: compiled.keysInForce,
        appliedAt: new Date().toISOString(),
      },
    });
    // Pages opened while the filter let more through stay open otherwise: reload them when it
    // closes down (a suspension ends, downtime starts, the parent removed this browser).
    const previous = state.status?.mode;
    if (previous && previous !== compiled.mode && isStricter(compiled.mode, previous)) {
      await reloadWebTabs();
    }
    // issue 34: more time granted, a pause over: the Time's up and pause pages go back to their sites
    if (
      (previous === 'timesUp' || previous === 'paused') &&
      previous !== compiled.mode &&
      isStricter(previous, compiled.mode)
    ) {
      await reopenBlockedTabs(() => true);
    }
    await scheduleMonitoring();
    return compiled;
  });
}

async function reloadWebTabs() {
  for (const tab of await chrome.tabs.query({})) {
    if (tab.id !== undefined && tab.url && /^https?:/.test(tab.url)) {
      chrome.tabs.reload(tab.id).catch(() => undefined);
    }
  }
}

// --- check-in ---------------------------------------------------------------------------------------

async function browserVersion(): Promise<string> {
  return browserOf(navigator.userAgent).version;
}

let checkingIn: Promise<void> | undefined;
let nextCheckIn: Promise<void> | undefined;

/**
 * Checks in now; keeps the last rules when the server cannot be reached. One at a time: a call
 * while one is under way gets one more after it (the change it heard of may have missed it).
 */
function checkIn(): Promise<void> {
  if (!checkingIn) {
    checkingIn = doCheckIn().finally(() => {
      checkingIn = undefined;
    });
    return checkingIn;
  }
  nextCheckIn ??= checkingIn.then(() => {
    nextCheckIn = undefined;
    return checkIn();
  });
  return nextCheckIn;
}

async function doCheckIn(): Promise<void> {
  const { connection } = await readLocal('connection');
  if (!connection) {
    await applyRules();
    return;
  }
  const incognitoAllowed = await chrome.extension.isAllowedIncognitoAccess();
  try {
    // issue 34: the minutes counted since the last check-in (kept while the server was away)
    const { usedMinutes = {} } = await readLocal('usedMinutes');
    const sent = minutesToSend(usedMinutes);
    const output = await callServer(
      connection.serverUrl,
      'CheckIn',
      {
        extensionVersion,
        browserVersion: await browserVersion(),
        incognitoAllowed,
        ...(sent.length > 0 ? { usedMinutes: sent } : {}),
      },
      connection.token,
    );
    const checkIn = BrowserCheckInOutput.parse(output);
    if (sent.length > 0) {
      const { usedMinutes: now = {} } = await readLocal('usedMinutes');
      await writeLocal({ usedMinutes: withoutSent(now, sent) });
    }
    const skew = new Date(checkIn.serverTime).getTime() - Date.now();
    const isClockOff = Math.abs(skew) > CLOCK_TOLERANCE_MS;
    const state = await readLocal('clockReported', 'incognitoReported');
    await writeLocal({
      checkIn,
      checkedInAt: new Date().toISOString(),
      clockSkewMs: isClockOff ? skew : 0,
      clockReported: isClockOff,
      incognitoReported: incognitoAllowed,
      connection: { ...connection, childName: checkIn.childName },
    });
    if (isClockOff && !state.clockReported) {
      await queueEvent(
        'clockChanged',
        `this computer's clock is ${Math.round(skew / 60_000)} minutes off`,
      );
    }
    // CheckIn's `incognitoAllowed` says it too; the event is for a change seen between check-ins
    // and the server keeps one per repeat window.
    if (!incognitoAllowed && state.incognitoReported !== false) {
      await queueEvent('incognitoNotAllowed', 'this browser does not let Keyward run in incognito');
    }
    chrome.alarms.create(ALARMS.checkIn, {
      periodInMinutes: Math.max(0.5, checkIn.checkInEverySeconds / 60),
    });
    await applyRules();
    await flushEvents();
  } catch (error) {
    if (error instanceof ServerError && error.isTokenRefused) {
      log('the server refused our token: disconnected');
      await forgetConnection();
      return;
    }
    log('check-in failed, the last rules stay', error);
    // try again in a minute (the server may be down, or have refused a burst with 429), then at
    // the usual pace
    const { checkIn: last } = await readLocal('checkIn');
    chrome.alarms.create(ALARMS.checkIn, {
      delayInMinutes: 1,
      periodInMinutes: Math.max(0.5, (last?.checkInEverySeconds ?? 300) / 60),
    });
    await applyRules();
  }
}

async function forgetConnection() {
  await chrome.storage.local.remove([
    'connection',
    'checkIn',
    'checkedInAt',
    'unlockRequestIds',
    'unlockDecisions',
    'suspensionRequest',
    'typedLines',
    'pendingEvents',
    'usedMinutes',
    'lastCountedMinute',
    'warnedFor',
    'moreTimeRequest',
  ]);
  await writeLocal({ keylogging: false });
  closeChannel();
  await chrome.alarms.clearAll();
  await applyRules();
}

// --- security events ------------------------------------------------------------------------------

async function queueEvent(event: BrowserSecurityEvent, detail?: string) {
  const { pendingEvents = [] } = await readLocal('pendingEvents');
  pendingEvents.push(detail ? { event, detail } : { event });
  await writeLocal({ pendingEvents: pendingEvents.slice(-20) });
  void flushEvents();
}

let flushingEvents = false;
async function flushEvents() {
  if (flushingEvents) return;
  flushingEvents = true;
  try {
    const { connection, pendingEvents = [] } = await readLocal('connection', 'pendingEvents');
    if (!connection) return;
    while (pendingEvents.length > 0) {
      const next = pendingEvents[0]!;
      await callServer(connection.serverUrl, 'LogSecurityEvent', next, connection.token);
      pendingEvents.shift();
      await writeLocal({ pendingEvents });
    }
  } catch (error) {
    log('security events wait for the server', error);
  } finally {
    flushingEvents = false;
  }
}

// --- push channel ----------------------------------------------------------------------------------

let socket: WebSocket | undefined;
/** the server answered our hello: frames other than hello may be sent */
let isWelcomed = false;
/** issue 32: the filter state the rules applied, sent with each ping and at once when it changes */
let appliedState: ReportedBrowserState | undefined;
let sentState: string | undefined;

function ping() {
  if (!socket || socket.readyState !== WebSocket.OPEN || !isWelcomed) return;
  sentState = appliedState ? JSON.stringify(appliedState) : undefined;
  socket.send(JSON.stringify({ type: 'ping', ...(appliedState ? { state: appliedState } : {}) }));
}

function reportState(state: ReportedBrowserState | undefined) {
  appliedState = state;
  if (state && JSON.stringify(state) !== sentState) ping();
}

let pingTimer: ReturnType<typeof setInterval> | undefined;
let reconnectTimer: ReturnType<typeof setTimeout> | undefined;
let attempt = 0;

function closeChannel() {
  if (reconnectTimer) clearTimeout(reconnectTimer);
  reconnectTimer = undefined;
  if (pingTimer) clearInterval(pingTimer);
  pingTimer = undefined;
  const open = socket;
  socket = undefined;
  open?.close(1000);
}

async function ensureChannel() {
  if (socket || reconnectTimer) return;
  const { connection } = await readLocal('connection');
  if (!connection || socket) return;
  openChannel(connection);
}

function openChannel(connection: Connection) {
  const ws = new WebSocket(channelUrlOf(connection.serverUrl));
  socket = ws;
  isWelcomed = false;
  sentState = undefined;
  ws.onopen = () => {
    ws.send(JSON.stringify({ type: 'hello', token: connection.token }));
    pingTimer = setInterval(() => {
      if (socket === ws) ping();
    }, PING_MS);
    attempt = 0;
    void chrome.storage.session.remove('channelDownSince');
    // Whatever changed while we were away.
    void checkIn();
  };
  ws.onmessage = (event) => {
    log('channel:', String(event.data).slice(0, 200));
    let frame: unknown;
    try {
      frame = JSON.parse(String(event.data));
    } catch {
      return;
    }
    // Frames this version does not know (newer ones) are left alone.
    const parsed = BrowserChannelMessage.safeParse(frame);
    if (parsed.success) void onChannelMessage(parsed.data);
  };
  ws.onclose = (event) => {
    log(`channel closed: ${event.code}`);
    if (socket !== ws) return;
    socket = undefined;
    if (pingTimer) clearInterval(pingTimer);
    pingTimer = undefined;
    void markChannelDown();
    if (event.code === 4999) {
      log('the channel refused our token');
      void forgetConnection();
      return;
    }
    const delay = reconnectDelayMs(attempt++);
    reconnectTimer = setTimeout(() => {
      reconnectTimer = undefined;
      void ensureChannel();
    }, delay);
  };
}

async function markChannelDown() {
  const { channelDownSince } = await readSession('channelDownSince');
  if (channelDownSince === undefined) await writeSession({ channelDownSince: Date.now() });
}

async function onChannelMessage(message: BrowserChannelMessage) {
  switch (message.type) {
    case 'welcome':
      // the server knows this browser: the channel is open (onopen already checked in); it
      // hears the filter state at once, not at the first ping 20 s later
      isWelcomed = true;
      ping();
      break;
    case 'rulesChanged':
      await checkIn();
      break;
    case 'unlockRequestDecided':
      await rememberUnlockDecision(message.request);
      if (message.request.status === 'accepted') {
        await checkIn();
        await reopenBlockedTabs((url) => sameUrl(url, message.request.url));
      }
      break;
    case 'suspensionDecided':
      await writeLocal({ suspensionRequest: message.request });
      await checkIn();
      if (message.request.status === 'accepted') await reopenBlockedTabs(() => true);
      break;
    case 'disconnected':
      await forgetConnection();
      break;
  }
}

function sameUrl(a: string, b: string): boolean {
  try {
    return new URL(a).href === new URL(b).href;
  } catch {
    return a === b;
  }
}

async function rememberUnlockDecision(request: BrowserUnlockRequest) {
  const { unlockDecisions = {} } = await readLocal('unlockDecisions');
  unlockDecisions[request.id] = request;
  const ids = Object.keys(unlockDecisions);
  for (const id of ids.slice(0, Math.max(0, ids.length - 100))) delete unlockDecisions[id];
  await writeLocal({ unlockDecisions });
}

/** Block pages whose address is now unlocked go back to it by themselves. */
async function reopenBlockedTabs(isUnlocked: (url: string) => boolean) {
  for (const tab of await chrome.tabs.query({})) {
    if (tab.id === undefined || !tab.url?.startsWith(BLOCK_PAGE)) continue;
    const blocked = blockedUrlOf(new URL(tab.url).hash);
    if (blocked && isUnlocked(blocked)) await chrome.tabs.update(tab.id, { url: blocked });
  }
}

// --- the child is using the browser while the filter is offline ------------------------------------

async function noticeActivity() {
  const { channelDownSince, offlineReportedFor } = await readSession(
    'channelDownSince',
    'offlineReportedFor',
  );
  if (
    shouldReportOffline({
      now: Date.now(),
      channelDownSince,
      reportedForOutageStartingAt: offlineReportedFor,
    })
  ) {
    await writeSession({ offlineReportedFor: channelDownSince });
    const minutes = Math.round((Date.now() - (channelDownSince ?? Date.now())) / 60_000);
    await queueEvent(
      'filterOfflineWhileInUse',
      `no connection to the server for ${minutes} minutes`,
    );
  }
}

// --- monitoring: screenshots and typed lines --------------------------------------------------------

let screenshotTimer: ReturnType<typeof setInterval> | undefined;
let screenshotEveryMs: number | undefined;
let lastScreenshotAt = 0;

/**
 * Screenshots every N seconds: a timer while the worker runs (its channel keeps it up), and an
 * alarm as a backstop (alarms fire at most every 30 s, and wake a stopped worker).
 */
async function scheduleMonitoring() {
  const { checkIn, status } = await readLocal('checkIn', 'status');
  const isSuspended = status?.mode === 'suspended';
  const suspension = isSuspended ? checkIn?.suspension : undefined;
  const screenshots = checkIn?.monitoring.screenshots;
  const everySeconds =
    suspension?.screenshotsEverySeconds ??
    (screenshots?.enabled ? screenshots.everySeconds : undefined);
  const everyMs = everySeconds === undefined ? undefined : everySeconds * 1000;
  if (everyMs !== screenshotEveryMs) {
    if (screenshotTimer) clearInterval(screenshotTimer);
    screenshotTimer = undefined;
    screenshotEveryMs = everyMs;
    await chrome.alarms.clear(ALARMS.screenshot);
    if (everyMs !== undefined) {
      screenshotTimer = setInterval(() => void screenshotIfDue(everyMs), everyMs);
      const periodInMinutes = Math.max(0.5, everyMs / 60_000);
      chrome.alarms.create(ALARMS.screenshot, { periodInMinutes, delayInMinutes: periodInMinutes });
    }
  }
  const keylogging = Boolean(checkIn?.monitoring.keylogging || suspension?.keylogging);
  await writeLocal({ keylogging });
  if (keylogging && !(await chrome.alarms.get(ALARMS.typedLines))) {
    chrome.alarms.create(ALARMS.typedLines, { periodInMinutes: 1 });
  }
}

async function screenshotIfDue(everyMs: number | undefined) {
  if (everyMs === undefined || Date.now() - lastScreenshotAt < everyMs * 0.8) return;
  lastScreenshotAt = Date.now();
  await takeScreenshot().catch((error) => log('screenshot failed', error));
}

async function takeScreenshot() {
  const { connection, checkIn, status } = await readLocal('connection', 'checkIn', 'status');
  if (!connection || !checkIn) return;
  const window = await chrome.windows.getLastFocused().catch(() => undefined);
  if (!window?.focused || window.id === undefined) return;
  const configured = checkIn.monitoring.screenshots;
  const targetWidth = configured.enabled ? configured.width : 1280;
  let dataUrl: string;
  try {
    dataUrl = await chrome.tabs.captureVisibleTab(window.id, { format: 'jpeg', quality: 80 });
  } catch (error) {
    log('no screenshot of this tab', error);
    return;
  }
  const bitmap = await createImageBitmap(await (await fetch(dataUrl)).blob());
  const size = scaledSize(bitmap.width, bitmap.height, targetWidth);
  const canvas = new OffscreenCanvas(size.width, size.height);
  canvas.getContext('2d')?.drawImage(bitmap, 0, 0, size.width, size.height);
  bitmap.close();
  const jpeg = await canvas.convertToBlob({ type: 'image/jpeg', quality: 0.7 });
  const { uploadUrl } = await callServer(
    connection.serverUrl,
    'CreateScreenshotUpload',
    {
      ...size,
      takenAt: new Date().toISOString(),
      filterSuspended: status?.mode === 'suspended',
    },
    connection.token,
  );
  const put = await fetch(uploadUrl, {
    method: 'PUT',
    headers: { 'content-type': 'image/jpeg' },
    body: jpeg,
  });
  if (!put.ok) log('screenshot upload refused', put.status);
}

async function addTypedLine(line: TypedLine) {
  const { typedLines = [] } = await readLocal('typedLines');
  typedLines.push(line);
  await writeLocal({ typedLines: typedLines.slice(-500) });
  if (typedLines.length >= LINES_PER_BATCH) await flushTypedLines();
  else linesTimer ??= setTimeout(() => void flushTypedLines(), LINES_WAIT_MS);
}

let linesTimer: ReturnType<typeof setTimeout> | undefined;

async function flushTypedLines() {
  if (linesTimer) clearTimeout(linesTimer);
  linesTimer = undefined;
  const { connection, typedLines = [] } = await readLocal('connection', 'typedLines');
  if (!connection || typedLines.length === 0) return;
  const batch = typedLines.slice(0, 100);
  try {
    await callServer(connection.serverUrl, 'CreateTypedLines', batch, connection.token);
    const { typedLines: now = [] } = await readLocal('typedLines');
    await writeLocal({ typedLines: now.slice(batch.length) });
  } catch (error) {
    log('typed lines wait for the server', error);
  }
}

// --- screen time (issue 34) ---------------------------------------------------------------------------

const COUNT_EVERY_MS = 15_000;
/** the user is idle after this long without input (chrome.idle's smallest interval is 15 s) */
const IDLE_AFTER_SECONDS = 60;

/** The site of the visible tab of the focused window while the user is active, else undefined. */
async function visibleSite(): Promise<{ host: string; tabId: number } | undefined> {
  const idle = await chrome.idle.queryState(IDLE_AFTER_SECONDS).catch(() => 'active' as const);
  if (idle !== 'active') return undefined;
  const window = await chrome.windows.getLastFocused({ populate: true }).catch(() => undefined);
  if (!window?.focused || window.state === 'minimized') return undefined;
  const tab = window.tabs?.find((t) => t.active);
  if (!tab?.url || tab.id === undefined || !/^https?:/.test(tab.url)) return undefined;
  return { host: new URL(tab.url).hostname, tabId: tab.id };
}

/**
 * One tick: counts this minute when a counted site is visible, then enforces: time's up blocks
 * (the rules), and 5 minutes before the end the visible tab shows a warning.
 */
function countTime(): Promise<void> {
  return serially(async () => {
    const state = await readLocal(
      'connection',
      'checkIn',
      'clockSkewMs',
      'usedMinutes',
      'lastCountedMinute',
      'status',
    );
    const { connection, checkIn: last } = state;
    if (!connection || !last) return undefined;
    const mode = state.status?.mode;
    if (mode !== 'filtering' && mode !== 'timesUp') return undefined;
    const site = await visibleSite();
    if (!site || site.host === new URL(connection.serverUrl).hostname) return undefined;
    const now = new Date(Date.now() + (state.clockSkewMs ?? 0));
    const exempt = exemptHostMatcher(last.keychains, last.screenTime?.exemptKeychainIds ?? []);
    if (!isCountedHost(site.host, exempt, now)) return undefined;
    const bucket = minuteBucket(now);
    if (state.lastCountedMinute === bucket) return undefined;
    const usedMinutes = withMinute(state.usedMinutes ?? {}, bucket, site.host, now);
    await writeLocal({ usedMinutes, lastCountedMinute: bucket });
    return { tabId: site.tabId, left: remainingMinutes(last.screenTime, usedMinutes, now) };
  }).then(async (counted) => {
    if (!counted) return;
    const { checkIn: last, warnedFor } = await readLocal('checkIn', 'warnedFor');
    const screenTime = last?.screenTime;
    if (counted.left === 0) {
      // the rules now block; the server hears the minutes and confirms (another browser's time)
      await applyRules();
      await checkIn();
    } else if (screenTime && shouldWarn(counted.left) && warnedFor !== warningKey(screenTime)) {
      await writeLocal({ warnedFor: warningKey(screenTime) });
      const message: TabMessage = {
        type: 'screenTimeWarning',
        text: warningWords(counted.left ?? 0),
      };
      await chrome.tabs.sendMessage(counted.tabId, message).catch(() => undefined);
    }
  });
}

setInterval(() => void countTime(), COUNT_EVERY_MS);

// --- sub-resources blocked per tab (for the block page's "also ask for") -------------------------

async function rememberBlockedPart(tabId: number, url: string) {
  const { blockedParts = {} } = await readSession('blockedParts');
  const list = blockedParts[tabId] ?? [];
  if (list.at(-1) === url) return;
  list.push(url);
  blockedParts[tabId] = list.slice(-50);
  await writeSession({ blockedParts });
}

async function forgetBlockedParts(tabId: number) {
  const { blockedParts = {} } = await readSession('blockedParts');
  if (!(tabId in blockedParts)) return;
  delete blockedParts[tabId];
  await writeSession({ blockedParts });
}

// --- wiring -------------------------------------------------------------------------------------------

async function wake() {
  await applyRules();
  await ensureChannel();
  const {
    connection,
    checkedInAt,
    checkIn: last,
  } = await readLocal('connection', 'checkedInAt', 'checkIn');
  if (!connection) return;
  chrome.runtime.setUninstallURL(connection.uninstallUrl).catch(() => undefined);
  const every = (last?.checkInEverySeconds ?? 60) * 1000;
  if (!checkedInAt || Date.now() - new Date(checkedInAt).getTime() > every) await checkIn();
}

chrome.runtime.onInstalled.addListener(async (details) => {
  await wake();
  const { connection } = await readLocal('connection');
  if (details.reason === 'install' && !connection) {
    await chrome.tabs.create({ url: chrome.runtime.getURL('setup.html') });
  }
});

chrome.runtime.onStartup.addListener(() => void wake());

chrome.alarms.onAlarm.addListener((alarm) => {
  switch (alarm.name) {
    case ALARMS.rules:
      void applyRules().then(ensureChannel);
      break;
    case ALARMS.checkIn:
      void checkIn().then(ensureChannel);
      void noticeActivity();
      break;
    case ALARMS.screenshot:
      void scheduleMonitoring().then(() => screenshotIfDue(screenshotEveryMs));
      break;
    case ALARMS.typedLines:
      void flushTypedLines();
      break;
    case ALARMS.channel:
      void ensureChannel();
      void countTime();
      break;
  }
});

chrome.action.onClicked.addListener(async (tab) => {
  const { connection } = await readLocal('connection');
  if (!connection || !tab.url || !/^https?:/.test(tab.url)) {
    await chrome.tabs.create({ url: chrome.runtime.getURL('setup.html') });
    return;
  }
  // "Ask for this page": the block page for the open tab, with what it had blocked.
  await chrome.tabs.create({ url: `${BLOCK_PAGE}?tab=${tab.id}#${tab.url}` });
});

chrome.runtime.onMessage.addListener((raw, sender, sendResponse) => {
  const message = raw as ExtensionMessage;
  const reply = (promise: Promise<unknown>) => {
    promise.then(
      (value) => sendResponse({ ok: true, value }),
      (error) => sendResponse({ ok: false, error: String(error) }),
    );
    return true;
  };
  switch (message.type) {
    case 'connected':
      return reply(
        (async () => {
          await checkIn();
          closeChannel();
          await ensureChannel();
          const { connection } = await readLocal('connection');
          if (connection) await chrome.runtime.setUninstallURL(connection.uninstallUrl);
        })(),
      );
    case 'checkInNow':
      return reply(checkIn());
    case 'typedLine': {
      const url = sender.tab?.url ?? sender.url;
      const site = url ? new URL(url).hostname : '';
      if (!site) return false;
      return reply(
        readLocal('status', 'keylogging').then(({ status, keylogging }) =>
          keylogging
            ? addTypedLine({
                site,
                line: message.line.slice(0, 2000),
                typedAt: message.typedAt,
                filterSuspended: status?.mode === 'suspended',
              })
            : undefined,
        ),
      );
    }
    case 'blockedParts': {
      const tabId = message.tabId ?? sender.tab?.id;
      return reply(
        readSession('blockedParts').then(({ blockedParts = {} }) =>
          tabId === undefined ? [] : (blockedParts[tabId] ?? []),
        ),
      );
    }
  }
  return false;
});

chrome.webRequest.onErrorOccurred.addListener(
  (details) => {
    if (details.error !== 'net::ERR_BLOCKED_BY_CLIENT' || details.tabId < 0) return;
    if (details.type === 'main_frame') return;
    void rememberBlockedPart(details.tabId, details.url);
  },
  { urls: ['<all_urls>'] },
);

chrome.webNavigation.onCommitted.addListener((details) => {
  if (details.frameId !== 0 || !/^https?:/.test(details.url)) return;
  void forgetBlockedParts(details.tabId);
  void noticeActivity();
});
chrome.tabs.onActivated.addListener(() => {
  void noticeActivity();
  void countTime();
});
chrome.webNavigation.onCompleted.addListener((details) => {
  if (details.frameId === 0) void countTime();
});
chrome.windows.onFocusChanged.addListener(() => void countTime());
chrome.tabs.onRemoved.addListener((tabId) => void forgetBlockedParts(tabId));

chrome.storage.onChanged.addListener((changes, area) => {
  // A page stored a new unlock request, suspension request or connection: nothing to do here but
  // keep the channel up.
  if (area === 'local' && 'connection' in changes && changes.connection?.newValue) {
    void ensureChannel();
  }
});

// Every start of the worker: the alarms survive, the socket does not.
chrome.alarms.create(ALARMS.channel, { periodInMinutes: 0.5 });
void wake();
