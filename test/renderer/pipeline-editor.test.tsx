// @vitest-environment jsdom
/**
 * The pipeline editor: its draft ↔ impl conversion, the rules it checks as you type (shared with
 * the core), placeholder suggestions and their insertion, the step editor over a desktop bridge
 * (steps picked from search, arguments mapped, moved, removed), and the run timeline.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { useState } from 'react';
import { act, cleanup, fireEvent, render, screen, waitFor } from '@testing-library/react';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import {
  checkPipeline,
  pipelineFromImpl,
  pipelineRules,
  pipelineToImpl,
  placeholderSuggestions,
  stepIDFor,
  type PipelineDraft,
} from '../../renderer/src/tool-types/pipeline/draft.js';
import { insertSuggestion, matchSuggestions, openPlaceholder, TemplateInput } from '../../renderer/src/features/tools/editor/TemplateInput.js';
import { pipelineEditorType, stepForTool } from '../../renderer/src/tool-types/pipeline.js';
import { PipelineTimeline } from '../../renderer/src/features/tools/tester/PipelineTimeline.js';
import { draftFromTool, emptyDraft, localIssues } from '../../renderer/src/features/tools/editor/draft.js';
import type { Envelope } from '../../shared/errors.js';
import type { InvokeStreamEvent, PipelineStepRecord, ToolView } from '../../shared/types.js';

afterEach(() => {
  cleanup();
  delete window.toolwright;
});

const OWN = '0190a000-0000-7000-8000-0000000000bb';
const OTHER = '0190a000-0000-7000-8000-0000000000cc';

function toolView(slug: string, over: Partial<ToolView> = {}): ToolView {
  return {
    schemaVersion: '1',
    toolID: `0190a000-0000-7000-8000-${slug
      .padStart(12, '0')
      .slice(-12)
      .replace(/[^0-9a-f]/g, 'a')}`,
    bundleID: OWN,
    slug,
    version: 'v1',
    displayName: slug,
    description: '',
    type: 'function',
    isEnabled: true,
    isBuiltIn: false,
    tags: [],
    safety: 'readOnly',
    argSchema: { type: 'object', properties: {} },
    outputSchema: {},
    impl: { function: 'core.calc' },
    card: { enabled: false },
    limits: {},
    createdAt: '2026-01-01T00:00:00.000Z',
    modifiedAt: '2026-01-01T00:00:00.000Z',
    availability: { ok: true },
    metrics: { callCount: 0, errorCount: 0, lastCalledAt: null },
    ...over,
  };
}

const geocode = toolView('geocode', {
  type: 'http',
  argSchema: { type: 'object', properties: { city: { type: 'string' }, days: { type: 'integer' } }, required: ['city'] },
  outputSchema: { type: 'object', properties: { lat: { type: 'number' }, lon: { type: 'number' } } },
});
const wipe = toolView('wipe', { bundleID: OTHER, safety: 'privileged', argSchema: { type: 'object', properties: { lat: { type: 'number' } } } });

describe('the pipeline draft', () => {
  const impl = {
    steps: [
      { id: 'geo', tool: { slug: 'geocode', version: 'v1' }, args: { city: '${input.city}', days: 3 } },
      { id: 'w', tool: { bundleID: OTHER, slug: 'wipe', version: 'v1' }, args: { lat: '${steps.geo.value.lat}', flags: [1, 2] } },
    ],
    output: { at: '${steps.geo.value}' },
    timeoutSeconds: 30,
  };

  it('reads an impl and writes it back unchanged: templates as text, other values as JSON', () => {
    const d = pipelineFromImpl(impl);
    expect(d.steps[0]!.args['days']).toEqual({ text: '3', json: true });
    expect(d.steps[0]!.args['city']).toEqual({ text: '${input.city}', json: false });
    expect(d.output).toBe(JSON.stringify(impl.output, null, 2));
    expect(pipelineToImpl(d)).toEqual(impl);
  });

  it('leaves out empty arguments and an empty output; keeps a text output a template', () => {
    const d = pipelineFromImpl(impl);
    d.steps[0]!.args['days'] = { text: '  ', json: true };
    d.output = 'lat: ${steps.geo.value.lat}';
    d.timeoutSeconds = '';
    const back = pipelineToImpl(d) as { steps: { args: Record<string, unknown> }[]; output: unknown; timeoutSeconds?: number };
    expect(back.steps[0]!.args).toEqual({ city: '${input.city}' });
    expect(back.output).toBe('lat: ${steps.geo.value.lat}');
    expect('timeoutSeconds' in back).toBe(false);
    d.output = '';
    expect('output' in pipelineToImpl(d)).toBe(false);
  });

  it('checks as you type with the rules the core uses at save, keyed like its issues', () => {
    const issues = new Map<string, string>();
    const set = (f: string, m: string | undefined) => m && !issues.has(f) && issues.set(f, m);
    const d: PipelineDraft = pipelineFromImpl({
      steps: [
        { id: 'a', tool: { slug: 'x', version: 'v1' }, args: { q: '${steps.b.value}', n: 'twelve' } },
        { id: 'b', tool: null as never, args: {} },
      ],
      timeoutSeconds: 5000,
    });
    d.steps[0]!.args['n'] = { text: 'twelve', json: true };
    checkPipeline(d, { argNames: ['city'] }, set);
    expect(issues.get('impl.steps[0].args.q')).toMatch(/reads step "b", which runs after this one/);
    expect(issues.get('impl.steps[0].args.n')).toMatch(/not a JSON value/);
    expect(issues.get('impl.steps[1].tool')).toMatch(/pick the tool/);
    expect(issues.get('impl.timeoutSeconds')).toMatch(/at most 900/);

    const none = new Map<string, string>();
    checkPipeline({ steps: [], output: '', timeoutSeconds: '' }, { argNames: [] }, (f, m) => m && none.set(f, m));
    expect(none.get('impl.steps')).toMatch(/add at least one step/);
  });

  it('is the editor module of the "pipeline" type, with the tool editor draft around it', () => {
    const tool = toolView('brief', { type: 'pipeline', impl, argSchema: { type: 'object', properties: { city: { type: 'string' } } } });
    const draft = draftFromTool(tool);
    expect(draft.type).toBe('pipeline');
    expect(draft.impls.pipeline.steps.map((s) => s.id)).toEqual(['geo', 'w']);
    expect([...localIssues(draft)]).toEqual([]);
    const empty = { ...emptyDraft(), slug: 'p', type: 'pipeline' as const };
    expect(localIssues(empty).get('impl.steps')).toMatch(/add at least one step/);
    expect(pipelineEditorType.fields).toContain('impl.steps[3].args');
  });

  it('makes a step for a picked tool: a free ID, the bundle only when another, same-named inputs mapped', () => {
    const step = stepForTool(geocode, OWN, ['geocode'], ['city', 'zip']);
    expect(step.id).toBe('geocode-2');
    expect(step.tool).toEqual({ slug: 'geocode', version: 'v1' });
    expect(step.args).toEqual({ city: { text: '${input.city}', json: false } });
    expect(stepForTool(wipe, OWN, [], ['lat']).tool).toEqual({ bundleID: OTHER, slug: 'wipe', version: 'v1' });
    expect(stepForTool(wipe, OWN, [], ['lat']).args['lat']).toEqual({ text: '${input.lat}', json: true });
    expect(stepIDFor('météo du jour', [])).toBe('meteo-du-jour');
    expect(stepIDFor('2fa', [])).toBe('fa');
    expect(stepIDFor('-', [])).toBe('step');
  });
});

describe('placeholder suggestions', () => {
  it('offers the arguments and only earlier steps, with their output properties', () => {
    const steps = [
      { id: 'geo', tool: { argSchema: {}, outputSchema: geocode.outputSchema } },
      { id: 'w', tool: { argSchema: {}, outputSchema: {} } },
    ];
    expect(placeholderSuggestions(['city'], steps, 1)).toEqual(['input.city', 'steps.geo.value', 'steps.geo.value.lat', 'steps.geo.value.lon']);
    expect(placeholderSuggestions(['city'], steps, 0)).toEqual(['input.city']);
    expect(placeholderSuggestions([], steps)).toContain('steps.w.value');
  });

  it('finds the ${… being typed, narrows the list, and inserts the choice over it', () => {
    expect(openPlaceholder('lat ${steps.g', 13)).toEqual({ start: 4, query: 'steps.g' });
    expect(openPlaceholder('${input.city} ok', 16)).toBeUndefined();
    expect(matchSuggestions(['input.city', 'steps.geo.value', 'steps.geo.value.lat'], 'lat')).toEqual(['steps.geo.value.lat']);
    expect(matchSuggestions(['input.city', 'steps.geo.value'], 'st')).toEqual(['steps.geo.value']);
    expect(insertSuggestion('x ${st} y', 5, 'steps.geo.value')).toEqual({ text: 'x ${steps.geo.value} y', caret: 20 });
    expect(insertSuggestion('x ', 2, 'input.city')).toEqual({ text: 'x ${input.city}', caret: 15 });
  });

  it('classifies placeholders for highlighting: arguments, steps, and unknown ones with a reason', () => {
    const rules = pipelineRules(['city'], ['geo', 'w'], 1);
    expect(rules.classify('input.city')).toBe('arg');
    expect(rules.classify('steps.geo.value.lat')).toBe('step');
    expect(rules.classify('steps.w.value')).toBe('unknown');
    expect(rules.problems('${input.zip} ${steps.w.value}').map((p) => p.message)).toEqual([
      expect.stringMatching(/\$\{input\.zip\} names no argument/),
      expect.stringMatching(/this step's own value/),
    ]);
  });

  it('opens a listbox on ${ and inserts with the keyboard', async () => {
    function Field() {
      const [value, setValue] = useState('');
      return (
        <TemplateInput
          label="lat"
          value={value}
          onChange={setValue}
          ctx={{ args: [] }}
          rules={pipelineRules(['city'], ['geo'], 1)}
          suggestions={['input.city', 'steps.geo.value', 'steps.geo.value.lat']}
          testId="f"
        />
      );
    }
    render(<Field />);
    const input = screen.getByTestId('f') as HTMLInputElement;
    expect(input.getAttribute('role')).toBe('combobox');
    expect(input.getAttribute('aria-expanded')).toBe('false');
    fireEvent.change(input, { target: { value: '${steps', selectionStart: 7 } });
    const list = screen.getByTestId('f-suggestions');
    expect(list.hidden).toBe(false);
    expect(input.getAttribute('aria-expanded')).toBe('true');
    expect([...list.querySelectorAll('[role=option]')].map((o) => o.textContent)).toEqual(['${steps.geo.value}', '${steps.geo.value.lat}']);
    fireEvent.keyDown(input, { key: 'ArrowDown' });
    expect(input.getAttribute('aria-activedescendant')).toBe(list.querySelectorAll('[role=option]')[1]!.id);
    fireEvent.keyDown(input, { key: 'Enter' });
    expect(input.value).toBe('${steps.geo.value.lat}');
    expect(list.hidden).toBe(true);
    // Escape closes without inserting.
    fireEvent.change(input, { target: { value: '${steps.geo.value.lat} ${in', selectionStart: 28 } });
    expect(screen.getByTestId('f-suggestions').hidden).toBe(false);
    fireEvent.keyDown(input, { key: 'Escape' });
    expect(screen.getByTestId('f-suggestions').hidden).toBe(true);
    expect(input.value).toBe('${steps.geo.value.lat} ${in');
    expect(screen.getByTestId('f-problems').textContent).toBe('');
    fireEvent.change(input, { target: { value: '${steps.geo.value.lat} ${zip}', selectionStart: 29 } });
    expect(screen.getByTestId('f-problems').textContent).toMatch(/\$\{zip\} is not a pipeline placeholder/);
    expect(document.querySelector('mark.ph-unknown')!.textContent).toBe('${zip}');
    expect(document.querySelector('mark.ph-step')!.textContent).toBe('${steps.geo.value.lat}');
  });
});

/** A desktop bridge answering the reads the step editor makes. */
function installBridge(tools: ToolView[]) {
  const reply = <T,>(data: T): Promise<Envelope<T>> => Promise.resolve({ ok: true, data });
  window.toolwright = {
    onEvent: () => () => undefined,
    bundlesList: () =>
      reply({
        items: [
          { bundleID: OWN, slug: 'weather', displayName: 'Weather' },
          { bundleID: OTHER, slug: 'admin', displayName: 'Admin' },
        ],
      }),
    toolsList: () => reply({ items: tools.filter((t) => t.bundleID === OWN) }),
    toolsSearch: (input: unknown) => {
      const q = String((input as { q: string }).q).toLowerCase();
      return reply({ items: tools.filter((t) => t.slug.includes(q)).map((t) => ({ ...t, search: { tier: 'prefix', matches: { slug: [q] }, score: 1 } })) });
    },
    toolsGet: (input: unknown) => {
      const i = input as { bundleID: string; slug: string };
      const t = tools.find((x) => x.bundleID === i.bundleID && x.slug === i.slug);
      return Promise.resolve(t ? { ok: true, data: t } : { ok: false, error: { code: 'NOT_FOUND', message: `tool ${i.slug} was not found` } });
    },
  } as never;
}

