/**
 * Create or edit a tool. Rules are checked as you type (shared/slug.ts, schema checks,
 * placeholders); what only the core can judge comes back as issues and is shown at its field.
 * Editing uses tools.update guarded by the tool's modifiedAt, so a change made elsewhere in the
 * meantime is reported instead of overwritten. Built-ins open read-only. The form's parts are
 * named hooks in tool-editor/: the draft and its errors (useToolDraft), the save (useToolSave),
 * Ctrl+S (useSaveShortcut) and a save that met a newer version (useConflict).
 */
import { useMemo, useState } from 'react';
import { useBundles, useSchedules, useSecrets, useTool, toolRefOf, type ToolRef } from '../../../api/queries.js';
import { useToggleTool } from '../../../api/mutations.js';
import { useNav } from '../../../lib/nav.js';
import { useConfirm } from '../../../components/Dialog.js';
import { ErrorState, Loading, Badge } from '../../../components/States.js';
import { Switch } from '../../../components/Switch.js';
import { FormErrors } from '../../../components/Field.js';
import { EDITOR_TYPES, type ImplDrafts } from '../../../tool-types/registry.js';
import type { DraftCommon, Errors } from '../../../tool-types/editor-type.js';
import { CardSettings } from './CardSettings.js';
import { SaveConflict } from './SaveConflict.js';
import { argNamesOf, localIssues, parsedArgSchema, TOOL_FIELDS } from './draft.js';
import { ScheduleSettings } from '../../schedules/ScheduleSettings.js';
import type { PlaceholderContext } from './TemplateInput.js';
import type { ToolView } from '../../../../../shared/types.js';
import type { ToolType } from '../../../../../shared/schemas.js';
import { ArgumentsFieldset, GeneralFieldset, LimitsFieldset } from './ToolFieldsets.js';
import { useFieldErrors, useToolDraft } from './useToolDraft.js';
import { useToolSave } from './useToolSave.js';
import { useSaveShortcut } from './useSaveShortcut.js';
import { useConflict } from './useConflict.js';
import './ToolEditor.css';

/** The form of the draft's type, from the registry; each type keeps its own draft. */
function ImplEditor<T extends ToolType>(props: {
  type: T;
  impls: ImplDrafts;
  onImpls(impls: ImplDrafts, patch: Record<string, unknown>): void;
  common: DraftCommon;
  onCommon(patch: Partial<DraftCommon>): void;
  ctx: PlaceholderContext;
  errors: Errors;
  readOnly: boolean;
  owner: { bundleID: string; toolID?: string };
  tool: ToolView | undefined;
}) {
  const { type, impls, onImpls } = props;
  const Editor = EDITOR_TYPES[type].Editor;
  const value = impls[type];
  return (
    <Editor
      value={value}
      onChange={(patch) => onImpls({ ...impls, [type]: { ...value, ...patch } }, patch)}
      common={props.common}
      onCommon={props.onCommon}
      ctx={props.ctx}
      errors={props.errors}
      readOnly={props.readOnly}
      owner={props.owner}
      tool={props.tool}
    />
  );
}

