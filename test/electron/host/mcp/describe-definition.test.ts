/**
 * The MCP Tool object tools/list answers with and the definition the context cost counts are one
 * mapping (core/agents/mcp-tool.ts): for a plain tool, one with an outputSchema and a card app,
 * and a privileged one, describeTool gives the counted object plus only the icons.
 */
import { afterEach, expect, it } from 'vitest';
import { v7 as uuidv7 } from 'uuid';
import { agentTools } from '../../../../electron/core/agents/agent-tools.js';
import { RESOURCE_URI_META_KEY, mcpToolDefinition } from '../../../../electron/core/agents/mcp-tool.js';
import { describeTool } from '../../../../electron/core/agent-surface/definitions.js';
import { functionTool, openTestStore, type TestStore } from '../../../helpers/store.js';

let t: TestStore | undefined;
afterEach(async () => {
  await t?.cleanup();
  t = undefined;
});

it('describeTool is the counted definition plus icons', async () => {
  t = await openTestStore();
  const bundleID = uuidv7();
  await t.bundles.put(bundleID, { slug: 'mix' });
  await t.tools.create({ bundleID, slug: 'plain', version: 'v1' }, functionTool({ description: '' }));
  await t.tools.create(
    { bundleID, slug: 'rich', version: 'v1' },
    functionTool({
      outputSchema: { type: 'object', properties: { n: { type: 'number' } } },
      card: { enabled: true },
      extensions: { x: { icon: 'data:image/png;base64,iVBORw0KGgo=' } },
    }),
  );
  await t.tools.create({ bundleID, slug: 'wipe', version: 'v1' }, functionTool({ safety: 'privileged' }));
  const listed = agentTools(t.store.reader, t.tools);
  expect(listed).toHaveLength(3);
  for (const tool of listed) {
    const { icons: _icons, ...described } = describeTool(tool);
    expect(described).toEqual(mcpToolDefinition(tool));
    expect(Object.keys(described)).toEqual(Object.keys(mcpToolDefinition(tool)));
  }
});

it("the flat key of a tool's card app is ext-apps' own (core spells it out so a listing does not load the MCP SDK)", async () => {
  const extApps = await import('@modelcontextprotocol/ext-apps/server');
  expect(RESOURCE_URI_META_KEY).toBe(extApps.RESOURCE_URI_META_KEY);
});
