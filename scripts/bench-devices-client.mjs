// The simulated Macs of `npm run bench -- --devices N` (bench-devices.mjs), in their own process:
// each holds a push channel with its own token and heartbeats on a compressed timeline. Driven
// over IPC: {type:'connect'}, {type:'push'} (measure one push to the probe Mac), {type:'stop'}.

import WebSocket from 'ws';

let config;
const sockets = [];
const stats = {
  connected: 0,
  failedToConnect: 0,
  unexpectedCloses: 0,
  closeCodes: {},
  heartbeats: 0,
  errors: [],
};
let stopping = false;
let probeSocket;
let probeWaiter;

function open(url, token, onMessage) {
  return new Promise((resolve) => {
    // as the Mac app opens it
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/app-websocket`, {
      headers: { Authorization: `Bearer ${token.toUpperCase()}` },
      perMessageDeflate: false,
    });
    let opened = false;
    socket.on('open', () => {
      opened = true;
      stats.connected++;
      resolve(socket);
    });
    socket.on('message', (data) => onMessage?.(data));
    socket.on('error', (error) => {
      if (stats.errors.length < 10) stats.errors.push(error.message);
      if (!opened) {
        stats.failedToConnect++;
        resolve(undefined);
      }
    });
    socket.on('close', (code) => {
      if (opened) stats.connected--;
      if (opened && !stopping) {
        stats.unexpectedCloses++;
        stats.closeCodes[code] = (stats.closeCodes[code] ?? 0) + 1;
      }
    });
  });
}

async function connectAll() {
  const { urls, tokens, heartbeatMs, probe } = config;
  const started = Date.now();
  let next = 0;
  const worker = async () => {
    while (next < tokens.length) {
      const i = next++;
      const socket = await open(urls[i % urls.length], tokens[i]);
      if (!socket) continue;
      sockets.push(socket);
      // First heartbeat at a random point of the interval, then every interval.
      const beat = () => {
        if (socket.readyState !== WebSocket.OPEN) return;
        // the Mac app's heartbeat is a WebSocket ping
        socket.ping();
        stats.heartbeats++;
      };
      setTimeout(() => {
        beat();
        setInterval(beat, heartbeatMs).unref();
      }, Math.random() * heartbeatMs).unref();
    }
  };
  await Promise.all(Array.from({ length: 50 }, worker));
  // The probe Mac sits on the last instance: with two instances its pushes cross NOTIFY.
  probeSocket = await open(urls.at(-1), probe.token, (data) => {
    const message = JSON.parse(data.toString());
    if (message.userUpdated) probeWaiter?.();
  });
  return (Date.now() - started) / 1000;
}

async function pushOnce() {
  const { urls, probe } = config;
  const arrived = new Promise((resolve) => {
    probeWaiter = resolve;
  });
  const started = performance.now();
  const response = await fetch(`${urls[0]}/pairql/dashboard/SaveUser`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-admintoken': probe.adminToken },
    body: JSON.stringify({
      id: probe.childId,
      isNew: false,
      name: `Probe ${Math.floor(Math.random() * 1000)}`,
      keyloggingEnabled: false,
      screenshotsEnabled: false,
      screenshotsResolution: 1000,
      screenshotsFrequency: 120,
      showSuspensionActivity: false,
      keychains: [],
    }),
  });
  if (!response.ok) throw new Error(`SaveUser: ${response.status} ${await response.text()}`);
  const timeout = new Promise((resolve) => setTimeout(() => resolve('timeout'), 5000));
  const result = await Promise.race([arrived, timeout]);
  return result === 'timeout' ? undefined : performance.now() - started;
}

process.on('message', async (command) => {
  try {
    if (command.type === 'connect') {
      config = command;
      const seconds = await connectAll();
      process.send({ type: 'connected', seconds, stats });
    } else if (command.type === 'stats') {
      process.send({ type: 'stats', stats });
    } else if (command.type === 'push') {
      const delays = [];
      let lost = 0;
      for (let i = 0; i < command.count; i++) {
        const delay = await pushOnce();
        if (delay === undefined) lost++;
        else delays.push(delay);
        await new Promise((resolve) => setTimeout(resolve, 50));
      }
      process.send({ type: 'pushed', delays, lost, stats });
    } else if (command.type === 'stop') {
      stopping = true;
      for (const socket of sockets) socket.terminate();
      probeSocket?.terminate();
      process.send({ type: 'stopped', stats });
      setTimeout(() => process.exit(0), 100);
    }
  } catch (error) {
    process.send({ type: 'error', message: String(error?.stack ?? error) });
  }
});
