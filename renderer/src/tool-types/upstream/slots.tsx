/**
 * The upstream type's slots (../slots.ts): the add-server dialog around the app and its buttons,
 * the server panel above an upstream bundle's tools (which only a sync fills), a row's new /
 * changed / gone word, the definition review notice on a tool's page, the idle setting, and the
 * import report's servers. What the first screen does not show loads with its own chunk.
 */
import { lazy } from 'react';
import type { TypeSlots } from '../slots.js';
import { AddUpstreamProvider } from './AddUpstream.js';
import { AddUpstreamBundle } from './AddBundle.js';
import { preloadable } from '../../lib/preloadable.js';
import { MARK_LABEL, upstreamMarkOf } from './upstreamMark.js';

const UpstreamNotice = lazy(() => import('./DefinitionReview.js').then((m) => ({ default: m.UpstreamNotice })));
const UpstreamIdleSetting = lazy(() => import('./IdleSetting.js').then((m) => ({ default: m.UpstreamIdleSetting })));
const UpstreamImportSection = lazy(() => import('./ImportReport.js').then((m) => ({ default: m.UpstreamImportSection })));

// Shown on an upstream bundle's page only: loaded once the first screen has settled (preloadable).
const UpstreamPanel = preloadable(() => import('./UpstreamPanel.js').then((m) => m.UpstreamPanel));

const TONE = { new: 'info', changed: 'warn', gone: 'danger' } as const;

export const upstreamSlots: TypeSlots = {
  Provider: AddUpstreamProvider,
  AddBundle: AddUpstreamBundle,
  ownsBundle: (bundle) => bundle.source !== undefined && bundle.source !== null,
  BundlePanel: UpstreamPanel,
  rowStatus(tool) {
    const mark = upstreamMarkOf(tool);
    if (!mark) return undefined;
    // The reason is long; the mark says it in a word that fits, the whole reason on hover and on the tool's page.
    const title = mark === 'new' ? 'Added by a sync; nobody has reviewed it yet' : tool.availability.reason;
    return { label: MARK_LABEL[mark], tone: TONE[mark], ...(title ? { title } : {}) };
  },
  ToolNotice: UpstreamNotice,
  SettingsSection: UpstreamIdleSetting,
  ImportReportSection: UpstreamImportSection,
};
