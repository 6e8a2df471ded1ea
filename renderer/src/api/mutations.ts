/**
 * Mutations shared by several screens. Switches are optimistic: the cache flips at once and is
 * rolled back, with a toast saying why, when the core refuses.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { call } from './client.js';
import { errorMessage } from './errors.js';
import { keys, patchToolInLists, type ToolRef } from './queries.js';
import { useToast } from '../components/Toasts.js';
import type { BundleView, ToolView } from '../../../shared/types.js';

export function useToggleBundle() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ bundle, isEnabled }: { bundle: BundleView; isEnabled: boolean }) =>
      call('bundles.patch', { bundleID: bundle.bundleID, patch: { isEnabled } }),
    onMutate: async ({ bundle, isEnabled }) => {
      await qc.cancelQueries({ queryKey: keys.bundleList('exclude') });
      const previous = qc.getQueryData<BundleView[]>(keys.bundleList('exclude'));
      qc.setQueryData<BundleView[]>(keys.bundleList('exclude'), (list) => list?.map((b) => (b.bundleID === bundle.bundleID ? { ...b, isEnabled } : b)));
      return { previous };
    },
    onError: (e, { bundle, isEnabled }, ctx) => {
      if (ctx?.previous) qc.setQueryData(keys.bundleList('exclude'), ctx.previous);
      toast.show('error', `Could not switch ${bundle.displayName || bundle.slug} ${isEnabled ? 'on' : 'off'}: ${errorMessage(e)}`);
    },
    onSuccess: (b) => toast.show('success', `${b.displayName || b.slug} is ${b.isEnabled ? 'on' : 'off'}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.bundles });
      void qc.invalidateQueries({ queryKey: keys.tools });
    },
  });
}

export function useToggleTool() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ tool, isEnabled }: { tool: ToolView; isEnabled: boolean }) =>
      call('tools.patch', { bundleID: tool.bundleID, slug: tool.slug, version: tool.version, patch: { isEnabled } }),
    onMutate: async ({ tool, isEnabled }) => {
      await qc.cancelQueries({ queryKey: ['tools', 'list'] });
      const snapshot = qc.getQueriesData({ queryKey: keys.tools });
      patchToolInLists(qc, tool.toolID, (t) => ({ ...t, isEnabled }));
      qc.setQueryData<ToolView>(keys.tool(tool), (t) => t && { ...t, isEnabled });
      return { snapshot };
    },
    onError: (e, { tool, isEnabled }, ctx) => {
      for (const [key, data] of ctx?.snapshot ?? []) qc.setQueryData(key, data);
      toast.show('error', `Could not switch ${tool.displayName || tool.slug} ${isEnabled ? 'on' : 'off'}: ${errorMessage(e)}`);
    },
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.tools }),
  });
}

export function useDeleteBundle() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (bundle: BundleView) => call('bundles.delete', { bundleID: bundle.bundleID }),
    onSuccess: (b) => {
      toast.show('info', `Moved ${b.displayName || b.slug} to Trash`, {
        label: 'Undo',
        run: () =>
          void call('bundles.restore', { bundleID: b.bundleID })
            .then(() => {
              toast.show('success', `Restored ${b.displayName || b.slug}`);
              void qc.invalidateQueries({ queryKey: keys.bundles });
            })
            .catch((e) => toast.show('error', `Could not restore: ${errorMessage(e)}`)),
      });
    },
    onError: (e) => toast.show('error', `Could not delete the bundle: ${errorMessage(e)}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.bundles });
      void qc.invalidateQueries({ queryKey: keys.tools });
    },
  });
}

export function useRestoreBundle() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (bundleID: string) => call('bundles.restore', { bundleID }),
    onSuccess: (b) => toast.show('success', `Restored ${b.displayName || b.slug}`),
    onError: (e) => toast.show('error', `Could not restore: ${errorMessage(e)}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.bundles });
      void qc.invalidateQueries({ queryKey: keys.tools });
    },
  });
}

/** Deletes Trash bundles for good (one, or all of them for "Empty Trash"). */
export function usePurgeBundles() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: async (bundles: { bundleID: string; name: string }[]) => {
      for (const b of bundles) await call('bundles.purge', { bundleID: b.bundleID });
      return bundles;
    },
    onSuccess: (bs) => toast.show('success', bs.length === 1 ? `Deleted ${bs[0]!.name} for good` : `Emptied the Trash (${bs.length} bundles)`),
    onError: (e) => toast.show('error', `Could not delete: ${errorMessage(e)}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.bundles });
      void qc.invalidateQueries({ queryKey: keys.tools });
    },
  });
}

export function useDeleteTool() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: (ref: ToolRef & { name: string }) => call('tools.delete', { bundleID: ref.bundleID, slug: ref.slug, version: ref.version }),
    onSuccess: (_d, ref) => toast.show('success', `Deleted ${ref.name}`),
    onError: (e) => toast.show('error', `Could not delete the tool: ${errorMessage(e)}`),
    onSettled: () => {
      void qc.invalidateQueries({ queryKey: keys.tools });
      void qc.invalidateQueries({ queryKey: keys.bundles });
    },
  });
}

/** A person accepts the guard's findings on a tool as the view showed them (`digest`: refused when the definition changed since). */
export function useAcceptGuard() {
  const qc = useQueryClient();
  const toast = useToast();
  return useMutation({
    mutationFn: ({ tool, digest }: { tool: ToolView; digest: string }) =>
      call('tools.acceptGuard', { bundleID: tool.bundleID, slug: tool.slug, version: tool.version, digest }),
    onSuccess: (t) => toast.show('success', `Accepted the guard's findings on ${t.displayName || t.slug}`),
    onError: (e, { tool }) => toast.show('error', `Could not accept the findings on ${tool.displayName || tool.slug}: ${errorMessage(e)}`),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.tools }),
  });
}
