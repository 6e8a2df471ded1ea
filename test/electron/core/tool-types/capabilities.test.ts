/**
 * What generic code asks a type module instead of naming the type (docs/architecture.md, "How to
 * add… a tool type"): build files, hosts called, import warnings, transfer hooks, and the
 * renderer's editor wording. Each answer is the behaviour the generic code had when it compared
 * type names.
 */
import { describe, expect, it } from 'vitest';
import { secretNamesOf, toolTypeModule, typesWith } from '../../../../electron/core/tool-types/registry.js';
import { EDITOR_TYPES } from '../../../../renderer/src/tool-types/registry.js';
import type { ToolFile } from '../../../../shared/schemas.js';

const file = (type: ToolFile['type'], impl: Record<string, unknown>) => ({ type, slug: 'probe', version: '1.0.0', impl }) as unknown as ToolFile;

describe('core type capabilities', () => {
  it("a tool's secret names are worked out once per stored file object, and anew when the file changes", () => {
    const stored = { ...file('http', { method: 'GET', urlTemplate: 'https://api.example.com/?key=${API_KEY}' }), argSchema: { type: 'object' } } as ToolFile;
    const first = secretNamesOf(stored);
    expect(first).toEqual(['API_KEY']);
    // The same object again: the same frozen answer, no second parse of the templates.
    expect(secretNamesOf(stored)).toBe(first);
    expect(Object.isFrozen(first)).toBe(true);
    // The store replaces a tool's object when its file changes: the new version is asked afresh.
    const edited = { ...stored, impl: { method: 'GET', urlTemplate: 'https://api.example.com/?token=${OTHER_TOKEN}' } } as ToolFile;
    expect(secretNamesOf(edited)).toEqual(['OTHER_TOKEN']);
    expect(secretNamesOf(file('function', { name: 'echo' }))).toEqual([]);
  });

  it('only container tools keep build files, and one built from its folder needs them next', () => {
    expect(typesWith((m) => m.buildFiles)).toEqual(['container']);
    expect(toolTypeModule('container').buildFiles?.buildsFromFolder({ build: '.' } as never)).toBe(true);
    expect(toolTypeModule('container').buildFiles?.buildsFromFolder({ image: 'alpine:3' } as never)).toBe(false);
  });

  it('an http tool names the literal hosts it calls (URL and OAuth token URL); other types none', () => {
    const http = {
      method: 'GET',
      urlTemplate: 'https://api.example.com/{{q}}',
      auth: { type: 'oauth2ClientCredentials', tokenUrl: 'https://id.example.org/token' },
    };
    expect(toolTypeModule('http').hostsCalled?.(http as never)).toEqual(['api.example.com', 'id.example.org']);
    expect(typesWith((m) => m.hostsCalled)).toEqual(['http']);
  });

  it('a container built from its folder arriving without a Dockerfile is imported with a warning', () => {
    const warn = toolTypeModule('container').importWarnings!;
    expect(warn(file('container', { build: '.' }) as never, [{ rel: 'run.sh' }])).toEqual([
      'probe 1.0.0 builds its image from its folder, but the archive holds no Dockerfile for it; it stays unavailable until one is added',
    ]);
    expect(warn(file('container', { build: '.' }) as never, [{ rel: 'Dockerfile' }])).toEqual([]);
    expect(warn(file('container', { image: 'alpine:3' }) as never, [])).toEqual([]);
  });

  it('a pipeline names the bundles its steps call into and carries their slugs when exported', () => {
    const hooks = toolTypeModule('pipeline').transfer!;
    const impl = {
      steps: [
        { id: 'a', tool: { bundleID: 'B1', slug: 's', version: '1' } },
        { id: 'b', tool: { slug: 't', version: '1' } },
      ],
    };
    expect(hooks.calledBundles!(impl as never)).toEqual(['B1']);
    const out = hooks.exported!(impl as never, (id) => (id === 'b1' ? ({ slug: 'maths' } as never) : undefined)) as typeof impl;
    expect(out.steps[0]!.tool).toEqual({ bundleID: 'B1', slug: 's', version: '1', bundleSlug: 'maths' });
    expect(out.steps[1]).toBe(impl.steps[1]);
    expect(typesWith((m) => m.transfer)).toEqual(['pipeline']);
  });
});

describe('renderer editor type capabilities', () => {
  it('a new container built from its folder opens on its files; others go to the tool page', () => {
    expect(EDITOR_TYPES.container.writeFilesAfterCreate?.({ build: '.' })).toBe(true);
    expect(EDITOR_TYPES.container.writeFilesAfterCreate?.({ image: 'alpine:3' })).toBe(false);
    expect(EDITOR_TYPES.http.writeFilesAfterCreate).toBeUndefined();
  });

  it("a pipeline's automatic safety is its most dangerous step's; other types' come from the type", () => {
    expect(EDITOR_TYPES.pipeline.safetyAutoLabel).toBe('Automatic (its most dangerous step)');
    expect(EDITOR_TYPES.function.safetyAutoLabel).toBeUndefined();
  });
});
