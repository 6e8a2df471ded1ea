/** The editor module of `container` tools: an image or a build from the tool's folder (its files edited and built here), and the sandbox. */
import { Field, TextField } from '../components/Field.js';
import { CONTAINER_DEFAULTS } from '../../../shared/tool-types/constants.js';
import { ContainerFolder } from './container/ContainerFolder.js';
import { NamedImageStatus } from './container/NamedImageStatus.js';
import { compact, numberIssue, optInt, str, type EditorTypeModule, type ImplEditorProps, type SetIssue } from './editor-type.js';

export interface ContainerDraft {
  source: 'image' | 'build';
  image: string;
  memory: string;
  network: 'none' | 'bridge';
  writable: boolean;
  cpus: string;
  timeoutSeconds: string;
}

function emptyContainer(): ContainerDraft {
  return { source: 'image', image: '', memory: '', network: 'none', writable: false, cpus: '', timeoutSeconds: '' };
}

function containerFromImpl(impl: Record<string, unknown>): ContainerDraft {
  const sb = (impl['sandbox'] ?? {}) as Record<string, unknown>;
  return {
    source: impl['build'] === '.' ? 'build' : 'image',
    image: str(impl['image']),
    memory: str(sb['memory']),
    network: (sb['network'] as 'none' | 'bridge') ?? 'none',
    writable: sb['writable'] === true,
    cpus: str(sb['cpus']),
    timeoutSeconds: str(impl['timeoutSeconds']),
  };
}

function containerToImpl(c: ContainerDraft): Record<string, unknown> {
  const memory = c.memory.trim() === '' ? undefined : /^\d+$/.test(c.memory.trim()) ? Number(c.memory.trim()) : c.memory.trim();
  return compact({
    ...(c.source === 'image' ? { image: c.image.trim() } : { build: '.' }),
    sandbox: compact({ memory, network: c.network, writable: c.writable, cpus: optInt(c.cpus) }),
    timeoutSeconds: optInt(c.timeoutSeconds),
  });
}

function checkContainer(c: ContainerDraft, _ctx: unknown, set: SetIssue): void {
  if (c.source === 'image' && !/^[A-Za-z0-9][A-Za-z0-9._/:@-]*$/.test(c.image.trim()))
    set('impl.image', 'give an image reference such as alpine:3.20 or registry.example.com/tool@sha256:…');
  if (c.memory.trim() && !/^[0-9]+(\.[0-9]+)?[kKmMgG]?[bB]?$/.test(c.memory.trim())) set('impl.sandbox', 'memory: megabytes (256) or with a unit (256m, 1g)');
  set('impl.sandbox', numberIssue(c.cpus, 0, 64) && `cpus: ${numberIssue(c.cpus, 0, 64)}`);
  set('impl.timeoutSeconds', numberIssue(c.timeoutSeconds, 0, 3600));
}

function ContainerImplEditor({ value, onChange, errors, readOnly, tool }: ImplEditorProps<ContainerDraft>) {
  const c = value;
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>Container</legend>
      <div className="radio-row" role="radiogroup" aria-label="Container source">
        <label className="check">
          <input type="radio" name="container-source" checked={c.source === 'image'} onChange={() => onChange({ source: 'image' })} /> Image
        </label>
        <label className="check">
          <input type="radio" name="container-source" checked={c.source === 'build'} onChange={() => onChange({ source: 'build' })} /> Build from the tool's
          folder (Dockerfile)
        </label>
      </div>
      {c.source === 'image' ? (
        <Field label="Image" error={errors.get('impl.image')}>
          {(id) => (
            <>
              <input
                id={id}
                className="input mono"
                value={c.image}
                onChange={(e) => onChange({ image: e.target.value })}
                placeholder="alpine:3.20"
                data-testid="container-image"
              />
              {tool && (tool.impl as { image?: string }).image === c.image.trim() && <NamedImageStatus tool={tool} />}
            </>
          )}
        </Field>
      ) : (
        errors.get('impl.build') && <p className="field-error">{errors.get('impl.build')}</p>
      )}
      <div className="row wrap">
        <TextField
          label="Memory"
          className="w-mid"
          hint="256 (MB) or 512m, 1g"
          value={c.memory}
          onValue={(v) => onChange({ memory: v })}
          placeholder={CONTAINER_DEFAULTS.memory}
        />
        <TextField
          label="CPUs"
          className="w-narrow"
          inputMode="decimal"
          value={c.cpus}
          onValue={(v) => onChange({ cpus: v })}
          placeholder={String(CONTAINER_DEFAULTS.cpus)}
        />
        <Field label="Network" className="w-mid">
          {(id) => (
            <select id={id} className="input" value={c.network} onChange={(e) => onChange({ network: e.target.value as 'none' | 'bridge' })}>
              <option value="none">None (isolated)</option>
              <option value="bridge">Bridge (internet)</option>
            </select>
          )}
        </Field>
        <TextField
          label="Timeout (s)"
          className="w-narrow"
          error={errors.get('impl.timeoutSeconds')}
          inputMode="decimal"
          value={c.timeoutSeconds}
          onValue={(v) => onChange({ timeoutSeconds: v })}
          placeholder={String(CONTAINER_DEFAULTS.timeoutSeconds)}
        />
      </div>
      <label className="check">
        <input type="checkbox" checked={c.writable} onChange={(e) => onChange({ writable: e.target.checked })} /> Writable root file system
      </label>
      {errors.get('impl.sandbox') && <div className="field-error">{errors.get('impl.sandbox')}</div>}
      {c.source === 'build' && (
        <ContainerFolder
          tool={tool?.type === 'container' ? tool : undefined}
          builds={(tool?.impl as { build?: string } | undefined)?.build === '.'}
          readOnly={readOnly}
        />
      )}
    </fieldset>
  );
}

export const containerEditorType: EditorTypeModule<'container', ContainerDraft> = {
  type: 'container',
  label: 'Container',
  // Built from its folder, a new tool has no Dockerfile yet.
  writeFilesAfterCreate: (impl) => impl['build'] === '.',
  empty: emptyContainer,
  fromImpl: containerFromImpl,
  toImpl: containerToImpl,
  check: checkContainer,
  fields: ['impl.image', 'impl.build', 'impl.sandbox', 'impl.timeoutSeconds'],
  Editor: ContainerImplEditor,
};