function renderEditor(initial: PipelineDraft, args: string[] = ['city']) {
  const seen: PipelineDraft[] = [];
  function Host() {
    const [value, setValue] = useState(initial);
    const Editor = pipelineEditorType.Editor;
    // As the tool editor does: what the module checks locally reaches the fields as errors.
    const errors = new Map<string, string>();
    checkPipeline(value, { argNames: args }, (f, m) => m && !errors.has(f) && errors.set(f, m));
    return (
      <Editor
        value={value}
        onChange={(patch) =>
          setValue((v) => {
            const next = { ...v, ...patch };
            seen.push(next);
            return next;
          })
        }
        common={{ argSchemaText: '{}', outputSchemaText: '{}', safety: 'auto', description: '' }}
        onCommon={() => undefined}
        ctx={{ args }}
        errors={errors}
        owner={{ bundleID: OWN }}
      />
    );
  }
  const qc = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  render(
    <QueryClientProvider client={qc}>
      <Host />
    </QueryClientProvider>,
  );
  return { last: () => seen[seen.length - 1]! };
}

describe('the step editor', () => {
  it('adds steps from search, maps arguments, warns about a missing required one, moves and removes steps', async () => {
    installBridge([geocode, wipe]);
    const ed = renderEditor({ steps: [], output: '', timeoutSeconds: '' });
    fireEvent.click(screen.getByTestId('add-step'));
    // Nothing typed: the tools of this bundle.
    await waitFor(() => expect(screen.getByTestId('pick-geocode')).toBeTruthy());
    expect(screen.queryByTestId('pick-wipe')).toBeNull();
    fireEvent.click(screen.getByTestId('pick-geocode'));
    await waitFor(() => expect((screen.getByTestId('step-0-arg-city-input') as HTMLInputElement).value).toBe('${input.city}'));

    // Typed: every bundle, through the search operation.
    fireEvent.click(screen.getByTestId('add-step'));
    fireEvent.change(screen.getByTestId('add-step-picker-input'), { target: { value: 'wipe' } });
    await waitFor(() => expect(screen.getByTestId('pick-wipe')).toBeTruthy());
    fireEvent.keyDown(screen.getByTestId('add-step-picker-input'), { key: 'Enter' });
    await waitFor(() => expect(screen.getByTestId('step-1-tool').textContent).toMatch(/admin\/wipe@v1/));
    expect(ed.last().steps[1]!.tool).toEqual({ bundleID: OTHER, slug: 'wipe', version: 'v1' });
    // The privileged step decides how the pipeline runs.
    await waitFor(() => expect(screen.getByTestId('pipeline-safety').textContent).toMatch(/privileged.*step “wipe”/));

    // A required argument left empty is said at once.
    fireEvent.change(screen.getByTestId('step-0-arg-city-input'), { target: { value: '' } });
    expect(screen.getByTestId('step-0-arg-city').textContent).toMatch(/required by geocode/);
    fireEvent.change(screen.getByTestId('step-1-arg-lat-input'), { target: { value: '${steps.geocode.value.lat}' } });
    expect(ed.last().steps[1]!.args['lat']).toEqual({ text: '${steps.geocode.value.lat}', json: true });

    fireEvent.click(screen.getByRole('button', { name: 'Move step wipe up' }));
    expect(ed.last().steps.map((s) => s.id)).toEqual(['wipe', 'geocode']);
    // Now the moved step reads a later one: flagged where it is typed.
    expect(screen.getByTestId('step-0-arg-lat-input-problems').textContent).toMatch(/runs after this one/);
    // Said once, though both the field and the editor's checks find it.
    expect(screen.getByTestId('step-0-arg-lat').textContent!.match(/runs after this one/g)).toHaveLength(1);
    fireEvent.click(screen.getByTestId('step-0-remove'));
    expect(ed.last().steps.map((s) => s.id)).toEqual(['geocode']);
  });

  it('says when a step names a tool that cannot be loaded', async () => {
    installBridge([geocode]);
    renderEditor(pipelineFromImpl({ steps: [{ id: 'gone', tool: { slug: 'missing', version: 'v2' } }] }));
    await waitFor(() => expect(screen.getByTestId('step-0').textContent).toMatch(/missing v2 cannot be loaded: tool missing was not found/));
  });
});

