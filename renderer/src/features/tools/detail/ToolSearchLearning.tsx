/**
 * "Found by these searches": what agents' tool search learned of one tool from use (the searches
 * that led an agent to call it, and the words it now answers to), with a way to forget it.
 * Shown only when the tool learned something (tools.searchLearning, tools.searchLearningReset).
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { resetSearchLearning } from '../../../api/operations.js';
import { errorMessage } from '../../../api/errors.js';
import { keys, useSearchLearning } from '../../../api/queries.js';
import { useToast } from '../../../components/Toasts.js';
import { absoluteTime, plural, relativeTime } from '../../../lib/format.js';
import './ToolFindings.css';
import './ToolSearchLearning.css';

export function ToolSearchLearning({ toolID }: { toolID: string }) {
  const learned = useSearchLearning(toolID);
  const qc = useQueryClient();
  const toast = useToast();
  const forget = useMutation({
    mutationFn: () => resetSearchLearning({ toolID }),
    onSuccess: () => toast.show('success', 'Forgot what agents’ searches taught this tool'),
    onError: (e) => toast.show('error', `Could not forget: ${errorMessage(e)}`),
    onSettled: () => void qc.invalidateQueries({ queryKey: keys.searchLearning(toolID) }),
  });
  const view = learned.data;
  if (!view || (!view.searches.length && !view.words.length)) return null;
  return (
    <section className="panel tool-findings" aria-labelledby="tool-learned-title" data-testid="tool-search-learning">
      <div className="learned-head">
        <h2 className="panel-title" id="tool-learned-title">
          Found by these searches
        </h2>
        <button type="button" className="btn btn-small" onClick={() => forget.mutate()} disabled={forget.isPending} data-testid="tool-search-learning-reset">
          Forget
        </button>
      </div>
      <p className="field-hint">
        {view.learnFromUse
          ? 'Agents searched with these words and then called this tool, so their tool search now finds it by them.'
          : 'Learning from use is off (Settings → Agents’ tool search): what is kept here does not count until it is on again.'}
      </p>
      <ul>
        {view.searches.map((s) => (
          <li key={s.query}>
            <q>{s.query}</q>{' '}
            <time className="muted" dateTime={s.at} title={absoluteTime(s.at)}>
              {relativeTime(s.at)}
            </time>
          </li>
        ))}
      </ul>
      {view.words.length > 0 && (
        <p className="learned-words">
          <span className="muted">Words learned:</span>{' '}
          {view.words.map((w) => (
            <span
              key={w.word}
              className="chip"
              title={`strength ${w.strength} (at most 8), taught by ${plural(w.teachers, 'agent credential', 'agent credentials')}`}
            >
              {w.word}
            </span>
          ))}
        </p>
      )}
    </section>
  );
}
