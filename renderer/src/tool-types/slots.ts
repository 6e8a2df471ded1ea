/**
 * What a tool type shows in the app's generic screens besides its editor (docs/architecture.md: a tool type
 * is a plugin): slots those screens render for every type that fills one, never asking a type's
 * name. A type fills what it needs in its own folder and adds one line to ./slot-registry.ts; the
 * upstream type (./upstream/slots.tsx) fills them all. A slot whose component is not needed at
 * first paint is a lazy component: the screens render slots inside their own Suspense.
 */
import type { ComponentType, ReactNode } from 'react';
import type { BundleView, ImportReport, ToolView } from '../../../shared/types.js';
import type { Config } from '../../../shared/schemas.js';

/** A short word in a tool row's availability cell, in place of the generic reading. */
export interface RowStatus {
  label: string;
  tone: 'info' | 'warn' | 'danger' | 'ok';
  title?: string;
}

export interface TypeSlots {
  /** Rendered once around the app's screens: the type's dialogs and whatever opens them. */
  Provider?: ComponentType<{ children: ReactNode }>;
  /** A way to add a bundle of this type: an icon button in the sidebar's heading, an offer on the new-bundle page. */
  AddBundle?: ComponentType<{ place: 'sidebar' | 'new-bundle' }>;
  /** Whether a bundle is this type's: it holds only what the type's service makes, so nobody adds a tool to it by hand. */
  ownsBundle?(bundle: BundleView): boolean;
  /** A panel above the tools of a bundle the type owns. */
  BundlePanel?: ComponentType<{ bundle: BundleView }>;
  /** What a tool's row says of its state instead of the generic "available" / reason, or undefined. */
  rowStatus?(tool: ToolView): RowStatus | undefined;
  /** A notice on a tool's page (renders nothing for a tool that is not the type's). */
  ToolNotice?: ComponentType<{ tool: ToolView }>;
  /** A section of Settings; `patch` saves config fields as the screen's own sections do. */
  SettingsSection?: ComponentType<{ config: Config; patch(fields: Partial<Config>): void }>;
  /** A section of an import's report (what the type's own importer reported; nothing otherwise). */
  ImportReportSection?: ComponentType<{ report: ImportReport }>;
}