describe('the run timeline', () => {
  const steps: PipelineStepRecord[] = [
    { id: 'geo', tool: { bundleID: OWN, slug: 'geocode', version: 'v1' }, status: 'ok', args: { city: 'Oslo' }, value: { lat: 59.9 }, durationMs: 42 },
    {
      id: 'w',
      tool: { bundleID: OTHER, slug: 'wipe', version: 'v1' },
      status: 'error',
      args: {},
      error: { code: 'UPSTREAM_ERROR', message: 'no' },
      durationMs: 3,
    },
    { id: 'last', tool: { bundleID: OWN, slug: 'x', version: 'v1' }, status: 'skipped' },
  ];

  it('shows each step with its tool, status, duration, arguments and value or error', async () => {
    installBridge([]);
    const qc = new QueryClient();
    render(
      <QueryClientProvider client={qc}>
        <PipelineTimeline steps={steps} />
      </QueryClientProvider>,
    );
    await waitFor(() => expect(screen.getByTestId('timeline-step-geo').textContent).toMatch(/weather\/geocode@v1/));
    expect(screen.getByTestId('timeline-step-geo').textContent).toMatch(/ok42 ms/);
    expect(screen.getByTestId('timeline-step-w').textContent).toMatch(/UPSTREAM_ERROR no/);
    expect(screen.getByTestId('timeline-step-w').querySelector('details')!.open).toBe(true);
    expect(screen.getByTestId('timeline-step-last').getAttribute('data-status')).toBe('skipped');
    expect(screen.getByTestId('pipeline-timeline').textContent).toMatch(/1 of 3 done/);
  });

  it('shows steps running side by side in their declared places, however they started', async () => {
    installBridge([]);
    const planned = steps.map(({ id, tool }) => ({ id, tool }));
    // Read-only steps run at once: "last" started before "geo", and "w" has not started.
    const live: PipelineStepRecord[] = [
      { ...steps[2]!, status: 'running' },
      { ...steps[0]!, status: 'running' },
    ];
    const qc = new QueryClient();
    render(
      <QueryClientProvider client={qc}>
        <PipelineTimeline steps={live} planned={planned} live testId="pipeline-timeline-live" />
      </QueryClientProvider>,
    );
    const rows = () => [...screen.getByTestId('pipeline-timeline-live').querySelectorAll('li')].map((li) => `${li.dataset.testid}:${li.dataset.status}`);
    expect(rows()).toEqual(['timeline-step-geo:running', 'timeline-step-w:waiting', 'timeline-step-last:running']);
    expect(screen.getByTestId('pipeline-timeline-live').textContent).toMatch(/0 of 3 done so far/);
  });

  it('grows live in the tester from the step events of a streamed run, then shows the result', async () => {
    const { Tester } = await import('../../renderer/src/features/tools/tester/Tester.js');
    const { ConfirmProvider } = await import('../../renderer/src/components/Dialog.js');
    const { ToastProvider } = await import('../../renderer/src/components/Toasts.js');
    let send: (e: InvokeStreamEvent) => void = () => undefined;
    let finish: (v: Envelope<unknown>) => void = () => undefined;
    window.toolwright = {
      onEvent: () => () => undefined,
      bundlesList: () => Promise.resolve({ ok: true, data: { items: [] } }),
      toolsHistory: () => Promise.resolve({ ok: true, data: { items: [] } }),
      // The desktop bridge of a streamed invoke: events while it runs, the envelope at the end.
      toolsInvokeStream: (_input: unknown, onEvent: (e: InvokeStreamEvent) => void) => {
        send = onEvent;
        return new Promise((r) => (finish = r));
      },
    } as never;
    const pipeline = toolView('brief', {
      type: 'pipeline',
      argSchema: { type: 'object', properties: {} },
      impl: {
        steps: [
          { id: 'geo', tool: { slug: 'geocode', version: 'v1' } },
          { id: 'w', tool: { bundleID: OTHER, slug: 'wipe', version: 'v1' } },
          { id: 'last', tool: { slug: 'x', version: 'v1' } },
        ],
      },
    });
    const qc = new QueryClient();
    render(
      <QueryClientProvider client={qc}>
        <ToastProvider>
          <ConfirmProvider>
            <Tester tool={pipeline} />
          </ConfirmProvider>
        </ToastProvider>
      </QueryClientProvider>,
    );
    await act(async () => fireEvent.click(screen.getByTestId('run')));
    await act(async () => {
      send({ type: 'step', step: { ...steps[0]!, status: 'running' } });
      send({ type: 'step', step: steps[0]! });
      send({ type: 'step', step: { ...steps[1]!, status: 'running' } });
      await new Promise((r) => setTimeout(r, 50)); // events are drawn once per frame
    });
    // The steps not started yet are announced from the pipeline's own definition.
    await waitFor(() => expect(screen.getByTestId('pipeline-timeline-live').textContent).toMatch(/1 of 3 done so far/));
    expect(screen.getByTestId('timeline-step-w').getAttribute('data-status')).toBe('running');
    expect(screen.getByTestId('timeline-step-last').getAttribute('data-status')).toBe('waiting');
    await act(async () => finish({ ok: true, data: { ok: true, invocationID: 'x', durationMs: 50, value: 1, steps: [steps[0]!] } }));
    await waitFor(() => expect(screen.getByTestId('pipeline-timeline').textContent).toMatch(/1 of 1 done/));
    expect(screen.queryByTestId('pipeline-timeline-live')).toBeNull();
  });
});
