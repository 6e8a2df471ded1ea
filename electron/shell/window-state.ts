/** Remembers the window's size and position between runs, kept on screen if displays changed. */
import { screen, type BrowserWindow, type Rectangle } from 'electron';
import { readFileSync, writeFileSync } from 'node:fs';

export interface WindowState {
  bounds: Rectangle;
  maximized: boolean;
}

const DEFAULT: WindowState = { bounds: { x: 0, y: 0, width: 1280, height: 820 }, maximized: false };

export function loadWindowState(file: string): WindowState {
  try {
    const s = JSON.parse(readFileSync(file, 'utf8')) as WindowState;
    const visible = screen.getAllDisplays().some((d) => {
      const a = d.workArea;
      return s.bounds.x < a.x + a.width && s.bounds.x + s.bounds.width > a.x && s.bounds.y < a.y + a.height && s.bounds.y + s.bounds.height > a.y;
    });
    if (!visible || s.bounds.width < 400 || s.bounds.height < 300) return DEFAULT;
    return s;
  } catch {
    return DEFAULT;
  }
}

export function trackWindowState(win: BrowserWindow, file: string): void {
  let timer: NodeJS.Timeout | undefined;
  const save = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (win.isDestroyed()) return;
      const state: WindowState = { bounds: win.getNormalBounds(), maximized: win.isMaximized() };
      try {
        writeFileSync(file, JSON.stringify(state));
      } catch {
        // Losing the window position is not worth an error dialog.
      }
    }, 300);
  };
  win.on('resize', save);
  win.on('move', save);
  win.on('close', save);
}
