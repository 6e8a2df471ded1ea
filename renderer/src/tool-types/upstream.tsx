/**
 * The editor module of the upstream type (`mcp` tools): a tool of an upstream MCP server. Its name, description and
 * schemas are the server's definition a person accepted (pinned by hash), so there is nothing of
 * the impl to edit here; a sync makes these tools, and a changed definition is reviewed, not typed.
 */
import type { EditorTypeModule, ImplEditorProps } from './editor-type.js';
import { str } from './editor-type.js';

export interface UpstreamDraft {
  tool: string;
  definitionHash: string;
}

function UpstreamImplEditor({ value }: ImplEditorProps<UpstreamDraft>) {
  return (
    <fieldset className="fieldset" disabled>
      <legend>Upstream MCP server</legend>
      <p className="muted">
        The tool <code className="mono">{value.tool || '(unnamed)'}</code> of this bundle&apos;s MCP server. Its description and schemas are the definition a
        person accepted, pinned by its hash <code className="mono">{value.definitionHash.slice(7, 19) || '—'}</code>; a change on the server is shown for review
        and never applied on its own.
      </p>
    </fieldset>
  );
}

export const upstreamEditorType: EditorTypeModule<'mcp', UpstreamDraft> = {
  type: 'mcp',
  label: 'MCP server tool',
  creatable: false,
  empty: () => ({ tool: '', definitionHash: '' }),
  fromImpl: (impl) => ({ tool: str(impl['tool']), definitionHash: str(impl['definitionHash']) }),
  toImpl: (d) => ({ tool: d.tool, definitionHash: d.definitionHash }),
  check: () => undefined,
  fields: ['impl.tool', 'impl.definitionHash'],
  Editor: UpstreamImplEditor,
};
