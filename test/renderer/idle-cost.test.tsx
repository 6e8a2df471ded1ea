// @vitest-environment jsdom
/**
 * What the app frame costs while nothing happens: the focus-on-navigation search waits for the
 * page to change instead of looking on every animation frame, and the toast stack measures
 * nothing (no forced layout) while no toast shows. Focus still lands on a heading that appears
 * later, and is followed when that heading is replaced.
 */
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { act, cleanup, render } from '@testing-library/react';
import { useRef, useState } from 'react';
import { useFocusOnNavigate } from '../../renderer/src/lib/useFocusOnNavigate.js';
import { ToastProvider } from '../../renderer/src/components/Toasts.js';

let frames = 0;
let rects = 0;
beforeEach(() => {
  frames = 0;
  rects = 0;
  vi.spyOn(window, 'requestAnimationFrame').mockImplementation((cb) => {
    frames++;
    return setTimeout(() => cb(performance.now()), 16) as unknown as number;
  });
  const original = HTMLElement.prototype.getBoundingClientRect;
  vi.spyOn(HTMLElement.prototype, 'getBoundingClientRect').mockImplementation(function (this: HTMLElement) {
    rects++;
    return original.call(this);
  });
  // jsdom lays nothing out; the focus helpers take an element with client rects as visible.
  vi.spyOn(HTMLElement.prototype, 'getClientRects').mockImplementation(() => [{}] as unknown as DOMRectList);
});
afterEach(() => {
  cleanup();
  vi.restoreAllMocks();
});

let showHeading: (text: string | null) => void = () => undefined;
function Frame() {
  const mainRef = useRef<HTMLElement>(null);
  const [heading, setHeading] = useState<string | null>(null);
  showHeading = setHeading;
  useFocusOnNavigate(mainRef, 0);
  return <main ref={mainRef}>{heading === null ? <p>Loading…</p> : <h1 key={heading}>{heading}</h1>}</main>;
}

const wait = (ms: number) => act(() => new Promise((r) => setTimeout(r, ms)));

describe('the app frame at rest', () => {
  it('asks for no animation frames while waiting for the view to focus, and focuses its heading once it appears', async () => {
    render(<Frame />);
    await wait(200);
    expect(frames).toBe(0);
    act(() => showHeading('Travel'));
    await wait(20);
    expect(document.activeElement?.textContent).toBe('Travel');
    // A placeholder heading replaced by the real one: focus follows.
    act(() => showHeading('Travel, loaded'));
    await wait(20);
    expect(document.activeElement?.textContent).toBe('Travel, loaded');
    expect(frames).toBe(0);
  });

  it('measures nothing when the toast stack is empty', async () => {
    render(
      <ToastProvider>
        <p>screen</p>
      </ToastProvider>,
    );
    await wait(50);
    expect(rects).toBe(0);
  });
});
