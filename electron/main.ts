/**
 * The Electron shell: single instance, a hardened window on the app:// protocol, and the core
 * wired to IPC. Everything else lives in core/ (engine), host/ (transports) and shell/ (window).
 */
import { app, BrowserWindow, ipcMain, session, shell } from 'electron';
import { join } from 'node:path';
import { createCore, defaultDataDir, type Core } from './core/app-core.js';
import { forwardEvents, registerIpc, trustedOrigins } from './host/ipc.js';
import { APP_ORIGIN, registerSchemePrivileges, serveRenderer } from './shell/protocol.js';
import { hardenContents, hardenSession } from './shell/security.js';
import { loadWindowState, trackWindowState } from './shell/window-state.js';
import { safeStorageCipher } from './shell/safe-storage.js';
import { AgentAccess, followAgentAccess } from './host/agent-access.js';

const devServerUrl = process.env['ELECTRON_RENDERER_URL'];
const ownOrigins = [APP_ORIGIN, ...(devServerUrl ? [new URL(devServerUrl).origin] : [])];
const isOwnUrl = (url: string) => ownOrigins.some((o) => url.startsWith(o + '/') || url === o);
// Only the link of an upstream sign-in the core started opens in the system browser; nothing else leaves the window.
const openSignInLink = (url: string) => {
  if (core?.isPendingSignInUrl(url)) void shell.openExternal(url);
};

if (!app.requestSingleInstanceLock()) app.quit();
registerSchemePrivileges();

let core: Core | undefined;
let win: BrowserWindow | undefined;
let stopAgentAccess: (() => Promise<void>) | undefined;

async function createWindow(): Promise<void> {
  const stateFile = join(app.getPath('userData'), 'window-state.json');
  const state = loadWindowState(stateFile);
  win = new BrowserWindow({
    ...state.bounds,
    minWidth: 900,
    minHeight: 600,
    show: false,
    title: 'Toolwright',
    webPreferences: {
      preload: join(import.meta.dirname, '../preload/index.cjs'),
      contextIsolation: true,
      sandbox: true,
      nodeIntegration: false,
      webSecurity: true,
      spellcheck: false,
      // A middle click on a link would otherwise open a window past setWindowOpenHandler's reach.
      disableBlinkFeatures: 'Auxclick',
    },
  });
  if (state.maximized) win.maximize();
  trackWindowState(win, stateFile);
  hardenContents(win.webContents, isOwnUrl, openSignInLink);
  const stopEvents = forwardEvents(core!, (channel, e) => win?.webContents.send(channel, e));
  win.on('closed', () => {
    stopEvents();
    win = undefined;
  });
  win.once('ready-to-show', () => win?.show());
  await win.loadURL(devServerUrl ?? `${APP_ORIGIN}/index.html`);
}

app.on('second-instance', () => {
  if (win) {
    if (win.isMinimized()) win.restore();
    win.focus();
  }
});

app.on('web-contents-created', (_e, contents) => hardenContents(contents, isOwnUrl, openSignInLink));

void app.whenReady().then(async () => {
  hardenSession(session.defaultSession);
  serveRenderer(join(import.meta.dirname, '../renderer'));
  const cipher = safeStorageCipher();
  const dataDir = defaultDataDir(app.getPath('userData'));
  // Settings → Agent access: MCP over HTTP on a local port, started and stopped with the setting.
  const agentAccess = new AgentAccess(dataDir, () => core?.events.emit('event', { type: 'config.changed' }));
  core = await createCore({
    dataDir,
    agentAccess,
    builtinDir: app.isPackaged ? join(process.resourcesPath, 'builtin') : join(app.getAppPath(), 'data/builtin'),
    watch: true,
    scheduler: true,
    transport: 'ipc',
    appVersion: app.getVersion(),
    ...(cipher ? { secretsCipher: cipher } : {}),
  });
  registerIpc(ipcMain, core, trustedOrigins(ownOrigins), core.logger);
  stopAgentAccess = followAgentAccess(core, agentAccess);
  await createWindow();
  app.on('activate', () => {
    if (BrowserWindow.getAllWindows().length === 0) void createWindow();
  });
});

app.on('window-all-closed', () => {
  if (process.platform !== 'darwin') app.quit();
});

app.on('will-quit', () => {
  void stopAgentAccess?.().finally(() => core?.close());
});
