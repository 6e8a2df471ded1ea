/**
 * Bundles travel, from the renderer's side: the import flows (ZIP with a dry run and a conflict
 * question, container folder into a chosen bundle, SKILL.md, OpenAPI with a preview), export as
 * a download, OpenAI function definitions to the clipboard, the progress shown meanwhile and the
 * report at the end. One flow runs at a time; its questions are dialogs awaited in order.
 */
import { createContext, lazy, Suspense, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from 'react';
import { useQueryClient } from '@tanstack/react-query';
import { errorMessage } from '../../api/errors.js';
import {
  bundlesExport,
  importBundles,
  importContainerTool,
  listBundles,
  mcpServersImport,
  openaiFunctions,
  openApiImport,
  skillImport,
} from '../../api/operations.js';
import { keys } from '../../api/queries.js';
import { useNav, type Route } from '../../lib/nav.js';
import { useToast } from '../../components/Toasts.js';
import { plural } from '../../lib/format.js';
import type { BundleView, ImportReport } from '../../../../shared/types.js';
import { sourcesFromDirectoryPick, sourcesFromFiles, type ImportSource } from './sources.js';
import { outlineOfText, type OpenApiOutline } from './openapiOutline.js';
import { copyText, saveBytes } from '../../lib/download.js';
import { formatBytes } from '../../../../shared/format.js';
import type { OnConflict, Preview } from './TransferDialogs.js';

// The dialogs load with the first import or export, not with the app.
const dialogs = () => import('./TransferDialogs.js');
const ConflictDialog = lazy(() => dialogs().then((m) => ({ default: m.ConflictDialog })));
const ContainerDialog = lazy(() => dialogs().then((m) => ({ default: m.ContainerDialog })));
const CopyDialog = lazy(() => dialogs().then((m) => ({ default: m.CopyDialog })));
const ExportDialog = lazy(() => dialogs().then((m) => ({ default: m.ExportDialog })));
const OpenApiDialog = lazy(() => dialogs().then((m) => ({ default: m.OpenApiDialog })));
const ReportDialog = lazy(() => import('./ReportDialog.js').then((m) => ({ default: m.ReportDialog })));
import type { Outcome } from './outcome.js';

export const IMPORT_ACCEPT = '.zip,.md,.markdown,.json,.yaml,.yml,.mcpb,application/zip';

type Dialog =
  | { kind: 'conflict'; name: string; report: ImportReport; existing: Map<string, BundleView>; resolve(v: OnConflict | null): void }
  | {
      kind: 'openapi';
      name: string;
      outline: OpenApiOutline | null;
      first: Preview;
      runPreview(url: string | undefined): Promise<Preview>;
      resolve(v: { serverUrl?: string } | null): void;
    }
  | { kind: 'container'; source: Extract<ImportSource, { kind: 'folder' }>; defaultBundleID: string | undefined; resolve(v: string | null): void }
  | { kind: 'report'; outcome: Outcome; resolve(): void }
  | { kind: 'export'; resolve(): void }
  | { kind: 'copy'; text: string; count: number; resolve(): void };

type DialogOf<K extends Dialog['kind']> = Extract<Dialog, { kind: K }>;
type Answer<K extends Dialog['kind']> = Parameters<DialogOf<K>['resolve']>[0];

export interface TransferApi {
  /** What runs now ("Importing x.zip…"), for the progress indicator; null when idle. */
  busy: string | null;
  /** Imports what a drop or a picker produced; `load` reads the files (after the event that carried them). */
  importFrom(load: () => Promise<ImportSource[]>): void;
  pickFiles(): void;
  pickFolder(): void;
  exportBundles(bundles: BundleView[]): void;
  chooseExport(): void;
  copyOpenAiFunctions(bundles: BundleView[] | null): void;
}

const TransferContext = createContext<TransferApi | null>(null);

function bundleOfRoute(route: Route): string | undefined {
  if (route.name === 'tools') return route.bundleID ?? undefined;
  if (route.name === 'tool' || route.name === 'toolEdit') return route.ref.bundleID;
  if (route.name === 'toolNew' || route.name === 'bundleEdit') return route.bundleID;
  return undefined;
}

async function allBundles(): Promise<Map<string, BundleView>> {
  const out = new Map<string, BundleView>();
  let pageToken: string | undefined;
  do {
    const page = await listBundles({ includeDisabled: true, deleted: 'include', pageSize: 1000, ...(pageToken ? { pageToken } : {}) });
    for (const b of page.items) out.set(b.bundleID, b);
    pageToken = page.nextPageToken;
  } while (pageToken);
  return out;
}

async function attempt<T>(fn: () => Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: unknown }> {
  try {
    return { ok: true, value: await fn() };
  } catch (error) {
    return { ok: false, error };
  }
}

export function TransferProvider({ children }: { children: ReactNode }) {
  const qc = useQueryClient();
  const toast = useToast();
  const { route, go } = useNav();
  const [busy, setBusy] = useState<string | null>(null);
  const [dialog, setDialog] = useState<Dialog | null>(null);
  const running = useRef(false);
  const routeRef = useRef(route);
  routeRef.current = route;
  const fileInput = useRef<HTMLInputElement>(null);
  const folderInput = useRef<HTMLInputElement>(null);

  const ask = useCallback(
    <K extends Dialog['kind']>(d: Omit<DialogOf<K>, 'resolve'>): Promise<Answer<K>> =>
      new Promise<Answer<K>>((resolve) => {
        const resolveAndClose = (v: Answer<K>) => {
          setDialog(null);
          resolve(v);
        };
        setDialog({ ...d, resolve: resolveAndClose } as unknown as Dialog);
      }),
    [],
  );
  const report = useCallback((outcome: Outcome) => ask<'report'>({ kind: 'report', outcome }), [ask]);

  const withBusy = useCallback(async <T,>(label: string, fn: () => Promise<T>): Promise<T> => {
    setBusy(label);
    try {
      return await fn();
    } finally {
      setBusy(null);
    }
  }, []);

  const refresh = useCallback(() => {
    void qc.invalidateQueries({ queryKey: keys.bundles });
    void qc.invalidateQueries({ queryKey: keys.tools });
    void qc.invalidateQueries({ queryKey: ['search'] });
  }, [qc]);

  // ---- the flows, one per kind of source ----------------------------------------------------------

  const importZip = useCallback(
    async (src: Extract<ImportSource, { kind: 'zip' }>) => {
      const dry = await withBusy(`Checking ${src.name}…`, () => attempt(() => importBundles({ zip: src.bytes, onConflict: 'skip', dryRun: true })));
      if (!dry.ok) return report({ kind: 'error', source: src.name, title: 'This archive cannot be imported', error: dry.error });
      let onConflict: OnConflict = 'skip';
      if (dry.value.skipped.length > 0) {
        const existing = await allBundles().catch(() => new Map<string, BundleView>());
        const choice = await ask<'conflict'>({ kind: 'conflict', name: src.name, report: dry.value, existing });
        if (!choice) return;
        onConflict = choice;
      }
      const done = await withBusy(`Importing ${src.name}…`, () => attempt(() => importBundles({ zip: src.bytes, onConflict })));
      refresh();
      if (!done.ok) return report({ kind: 'error', source: src.name, title: 'The import failed; nothing was changed', error: done.error });
      return report({ kind: 'bundles', source: src.name, report: done.value });
    },
    [ask, refresh, report, withBusy],
  );

  const importOpenApi = useCallback(
    async (src: Extract<ImportSource, { kind: 'openapi' }>) => {
      const runPreview = (serverUrl: string | undefined): Promise<Preview> =>
        withBusy(`Reading ${src.name}…`, async () => {
          const r = await attempt(() => openApiImport({ document: src.text, dryRun: true, ...(serverUrl ? { serverUrl } : {}) }));
          return r.ok ? { ok: true, report: r.value } : { ok: false, error: r.error };
        });
      const [outline, first] = await Promise.all([outlineOfText(src.text), runPreview(undefined)]);
      const choice = await ask<'openapi'>({ kind: 'openapi', name: src.name, outline, first, runPreview });
      if (!choice) return;
      const done = await withBusy(`Importing ${src.name}…`, () => attempt(() => openApiImport({ document: src.text, ...choice })));
      refresh();
      if (!done.ok) return report({ kind: 'error', source: src.name, title: 'The import failed; nothing was changed', error: done.error });
      return report({ kind: 'bundles', source: src.name, report: done.value });
    },
    [ask, refresh, report, withBusy],
  );

  const importSkill = useCallback(
    async (src: Extract<ImportSource, { kind: 'skill' }>) => {
      const done = await withBusy(`Importing ${src.name}…`, () => attempt(() => skillImport({ text: src.text })));
      refresh();
      if (!done.ok) return report({ kind: 'error', source: src.name, title: 'This SKILL.md cannot be imported', error: done.error });
      return report({ kind: 'bundles', source: src.name, report: done.value });
    },
    [refresh, report, withBusy],
  );

  const importMcp = useCallback(
    async (src: Extract<ImportSource, { kind: 'mcp' }>) => {
      const done = await withBusy(`Importing the MCP servers of ${src.name}…`, () =>
        attempt(() => mcpServersImport({ content: src.content, encoding: src.encoding })),
      );
      refresh();
      if (!done.ok)
        return report({ kind: 'error', source: src.name, title: 'This MCP configuration cannot be imported; nothing was changed', error: done.error });
      return report({ kind: 'bundles', source: src.name, report: done.value });
    },
    [refresh, report, withBusy],
  );

  const importFolder = useCallback(
    async (src: Extract<ImportSource, { kind: 'folder' }>) => {
      const bundleID = await ask<'container'>({ kind: 'container', source: src, defaultBundleID: bundleOfRoute(routeRef.current) });
      if (!bundleID) return;
      const done = await withBusy(`Importing the folder ${src.name}…`, () => attempt(() => importContainerTool({ bundleID, files: src.files })));
      refresh();
      if (!done.ok) return report({ kind: 'error', source: `Folder ${src.name}`, title: 'The folder cannot be imported', error: done.error });
      const bundle = qc.getQueryData<BundleView[]>(keys.bundleList('exclude'))?.find((b) => b.bundleID === bundleID);
      return report({
        kind: 'container',
        source: `Folder ${src.name}`,
        bundleName: bundle ? bundle.displayName || bundle.slug : 'the bundle',
        result: done.value,
        notes: src.notes,
      });
    },
    [ask, qc, refresh, report, withBusy],
  );

  const importFrom = useCallback(
    (load: () => Promise<ImportSource[]>) => {
      if (running.current) {
        toast.show('info', 'An import is still running; finish it first.');
        return;
      }
      running.current = true;
      void (async () => {
        try {
          const read = await withBusy('Reading files…', () => attempt(load));
          if (!read.ok) {
            await report({ kind: 'error', source: 'Dropped items', title: 'The files could not be read', error: read.error });
            return;
          }
          const unsupported = read.value.filter((s): s is Extract<ImportSource, { kind: 'unsupported' }> => s.kind === 'unsupported');
          if (unsupported.length) await report({ kind: 'unsupported', items: unsupported.map((u) => ({ name: u.name, reason: u.reason })) });
          for (const src of read.value) {
            if (src.kind === 'zip') await importZip(src);
            else if (src.kind === 'openapi') await importOpenApi(src);
            else if (src.kind === 'skill') await importSkill(src);
            else if (src.kind === 'folder') await importFolder(src);
            else if (src.kind === 'mcp') await importMcp(src);
          }
        } finally {
          running.current = false;
        }
      })();
    },
    [importFolder, importMcp, importOpenApi, importSkill, importZip, report, toast, withBusy],
  );

  // ---- export and copy ------------------------------------------------------------------------------

  const exportBundles = useCallback(
    (bundles: BundleView[]) => {
      if (!bundles.length) return;
      const label = bundles.length === 1 ? bundles[0]!.displayName || bundles[0]!.slug : plural(bundles.length, 'bundle');
      void withBusy(`Exporting ${label}…`, () => attempt(() => bundlesExport({ bundleIDs: bundles.map((b) => b.bundleID) }))).then((r) => {
        if (!r.ok) {
          toast.show('error', `Could not export ${label}: ${errorMessage(r.error)}`);
          return;
        }
        saveBytes(r.value.zip, r.value.fileName);
        toast.show('success', `Exported ${label} as ${r.value.fileName} (${formatBytes(r.value.zip.length)})`);
      });
    },
    [toast, withBusy],
  );

  const copyOpenAiFunctions = useCallback(
    (bundles: BundleView[] | null) => {
      const label = bundles === null ? 'all bundles' : bundles.length === 1 ? bundles[0]!.displayName || bundles[0]!.slug : plural(bundles.length, 'bundle');
      void (async () => {
        const r = await withBusy(`Collecting the tools of ${label}…`, () =>
          attempt(() => openaiFunctions(bundles ? { bundleIDs: bundles.map((b) => b.bundleID) } : {})),
        );
        if (!r.ok) {
          toast.show('error', `Could not list the functions of ${label}: ${errorMessage(r.error)}`);
          return;
        }
        const { items } = r.value;
        if (items.length === 0) {
          toast.show('info', `${label[0]!.toUpperCase()}${label.slice(1)} ${bundles?.length === 1 ? 'has' : 'have'} no enabled tools to copy`);
          return;
        }
        const text = JSON.stringify(items, null, 2);
        if (await copyText(text)) toast.show('success', `Copied ${plural(items.length, 'OpenAI function definition')} of ${label}`);
        else await ask<'copy'>({ kind: 'copy', text, count: items.length });
      })();
    },
    [ask, toast, withBusy],
  );

  const chooseExport = useCallback(() => void ask<'export'>({ kind: 'export' }), [ask]);

  const api = useMemo<TransferApi>(
    () => ({
      busy,
      importFrom,
      pickFiles: () => fileInput.current?.click(),
      pickFolder: () => folderInput.current?.click(),
      exportBundles,
      chooseExport,
      copyOpenAiFunctions,
    }),
    [busy, importFrom, exportBundles, chooseExport, copyOpenAiFunctions],
  );

  return (
    <TransferContext.Provider value={api}>
      {children}
      <input
        ref={fileInput}
        type="file"
        multiple
        accept={IMPORT_ACCEPT}
        hidden
        data-testid="import-file-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) importFrom(() => sourcesFromFiles(files));
        }}
      />
      <input
        ref={(el) => {
          folderInput.current = el;
          if (el) el.webkitdirectory = true;
        }}
        type="file"
        hidden
        data-testid="import-folder-input"
        onChange={(e) => {
          const files = Array.from(e.target.files ?? []);
          e.target.value = '';
          if (files.length) importFrom(() => sourcesFromDirectoryPick(files));
        }}
      />
      <Suspense fallback={null}>
        {dialog?.kind === 'report' && <ReportDialog outcome={dialog.outcome} onClose={() => dialog.resolve()} />}
        {dialog?.kind === 'conflict' && <ConflictDialog name={dialog.name} report={dialog.report} existing={dialog.existing} onDone={dialog.resolve} />}
        {dialog?.kind === 'openapi' && (
          <OpenApiDialog name={dialog.name} outline={dialog.outline} first={dialog.first} runPreview={dialog.runPreview} onDone={dialog.resolve} />
        )}
        {dialog?.kind === 'container' && (
          <ContainerDialog
            source={dialog.source}
            defaultBundleID={dialog.defaultBundleID}
            onDone={dialog.resolve}
            onNewBundle={() => {
              dialog.resolve(null);
              go({ name: 'bundleNew' });
            }}
          />
        )}
        {dialog?.kind === 'export' && (
          <ExportDialog
            onClose={() => dialog.resolve()}
            onExport={(b) => {
              dialog.resolve();
              exportBundles(b);
            }}
            onCopy={(b) => {
              dialog.resolve();
              copyOpenAiFunctions(b);
            }}
          />
        )}
        {dialog?.kind === 'copy' && <CopyDialog text={dialog.text} count={dialog.count} onClose={() => dialog.resolve()} />}
      </Suspense>
    </TransferContext.Provider>
  );
}

export function useTransfer(): TransferApi {
  const api = useContext(TransferContext);
  if (!api) throw new Error('useTransfer outside TransferProvider');
  return api;
}