function EditorForm({ bundleID, tool: opened }: { bundleID: string; tool?: ToolView }) {
  // The version the edit started from: its modifiedAt guards the save, so a refetch (live
  // update) must not silently move it forward.
  const [tool, setBase] = useState(opened);
  const { go, back } = useNav();
  const confirm = useConfirm();
  const secrets = useSecrets();
  const toggle = useToggleTool();
  const readOnly = !!tool?.isBuiltIn;
  const { draft, dirty, update, updateImpls, updateCommon, replaceDraft } = useToolDraft(tool);
  const local = useMemo(() => localIssues(draft), [draft]);
  const { submit, overwrite, saving, attempted, serverError, clearServerError } = useToolSave({ bundleID, tool, draft, local, readOnly });
  const { server, errors } = useFieldErrors({ draft, dirty, local, attempted, serverError });
  const conflict = useConflict({ serverError, clearServerError, rebase: setBase, replaceDraft, overwrite });
  useSaveShortcut(submit);

  const runs = useSchedules(tool?.toolID ?? null);
  const argSchema = useMemo(() => parsedArgSchema(draft), [draft.argSchemaText]); // eslint-disable-line react-hooks/exhaustive-deps
  const scheduleErrors = useMemo(() => new Map([...errors].filter(([f]) => f.startsWith('schedules['))), [errors]);
  const ctx: PlaceholderContext = useMemo(() => ({ args: argNamesOf(draft), secrets: secrets.data?.items.map((s) => s.name) }), [draft, secrets.data]);

  const cancel = async () => {
    if (dirty.size > 0 && !readOnly) {
      const ok = await confirm({ title: 'Discard changes?', message: 'Your edits to this tool have not been saved.', confirmLabel: 'Discard', danger: true });
      if (!ok) return;
    }
    if (tool) go({ name: 'tool', ref: toolRefOf(tool) });
    else back();
  };

  return (
    <form className="form editor" onSubmit={submit} noValidate data-testid="tool-form">
      {readOnly && (
        <div className="notice notice-info" data-testid="builtin-readonly">
          <strong>Built-in tool — read-only.</strong> Built-ins ship with the app and cannot be edited; you can only switch them on or off.
          <Switch
            checked={opened!.isEnabled}
            showLabel
            label="Enabled"
            text={opened!.isEnabled ? 'Enabled' : 'Disabled'}
            onChange={(v) => toggle.mutate({ tool: opened!, isEnabled: v })}
            testId="builtin-enable"
          />
        </div>
      )}
      {conflict.modifiedElsewhere && tool ? (
        <SaveConflict
          base={tool}
          draft={draft}
          canSend={local.size === 0}
          onMerged={conflict.onMerged}
          onOverwrite={conflict.onOverwrite}
          onDiscard={conflict.onDiscard}
        />
      ) : (
        <FormErrors error={serverError} shownFields={TOOL_FIELDS} />
      )}

      <GeneralFieldset draft={draft} update={update} errors={errors} readOnly={readOnly} isNew={!tool} />

      <ArgumentsFieldset draft={draft} update={update} serverErrors={server} readOnly={readOnly} />

      <ImplEditor
        type={draft.type}
        impls={draft.impls}
        onImpls={updateImpls}
        common={draft}
        onCommon={updateCommon}
        ctx={ctx}
        errors={errors}
        readOnly={readOnly}
        owner={{ bundleID, ...(tool ? { toolID: tool.toolID } : {}) }}
        tool={tool}
      />

      <CardSettings
        card={draft.card}
        onChange={(p) => update('card', { ...draft.card, ...p })}
        ctx={ctx}
        argSchemaText={draft.argSchemaText}
        errors={errors}
        readOnly={readOnly}
      />

      <LimitsFieldset draft={draft} update={update} errors={errors} readOnly={readOnly} />

      <ScheduleSettings
        schedules={draft.schedules}
        onChange={(schedules) => update('schedules', schedules)}
        argSchema={argSchema}
        privileged={draft.safety === 'privileged'}
        readOnly={readOnly}
        issues={scheduleErrors}
        serverIssues={serverError?.issues ?? []}
        runs={tool ? runs.data : []}
      />

      <div className="editor-footer">
        <span className="muted" aria-live="polite">
          {readOnly
            ? 'Read-only'
            : local.size > 0 && attempted
              ? `${local.size} field${local.size === 1 ? '' : 's'} to fix`
              : dirty.size > 0
                ? 'Unsaved changes'
                : ''}
        </span>
        <div className="spacer" />
        <button type="button" className="btn" onClick={() => void cancel()}>
          {readOnly ? 'Close' : 'Cancel'}
        </button>
        {!readOnly && (
          <button type="submit" className="btn btn-primary" disabled={saving} data-testid="tool-save" title="Ctrl+S">
            {saving ? 'Saving…' : tool ? 'Save' : 'Create tool'}
          </button>
        )}
      </div>
    </form>
  );
}

export function ToolEditorScreen({ bundleID, toolRef }: { bundleID?: string; toolRef?: ToolRef }) {
  const tool = useTool(toolRef ?? null);
  const bundles = useBundles('exclude');
  const owner = bundles.data?.find((b) => b.bundleID === (toolRef?.bundleID ?? bundleID));
  if (toolRef && tool.isPending) return <Loading label="Loading tool…" />;
  if (toolRef && tool.isError) return <ErrorState error={tool.error} retry={() => void tool.refetch()} />;
  const t = tool.data;
  return (
    <section className="page" aria-labelledby="tool-editor-title">
      <header className="page-header">
        <div className="page-title-row">
          <h1 className="page-title" id="tool-editor-title">
            {t ? (t.isBuiltIn ? t.displayName || t.slug : `Edit ${t.displayName || t.slug}`) : 'New tool'}
          </h1>
          {t?.isBuiltIn && <Badge tone="info">built-in</Badge>}
          {owner && <span className="muted">in {owner.displayName || owner.slug}</span>}
        </div>
      </header>
      <EditorForm key={t ? t.toolID : 'new'} bundleID={(toolRef?.bundleID ?? bundleID)!} tool={t} />
    </section>
  );
}
