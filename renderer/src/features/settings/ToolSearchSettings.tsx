/**
 * Settings → Agents' tool search (profiles in search mode): learning from use (on by default; a
 * way to forget everything learned) and the relevance floor. docs/tool-search.md says how each works.
 */
import { useState } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resetSearchLearning } from '../../api/operations.js';
import { errorMessage } from '../../api/errors.js';
import { keys } from '../../api/queries.js';
import { useConfirm } from '../../components/Dialog.js';
import { Switch } from '../../components/Switch.js';
import { useToast } from '../../components/Toasts.js';
import { plural } from '../../lib/format.js';
import { TextField } from '../../components/Field.js';
import { DEFAULT_RELEVANCE_FLOOR } from '../../../../shared/agents/surface.js';
import type { Config } from '../../../../shared/schemas.js';
import './SettingsScreen.css';

export function ToolSearchSettings({ config, patch }: { config: Config; patch: (fields: Partial<Config>) => void }) {
  const search = config.toolSearch ?? {};
  const confirm = useConfirm();
  const toast = useToast();
  const qc = useQueryClient();
  const forget = useMutation({
    mutationFn: () => resetSearchLearning({}),
    onSuccess: ({ reset }) => toast.show('success', reset ? `Forgot what ${plural(reset, 'tool')} learned` : 'No tool had learned anything'),
    onError: (e) => toast.show('error', `Could not forget: ${errorMessage(e)}`),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.tools }),
  });
  return (
    <section className="panel" aria-labelledby="tool-search-title" data-testid="tool-search-settings">
      <div className="panel-head">
        <h2 className="panel-title" id="tool-search-title">
          Agents’ tool search
        </h2>
      </div>
      <div className="panel-body stack">
        <p className="field-hint">How search_tools ranks tools for agents at a profile in search mode.</p>
        <div className="setting">
          <div>
            <div className="setting-title">Learn from use</div>
            <div className="field-hint">
              When an agent searches and then calls a tool, the tool is found by those words next time. Kept on this computer only; each tool shows what it
              learned (“Found by these searches”).
            </div>
          </div>
          <Switch
            checked={search.learnFromUse !== false}
            label="Learn from use"
            testId="learn-from-use-switch"
            onChange={(learnFromUse) => patch({ toolSearch: { ...search, learnFromUse } })}
          />
        </div>
        <RelevanceFloor
          key={String(search.relevanceFloor)}
          value={search.relevanceFloor}
          save={(relevanceFloor) => patch({ toolSearch: { ...search, relevanceFloor } })}
        />
        <div className="row">
          <button
            type="button"
            className="btn"
            data-testid="learning-reset-all"
            disabled={forget.isPending}
            onClick={async () => {
              if (
                await confirm({
                  title: 'Forget everything learned?',
                  message: 'Every tool forgets the searches that found it. Agents’ tool search ranks as it did before any use.',
                  confirmLabel: 'Forget everything',
                  danger: true,
                })
              )
                forget.mutate();
            }}
          >
            Forget everything learned…
          </button>
        </div>
      </div>
    </section>
  );
}

/** The relevance floor: a number from 0 (every match) to 1; empty is the default. */
function RelevanceFloor({ value, save }: { value: number | undefined; save: (floor: number | undefined) => void }) {
  const [text, setText] = useState(value === undefined ? '' : String(value));
  const trimmed = text.trim();
  const floor = trimmed === '' ? undefined : Number(trimmed);
  const error = floor === undefined || (Number.isFinite(floor) && floor >= 0 && floor <= 1) ? undefined : 'a number from 0 to 1, e.g. 0.15';
  return (
    <form
      className="row"
      onSubmit={(e) => {
        e.preventDefault();
        if (!error) save(floor);
      }}
      noValidate
    >
      <TextField
        label="Relevance floor"
        className="w-mid"
        hint={`Matches less related than this (0 to 1) are left out, so an agent hears that no tool fits instead of getting weak guesses. 0 keeps every match; empty: the default, ${DEFAULT_RELEVANCE_FLOOR}.`}
        error={trimmed !== (value === undefined ? '' : String(value)) ? error : undefined}
        mono
        inputMode="decimal"
        value={text}
        placeholder={String(DEFAULT_RELEVANCE_FLOOR)}
        onValue={(v) => setText(v)}
        data-testid="relevance-floor"
      />
      <button
        type="submit"
        className="btn align-end"
        disabled={trimmed === (value === undefined ? '' : String(value)) || Boolean(error)}
        data-testid="relevance-floor-save"
      >
        Save
      </button>
    </form>
  );
}
