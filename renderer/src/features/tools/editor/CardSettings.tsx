/** Card settings with a live preview of the title (placeholders filled from example arguments) and colours. */
import { CardFrame } from '../../card/CardFrame.js';
import { Field } from '../../../components/Field.js';
import { TemplateInput, type PlaceholderContext } from './TemplateInput.js';
import { fillCardTitle } from '../../../../../shared/template.js';
import { parseColor, withPickedColor } from './color.js';
import type { ToolDraft } from './draft.js';
import './CardSettings.css';

type Card = ToolDraft['card'];

/** Example arguments for the preview: each property's default, first example or its name. */
export function exampleArgs(argSchemaText: string): Record<string, unknown> {
  try {
    const schema = JSON.parse(argSchemaText) as { properties?: Record<string, { default?: unknown; examples?: unknown[] }> };
    return Object.fromEntries(Object.entries(schema.properties ?? {}).map(([k, p]) => [k, p?.default ?? p?.examples?.[0] ?? `‹${k}›`]));
  } catch {
    return {};
  }
}

/** A colour field: the swatch shows the colour as written (alpha over a checkerboard) and opens the picker. */
function ColorField({ label, value, onChange, error, testId }: { label: string; value: string; onChange(v: string): void; error?: string; testId?: string }) {
  const parts = parseColor(value);
  // Names and hsl() are shown as the browser reads them; the picker then starts from the default.
  const shown = parts || (value.trim() && typeof CSS !== 'undefined' && CSS.supports('color', value.trim())) ? value.trim() : 'transparent';
  return (
    <Field label={label} className="w-mid" error={error}>
      {(id, d) => (
        <div className="color-field">
          <span className="color-swatch" data-testid={testId ? `${testId}-swatch` : undefined}>
            <span className="color-swatch-fill" style={{ background: shown }} />
            <input
              type="color"
              aria-label={`${label} picker`}
              value={parts?.hex ?? '#4a90d4'}
              onChange={(e) => onChange(withPickedColor(value, e.target.value))}
              className="color-swatch-input"
            />
          </span>
          <input
            id={id}
            aria-describedby={d}
            className="input mono"
            value={value}
            onChange={(e) => onChange(e.target.value)}
            placeholder="#4a90d4"
            data-testid={testId}
          />
        </div>
      )}
    </Field>
  );
}

export function CardSettings({
  card,
  onChange,
  ctx,
  argSchemaText,
  errors,
  readOnly,
}: {
  card: Card;
  onChange(p: Partial<Card>): void;
  ctx: PlaceholderContext;
  argSchemaText: string;
  errors: ReadonlyMap<string, string>;
  readOnly?: boolean;
}) {
  return (
    <fieldset className="fieldset" disabled={readOnly}>
      <legend>Card</legend>
      <label className="check">
        <input type="checkbox" checked={card.enabled} onChange={(e) => onChange({ enabled: e.target.checked })} data-testid="card-enabled" /> Show results as a
        card
      </label>
      <div className="card-settings">
        <div className="card-settings-fields">
          <div className="field">
            <label className="field-label" htmlFor="card-title">
              Title
            </label>
            <TemplateInput
              id="card-title"
              label="Card title"
              syntax="mustache"
              value={card.title}
              onChange={(v) => onChange({ title: v })}
              ctx={ctx}
              serverError={errors.get('card.title')}
              readOnly={readOnly}
              placeholder="Weather in {{city}}"
              testId="card-title"
            />
          </div>
          <div className="row wrap">
            <ColorField
              label="Accent colour"
              value={card.accentColor}
              onChange={(v) => onChange({ accentColor: v })}
              error={errors.get('card.accentColor')}
              testId="card-accent"
            />
            <ColorField
              label="Background"
              value={card.backgroundColor}
              onChange={(v) => onChange({ backgroundColor: v })}
              error={errors.get('card.backgroundColor')}
              testId="card-background"
            />
          </div>
        </div>
        <div className="card-preview" aria-label="Card preview">
          <div className="field-label">Preview</div>
          <CardFrame
            title={fillCardTitle(card.title, exampleArgs(argSchemaText))}
            accentColor={card.accentColor}
            backgroundColor={card.backgroundColor}
            html="<p>The tool's card appears here.</p>"
            testId="card-preview"
          />
        </div>
      </div>
    </fieldset>
  );
}
